// The fuser: DAG -> ordered kernel steps. See plan.hpp for the pass list.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ndfuse/error.hpp"
#include "schedule/plan.hpp"
#include "schedule/view_chain.hpp"

namespace ndfuse::schedule {

namespace {

using node_ptr = std::shared_ptr<ir::node>;

bool debug_passes() {
  static const bool on = [] {
    const char* v = std::getenv("NDFUSE_DEBUG");
    return v && std::atoi(v) >= 2;
  }();
  return on;
}
void trace_pass(const char* name) {
  if (debug_passes()) std::cerr << "[ndfuse] pass " << name << '\n';
}

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

void collect_pending(const std::vector<node_ptr>& roots, fuse_state& s) {
  trace_pass("collect_pending");
  s.pending.reserve(32);
  s.leaf_refs.reserve(8);
  s.leaf_use.reserve(8);
  for (const auto& r : roots) visit(r, s);
}

// Roots, and every node a user handle still holds, are written; nothing else is.
void choose_outputs(const std::vector<node_ptr>& roots, fuse_state& s) {
  trace_pass("choose_outputs");
  for (const auto& r : roots)
    if (!r->materialized()) {
      s.pending[r.get()].target = true;
      s.pending[r.get()].root_refs++;
    }
  for (auto& [ptr, info] : s.pending)
    if (info.node->handles > 0) info.target = true;
}

bool is_reduction(const ir::node* n) {
  return n->op == ir::op_code::op_code_reduce || n->op == ir::op_code::op_code_scan;
}
bool is_library(const ir::node* n) {
  return n->op == ir::op_code::op_code_library;
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
    const bool remaps = n->op == ir::op_code::op_code_view || n->op == ir::op_code::op_code_gather;
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
    if (single && info.shifted != home && home->op == ir::op_code::op_code_reduce &&
        n->shape == home->shape) {
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
  } else if (n->op == ir::op_code::op_code_iota) {
    strides = n->iota_coeffs;
  } else if (n->op == ir::op_code::op_code_scalar) {
    return true;
  } else {
    const int inner = n->op == ir::op_code::op_code_view ? s.chains.push(chain, n.get()) : chain;
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
// - a gather reads its source at data-dependent offsets, so the source must be in memory.
void split_memory_reads(fuse_state& s) {
  trace_pass("split_memory_reads");
  for (const auto& n : s.order) {
    if (n->op == ir::op_code::op_code_gather && !n->inputs[0]->materialized()) {
      auto& info = s.pending.at(n->inputs[0].get());
      info.target = info.before_readers = true;
      continue;
    }
    if (n->op != ir::op_code::op_code_view || !n->view.reshape) continue;
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

using ir::broadcast_strides;

// Maps a leaf's element strides (over its own shape) onto the step's iteration space. Elementwise
// steps iterate the targets' shape. A reduction iterates its input's shape with the kept axes first
// and the reduced axes last (`order`); its epilogue sees the output shape, so an epilogue leaf's
// strides land on the kept axes and are 0 along the reduced ones.
struct iteration_space {
  shape_t shape;           // as the user sees it (elementwise), or the reduction input's shape
  std::vector<int> order;  // reductions: iteration dim -> input axis
  std::vector<int> kept;   // reductions: kept input axes, in order
  std::uint64_t axes = 0;  // reductions: reduced input axes
  bool keepdims = false;   // reductions: whether the output shape keeps reduced axes as 1

  std::vector<std::int64_t> map(const shape_t& from, const std::vector<std::int64_t>& strides,
                                bool epilogue) const {
    if (order.empty()) return broadcast_strides(from, strides, shape);
    if (!epilogue) {
      auto full = broadcast_strides(from, strides, shape);
      std::vector<std::int64_t> out;
      for (int a : order) out.push_back(full[a]);
      return out;
    }
    // The output shape: kept axes (and 1s for reduced axes when keepdims).
    shape_t out_shape;
    for (std::size_t a = 0; a < shape.size(); ++a)
      if (!(axes >> a & 1) || keepdims) out_shape.push_back((axes >> a & 1) ? 1 : shape[a]);
    auto on_out = broadcast_strides(from, strides, out_shape);
    std::vector<std::int64_t> out(order.size(), 0);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      std::size_t at = keepdims ? static_cast<std::size_t>(kept[k]) : k;
      out[k] = on_out[at];
    }
    return out;
  }
};

struct lowering {
  fuse_state& s;
  kernel_step& step;
  int group;
  const iteration_space& space;
  const ir::node* reduction = nullptr;  // the step's reduce/scan node
  bool epilogue = false;                // lowering per output (after the fold) rather than per element
  using memo = std::unordered_map<node_in_chain, int, node_in_chain_hash>;
  memo value_of[2];
  memo input_slot[2];
  std::unordered_map<const ir::node*, int> scalar_slot;

  int emit(ir::instr i) {
    step.kernel.code.push_back(std::move(i));
    return static_cast<int>(step.kernel.code.size()) - 1;
  }

  int cast(int v, dtype to) {
    const auto& from = step.kernel.code[v];
    if (from.dt == to) return v;
    ir::instr c;
    c.op = ir::op_code::op_code_cast;
    c.dt = to;
    c.operand_dt = from.dt;
    c.args[0] = v;
    return emit(c);
  }

  // Strides of a leaf (over its own shape) through the chain's views onto the iteration space.
  std::vector<std::int64_t> map_leaf(const ir::node& n, std::vector<std::int64_t> strides,
                                     std::int64_t& offset, int chain) const {
    return map_leaf(n.shape, std::move(strides), offset, chain);
  }
  std::vector<std::int64_t> map_leaf(shape_t shape, std::vector<std::int64_t> strides, std::int64_t& offset,
                                     int chain) const {
    if (!through_views(s.chains.chain[chain], shape, strides, offset))
      throw error("fuser: internal error, a reshape reached a leaf it cannot view");
    return space.map(shape, strides, epilogue);
  }

  int lower(const node_ptr& n, int chain = 0, int guard = -1) {
    auto& values = value_of[epilogue];
    const node_in_chain key{n.get(), chain, guard};
    if (auto it = values.find(key); it != values.end()) return it->second;
    ir::instr i;
    i.dt = n->dt;
    i.operand_dt = n->dt;
    bool other_kernel = false;
    if (!n->materialized()) {
      const auto& info = s.pending.at(n.get());
      other_kernel = info.target && info.group != group;
    }
    if (n.get() == reduction) {
      // Only the epilogue reaches the step's own reduction: its folded value.
      int v = reduced_value();
      values[key] = v;
      return v;
    }
    if (n->materialized() || other_kernel) {
      auto [it, fresh] =
          input_slot[epilogue].try_emplace({n.get(), chain}, static_cast<int>(step.inputs.size()));
      if (fresh) {
        strided_leaf leaf;
        leaf.node = n;
        leaf.offset = n->materialized() ? n->offset : 0;
        leaf.strides = map_leaf(*n, n->materialized() ? n->strides : ir::contiguous_strides(n->shape),
                                leaf.offset, chain);
        step.inputs.push_back(std::move(leaf));
        step.kernel.inputs.push_back({n->dt, ir::index_class::index_class_strided});
      }
      i.op = ir::op_code::op_code_buffer;
      i.slot = it->second;
      i.from_earlier_kernel = !n->materialized();
      if (guard >= 0) {
        i.args[0] = guard;
        step.kernel.inputs[i.slot].guarded = true;
      }
    } else if (n->op == ir::op_code::op_code_gather) {
      int v = gather(n, chain, guard);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::op_code_view) {
      // A view costs no instruction: it changes how the leaves below it are indexed.
      int v = lower(n->inputs[0], s.chains.push(chain, n.get()), guard);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::op_code_guard) {
      // The value's loads happen only where the mask (and any enclosing guard) holds.
      int g = lower(n->inputs[0], chain, guard);
      if (guard >= 0) {
        ir::instr both;
        both.op = ir::op_code::op_code_logical_and;
        both.dt = both.operand_dt = dtype::bool_;
        both.args[0] = guard;
        both.args[1] = g;
        g = emit(both);
      }
      int v = lower(n->inputs[1], chain, g);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::op_code_scalar) {
      auto [it, fresh] = scalar_slot.try_emplace(n.get(), static_cast<int>(step.scalars.size()));
      if (fresh) {
        step.scalars.push_back(n);
        step.kernel.scalars.push_back(n->dt);
      }
      i.op = ir::op_code::op_code_scalar;
      i.slot = it->second;
    } else if (n->op == ir::op_code::op_code_iota) {
      ir::iota_params p;
      p.offset = n->iota_offset;
      p.coeffs = map_leaf(*n, n->iota_coeffs, p.offset, chain);
      p.start = n->start;
      p.step = n->step;
      p.equals = n->iota_equals;
      i.op = ir::op_code::op_code_iota;
      i.slot = static_cast<int>(step.iotas.size());
      step.iotas.push_back(std::move(p));
      step.kernel.iotas.push_back(ir::index_class::index_class_strided);
    } else if (is_reduction(n.get())) {
      throw error("fuser: internal error, a reduction is read inside another kernel without being written");
    } else {
      i.op = n->op;
      if (n->op == ir::op_code::op_code_where)
        i.operand_dt = n->inputs[1]->dt;
      else if (!n->inputs.empty())
        i.operand_dt = n->inputs[0]->dt;
      for (std::size_t k = 0; k < n->inputs.size() && k < 3; ++k)
        i.args[k] = lower(n->inputs[k], chain, guard);
    }
    int v = emit(std::move(i));
    values[key] = v;
    return v;
  }

  // A gather is a load of its source whose offset is the strided part (the source axes the gather
  // keeps, walked like a view) plus index * stride for each indexed axis, computed in the kernel.
  int gather(const node_ptr& n, int chain, int guard) {
    const auto& src = n->inputs[0];
    auto src_strides = src->materialized() ? src->strides : ir::contiguous_strides(src->shape);
    const auto& axes = n->gather_axes;
    const std::size_t index_ndim = n->shape.size() - (src->shape.size() - axes.size());
    std::vector<std::int64_t> base(n->shape.size(), 0);
    for (std::size_t a = 0, d = index_ndim; a < src->shape.size(); ++a)
      if (std::find(axes.begin(), axes.end(), static_cast<int>(a)) == axes.end()) base[d++] = src_strides[a];
    int extra = -1;
    for (std::size_t j = 0; j < axes.size(); ++j) {
      const int index = lower(n->inputs[1 + j], chain, guard);
      const int term = binary(ir::op_code::op_code_multiply, index, constant(src_strides[axes[j]]));
      extra = extra < 0 ? term : binary(ir::op_code::op_code_add, extra, term);
    }
    auto [it, fresh] =
        input_slot[epilogue].try_emplace({n.get(), chain}, static_cast<int>(step.inputs.size()));
    if (fresh) {
      strided_leaf leaf;
      leaf.node = src;
      leaf.offset = src->materialized() ? src->offset : 0;
      leaf.strides = map_leaf(n->shape, base, leaf.offset, chain);
      step.inputs.push_back(std::move(leaf));
      step.kernel.inputs.push_back({src->dt, ir::index_class::index_class_strided});
      step.kernel.inputs.back().gathered = true;
    }
    ir::instr i;
    i.op = ir::op_code::op_code_buffer;
    i.dt = i.operand_dt = src->dt;
    i.slot = it->second;
    i.from_earlier_kernel = !src->materialized();
    i.args[0] = guard;
    i.args[1] = extra;
    if (guard >= 0) step.kernel.inputs[i.slot].guarded = true;
    return emit(i);
  }

  int binary(ir::op_code op, int a, int b) {
    ir::instr i;
    i.op = op;
    i.dt = i.operand_dt = step.kernel.code[a].dt;
    i.args[0] = a;
    i.args[1] = b;
    return emit(i);
  }

  // An int64 launch parameter (a stride): a value, so the kernel serves every layout.
  int constant(std::int64_t v) {
    auto c = std::make_shared<ir::node>();
    c->op = ir::op_code::op_code_scalar;
    c->dt = dtype::int64;
    std::memcpy(c->value.bytes, &v, sizeof v);
    scalar_slot[c.get()] = static_cast<int>(step.scalars.size());
    step.scalars.push_back(c);
    step.kernel.scalars.push_back(dtype::int64);
    ir::instr i;
    i.op = ir::op_code::op_code_scalar;
    i.dt = i.operand_dt = dtype::int64;
    i.slot = scalar_slot[c.get()];
    return emit(i);
  }

  int reduced_value() {
    ir::instr r;
    r.op = ir::op_code::op_code_reduced;
    const auto& p = reduction->reduction;
    r.dt = ir::is_arg_reduction(p.kind) ? dtype::int64 : p.acc_dt;
    r.operand_dt = r.dt;
    return cast(emit(r), reduction->dt);
  }
};

iteration_space space_of(const std::vector<node_ptr>& group, const fuse_state& s) {
  iteration_space sp;
  const ir::node* home = s.pending.at(group.front().get()).home;
  if (!home) {
    sp.shape = group.front()->shape;
    return sp;
  }
  const auto& in = home->inputs[0];
  sp.shape = in->shape;
  sp.axes = home->reduction.axes;
  sp.keepdims = home->op == ir::op_code::op_code_reduce && home->shape.size() == in->shape.size();
  for (std::size_t a = 0; a < sp.shape.size(); ++a)
    if (!(sp.axes >> a & 1)) sp.kept.push_back(static_cast<int>(a));
  sp.order = sp.kept;
  for (std::size_t a = 0; a < sp.shape.size(); ++a)
    if (sp.axes >> a & 1) sp.order.push_back(static_cast<int>(a));
  return sp;
}

void lower_to_kernel_ir(fuse_state& s, plan& p) {
  trace_pass("lower_to_kernel_ir");
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    kernel_step& step = p.steps.emplace_back();
    if (const auto& call = s.groups[g].front(); is_library(call.get())) {
      step.library = call->library;
      step.iteration_shape = call->shape;
      for (const auto& in : call->inputs) {
        strided_leaf leaf;
        leaf.node = in;
        leaf.offset = in->materialized() ? in->offset : 0;
        leaf.strides = in->materialized() ? in->strides : ir::contiguous_strides(in->shape);
        if (in->materialized()) s.leaf_steps[in.get()].insert(static_cast<int>(g));
        step.inputs.push_back(std::move(leaf));
      }
      step.outputs.push_back(call);
      continue;
    }
    const iteration_space space = space_of(s.groups[g], s);
    step.iteration_shape = space.shape;
    for (int a : space.order) step.iteration_dims.push_back(space.shape[a]);
    lowering low{s, step, static_cast<int>(g), space, {}, {}, {}, {}, {}};
    if (const ir::node* home = s.pending.at(s.groups[g].front().get()).home) {
      // Prologue: the reduced value per element; then the fold; then the epilogue per output.
      low.reduction = home;
      const auto& rp = home->reduction;
      ir::kernel_reduction red;
      red.kind = rp.kind;
      red.combine = rp.combine;
      red.acc_dt = rp.acc_dt;
      red.strategy = home->op == ir::op_code::op_code_scan ? ir::reduce_strategy::reduce_strategy_scan
                                                           : ir::reduce_strategy::reduce_strategy_inner;
      red.value = low.lower(home->inputs[0]);
      red.value = low.cast(red.value, rp.acc_dt);
      red.kept_ndim = static_cast<std::int32_t>(space.kept.size());
      red.epilogue_begin = static_cast<std::int32_t>(step.kernel.code.size());
      step.kernel.reduction = red;
      step.identity = rp.identity;
      low.epilogue = true;
      if (home->op == ir::op_code::op_code_scan) {
        // Outputs in the input's C order: contiguous strides of the input shape, permuted.
        auto c = ir::contiguous_strides(space.shape);
        for (int a : space.order) step.output_strides.push_back(c[a]);
      } else {
        auto c = ir::contiguous_strides(home->shape);
        // Kept dims walk the output contiguously; reduced dims do not move it.
        shape_t kept_shape;
        for (int a : space.kept) kept_shape.push_back(space.shape[a]);
        auto kc = ir::contiguous_strides(kept_shape);
        step.output_strides.assign(space.order.size(), 0);
        for (std::size_t k = 0; k < kc.size(); ++k) step.output_strides[k] = kc[k];
      }
    }
    for (const auto& t : s.groups[g]) {
      int v = low.lower(t);
      step.kernel.outputs.push_back({v, t->dt});
      step.outputs.push_back(t);
    }
    for (const auto& in : step.inputs)
      if (in.node->materialized()) s.leaf_steps[in.node.get()].insert(static_cast<int>(g));
  }
}

// Drops size-1 dimensions and merges neighbours that every operand walks contiguously, so most
// kernels iterate a flat range. A reduction's kept and reduced dims never merge with each other.
void collapse_dimensions(plan& p) {
  trace_pass("collapse_dimensions");
  for (auto& step : p.steps) {
    if (step.library) continue;
    const shape_t& shape = step.iteration_shape;
    auto& red = step.kernel.reduction;
    // Iteration dims: the shape itself, or for a reduction its input's axes in (kept, reduced) order.
    const shape_t& dims_in = red ? step.iteration_dims : shape;
    const int boundary = red ? red->kept_ndim : static_cast<int>(shape.size());  // dims before it are kept
    std::vector<std::vector<std::int64_t>*> operands;
    for (auto& in : step.inputs) operands.push_back(&in.strides);
    for (auto& io : step.iotas) operands.push_back(&io.coeffs);
    std::vector<std::int64_t> out_strides = red ? step.output_strides : ir::contiguous_strides(shape);
    operands.push_back(&out_strides);

    shape_t dims;  // built innermost first
    std::vector<bool> dim_kept;
    std::vector<std::vector<std::int64_t>> strides(operands.size());
    auto push = [&](std::int64_t extent, std::size_t d, bool kept) {
      dims.push_back(extent);
      dim_kept.push_back(kept);
      for (std::size_t k = 0; k < operands.size(); ++k) strides[k].push_back((*operands[k])[d]);
    };
    for (std::size_t d = dims_in.size(); d-- > 0;) {
      if (dims_in[d] == 1) continue;
      const bool kept = static_cast<int>(d) < boundary;
      bool merge = !dims.empty() && dim_kept.back() == kept;
      for (std::size_t k = 0; k < operands.size() && merge; ++k)
        merge = (*operands[k])[d] == strides[k].back() * dims.back();
      if (merge)
        dims.back() *= dims_in[d];
      else
        push(dims_in[d], d, kept);
    }
    if (red && (dims.empty() || dim_kept.front())) {
      // A reduction always has a reduced dim (a single step of size 1 when every reduced axis is 1).
      dims.insert(dims.begin(), 1);
      dim_kept.insert(dim_kept.begin(), false);
      for (auto& st : strides) st.insert(st.begin(), 0);
    }
    if (dims.empty()) {
      dims.push_back(1);
      dim_kept.push_back(true);
      for (auto& st : strides) st.push_back(0);
    }
    std::reverse(dims.begin(), dims.end());
    std::reverse(dim_kept.begin(), dim_kept.end());
    for (std::size_t k = 0; k < operands.size(); ++k) {
      std::reverse(strides[k].begin(), strides[k].end());
      *operands[k] = strides[k];
    }
    if (red) {
      red->kept_ndim = static_cast<std::int32_t>(std::count(dim_kept.begin(), dim_kept.end(), true));
      step.output_strides = out_strides;
    }
    step.collapsed_shape = dims;
    step.kernel.ndim = static_cast<std::int32_t>(dims.size());
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
    if (!red || red->strategy == ir::reduce_strategy::reduce_strategy_scan) continue;
    if (red->kept_ndim == 0) {
      red->strategy = ir::reduce_strategy::reduce_strategy_full;
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
    red->strategy = last_reduced ? ir::reduce_strategy::reduce_strategy_inner
                                 : ir::reduce_strategy::reduce_strategy_outer;
  }
}

ir::index_class classify(const std::vector<std::int64_t>& strides,
                         const std::vector<std::int64_t>& contiguous) {
  bool flat = true, broadcast = true;
  for (std::size_t d = 0; d < strides.size(); ++d) {
    flat = flat && strides[d] == contiguous[d];
    broadcast = broadcast && (strides[d] == contiguous[d] || strides[d] == 0);
  }
  if (flat) return ir::index_class::index_class_flat;
  if (broadcast) return ir::index_class::index_class_broadcast;
  return ir::index_class::index_class_strided;
}

// A transposed read (x.T() copied, or fused into arithmetic) strided along the output's last dim
// touches one element per 32-byte sector per thread; a tiled kernel reads it along its unit-stride
// dim instead, through shared memory. Both tile dims need some extent for the tiles to fill, and
// the tiles of one block share a budget of shared memory (the rest stay plain strided reads).
constexpr std::int64_t tile_min_extent = 16;
constexpr std::size_t tile_shared_budget = 40 * 1024;

void choose_tiling(kernel_step& step) {
  auto& k = step.kernel;
  k.tile_dim = -1;
  const int last = k.ndim - 1;
  if (k.reduction || last < 1 || step.collapsed_shape[last] < tile_min_extent) return;
  std::size_t shared = 0;
  for (std::size_t i = 0; i < step.inputs.size(); ++i) {
    auto& in = k.inputs[i];
    const auto& strides = step.inputs[i].strides;
    if (in.cls != ir::index_class::index_class_strided || in.by_address() || std::abs(strides[last]) == 1)
      continue;
    int unit = -1;
    for (int d = 0; d < last && unit < 0; ++d)
      if (std::abs(strides[d]) == 1 && step.collapsed_shape[d] >= tile_min_extent) unit = d;
    const std::size_t bytes = 32 * 33 * itemsize(in.dt);
    if (unit < 0 || (k.tile_dim >= 0 && unit != k.tile_dim) || shared + bytes > tile_shared_budget) continue;
    k.tile_dim = unit;
    in.cls = ir::index_class::index_class_transposed;
    shared += bytes;
  }
}

void classify_indices(plan& p) {
  trace_pass("classify_indices");
  constexpr std::int64_t int32_limit = std::int64_t(1) << 31;
  for (auto& step : p.steps) {
    if (step.library) continue;
    auto contiguous = ir::contiguous_strides(step.collapsed_shape);
    bool wide = ir::shape_size(step.collapsed_shape) >= int32_limit;
    for (std::size_t k = 0; k < step.inputs.size(); ++k) {
      auto& in = step.inputs[k];
      // A guarded input is read at its own offsets only where the guard holds: never in place.
      step.kernel.inputs[k].cls = step.kernel.inputs[k].by_address() ? ir::index_class::index_class_strided
                                                                     : classify(in.strides, contiguous);
      std::int64_t lo = in.offset, hi = in.offset;
      for (std::size_t d = 0; d < in.strides.size(); ++d) {
        std::int64_t reach = in.strides[d] * (step.collapsed_shape[d] - 1);
        (reach < 0 ? lo : hi) += reach;
      }
      wide = wide || lo <= -int32_limit || hi >= int32_limit;
    }
    for (std::size_t k = 0; k < step.iotas.size(); ++k)
      step.kernel.iotas[k] = classify(step.iotas[k].coeffs, contiguous);
    step.kernel.index_64 = wide;
    choose_tiling(step);
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

// An output may take over an input's buffer when nothing but this step can ever read that input:
// no handle, no reference from outside the plan (directly or through an unwritten node), read flat
// here and by no other step.
void choose_donations(fuse_state& s, plan& p) {
  trace_pass("choose_donations");
  std::optional<std::unordered_set<const ir::node*>> read_later;  // computed for the first candidate only
  for (auto& step : p.steps) {
    step.donor.assign(step.outputs.size(), -1);
    if (step.kernel.reduction || step.library) continue;  // outputs and inputs differ in size or layout
    std::vector<bool> taken(step.inputs.size(), false);
    for (std::size_t o = 0; o < step.outputs.size(); ++o) {
      const auto& out = step.outputs[o];
      std::size_t out_bytes = itemsize(out->dt) * static_cast<std::size_t>(out->size());
      for (std::size_t k = 0; k < step.inputs.size(); ++k) {
        const auto& leaf = step.inputs[k].node;
        if (taken[k] || !leaf->materialized() || leaf->handles > 0) continue;
        if (step.kernel.inputs[k].cls != ir::index_class::index_class_flat || step.inputs[k].offset != 0)
          continue;
        if (leaf->size() != out->size() || leaf->storage->nbytes != out_bytes || out_bytes == 0) continue;
        if (leaf->storage.use_count() != 1 || s.leaf_steps[leaf.get()].size() != 1) continue;
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

std::uint64_t structural_hash(const std::string& key) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

plan make_plan(const std::vector<node_ptr>& roots) {
  fuse_state s;
  plan p;
  collect_pending(roots, s);
  choose_outputs(roots, s);
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
    std::uint64_t h = structural_hash(step.key);
    step.name.assign("k_0000000000000000");
    for (int d = 17; d >= 2; --d, h >>= 4) step.name[d] = "0123456789abcdef"[h & 15];
  }
  return p;
}

}  // namespace ndfuse::schedule
