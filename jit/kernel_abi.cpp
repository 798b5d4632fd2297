#include "jit/kernel_abi.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "jit/cuda_ops.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::jit {

namespace {

using ir::index_class;

// Host mirror of nf_iota_params in jit/prelude/nf_types.cuh.
struct iota_block {
  double start_re, start_im, step_re, step_im;
  std::int64_t start_int, step_int;
  std::int64_t offset;
  std::int32_t equals;
};
static_assert(sizeof(iota_block) == 64 && alignof(iota_block) == 8);

// Host mirror of nf_random_params in jit/prelude/nf_random.cuh.
struct random_block {
  std::uint64_t key[2];
  std::uint64_t ctr[4];
  std::uint64_t first;
  std::uint64_t carried;
  std::int64_t offset;
  std::int32_t carries;
};
static_assert(sizeof(random_block) == 80 && alignof(random_block) == 8);

bool is_flat(index_class c) {
  return c == index_class::flat;
}

std::size_t scalar_align(dtype t) {
  if (t == dtype::complex64) return 8;
  return itemsize(t);  // complex128: 16, as nf_complex<double>
}

}  // namespace

bool is_random_slot(const ir::kernel_ir& k, int slot) {
  return std::any_of(k.code.begin(), k.code.end(),
                     [&](const ir::instr& in) { return in.op == ir::op_code::random && in.slot == slot; });
}

const char* iota_slot_type(const ir::kernel_ir& k, int slot) {
  return is_random_slot(k, slot) ? "nf_random_params" : "nf_iota_params";
}

bool vectorized(const tuned_ir& k) {
  if (k.reduction) return false;
  return std::all_of(k.inputs.begin(), k.inputs.end(), [](const auto& in) { return is_flat(in.cls); }) &&
         std::all_of(k.iotas.begin(), k.iotas.end(), is_flat);
}

int vector_width(const tuned_ir& k) {
  if (!vectorized(k)) return 1;
  std::size_t widest = 1;
  for (const auto& in : k.inputs) widest = std::max(widest, itemsize(in.dt));
  for (const auto& out : k.outputs) widest = std::max(widest, itemsize(out.dt));
  return static_cast<int>(16 / widest);
}

bool needs_multi_index(const tuned_ir& k) {
  return k.reduction || (!vectorized(k) && k.ndim > 1);
}

std::string reduce_acc_type(const tuned_ir& k) {
  const auto& r = *k.reduction;
  if (ir::is_arg_reduction(r.kind)) return std::string("nf_arg<") + cuda_type(r.acc_dt) + ">";
  return cuda_type(r.acc_dt);
}

std::size_t reduce_acc_bytes(const tuned_ir& k) {
  const auto& r = *k.reduction;
  const std::size_t size = itemsize(r.acc_dt);
  if (!ir::is_arg_reduction(r.kind)) return size;
  const std::size_t align = r.acc_dt == dtype::complex128 ? 16 : 8;
  const std::size_t bytes = (size + 7) / 8 * 8 + 8;
  return (bytes + align - 1) / align * align;
}

bool reduce_wide_loads(const tuned_ir& k) {
  const auto& r = *k.reduction;
  // Units of elements run along each input's rows (flat inputs); units of outputs across its
  // columns, through the strides (the launch checks that the kept stride is 1).
  const bool outputs = k.fold.output_units;
  const int width = outputs ? reduce_lane_outputs(k) : reduce_fold_width(k);
  if (width == 1) return false;
  for (int v = 0; v < r.epilogue_begin; ++v) {
    const auto& in = k.code[v];
    if (in.op == ir::op_code::buffer) {
      const auto& input = k.inputs[in.slot];
      const bool laid_out = outputs ? !is_flat(input.cls) && !input.by_address() : is_flat(input.cls);
      if (!laid_out || itemsize(input.dt) * width > 16) return false;
    }
    if ((in.op == ir::op_code::iota || in.op == ir::op_code::random) &&
        (outputs || !is_flat(k.iotas[in.slot])))
      return false;
  }
  return true;
}

std::vector<int> reduce_prologue_inputs(const tuned_ir& k) {
  std::vector<int> slots;
  for (int v = 0; v < k.reduction->epilogue_begin; ++v) {
    const auto& in = k.code[v];
    if (in.op == ir::op_code::buffer && std::find(slots.begin(), slots.end(), in.slot) == slots.end())
      slots.push_back(in.slot);
  }
  std::sort(slots.begin(), slots.end());
  return slots;
}

std::size_t reduce_unit_bytes(const tuned_ir& k, int slot) {
  return static_cast<std::size_t>(reduce_fold_width(k)) * itemsize(k.inputs[slot].dt);
}

std::size_t reduce_stage_bytes(const tuned_ir& k) {
  if (!k.fold.staged || !reduce_wide_loads(k)) return 0;
  std::size_t bytes = 0;
  for (int slot : reduce_prologue_inputs(k))
    bytes += reduce_stage_units * reduce_unit_bytes(k, slot) + reduce_stage_spare;
  return bytes;
}

unsigned reduce_stages(std::size_t stage_bytes, std::size_t shared_per_sm, std::size_t shared_per_block) {
  if (stage_bytes == 0) return 0;
  // The block's own shared memory beside the ring (the fold's 256 accumulators of up to 16 bytes,
  // the barriers) and the 1 KB the driver reserves per block.
  constexpr std::size_t reserve = 6 * 1024;
  const std::size_t budget = shared_per_sm / staged_blocks_per_sm;
  const std::size_t fit = budget > reserve ? (budget - reserve) / stage_bytes : 0;
  if (fit >= 2) return static_cast<unsigned>(std::min<std::size_t>(fit, reduce_stages_max));
  return 2 * stage_bytes + reserve <= shared_per_block ? 2 : 0;
}

reduce_config reduce_dims(const tuned_ir& k, std::int64_t n_out, std::int64_t n_red, int sm_count) {
  const auto& r = *k.reduction;
  const std::int64_t target = std::int64_t(std::max(sm_count, 1)) * blocks_per_sm;  // a full device
  reduce_config c;
  if (r.strategy == ir::reduce_strategy::scan) {
    c.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(n_out, 1, target * 4));
    return c;
  }
  auto ceil_pow2 = [](std::int64_t v) {
    std::int64_t p = 1;
    while (p < v && p < block_threads) p *= 2;
    return p;
  };
  std::int64_t r_lanes, o_lanes;
  if (k.fold.staged) {
    // nf_reduce_staged: a block's 256 lanes along one output at a time (its units are at least two
    // chunks long); few outputs are split over staged_blocks_per_sm blocks per SM, never finer than
    // a chunk per block. The fold order depends on these sizes alone (reduce_stage_units).
    const std::int64_t staged_target = std::int64_t(std::max(sm_count, 1)) * staged_blocks_per_sm;
    const std::int64_t chunks = std::max<std::int64_t>(n_red / reduce_stage_units, 1);
    const std::int64_t grid_y =
        n_out < staged_target ? std::clamp<std::int64_t>((staged_target + n_out - 1) / n_out, 1, chunks) : 1;
    c.block_x = block_threads;
    c.block_y = 1;
    c.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(n_out, 1, max_grid));
    c.grid_y = static_cast<unsigned>(std::min<std::int64_t>(grid_y, 65535));
    if (c.grid_y > 1) {
      c.partial_bytes = static_cast<std::size_t>(c.grid_y * n_out) * reduce_acc_bytes(k);
      c.arrival_count = c.grid_x;
    }
    return c;
  }
  if (k.fold.per_thread) {
    // One thread per output (nf_reduce_per_thread), a block of neighbouring outputs, never split:
    // the folds are short (reduce_per_thread), so splitting would only add a pass over partials.
    c.block_x = block_threads;
    c.block_y = 1;
    c.grid_x = static_cast<unsigned>(
        std::clamp<std::int64_t>((n_out + block_threads - 1) / block_threads, 1, max_grid));
    return c;
  }
  // Outer folds: lanes of `width` neighbouring outputs (reduce_output_width) whether or not the
  // kernel takes them as units, so that the fold order is the same either way.
  const std::int64_t width = r.strategy == ir::reduce_strategy::outer ? reduce_output_width(r) : 1;
  const std::int64_t n_lanes_out = (n_out + width - 1) / width;
  if (r.strategy == ir::reduce_strategy::outer) {
    // A warp spans up to 32 lanes of neighbouring outputs (coalesced); the rest of the block splits
    // the rows, but never so finely that a lane gets fewer than four rows: short columns run one
    // lane per output, many outputs per block.
    o_lanes = std::min<std::int64_t>(32, ceil_pow2(n_lanes_out));
    r_lanes = block_threads / o_lanes;
    while (r_lanes > 1 && r_lanes * 4 > n_red) {
      r_lanes /= 2;
      o_lanes *= 2;
    }
  } else {
    // Enough lanes along a row that each takes about eight elements, from one (a short row per
    // thread) to the whole block (a long row per block).
    r_lanes = block_threads;
    while (r_lanes > 1 && r_lanes * 8 > n_red) r_lanes /= 2;
    o_lanes = block_threads / r_lanes;
  }
  const std::int64_t lane_outputs = reduce_lane_outputs(k);
  const std::int64_t blocks_x = (n_out + o_lanes * lane_outputs - 1) / (o_lanes * lane_outputs);
  const std::int64_t blocks_of_lanes = (n_lanes_out + o_lanes - 1) / o_lanes;
  std::int64_t grid_y = 1;
  if (blocks_of_lanes < target) {
    // Too few outputs to fill the device: split each output's elements over grid_y blocks, but
    // leave every thread at least four elements. Outer folds split into at most half a wave of
    // resident blocks, each lane walking further down its columns, which read fastest on an H100
    // (research/reduce_columns.cu).
    const std::int64_t useful = (n_red + r_lanes * 4 - 1) / (r_lanes * 4);
    const std::int64_t split = r.strategy == ir::reduce_strategy::outer
                                   ? target / 2 / blocks_of_lanes
                                   : (target + blocks_of_lanes - 1) / blocks_of_lanes;
    grid_y = std::clamp<std::int64_t>(split, 1, std::max<std::int64_t>(useful, 1));
    grid_y = std::min<std::int64_t>(grid_y, 65535);
  }
  c.block_x = static_cast<unsigned>(r.strategy == ir::reduce_strategy::outer ? o_lanes : r_lanes);
  c.block_y = static_cast<unsigned>(r.strategy == ir::reduce_strategy::outer ? r_lanes : o_lanes);
  c.grid_y = static_cast<unsigned>(grid_y);
  // One block per o_lanes outputs, as launch_dims gives elementwise kernels: the whole grid read rows
  // of four faster than a grid capped at a few waves of looping blocks (research/reduce_shapes.cu).
  // With a split, blockIdx.x must cover each output exactly once anyway (one arrival counter per
  // column).
  c.grid_x = static_cast<unsigned>(std::clamp<std::int64_t>(blocks_x, 1, max_grid));
  if (grid_y > 1) {
    c.partial_bytes = static_cast<std::size_t>(grid_y * n_out) * reduce_acc_bytes(k);
    c.arrival_count = c.grid_x;
  }
  return c;
}

launch_config launch_dims(const tuned_ir& k, const shape_t& shape, int sm_count) {
  const std::int64_t n = ir::shape_size(shape);
  std::int64_t blocks;
  if (k.tile_dim >= 0 && n > 0) {
    // One block per 32 x 32 tile (ragged edge tiles included).
    const std::int64_t p = shape.at(k.tile_dim), l = shape.back();
    blocks = n / (p * l) * ((p + 31) / 32) * ((l + 31) / 32);
  } else {
    const std::int64_t per_thread = n >= vector_min_elements ? vector_width(k) : 1;
    const std::int64_t threads = (n + per_thread - 1) / per_thread;
    blocks = (threads + block_threads - 1) / block_threads;
    const bool draws = std::any_of(k.code.begin(), k.code.end(),
                                   [](const ir::instr& in) { return in.op == ir::op_code::random; });
    if (draws && sm_count > 0) blocks = std::min(blocks, random_blocks_per_sm * sm_count);
  }
  launch_config c;
  c.grid = static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, max_grid));
  return c;
}

std::vector<param_info> param_layout(const tuned_ir& k) {
  const std::size_t isz = k.index_64 ? 8 : 4;
  const std::string idx = k.index_64 ? "unsigned long long" : "unsigned";
  const std::string off = k.index_64 ? "long long" : "int";
  const std::string nd = std::to_string(k.ndim);
  const bool multi = needs_multi_index(k);
  std::vector<param_info> p;
  p.push_back({param_role::count, -1, idx, "n", isz, isz});
  if (multi)
    p.push_back({param_role::shape, -1, "nf_dims<" + nd + ", " + idx + ">", "shape", isz * k.ndim, isz});
  if (k.reduction) p.push_back({param_role::reduce, -1, "nf_reduce_args", "reduce", 48, 8});
  for (std::size_t o = 0; o < k.outputs.size(); ++o)
    p.push_back({param_role::output, int(o), std::string(cuda_type(k.outputs[o].dt)) + "*",
                 numbered("out", o), 8, 8});
  const bool scan = k.reduction && k.reduction->strategy == ir::reduce_strategy::scan;
  if (scan)
    p.push_back({param_role::output_strides, -1, "nf_dims<" + nd + ", " + off + ">", "out_strides",
                 isz * k.ndim, isz});
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    const std::string s = std::to_string(i);
    p.push_back(
        {param_role::input, int(i), "const " + std::string(cuda_type(k.inputs[i].dt)) + "*", "in" + s, 8, 8});
    if (!is_flat(k.inputs[i].cls))
      p.push_back({param_role::input_strides, int(i), "nf_dims<" + nd + ", " + off + ">",
                   "in" + s + "_strides", isz * k.ndim, isz});
  }
  for (std::size_t i = 0; i < k.scalars.size(); ++i)
    p.push_back({param_role::scalar, int(i), cuda_type(k.scalars[i]), numbered("s", i),
                 itemsize(k.scalars[i]), scalar_align(k.scalars[i])});
  if (k.reduction && !ir::is_arg_reduction(k.reduction->kind))
    p.push_back({param_role::identity, -1, cuda_type(k.reduction->acc_dt), "identity",
                 itemsize(k.reduction->acc_dt), scalar_align(k.reduction->acc_dt)});
  for (std::size_t i = 0; i < k.iotas.size(); ++i) {
    const std::string s = std::to_string(i);
    if (is_random_slot(k, int(i)))
      p.push_back({param_role::iota, int(i), "nf_random_params", "it" + s, sizeof(random_block), 8});
    else
      p.push_back({param_role::iota, int(i), "nf_iota_params", "it" + s, sizeof(iota_block), 8});
    if (!is_flat(k.iotas[i]))
      p.push_back({param_role::iota_coeffs, int(i), "nf_dims<" + nd + ", long long>", "it" + s + "_coeffs",
                   8 * std::size_t(k.ndim), 8});
  }
  return p;
}

param_plan plan_params(const tuned_ir& k) {
  param_plan plan;
  plan.layout = param_layout(k);
  for (const auto& p : plan.layout) {
    plan.total_bytes = (plan.total_bytes + p.align - 1) / p.align * p.align;
    plan.offsets.push_back(plan.total_bytes);
    plan.total_bytes += p.size;
  }
  if (k.reduction) {
    plan.fold_width = reduce_fold_width(k);
    plan.lane_outputs = reduce_lane_outputs(k);
    plan.wide_loads = reduce_wide_loads(k);
    plan.prologue_inputs = reduce_prologue_inputs(k);
    plan.stage_bytes = reduce_stage_bytes(k);
  }
  return plan;
}

kernel_params build_params(const tuned_ir& k, const ir::kernel_args& a, const reduce_scratch& scratch) {
  return build_params(k, plan_params(k), a, scratch);
}

kernel_params build_params(const tuned_ir& k, const param_plan& plan, const ir::kernel_args& a,
                           const reduce_scratch& scratch) {
  if (a.shape.size() != static_cast<std::size_t>(k.ndim) || a.inputs.size() != k.inputs.size() ||
      a.scalars.size() != k.scalars.size() || a.iotas.size() != k.iotas.size() ||
      a.outputs.size() != k.outputs.size())
    throw error("jit::build_params: launch arguments do not match the kernel's structure");
  const auto& layout = plan.layout;
  const auto& offsets = plan.offsets;
  const std::size_t total = plan.total_bytes;
  kernel_params out;
  const std::size_t chunks = (total + 15) / 16 + 1;
  out.storage_.resize(chunks);
  std::memset(out.storage_.data(), 0, chunks * 16);
  std::byte* base = out.base();

  // Integers of the kernel's index or offset width.
  auto put_int = [&](std::byte* dst, std::int64_t v, bool is_signed, const char* what) {
    if (k.index_64) {
      std::memcpy(dst, &v, 8);
      return;
    }
    const bool fits = is_signed ? v >= std::numeric_limits<std::int32_t>::min() &&
                                      v <= std::numeric_limits<std::int32_t>::max()
                                : v >= 0 && v <= std::numeric_limits<std::uint32_t>::max();
    if (!fits) throw error(std::string("jit::build_params: ") + what + " does not fit a 32-bit kernel");
    if (is_signed) {
      const auto w = static_cast<std::int32_t>(v);
      std::memcpy(dst, &w, 4);
    } else {
      const auto w = static_cast<std::uint32_t>(v);
      std::memcpy(dst, &w, 4);
    }
  };

  for (std::size_t i = 0; i < layout.size(); ++i) {
    const auto& p = layout[i];
    std::byte* dst = base + offsets[i];
    out.offsets_.push_back(static_cast<std::uint32_t>(offsets[i]));
    const std::size_t isz = k.index_64 ? 8 : 4;
    switch (p.role) {
      case param_role::count:
        put_int(dst, a.size(), false, "the element count");
        break;
      case param_role::shape:
        for (int d = 0; d < k.ndim; ++d) put_int(dst + d * isz, a.shape[d], false, "a dimension");
        break;
      case param_role::output:
        std::memcpy(dst, &a.outputs[p.slot], sizeof(void*));
        break;
      case param_role::input: {
        const auto& in = a.inputs[p.slot];
        const void* ptr = static_cast<const char*>(in.data) +
                          in.offset * static_cast<std::int64_t>(itemsize(k.inputs[p.slot].dt));
        std::memcpy(dst, &ptr, sizeof(void*));
        break;
      }
      case param_role::input_strides: {
        const auto& st = a.inputs[p.slot].strides;
        if (st.size() != static_cast<std::size_t>(k.ndim))
          throw error("jit::build_params: input strides do not match ndim");
        for (int d = 0; d < k.ndim; ++d) put_int(dst + d * isz, st[d], true, "a stride");
        break;
      }
      case param_role::scalar:
        std::memcpy(dst, a.scalars[p.slot].bytes, p.size);
        break;
      case param_role::iota: {
        const auto& io = a.iotas[p.slot];
        if (io.random) {
          const auto& r = *io.random;
          random_block b{};
          std::copy(r.key.begin(), r.key.end(), b.key);
          std::copy(r.ctr.begin(), r.ctr.end(), b.ctr);
          b.first = r.first;
          b.carried = r.carried;
          b.offset = io.offset;
          b.carries = r.carries;
          std::memcpy(dst, &b, sizeof b);
          break;
        }
        iota_block b{};
        b.start_re = io.start.real();
        b.start_im = io.start.imag();
        b.step_re = io.step.real();
        b.step_im = io.step.imag();
        b.start_int = io.start_int();
        b.step_int = io.step_int();
        b.offset = io.offset;
        b.equals = io.equals ? 1 : 0;
        std::memcpy(dst, &b, sizeof b);
        break;
      }
      case param_role::reduce: {
        // Host mirror of nf_reduce_args.
        const int kept = k.reduction->kept_ndim;
        std::uint64_t n_out = 1, n_red = 1;
        for (int d = 0; d < k.ndim; ++d) (d < kept ? n_out : n_red) *= static_cast<std::uint64_t>(a.shape[d]);
        std::memcpy(dst, &n_out, 8);
        std::memcpy(dst + 8, &n_red, 8);
        std::memcpy(dst + 16, &scratch.partials, 8);
        std::memcpy(dst + 24, &scratch.arrivals, 8);
        const std::uint32_t wide = scratch.wide ? 1 : 0;
        std::memcpy(dst + 32, &wide, 4);
        std::memcpy(dst + 36, &scratch.stages, 4);
        std::memcpy(dst + 40, &scratch.shifts, 4);
        break;
      }
      case param_role::output_strides: {
        const auto& st = a.output_strides;
        if (st.size() != static_cast<std::size_t>(k.ndim))
          throw error("jit::build_params: output strides do not match ndim");
        for (int d = 0; d < k.ndim; ++d) put_int(dst + d * isz, st[d], true, "an output stride");
        break;
      }
      case param_role::identity:
        std::memcpy(dst, a.identity.bytes, p.size);
        break;
      case param_role::iota_coeffs: {
        const auto& c = a.iotas[p.slot].coeffs;
        if (c.size() != static_cast<std::size_t>(k.ndim))
          throw error("jit::build_params: iota coefficients do not match ndim");
        std::memcpy(dst, c.data(), 8 * c.size());
        break;
      }
    }
  }
  return out;
}

}  // namespace ndfuse::jit
