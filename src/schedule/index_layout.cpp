// The fuser's plan-only index passes: collapse_dimensions (the iteration space each kernel walks)
// and classify_indices (how each input's offset follows from the index: flat, broadcast or strided;
// 32- or 64-bit indices). Neither reads the DAG; how a backend walks the space is its own choice.
#include <algorithm>
#include <cstdlib>

#include "schedule/passes.hpp"

namespace ndfuse::schedule {

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

namespace {

ir::index_class classify(const std::vector<std::int64_t>& strides,
                         const std::vector<std::int64_t>& contiguous) {
  bool flat = true, broadcast = true;
  for (std::size_t d = 0; d < strides.size(); ++d) {
    flat = flat && strides[d] == contiguous[d];
    broadcast = broadcast && (strides[d] == contiguous[d] || strides[d] == 0);
  }
  if (flat) return ir::index_class::flat;
  if (broadcast) return ir::index_class::broadcast;
  return ir::index_class::strided;
}

}  // namespace

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
      step.kernel.inputs[k].cls =
          step.kernel.inputs[k].by_address() ? ir::index_class::strided : classify(in.strides, contiguous);
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

}  // namespace ndfuse::schedule
