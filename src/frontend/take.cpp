// NumPy's take, take_along_axis, put, compress, nonzero, flatnonzero, argwhere and where(cond),
// built from the gather, the scatter and the flatnonzero library call (frontend/gather.hpp).
#include <string>

#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/view.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

using frontend::checked;

namespace {
// take and put read bool indices as the integers 0 and 1 (NumPy casts them to intp), never as a mask.
array as_indices(const array& indices) {
  return indices.dtype() == dtype::bool_ ? indices.astype(dtype::int64) : indices;
}
}  // namespace

// NumPy's take is a[(:,) * axis + (indices,)].
array take(const array& a, const array& indices) {
  return index(ravel(a), {as_indices(indices)});
}

array take(const array& a, const array& indices, int axis) {
  const auto& an = checked(a, "take");
  const int ax = frontend::normalize_axis(axis, static_cast<std::int64_t>(an->shape.size()), "take");
  std::vector<index_item> items(static_cast<std::size_t>(ax), index_item(all));
  items.emplace_back(as_indices(indices));
  return index(a, items);
}

array take_along_axis(const array& a, const array& indices, int axis) {
  const auto& an = checked(a, "take_along_axis");
  const auto& in = checked(indices, "take_along_axis");
  const std::size_t nd = an->shape.size();
  if (in->shape.size() != nd)
    throw shape_error("take_along_axis: `indices` and `arr` must have the same number of dimensions (" +
                      shape_str(in->shape) + " and " + shape_str(an->shape) + ")");
  const int ax = frontend::normalize_axis(axis, static_cast<std::int64_t>(nd), "take_along_axis");
  // Every axis is indexed: `axis` by the indices, the others by their own coordinate.
  shape_t out(nd), src_shape(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    if (static_cast<int>(d) == ax) {
      out[d] = in->shape[d];
      src_shape[d] = an->shape[d];
      continue;
    }
    out[d] = broadcast_shapes({an->shape[d]}, {in->shape[d]}, "take_along_axis")[0];
    src_shape[d] = out[d];
  }
  const array src = broadcast_to(a, src_shape);
  std::vector<int> axes;
  std::vector<array> idx;
  for (std::size_t d = 0; d < nd; ++d) {
    axes.push_back(static_cast<int>(d));
    if (static_cast<int>(d) == ax) {
      idx.push_back(
          broadcast_to(frontend::checked_indices(indices, an->shape[d], ax, "take_along_axis"), out));
    } else {
      array c = frontend::coordinate(out, d);
      idx.push_back(frontend::known_range(c, 0, out[d] - 1));
    }
  }
  return frontend::gather(src, axes, idx, out);
}

array take_along_axis(const array& a, const array& indices, none_t) {
  if (indices.ndim() != 1)
    throw shape_error("take_along_axis: when axis=None, `indices` must have a single dimension, got shape " +
                      shape_str(indices.shape()));
  return take(a, indices);
}

// a.flat[indices] = values: an advanced-index assignment on the flattened a.
void put(array& a, const array& indices, const array& values) {
  const frontend::operands_device on_their_device(a, indices, values);
  const auto& an = checked(a, "put");
  checked(values, "put");
  if (indices.size() == 0) return;
  if (values.size() == 0)
    throw shape_error("put: cannot put an empty array of values at " + shape_str(indices.shape()));
  const std::int64_t n = indices.size();
  // values repeat to the indices' length, as NumPy's put repeats them.
  array v = ravel(values);
  if (v.size() != n) {
    array repeat_at = remainder(arange(n), v.size());
    v = frontend::gather(v, {0}, {frontend::known_range(repeat_at, 0, v.size() - 1)}, {n});
  }
  array flat = ravel(a);
  frontend::assign_advanced(flat, {ravel(as_indices(indices))}, v);
  a = reshape(flat, an->shape);
}

array compress(const array& condition, const array& a) {
  return compress(condition, ravel(a), 0);
}

array compress(const array& condition, const array& a, int axis) {
  if (condition.ndim() != 1)
    throw shape_error("compress: condition must be a 1-d array, got shape " + shape_str(condition.shape()));
  return take(a, flatnonzero(condition), axis);
}

std::vector<array> nonzero(const array& a) {
  return frontend::nonzero_coordinates(a, "nonzero");
}

std::vector<array> where(const array& condition) {
  return frontend::nonzero_coordinates(condition, "where");
}

array flatnonzero(const array& a) {
  return frontend::nonzero_coordinates(ravel(a), "flatnonzero")[0];
}

array argwhere(const array& a) {
  const frontend::operands_device on_their_device(a);
  const auto& an = checked(a, "argwhere");
  if (an->shape.empty()) {
    // NumPy: one row per true element of the 0-d array, and no columns.
    const std::int64_t count = count_nonzero(a).item<std::int64_t>();
    return zeros({count, 0}, dtype::int64);
  }
  const auto coords = frontend::nonzero_coordinates(a, "argwhere");
  return stack(coords, 1);
}

}  // namespace ndfuse
