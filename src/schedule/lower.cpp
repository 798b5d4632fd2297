// The fuser's lowering pass: each group of nodes becomes one kernel IR (SSA instructions over its
// iteration space, leaves as strided inputs, scalars and iotas as parameters) or one library call.
#include <algorithm>
#include <cstring>

#include "ndfuse/error.hpp"
#include "schedule/passes.hpp"

namespace ndfuse::schedule {

namespace {

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
    c.op = ir::op_code::cast;
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
        step.kernel.inputs.push_back({n->dt, ir::index_class::strided});
      }
      i.op = ir::op_code::buffer;
      i.slot = it->second;
      i.from_earlier_kernel = !n->materialized();
      if (guard >= 0) {
        i.args[0] = guard;
        step.kernel.inputs[i.slot].guarded = true;
      }
    } else if (n->op == ir::op_code::gather) {
      int v = gather(n, chain, guard);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::view) {
      // A view costs no instruction: it changes how the leaves below it are indexed.
      int v = lower(n->inputs[0], s.chains.push(chain, n.get()), guard);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::guard) {
      // The value's loads happen only where the mask (and any enclosing guard) holds.
      int g = lower(n->inputs[0], chain, guard);
      if (guard >= 0) {
        ir::instr both;
        both.op = ir::op_code::logical_and;
        both.dt = both.operand_dt = dtype::bool_;
        both.args[0] = guard;
        both.args[1] = g;
        g = emit(both);
      }
      int v = lower(n->inputs[1], chain, g);
      values[key] = v;
      return v;
    } else if (n->op == ir::op_code::scalar) {
      auto [it, fresh] = scalar_slot.try_emplace(n.get(), static_cast<int>(step.scalars.size()));
      if (fresh) {
        step.scalars.push_back(n);
        step.kernel.scalars.push_back(n->dt);
      }
      i.op = ir::op_code::scalar;
      i.slot = it->second;
    } else if (n->op == ir::op_code::iota) {
      ir::iota_params p;
      const ir::iota_spec& io = n->params().iota;
      p.offset = io.offset;
      p.coeffs = map_leaf(*n, io.coeffs, p.offset, chain);
      p.start = io.start;
      p.step = io.step;
      p.equals = io.equals;
      i.op = ir::op_code::iota;
      i.slot = static_cast<int>(step.iotas.size());
      step.iotas.push_back(std::move(p));
      step.draws.push_back(nullptr);
      step.kernel.iotas.push_back(ir::index_class::strided);
    } else if (n->op == ir::op_code::random) {
      i.op = ir::op_code::random;
      i.slot = static_cast<int>(step.iotas.size());
      i.mode = random_slot(n, chain);
      step.kernel.iotas.push_back(ir::index_class::strided);
    } else if (n->op == ir::op_code::user) {
      i.op = ir::op_code::user;
      i.slot = user_call(*n, chain, guard);
      i.mode = static_cast<std::uint8_t>(n->params().user_output);
    } else if (is_reduction(n.get())) {
      throw error("fuser: internal error, a reduction is read inside another kernel without being written");
    } else {
      i.op = n->op;
      if (n->op == ir::op_code::where)
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

  // The call a user kernel's output node reads: the outputs of one call (the same kernel on the
  // same operands) share it, so the body runs once per element for all of them.
  int user_call(const ir::node& n, int chain, int guard) {
    std::vector<std::int32_t> operands;
    const auto& params = n.params().user->in;
    for (std::size_t k = 0; k < n.inputs.size(); ++k)
      operands.push_back(k < params.size() && params[k].raw ? raw_input(n.inputs[k])
                                                            : lower(n.inputs[k], chain, guard));
    auto& calls = step.kernel.user_calls;
    for (std::size_t c = 0; c < calls.size(); ++c)
      if (calls[c].def == n.params().user && calls[c].operands == operands) return static_cast<int>(c);
    calls.push_back({n.params().user, std::move(operands)});
    return static_cast<int>(calls.size()) - 1;
  }

  // A raw input's operand: the address of its C-order buffer, an input slot with every stride 0
  // (the same address at every element), passed by address. Views above the user node do not
  // reach it: the body indexes the raw array itself.
  std::int32_t raw_input(const node_ptr& n) {
    auto [it, fresh] = input_slot[epilogue].try_emplace({n.get(), -1}, static_cast<int>(step.inputs.size()));
    if (fresh) {
      strided_leaf leaf;
      leaf.node = n;
      leaf.offset = n->materialized() ? n->offset : 0;
      leaf.strides = space.map({}, {}, epilogue);
      step.inputs.push_back(std::move(leaf));
      ir::kernel_input in{n->dt, ir::index_class::strided};
      in.gathered = true;
      step.kernel.inputs.push_back(in);
    }
    return -1 - it->second;
  }

  // A random draw's affine slot. On philox4x32 the offset (a view's, as x[1:] of a draw) splits into
  // whole blocks, added to the stream's first block, and a residue the kernel is specialized on:
  // with the offset a multiple of the block's elements (every draw not offset by a view), the lanes
  // of a vectorized loop see equal block numbers and compute each block once.
  std::uint8_t random_slot(const node_ptr& np, int chain) {
    const ir::node& n = *np;
    ir::iota_params p;
    const ir::iota_spec& io = n.params().iota;
    p.offset = io.offset;
    p.coeffs = map_leaf(n, io.coeffs, p.offset, chain);
    ir::random_stream stream = n.params().random;
    ir::random_mode mode{stream.engine, stream.form, 0};
    if (stream.engine == ir::random_engine::philox4x32) {
      const std::int64_t per = ir::random_per_block(stream.form);
      const std::int64_t r = ((p.offset % per) + per) % per;
      stream.first += static_cast<std::uint64_t>((p.offset - r) / per);
      mode.residue = static_cast<int>(r);
      p.offset = 0;
    }
    p.random = stream;
    step.iotas.push_back(std::move(p));
    step.draws.push_back(np);
    return mode.pack();
  }

  // A gather is a load of its source whose offset is the strided part (the source axes the gather
  // keeps, walked like a view) plus index * stride for each indexed axis, computed in the kernel.
  int gather(const node_ptr& n, int chain, int guard) {
    const auto& src = n->inputs[0];
    auto src_strides = src->materialized() ? src->strides : ir::contiguous_strides(src->shape);
    const auto& axes = n->params().gather_axes;
    const std::size_t index_ndim = n->shape.size() - (src->shape.size() - axes.size());
    std::vector<std::int64_t> base(n->shape.size(), 0);
    for (std::size_t a = 0, d = index_ndim; a < src->shape.size(); ++a)
      if (std::find(axes.begin(), axes.end(), static_cast<int>(a)) == axes.end()) base[d++] = src_strides[a];
    int extra = -1;
    for (std::size_t j = 0; j < axes.size(); ++j) {
      const int index = lower(n->inputs[1 + j], chain, guard);
      const int term = binary(ir::op_code::multiply, index, constant(src_strides[axes[j]]));
      extra = extra < 0 ? term : binary(ir::op_code::add, extra, term);
    }
    auto [it, fresh] =
        input_slot[epilogue].try_emplace({n.get(), chain}, static_cast<int>(step.inputs.size()));
    if (fresh) {
      strided_leaf leaf;
      leaf.node = src;
      leaf.offset = src->materialized() ? src->offset : 0;
      leaf.strides = map_leaf(n->shape, base, leaf.offset, chain);
      step.inputs.push_back(std::move(leaf));
      step.kernel.inputs.push_back({src->dt, ir::index_class::strided});
      step.kernel.inputs.back().gathered = true;
    }
    ir::instr i;
    i.op = ir::op_code::buffer;
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
    auto c = ir::new_node();
    c->op = ir::op_code::scalar;
    c->dt = dtype::int64;
    std::memcpy(c->value.bytes, &v, sizeof v);
    scalar_slot[c.get()] = static_cast<int>(step.scalars.size());
    step.scalars.push_back(c);
    step.kernel.scalars.push_back(dtype::int64);
    ir::instr i;
    i.op = ir::op_code::scalar;
    i.dt = i.operand_dt = dtype::int64;
    i.slot = scalar_slot[c.get()];
    return emit(i);
  }

  int reduced_value() {
    ir::instr r;
    r.op = ir::op_code::reduced;
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
  sp.keepdims = home->op == ir::op_code::reduce && home->shape.size() == in->shape.size();
  for (std::size_t a = 0; a < sp.shape.size(); ++a)
    if (!(sp.axes >> a & 1)) sp.kept.push_back(static_cast<int>(a));
  sp.order = sp.kept;
  for (std::size_t a = 0; a < sp.shape.size(); ++a)
    if (sp.axes >> a & 1) sp.order.push_back(static_cast<int>(a));
  return sp;
}

}  // namespace

void lower_to_kernel_ir(fuse_state& s, plan& p) {
  trace_pass("lower_to_kernel_ir");
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    kernel_step& step = p.steps.emplace_back();
    if (const auto& call = s.groups[g].front(); is_library(call.get())) {
      step.library = call->params().library;
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
      if (rp.combine == ir::op_code::user) red.combine_user = home->params().user;
      red.acc_dt = rp.acc_dt;
      red.strategy = home->op == ir::op_code::scan ? ir::reduce_strategy::scan : ir::reduce_strategy::inner;
      red.value = low.lower(home->inputs[0]);
      red.value = low.cast(red.value, rp.acc_dt);
      red.kept_ndim = static_cast<std::int32_t>(space.kept.size());
      red.epilogue_begin = static_cast<std::int32_t>(step.kernel.code.size());
      step.kernel.reduction = red;
      step.identity = rp.identity;
      low.epilogue = true;
      if (home->op == ir::op_code::scan) {
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

}  // namespace ndfuse::schedule
