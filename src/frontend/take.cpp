// NumPy's take, take_along_axis, put, compress, nonzero, flatnonzero, argwhere and where(cond),
// built from the gather, the scatter and the flatnonzero library call (frontend/gather.hpp).
#include <string>

#include "frontend/gather.hpp"
#include "frontend/view.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

using frontend::checked;

array take(const array& a, const array& indices) {
  const array flat = ravel(a);
  const array i = frontend::checked_indices(indices, flat.size(), 0, "take");
  return frontend::gather(flat, {0}, {i}, indices.shape());
}

array take(const array& a, const array& indices, int axis) {
  const auto& an = checked(a, "take");
  const int ax = frontend::normalize_axis(axis, static_cast<std::int64_t>(an->shape.size()), "take");
  const array i = frontend::checked_indices(indices, an->shape[ax], ax, "take");
  const array g = frontend::gather(a, {ax}, {i}, indices.shape());
  // The index dims replace `axis` in place.
  const int nb = static_cast<int>(indices.ndim());
  std::vector<int> order;
  for (int k = 0; k < ax; ++k) order.push_back(nb + k);
  for (int k = 0; k < nb; ++k) order.push_back(k);
  for (int k = nb + ax; k < static_cast<int>(g.ndim()); ++k) order.push_back(k);
  return frontend::permute(g, order);
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
      idx.push_back(broadcast_to(frontend::checked_indices(indices, an->shape[d], ax, "take_along_axis"), out));
    } else {
      array c = frontend::coordinate(out, d);
      c.node()->range_known = true;
      c.node()->range_min = 0;
      c.node()->range_max = out[d] - 1;
      idx.push_back(c);
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

void put(array& a, const array& indices, const array& values) {
  const auto& an = checked(a, "put");
  checked(values, "put");
  if (indices.size() == 0) return;
  if (values.size() == 0) throw shape_error("put: cannot put an empty array of values at " + shape_str(indices.shape()));
  const array offsets = ravel(frontend::checked_indices(indices, an->size(), 0, "put"));
  // values repeat to the indices' length, as NumPy's put repeats them.
  const array flat_values = ravel(values);
  array v = flat_values;
  if (v.size() != offsets.size()) {
    array repeat_at = remainder(arange(offsets.size()), flat_values.size());
    repeat_at.node()->range_known = true;
    repeat_at.node()->range_min = 0;
    repeat_at.node()->range_max = flat_values.size() - 1;
    v = frontend::gather(flat_values, {0}, {repeat_at}, {offsets.size()});
  }
  ir::library_call c;
  c.op = ir::library_op::library_op_scatter;
  c.dt = an->dt;
  c.rows = offsets.size();
  c.length = an->size();
  a = frontend::library_node(c, an->dt, {a, offsets, v.astype(an->dt)}, an->shape);
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
