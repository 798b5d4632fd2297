// Views: a node whose elements are another node's elements at remapped indices. Every view is
// either affine in the output index (slices, integer indices, transposes, broadcasts, new axes,
// diagonals) or a reshape. Both act on strides, so a view of a buffer is a new strided buffer, and a
// view of an unevaluated node is pushed down to the leaves of the fused kernel: no copy either way.
#pragma once
#include <cstdint>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse::ir {

struct view_params {
  bool reshape = false;  // reshape: the C-order element sequence is kept, the shape changes
  // Affine: input index d = base[d] + sum_k coeff[d * out_ndim + k] * output index k.
  std::vector<std::int64_t> base;
  std::vector<std::int64_t> coeff;
};

// Element strides (and offset) over `in_shape` -> over `out_shape`, through the view. False when a
// reshape cannot be expressed with strides (NumPy then copies).
bool apply_view(const view_params& v, const shape_t& in_shape, const shape_t& out_shape,
                std::vector<std::int64_t>& strides, std::int64_t& offset);

// NumPy's no-copy reshape: strides over `out_shape` that visit the elements of (in_shape,
// in_strides) in C order, or false.
bool reshape_strides(const shape_t& in_shape, const std::vector<std::int64_t>& in_strides,
                     const shape_t& out_shape, std::vector<std::int64_t>& out_strides);

// Strides of an operand of shape `from` broadcast (right-aligned, NumPy's rule) to shape `to`.
std::vector<std::int64_t> broadcast_strides(const shape_t& from, const std::vector<std::int64_t>& strides,
                                            const shape_t& to);

}  // namespace ndfuse::ir
