// The fuser: DAG -> ordered kernel steps. See plan.hpp for the pass list.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ndfuse/error.hpp"
#include "schedule/passes.hpp"
#include "schedule/plan.hpp"
#include "schedule/view_chain.hpp"
#include "support/hash.hpp"
#include "support/log.hpp"

namespace ndfuse::schedule {

void trace_pass(const char* name) {
  if (support::logging(2)) support::log_line(std::string("pass ") + name);
}

namespace {

void visit(const node_ptr& n, fuse_state& s) {
  if (n->materialized()) {
    if (!s.leaf_use.count(n.get())) s.leaf_use[n.get()] = n.use_count();
    return;
  }
  if (s.pending.count(n.get())) return;
  auto& info = s.pending[n.get()];
  info.use = n.use_count();
  info.node = n;
  for (const auto& in : n->inputs) {
    if (in->materialized()) {
      s.leaf_refs[in.get()]++;
      if (!s.leaf_use.count(in.get())) s.leaf_use[in.get()] = in.use_count();
    }
    visit(in, s);
    if (!in->materialized()) s.pending[in.get()].plan_refs++;
  }
  s.order.push_back(n);
}

void collect_pending(std::span<const node_ptr> roots, fuse_state& s) {
  trace_pass("collect_pending");
  s.pending.reserve(32);
  s.leaf_refs.reserve(8);
  s.leaf_use.reserve(8);
  for (const auto& r : roots) visit(r, s);
}

// Roots, and every node a user handle still holds, are written; nothing else is.
void choose_outputs(std::span<const node_ptr> roots, fuse_state& s) {
  trace_pass("choose_outputs");
  for (const auto& r : roots)
    if (!r->materialized()) {
      s.pending[r.get()].target = true;
      s.pending[r.get()].root_refs++;
    }
  for (auto& [ptr, info] : s.pending)
    if (info.node->handles > 0) info.target = true;
}

// A reduction ends a kernel. An elementwise node of the reduction's output shape that reads it
// (and no other reduction) joins that kernel's epilogue, so mean's divide and norm's sqrt cost no
// extra launch. Anything else that reads a reduction's result reads it from memory: the node
// producing it becomes a target. A scan has no epilogue.
void attach_epilogues(fuse_state& s) {
  trace_pass("attach_epilogues");
  for (const auto& n : s.order) {
    auto& info = s.pending.at(n.get());
    auto homed_input = [&](const node_ptr& in) -> pending_info* {
      if (in->materialized()) return nullptr;
      auto& i = s.pending.at(in.get());
      return i.home ? &i : nullptr;
    };
    if (is_reduction(n.get())) {
      info.home = n.get();
      for (const auto& in : n->inputs)
        if (auto* i = homed_input(in)) i->target = true;
      continue;
    }
    if (is_library(n.get())) {
      // A step of its own, reading every operand from memory and written to memory.
      info.home = n.get();
      info.target = true;
      for (const auto& in : n->inputs)
        if (!in->materialized()) s.pending.at(in.get()).target = true;
      continue;
    }
    // A view or a gather reads its input at other indices than its own: never an epilogue, which
    // computes each output from the reduction's value at that output only.
    const bool remaps = n->op == ir::op_code::view || n->op == ir::op_code::gather;
    const ir::node* home = nullptr;
    bool single = !remaps;
    for (const auto& in : n->inputs) {
      if (in->materialized()) continue;
      const auto& i = s.pending.at(in.get());
      if (i.home) {
        single = single && (!home || home == i.home);
        home = i.home;
        if (remaps) info.shifted = i.home;
      } else if (i.shifted) {
        info.shifted = i.shifted;
      }
    }
    if (!home) continue;
    if (single && info.shifted != home && home->op == ir::op_code::reduce && n->shape == home->shape) {
      info.home = home;
      continue;
    }
    for (const auto& in : n->inputs)
      if (auto* i = homed_input(in)) i->target = true;
  }
}

// Whether every leaf that `n` (seen through `chain`) reads can be reshaped from `top`'s shape to
// `to` with strides alone.
bool reshapes_without_copy(const node_ptr& n, int chain, const ir::node* top, const shape_t& to,
                           fuse_state& s, std::unordered_set<node_in_chain, node_in_chain_hash>& seen) {
  if (!seen.insert({n.get(), chain}).second) return true;
  std::vector<std::int64_t> strides;
  std::int64_t offset = 0;
  if (n->materialized()) {
    strides = n->strides;
  } else if ((s.pending.at(n.get()).target || is_reduction(n.get()) || is_library(n.get())) &&
             n.get() != top) {
    strides = ir::contiguous_strides(n->shape);
  } else if (n->op == ir::op_code::iota || n->op == ir::op_code::random) {
    strides = n->params().iota.coeffs;
  } else if (n->op == ir::op_code::scalar) {
    return true;
  } else {
    const int inner = n->op == ir::op_code::view ? s.chains.push(chain, n.get()) : chain;
    for (const auto& in : n->inputs)
      if (!reshapes_without_copy(in, inner, top, to, s, seen)) return false;
    return true;
  }
  shape_t shape = n->shape;
  if (!through_views(s.chains.chain[chain], shape, strides, offset)) return false;
  std::vector<std::int64_t> out;
  return ir::reshape_strides(top->shape, ir::broadcast_strides(shape, strides, top->shape), to, out);
}

// Reads the fused kernel cannot compute in place are read from memory written by an earlier kernel:
// - a reshape of an unevaluated node is pushed down to that node's leaves like any view, but where a
//   leaf's strides cannot express it (a transposed buffer flattened, a broadcast tiled), NumPy would
//   copy: the reshaped node is written first and the reshape then views that buffer;
// - a gather reads its source at data-dependent offsets, so the source must be in memory, and so
//   must a user kernel's raw input, which its body indexes.
void split_memory_reads(fuse_state& s) {
  trace_pass("split_memory_reads");
  for (const auto& n : s.order) {
    if (n->op == ir::op_code::gather && !n->inputs[0]->materialized()) {
      auto& info = s.pending.at(n->inputs[0].get());
      info.target = info.before_readers = true;
      continue;
    }
    if (n->op == ir::op_code::user) {
      // A raw input is read by the body at any index: from memory, written by an earlier kernel.
      const auto& params = n->params().user->in;
      for (std::size_t k = 0; k < params.size(); ++k)
        if (params[k].raw && !n->inputs[k]->materialized()) {
          auto& info = s.pending.at(n->inputs[k].get());
          info.target = info.before_readers = true;
        }
      continue;
    }
    if (n->op != ir::op_code::view || !n->params().view.reshape) continue;
    const auto& x = n->inputs[0];
    if (x->materialized())
      continue;  // a held (target) x is checked too: it must not share the reader's kernel
    std::unordered_set<node_in_chain, node_in_chain_hash> seen;
    if (!reshapes_without_copy(x, 0, x.get(), n->shape, s, seen)) {
      auto& info = s.pending.at(x.get());
      info.target = info.before_readers = true;
    }
  }
}

// The targets reachable from n through pending non-target nodes.
void target_deps(const ir::node* n, const fuse_state& s, std::unordered_set<const ir::node*>& out,
                 std::unordered_set<const ir::node*>& seen) {
  for (const auto& in : n->inputs) {
    if (in->materialized() || !seen.insert(in.get()).second) continue;
    const auto& info = s.pending.at(in.get());
    if (info.target)
      out.insert(in.get());
    else
      target_deps(in.get(), s, out, seen);
  }
}

// Targets share a kernel when they share a reduction (its outputs and epilogue), or, without one,
// an iteration shape.
bool same_kernel(const fuse_state& s, const ir::node* a, const ir::node* b) {
  const ir::node* ha = s.pending.at(a).home;
  const ir::node* hb = s.pending.at(b).home;
  return ha == hb && (ha || a->shape == b->shape);
}

// A target that needs another kernel's target waits for that kernel (it then reads the buffer).
// Topological order keeps this acyclic.
void group_by_iteration_space(fuse_state& s) {
  trace_pass("group_by_iteration_space");
  std::vector<const ir::node*> targets;
  for (const auto& n : s.order)
    if (s.pending.at(n.get()).target) targets.push_back(n.get());
  std::unordered_map<const ir::node*, std::unordered_set<const ir::node*>> deps;
  for (auto t : targets) {
    std::unordered_set<const ir::node*> seen;
    target_deps(t, s, deps[t], seen);
  }
  std::size_t remaining = targets.size();
  while (remaining > 0) {
    int g = static_cast<int>(s.groups.size());
    s.groups.emplace_back();
    const ir::node* first = nullptr;
    for (auto t : targets) {
      auto& info = s.pending.at(t);
      if (info.group >= 0) continue;
      if (first && !same_kernel(s, first, t)) continue;
      bool ready = true;
      for (auto d : deps[t]) {
        int dg = s.pending.at(d).group;
        const bool shared = dg == g && same_kernel(s, d, t) && !s.pending.at(d).before_readers;
        ready = ready && dg >= 0 && (dg < g || shared);
      }
      if (!ready) {
        if (!first) throw error("fuser: internal error, no target is ready");
        continue;
      }
      first = first ? first : t;
      info.group = g;
      s.groups.back().push_back(info.node);
      --remaining;
    }
  }
}

// Reductions: full when nothing is kept; otherwise inner when the input's last axis (of extent > 1)
// is reduced, so threads of a block share a row, and outer when it is kept, so neighbouring
// threads take neighbouring outputs. The choice follows the logical shape, not the strides: the
// fold order then depends on sizes alone, and a fused reduction gives the same bits as an eager one.
void choose_reduce_strategy(fuse_state& s, plan& p) {
  trace_pass("choose_reduce_strategy");
  for (std::size_t g = 0; g < p.steps.size(); ++g) {
    auto& step = p.steps[g];
    auto& red = step.kernel.reduction;
    if (!red || red->strategy == ir::reduce_strategy::scan) continue;
    if (red->kept_ndim == 0) {
      red->strategy = ir::reduce_strategy::full;
      continue;
    }
    const ir::node* home = s.pending.at(s.groups[g].front().get()).home;
    const shape_t& shape = home->inputs[0]->shape;
    bool last_reduced = true;
    for (std::size_t a = shape.size(); a-- > 0;)
      if (shape[a] > 1) {
        last_reduced = home->reduction.axes >> a & 1;
        break;
      }
    red->strategy = last_reduced ? ir::reduce_strategy::inner : ir::reduce_strategy::outer;
  }
}

// Leaves that a node outside the plan reaches through nodes the plan does not write: that node
// recomputes from the leaf later (b = a * 2; c = b + 1; d = sum(b): evaluating c must keep a).
std::unordered_set<const ir::node*> leaves_read_later(const fuse_state& s) {
  std::unordered_set<const ir::node*> leaves, seen;
  std::vector<const ir::node*> stack;
  for (const auto& [ptr, info] : s.pending)
    if (!info.target && info.use > info.plan_refs + info.root_refs) stack.push_back(ptr);
  while (!stack.empty()) {
    const ir::node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& in : n->inputs) {
      if (in->materialized())
        leaves.insert(in.get());
      else if (!s.pending.at(in.get()).target)
        stack.push_back(in.get());
    }
  }
  return leaves;
}

// A gemm adding beta * C (fold_into_gemm) may write its product over C when C is a temporary of
// this plan that only this call reads (the kernel computing C then writes straight into the
// product's buffer), or an evaluated buffer nothing else can ever read. Otherwise the call copies C.
bool gemm_updates_c_in_place(const fuse_state& s, const kernel_step& step) {
  if (step.library->op != ir::library_op::gemm || !step.library->gemm.has_c()) return false;
  const auto& c = step.inputs[2].node;
  for (int k = 0; k < 2; ++k)
    if (step.inputs[k].node == c) return false;  // also an operand: it must stay as it is
  if (c->handles > 0) return false;
  if (auto it = s.pending.find(c.get()); it != s.pending.end()) {
    const auto& info = it->second;
    return info.root_refs == 0 && info.plan_refs == 1 && info.use == 1;
  }
  // Already evaluated: the conditions of a kernel's donation below.
  const std::size_t bytes = itemsize(c->dt) * static_cast<std::size_t>(c->size());
  return c->offset == 0 && c->storage->nbytes == bytes && !c->storage->adopted &&
         c->storage.use_count() == 1 && s.leaf_steps.at(c.get()).size() == 1 &&
         s.leaf_use.at(c.get()) == s.leaf_refs.at(c.get()) && !leaves_read_later(s).count(c.get());
}

// An output may take over an input's buffer when nothing but this step can ever read that input:
// no handle, no reference from outside the plan (directly or through an unwritten node), read flat
// here and by no other step.
void choose_donations(fuse_state& s, plan& p) {
  trace_pass("choose_donations");
  std::optional<std::unordered_set<const ir::node*>> read_later;  // computed for the first candidate only
  for (auto& step : p.steps) {
    step.donor.assign(step.outputs.size(), -1);
    if (step.library) {
      if (gemm_updates_c_in_place(s, step)) step.donor[0] = 2;
      continue;
    }
    if (step.kernel.reduction) continue;  // outputs and inputs differ in size or layout
    std::vector<bool> taken(step.inputs.size(), false);
    for (std::size_t o = 0; o < step.outputs.size(); ++o) {
      const auto& out = step.outputs[o];
      std::size_t out_bytes = itemsize(out->dt) * static_cast<std::size_t>(out->size());
      for (std::size_t k = 0; k < step.inputs.size(); ++k) {
        const auto& leaf = step.inputs[k].node;
        if (taken[k] || !leaf->materialized() || leaf->handles > 0) continue;
        if (step.kernel.inputs[k].cls != ir::index_class::flat || step.inputs[k].offset != 0) continue;
        if (leaf->size() != out->size() || leaf->storage->nbytes != out_bytes || out_bytes == 0) continue;
        if (leaf->storage.use_count() != 1 || s.leaf_steps[leaf.get()].size() != 1) continue;
        if (leaf->storage->adopted) continue;  // another library's memory: read, never written
        // Read through another view too (x + x[::-1]): writing in place would clobber that read.
        auto same_leaf = [&](const strided_leaf& other) { return other.node == leaf; };
        if (std::count_if(step.inputs.begin(), step.inputs.end(), same_leaf) != 1) continue;
        if (s.leaf_use.at(leaf.get()) != s.leaf_refs[leaf.get()]) continue;
        if (!read_later) read_later = leaves_read_later(s);
        if (read_later->count(leaf.get())) continue;
        step.donor[o] = static_cast<int>(k);
        taken[k] = true;
        break;
      }
    }
  }
}

}  // namespace

std::int64_t kernel_step::output_size() const {
  return outputs.empty() ? 0 : outputs.front()->size();
}

plan plan_from_passes(std::span<const node_ptr> roots) {
  fuse_state s;
  plan p;
  collect_pending(roots, s);
  choose_outputs(roots, s);
  fold_into_gemm(s);
  attach_epilogues(s);
  split_memory_reads(s);
  group_by_iteration_space(s);
  lower_to_kernel_ir(s, p);
  collapse_dimensions(p);
  choose_reduce_strategy(s, p);
  classify_indices(p);
  choose_donations(s, p);
  for (auto& step : p.steps) {
    if (step.library) {
      step.name = std::string("library ") + ir::library_op_name(step.library->op);
      continue;
    }
    step.key = step.kernel.key();
    // k_ and 16 hex digits, without snprintf: this runs on every evaluation.
    std::uint64_t h = support::fnv1a(step.key);
    step.name.assign("k_0000000000000000");
    for (int d = 17; d >= 2; --d, h >>= 4) step.name[d] = "0123456789abcdef"[h & 15];
  }
  return p;
}

}  // namespace ndfuse::schedule
