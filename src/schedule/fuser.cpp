// The fuser: DAG -> ordered kernel steps. See plan.hpp for the pass list.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unordered_map>
#include <unordered_set>

#include "ndfuse/error.hpp"
#include "schedule/plan.hpp"

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
  bool target = false;
  int group = -1;  // kernel step that writes it
};

// What the passes share. Nodes are keyed by address; `order` is a topological order of the
// pending (unmaterialized) nodes, leaves of materialized nodes excluded.
struct fuse_state {
  std::vector<node_ptr> order;
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
  s.pending[n.get()].node = n;
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
    if (!r->materialized()) s.pending[r.get()].target = true;
  for (auto& [ptr, info] : s.pending)
    if (info.node->handles > 0) info.target = true;
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

// Targets of one iteration shape share a kernel; a target that needs another shape's target waits
// for that kernel (it then reads the buffer). Topological order keeps this acyclic.
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
    const shape_t* shape = nullptr;
    for (auto t : targets) {
      auto& info = s.pending.at(t);
      if (info.group >= 0) continue;
      if (shape && *shape != t->shape) continue;
      bool ready = true;
      for (auto d : deps[t]) {
        int dg = s.pending.at(d).group;
        ready = ready && dg >= 0 && (dg < g || (dg == g && d->shape == t->shape));
      }
      if (!ready) {
        if (!shape) throw error("fuser: internal error, no target is ready");
        continue;
      }
      shape = &t->shape;
      info.group = g;
      s.groups.back().push_back(info.node);
      --remaining;
    }
  }
}

std::vector<std::int64_t> broadcast_strides(const shape_t& from, const std::vector<std::int64_t>& strides,
                                            const shape_t& to) {
  std::vector<std::int64_t> out(to.size(), 0);
  std::size_t lead = to.size() - from.size();
  for (std::size_t i = lead; i < to.size(); ++i) out[i] = from[i - lead] == 1 ? 0 : strides[i - lead];
  return out;
}

struct lowering {
  fuse_state& s;
  kernel_step& step;
  int group;
  std::unordered_map<const ir::node*, int> value_of;
  std::unordered_map<const ir::node*, int> input_slot, scalar_slot;

  int emit(ir::instr i) {
    step.kernel.code.push_back(std::move(i));
    return static_cast<int>(step.kernel.code.size()) - 1;
  }

  int lower(const node_ptr& n) {
    if (auto it = value_of.find(n.get()); it != value_of.end()) return it->second;
    ir::instr i;
    i.dt = n->dt;
    i.operand_dt = n->dt;
    bool other_kernel = false;
    if (!n->materialized()) {
      const auto& info = s.pending.at(n.get());
      other_kernel = info.target && info.group != group;
    }
    if (n->materialized() || other_kernel) {
      auto [it, fresh] = input_slot.try_emplace(n.get(), static_cast<int>(step.inputs.size()));
      if (fresh) {
        strided_leaf leaf;
        leaf.node = n;
        auto own = n->materialized() ? n->strides : ir::contiguous_strides(n->shape);
        leaf.strides = broadcast_strides(n->shape, own, step.iteration_shape);
        leaf.offset = n->materialized() ? n->offset : 0;
        step.inputs.push_back(std::move(leaf));
        step.kernel.inputs.push_back({n->dt, ir::index_class::index_class_strided});
      }
      i.op = ir::op_code::op_code_buffer;
      i.slot = it->second;
      i.from_earlier_kernel = !n->materialized();
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
      p.coeffs = broadcast_strides(n->shape, n->iota_coeffs, step.iteration_shape);
      p.offset = n->iota_offset;
      p.start = n->start;
      p.step = n->step;
      p.equals = n->iota_equals;
      i.op = ir::op_code::op_code_iota;
      i.slot = static_cast<int>(step.iotas.size());
      step.iotas.push_back(std::move(p));
      step.kernel.iotas.push_back(ir::index_class::index_class_strided);
    } else {
      i.op = n->op;
      if (n->op == ir::op_code::op_code_where)
        i.operand_dt = n->inputs[1]->dt;
      else if (!n->inputs.empty())
        i.operand_dt = n->inputs[0]->dt;
      for (std::size_t k = 0; k < n->inputs.size() && k < 3; ++k) i.args[k] = lower(n->inputs[k]);
    }
    int v = emit(std::move(i));
    value_of[n.get()] = v;
    return v;
  }
};

void lower_to_kernel_ir(fuse_state& s, plan& p) {
  trace_pass("lower_to_kernel_ir");
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    kernel_step& step = p.steps.emplace_back();
    step.iteration_shape = s.groups[g].front()->shape;
    lowering low{s, step, static_cast<int>(g), {}, {}, {}};
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
// kernels iterate a flat range.
void collapse_dimensions(plan& p) {
  trace_pass("collapse_dimensions");
  for (auto& step : p.steps) {
    const shape_t& shape = step.iteration_shape;
    std::vector<std::vector<std::int64_t>*> operands;
    for (auto& in : step.inputs) operands.push_back(&in.strides);
    for (auto& io : step.iotas) operands.push_back(&io.coeffs);
    std::vector<std::int64_t> out_strides = ir::contiguous_strides(shape);
    operands.push_back(&out_strides);

    shape_t dims;  // built innermost first
    std::vector<std::vector<std::int64_t>> strides(operands.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (shape[d] == 1) continue;
      bool merge = !dims.empty();
      for (std::size_t k = 0; k < operands.size() && merge; ++k)
        merge = (*operands[k])[d] == strides[k].back() * dims.back();
      if (merge) {
        dims.back() *= shape[d];
      } else {
        dims.push_back(shape[d]);
        for (std::size_t k = 0; k < operands.size(); ++k) strides[k].push_back((*operands[k])[d]);
      }
    }
    if (dims.empty()) {
      dims.push_back(1);
      for (auto& st : strides) st.push_back(0);
    }
    std::reverse(dims.begin(), dims.end());
    for (std::size_t k = 0; k < operands.size(); ++k) {
      std::reverse(strides[k].begin(), strides[k].end());
      *operands[k] = strides[k];
    }
    step.collapsed_shape = dims;
    step.kernel.ndim = static_cast<std::int32_t>(dims.size());
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

void classify_indices(plan& p) {
  trace_pass("classify_indices");
  constexpr std::int64_t int32_limit = std::int64_t(1) << 31;
  for (auto& step : p.steps) {
    auto contiguous = ir::contiguous_strides(step.collapsed_shape);
    bool wide = ir::shape_size(step.collapsed_shape) >= int32_limit;
    for (std::size_t k = 0; k < step.inputs.size(); ++k) {
      auto& in = step.inputs[k];
      step.kernel.inputs[k].cls = classify(in.strides, contiguous);
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
  }
}

// An output may take over an input's buffer when nothing but this step can ever read that input:
// no handle, no reference from outside the plan, read flat here and by no other step.
void choose_donations(fuse_state& s, plan& p) {
  trace_pass("choose_donations");
  for (auto& step : p.steps) {
    step.donor.assign(step.outputs.size(), -1);
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
        if (s.leaf_use.at(leaf.get()) != s.leaf_refs[leaf.get()]) continue;
        step.donor[o] = static_cast<int>(k);
        taken[k] = true;
        break;
      }
    }
  }
}

}  // namespace

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
  group_by_iteration_space(s);
  lower_to_kernel_ir(s, p);
  collapse_dimensions(p);
  classify_indices(p);
  choose_donations(s, p);
  for (auto& step : p.steps) {
    step.key = step.kernel.key();
    // k_ and 16 hex digits, without snprintf: this runs on every evaluation.
    std::uint64_t h = structural_hash(step.key);
    step.name.assign("k_0000000000000000");
    for (int d = 17; d >= 2; --d, h >>= 4) step.name[d] = "0123456789abcdef"[h & 15];
  }
  return p;
}

}  // namespace ndfuse::schedule
