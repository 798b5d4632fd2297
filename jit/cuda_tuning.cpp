#include "jit/cuda_tuning.hpp"

#include <algorithm>
#include <cstdlib>

#include "schedule/plan.hpp"

namespace ndfuse::jit {

namespace {

// A transposed read (x.T() copied, or fused into arithmetic) strided along the output's last dim
// touches one element per 32-byte sector per thread; a tiled kernel reads it along its unit-stride
// dim instead, through shared memory. Both tile dims need some extent for the tiles to fill, and the
// tiles of one block share a budget of shared memory (the rest stay plain strided reads).
constexpr std::int64_t tile_min_extent = 16;
constexpr std::size_t tile_shared_budget = 40 * 1024;

// strides_of(i): input i's element strides over `shape`.
template <class Strides>
void choose_tiling(const ir::kernel_ir& k, const shape_t& shape, std::size_t inputs, Strides strides_of,
                   cuda_tuning& t) {
  const int last = k.ndim - 1;
  if (k.reduction || last < 1 || shape[last] < tile_min_extent) return;
  std::size_t shared = 0;
  for (std::size_t i = 0; i < k.inputs.size() && i < inputs; ++i) {
    const auto& in = k.inputs[i];
    const std::vector<std::int64_t>& s = strides_of(i);
    if (in.cls != ir::index_class::strided || in.by_address() || std::abs(s[last]) == 1) continue;
    int unit = -1;
    for (int d = 0; d < last && unit < 0; ++d)
      if (std::abs(s[d]) == 1 && shape[d] >= tile_min_extent) unit = d;
    const std::size_t bytes = 32 * 33 * itemsize(in.dt);
    if (unit < 0 || (t.tile_dim >= 0 && unit != t.tile_dim) || shared + bytes > tile_shared_budget) continue;
    t.tile_dim = unit;
    t.transposed.resize(k.inputs.size());
    t.transposed[i] = true;
    shared += bytes;
  }
}

void choose_fold(const ir::kernel_reduction& r, const shape_t& shape, fold_layout& f) {
  if (r.strategy == ir::reduce_strategy::scan) return;
  std::int64_t n_red = 1;
  for (std::size_t d = static_cast<std::size_t>(r.kept_ndim); d < shape.size(); ++d) n_red *= shape[d];
  const int width = reduce_unit_width(r);
  // Rows in units only when each row's units start where the previous row's ended (the bulk copies
  // and wide loads need every row at one alignment); a full fold has one row.
  const bool divides = n_red % width == 0;
  f.units = width > 1 && n_red >= width && (divides || r.strategy == ir::reduce_strategy::full);
  f.tail = f.units && !divides;
  const std::int64_t n_units = f.units ? n_red / width : n_red;
  f.per_thread = reduce_per_thread(r.strategy, n_units);
  f.per_thread_n_red = f.per_thread ? static_cast<std::int32_t>(n_units) : 0;
  f.staged = reduce_staged(r.strategy, f.units, n_units);
  // Outer folds: neighbouring outputs side by side in each lane, where a lane's outputs never
  // straddle two rows of the innermost kept dim (so every input's unit is one run of its elements).
  const int outputs = reduce_output_width(r);
  f.output_units = outputs > 1 && !f.per_thread && r.kept_ndim > 0 &&
                   shape[static_cast<std::size_t>(r.kept_ndim) - 1] % outputs == 0;
}

// Accumulators in 16 bytes (one wide load's worth); 1 for accumulators wider than 8 bytes.
int accumulators_in_16_bytes(const ir::kernel_reduction& r) {
  const std::size_t acc = itemsize(r.acc_dt);
  return acc > 8 ? 1 : static_cast<int>(16 / acc);
}

}  // namespace

std::string cuda_tuning::key() const {
  std::string k;
  auto put = [&k](auto v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(tile_dim);
  for (bool b : transposed) k += b ? '1' : '0';
  k += '|';
  put(static_cast<std::uint8_t>(fold.units | fold.tail << 1 | fold.per_thread << 2 | fold.staged << 3 |
                                fold.output_units << 4));
  put(fold.per_thread_n_red);
  return k;
}

cuda_tuning choose_tuning(const ir::kernel_ir& k, const shape_t& shape,
                          std::span<const std::vector<std::int64_t>* const> input_strides) {
  cuda_tuning t;
  choose_tiling(
      k, shape, input_strides.size(), [&](std::size_t i) -> const auto& { return *input_strides[i]; }, t);
  if (k.reduction) choose_fold(*k.reduction, shape, t.fold);
  return t;
}

cuda_tuning choose_tuning(const ir::kernel_ir& k, const ir::kernel_args& a) {
  cuda_tuning t;  // on every launch: no allocation unless a tile is taken
  choose_tiling(
      k, a.shape, a.inputs.size(), [&](std::size_t i) -> const auto& { return a.inputs[i].strides; }, t);
  if (k.reduction) choose_fold(*k.reduction, a.shape, t.fold);
  return t;
}

tuned_ir tuned(const schedule::kernel_step& step) {
  std::vector<const std::vector<std::int64_t>*> strides;
  for (const auto& in : step.inputs) strides.push_back(&in.strides);
  return tuned_ir(step.kernel, choose_tuning(step.kernel, step.collapsed_shape, strides));
}

int reduce_unit_width(const ir::kernel_reduction& r) {
  if (ir::is_arg_reduction(r.kind) ||
      (r.strategy != ir::reduce_strategy::full && r.strategy != ir::reduce_strategy::inner))
    return 1;
  return accumulators_in_16_bytes(r);
}

int reduce_output_width(const ir::kernel_reduction& r) {
  if (ir::is_arg_reduction(r.kind) || r.strategy != ir::reduce_strategy::outer) return 1;
  return std::min(4, accumulators_in_16_bytes(r));
}

int reduce_lane_outputs(const tuned_ir& k) {
  return k.fold.output_units ? reduce_output_width(*k.reduction) : 1;
}

int reduce_fold_width(const tuned_ir& k) {
  return k.fold.units ? reduce_unit_width(*k.reduction) : 1;
}

std::string reduce_layout_name(const tuned_ir& k) {
  const auto& r = *k.reduction;
  const auto& f = k.fold;
  return (f.units ? "units of " + std::to_string(reduce_unit_width(r)) + " elements" +
                        (f.tail ? " and the elements after the last unit" : "")
          : f.output_units ? "element by element, " + std::to_string(reduce_output_width(r)) +
                                 " neighbouring outputs per lane"
                           : "element by element") +
         std::string(f.per_thread ? ", one thread per output"
                     : f.staged   ? ", chunks of " + std::to_string(reduce_stage_units) +
                                      " units staged in shared memory, the lanes of a block share each output"
                                : ", the lanes of a block share each output");
}

bool reduce_staged(ir::reduce_strategy s, bool units, std::int64_t n_red_units) {
  const bool along_rows = s == ir::reduce_strategy::full || s == ir::reduce_strategy::inner;
  return along_rows && units && n_red_units >= 2 * reduce_stage_units;
}

bool reduce_per_thread(ir::reduce_strategy s, std::int64_t n_red) {
  switch (s) {
    case ir::reduce_strategy::full:
    case ir::reduce_strategy::inner:
      return n_red < 16;
    case ir::reduce_strategy::outer:
      return n_red < 8;
    case ir::reduce_strategy::scan:
      return false;
  }
  return false;
}

}  // namespace ndfuse::jit
