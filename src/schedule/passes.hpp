// What the fuser's files (fuser.cpp, lower.cpp, index_layout.cpp) share: the state the passes
// build up, and the passes defined outside fuser.cpp. They run in make_plan's order (plan.hpp).
#pragma once
#include <unordered_map>
#include <unordered_set>

#include "schedule/plan.hpp"
#include "schedule/view_chain.hpp"

namespace ndfuse::schedule {

using node_ptr = std::shared_ptr<ir::node>;

struct pending_info {
  node_ptr node;
  int plan_refs = 0;  // references from inputs of pending nodes
  int root_refs = 0;  // times it is a root of the plan
  long use = 0;       // its use_count before the plan copied it
  bool target = false;
  // Read through a reshape its leaves' strides cannot express: it must be in memory before the
  // reading kernel starts, so it never shares that kernel.
  bool before_readers = false;
  int group = -1;  // kernel step that writes it
  // The reduce (or scan) node whose kernel computes this node: the node itself, or, for an
  // elementwise node of the reduction's output shape fed by it, the kernel's epilogue.
  const ir::node* home = nullptr;
  // The reduction whose output this node reads at other indices than its own (through a view or a
  // gather, perhaps further up): it can never join that reduction's epilogue.
  const ir::node* shifted = nullptr;
};

// What the passes share. Nodes are keyed by address; `order` is a topological order of the
// pending (unmaterialized) nodes, leaves of materialized nodes excluded.
struct fuse_state {
  std::vector<node_ptr> order;
  view_chains chains;
  std::unordered_map<const ir::node*, pending_info> pending;
  std::unordered_map<const ir::node*, int> leaf_refs;  // materialized node -> in-plan references
  std::unordered_map<const ir::node*, long> leaf_use;  // its use_count before the plan copied it
  std::unordered_map<const ir::node*, std::unordered_set<int>> leaf_steps;  // steps reading it
  std::vector<std::vector<node_ptr>> groups;
};

inline bool is_reduction(const ir::node* n) {
  return n->op == ir::op_code::reduce || n->op == ir::op_code::scan;
}
inline bool is_library(const ir::node* n) {
  return n->op == ir::op_code::library;
}

// Prints the pass's name when NDFUSE_DEBUG >= 2.
void trace_pass(const char* name);

// make_plan without the memo (plan_memo.cpp): every pass, in order.
plan plan_from_passes(std::span<const node_ptr> roots);

// Scalar multiplies and added matrices around a matrix product become GEMM's alpha and beta
// (gemm_epilogue.cpp).
void fold_into_gemm(fuse_state& s);
// Builds each group's kernel IR (or library call) and its launch operands (lower.cpp).
void lower_to_kernel_ir(fuse_state& s, plan& p);
// Drops size-1 dimensions and merges neighbours every operand walks contiguously.
void collapse_dimensions(plan& p);
// Each kernel input's index class and the index width.
void classify_indices(plan& p);

}  // namespace ndfuse::schedule
