// Builders of view nodes, shared by indexing and the shape-manipulation ops.
#pragma once
#include <cstdint>
#include <vector>

#include "frontend/build.hpp"
#include "ir/view.hpp"
#include "ndfuse/index.hpp"

namespace ndfuse::frontend {

// The view of x with shape `shape`: a strided buffer over x's storage when x is evaluated and the
// strides allow it, else a view node (fused as an index remap). A reshape of an evaluated array
// whose strides do not allow it views a lazy copy, as NumPy copies there.
array make_view(const array& x, ir::view_params p, const shape_t& shape);

// A basic index resolved against a shape (NumPy's rules, index_error where NumPy raises): the
// view's shape; per view dim, the input dim it walks (-1 for a new axis) and its step; per input
// dim, the first index (base) and whether an integer removed it.
struct basic_index {
  shape_t shape;
  std::vector<std::pair<std::int64_t, std::int64_t>> source;
  std::vector<std::int64_t> base;
  std::vector<bool> integer;
};
basic_index resolve_index(const shape_t& in, const std::vector<index_item>& items);

// Python's slice.indices(n) for a nonzero step: the first position, the step and the count.
struct slice_span {
  std::int64_t start = 0, step = 1, length = 0;
};
slice_span resolve_slice(const slice& s, std::int64_t n);

// An affine view with every coefficient 0: fill in base and coeff, then make_view.
ir::view_params affine_view(std::size_t in_ndim, std::size_t out_ndim);
inline std::int64_t& coeff(ir::view_params& p, std::size_t in_dim, std::size_t out_dim,
                           std::size_t out_ndim) {
  return p.coeff[in_dim * out_ndim + out_dim];
}

// Axis in [-ndim, ndim) -> [0, ndim), else shape_error (NumPy's AxisError) naming the op.
int normalize_axis(int axis, std::int64_t ndim, const char* op);

array permute(const array& x, const std::vector<int>& order);  // out dim k = x's dim order[k]
array reshape_view(const array& x, const shape_t& shape);      // exact shape, same size
array lazy_copy(const array& x);                               // an unevaluated identity node

// A view that may reach outside x (a piece of a concatenation, the interior of a pad): always a
// view node, and read only under a guard.
node_ptr overhanging_view(const node_ptr& x, ir::view_params p, const shape_t& shape);
// `value` where the bool `mask` holds; its loads happen only there (the value elsewhere is unspecified).
node_ptr guarded(const node_ptr& mask, const node_ptr& value);
// where(mask, value, otherwise), with value's loads guarded by the mask.
array select_region(const array& mask, const node_ptr& value, const array& otherwise);
// The int64 coordinate along `axis` of every element of `shape`.
array coordinate(const shape_t& shape, std::size_t axis);

}  // namespace ndfuse::frontend
