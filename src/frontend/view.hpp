// Builders of view nodes, shared by indexing and the shape-manipulation ops.
#pragma once
#include <cstdint>
#include <vector>

#include "frontend/build.hpp"
#include "ir/view.hpp"

namespace ndfuse::frontend {

// The view of x with shape `shape`: a strided buffer over x's storage when x is evaluated and the
// strides allow it, else a view node (fused as an index remap). A reshape of an evaluated array
// whose strides do not allow it views a lazy copy, as NumPy copies there.
array make_view(const array& x, ir::view_params p, const shape_t& shape);

// An affine view with every coefficient 0: fill in base and coeff, then make_view.
ir::view_params affine_view(std::size_t in_ndim, std::size_t out_ndim);
inline std::int64_t& coeff(ir::view_params& p, std::size_t in_dim, std::size_t out_dim, std::size_t out_ndim) {
  return p.coeff[in_dim * out_ndim + out_dim];
}

// Axis in [-ndim, ndim) -> [0, ndim), else shape_error (NumPy's AxisError) naming the op.
int normalize_axis(int axis, std::int64_t ndim, const char* op);

array permute(const array& x, const std::vector<int>& order);  // out dim k = x's dim order[k]
array reshape_view(const array& x, const shape_t& shape);      // exact shape, same size
array lazy_copy(const array& x);                               // an unevaluated identity node

}  // namespace ndfuse::frontend
