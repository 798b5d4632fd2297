// Sorting and searching: library calls (ir/library.hpp) wrapped in the elementwise work around
// them, which fuses. The axis to sort is moved last (a view; the library reads a C-order copy).
#include "ndfuse/sorting.hpp"

#include <algorithm>
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

array sort_along(const array& a, int axis, bool indices, const char* op) {
  const auto& an = checked(a, op);
  const int ax = frontend::normalize_axis(axis, static_cast<std::int64_t>(an->shape.size()), op);
  const array moved = moveaxis(a, ax, -1);
  ir::library_call c;
  c.op = ir::library_op::sort;
  c.dt = an->dt;
  c.length = an->shape[ax];
  c.rows = c.length ? an->size() / c.length : 0;
  c.indices = indices;
  array out = frontend::library_node(c, indices ? dtype::int64 : an->dt, {moved}, moved.shape());
  if (indices) frontend::known_range(out, 0, std::max<std::int64_t>(c.length - 1, 0));
  return moveaxis(out, -1, ax);
}

void check_kth(const array& a, const std::vector<std::int64_t>& kth, int axis, const char* op) {
  const auto& an = checked(a, op);
  const int ax = frontend::normalize_axis(axis, static_cast<std::int64_t>(an->shape.size()), op);
  const std::int64_t n = an->shape[ax];
  for (auto k : kth)
    if (k < -n || k >= n)
      throw value_error(std::string(op) + ": kth(=" + std::to_string(k) + ") out of bounds (" +
                        std::to_string(n) + ")");
}

}  // namespace

array sort(const array& a, int axis) {
  return sort_along(a, axis, false, "sort");
}
array sort(const array& a, none_t) {
  return sort_along(ravel(a), 0, false, "sort");
}
array argsort(const array& a, int axis) {
  return sort_along(a, axis, true, "argsort");
}
array argsort(const array& a, none_t) {
  return sort_along(ravel(a), 0, true, "argsort");
}

// A full sort is a partition for every kth at once.
array partition(const array& a, const std::vector<std::int64_t>& kth, int axis) {
  check_kth(a, kth, axis, "partition");
  return sort_along(a, axis, false, "partition");
}
array partition(const array& a, std::int64_t kth, int axis) {
  return partition(a, std::vector<std::int64_t>{kth}, axis);
}
array argpartition(const array& a, const std::vector<std::int64_t>& kth, int axis) {
  check_kth(a, kth, axis, "argpartition");
  return sort_along(a, axis, true, "argpartition");
}
array argpartition(const array& a, std::int64_t kth, int axis) {
  return argpartition(a, std::vector<std::int64_t>{kth}, axis);
}

namespace {

array searchsorted_as(const array& a, const array& v, dtype t, std::string_view side) {
  if (side != "left" && side != "right")
    throw value_error("searchsorted: side must be 'left' or 'right', got '" + std::string(side) + "'");
  if (a.ndim() != 1)
    throw shape_error("searchsorted: the sorted array must be 1-dimensional, got shape " +
                      shape_str(a.shape()));
  ir::library_call c;
  c.op = ir::library_op::searchsorted;
  c.dt = t;
  c.rows = v.size();
  c.length = a.size();
  c.right = side == "right";
  array out = frontend::library_node(c, dtype::int64, {a.astype(t), v.astype(t)}, v.shape());
  return frontend::known_range(out, 0, c.length);
}

}  // namespace

array searchsorted(const array& a, const array& v, std::string_view side) {
  checked(a, "searchsorted");
  checked(v, "searchsorted");
  return searchsorted_as(a, v, promote_types(a.dtype(), v.dtype()), side);
}

array searchsorted(const array& a, scalar v, std::string_view side) {
  const frontend::operands_device on_their_device(a);
  checked(a, "searchsorted");
  const dtype t = frontend::promote_with(a.dtype(), operand(v), "searchsorted");
  return searchsorted_as(a, full({}, v, t), t, side);
}

namespace {

// The flattened array sorted, and where each run of equal values starts (with equal_nan, NaNs
// count as equal: np.unique's default; the array-API forms keep every NaN apart).
struct sorted_runs {
  array perm;    // argsort of the flattened array (stable)
  array sorted;  // the flattened array in sorted order
  array flags;   // bool: element i starts a run
  array starts;  // int64: the indices of the run starts
  std::int64_t n = 0;
};

sorted_runs runs_of(const array& a, bool equal_nan, const char* op) {
  checked(a, op);
  sorted_runs r;
  const array flat = ravel(a);
  r.n = flat.size();
  r.perm = argsort(flat, 0);
  frontend::known_range(r.perm, 0, std::max<std::int64_t>(r.n - 1, 0));
  r.sorted = frontend::gather(flat, {0}, {r.perm}, {r.n});
  if (r.n == 0) {
    r.flags = zeros({0}, dtype::bool_);
    r.starts = zeros({0}, dtype::int64);
    return r;
  }
  const array next = r.sorted(slice(1, none)), prev = r.sorted(slice(-1));
  array differs = not_equal(next, prev);
  if (equal_nan && is_inexact(a.dtype()))
    differs = logical_and(differs, logical_not(logical_and(isnan(next), isnan(prev))));
  r.flags = concatenate({ones({1}, dtype::bool_), differs});
  r.starts = frontend::true_indices(r.flags);
  return r;
}

array values_of(const sorted_runs& r) {
  return frontend::gather(r.sorted, {0}, {r.starts}, r.starts.shape());
}

array counts_of(const sorted_runs& r) {
  if (r.n == 0) return zeros({0}, dtype::int64);
  const array ends = concatenate({r.starts(slice(1, none)), full({1}, r.n, dtype::int64)});
  return subtract(ends, r.starts);
}

array inverse_of(const sorted_runs& r, const shape_t& shape) {
  array inverse = zeros({r.n}, dtype::int64);
  if (r.n > 0) put(inverse, r.perm, subtract(cumsum(r.flags.astype(dtype::int64)), 1));
  return reshape(inverse, shape);
}

}  // namespace

array unique(const array& a) {
  const frontend::operands_device on_their_device(a);
  return values_of(runs_of(a, true, "unique"));
}
array unique_values(const array& a) {
  return values_of(runs_of(a, false, "unique_values"));
}

unique_all_result unique_all(const array& a) {
  const frontend::operands_device on_their_device(a);
  const auto r = runs_of(a, false, "unique_all");
  return {values_of(r), frontend::gather(r.perm, {0}, {r.starts}, r.starts.shape()), inverse_of(r, a.shape()),
          counts_of(r)};
}

unique_counts_result unique_counts(const array& a) {
  const frontend::operands_device on_their_device(a);
  const auto r = runs_of(a, false, "unique_counts");
  return {values_of(r), counts_of(r)};
}

unique_inverse_result unique_inverse(const array& a) {
  const frontend::operands_device on_their_device(a);
  const auto r = runs_of(a, false, "unique_inverse");
  return {values_of(r), inverse_of(r, a.shape())};
}

namespace {

array bincount_of(const array& x, const array* weights, std::int64_t minlength) {
  const frontend::operands_device on_their_device(x);
  const auto& xn = checked(x, "bincount");
  if (xn->shape.size() != 1)
    throw shape_error("bincount: x must be 1-dimensional, got shape " + shape_str(xn->shape));
  // NumPy casts x to intp with the 'safe' rule: bools and integers that fit in int64.
  if (!(xn->dt == dtype::bool_ || is_signed_integer(xn->dt) || xn->dt == dtype::uint8 ||
        xn->dt == dtype::uint16 || xn->dt == dtype::uint32))
    throw dtype_error("bincount: cannot cast array data from dtype('" + std::string(dtype_name(xn->dt)) +
                      "') to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw value_error("bincount: minlength must be non-negative");
  if (weights) {
    checked(*weights, "bincount");
    if (weights->shape() != xn->shape)
      throw shape_error("bincount: the weights and list don't have the same length (" +
                        shape_str(weights->shape()) + " and " + shape_str(xn->shape) + ")");
    if (is_complex(weights->dtype()))
      throw dtype_error("bincount: cannot cast weights from complex to float64 according to the rule 'safe'");
  }
  const dtype out = weights ? dtype::float64 : dtype::int64;
  if (xn->size() == 0) return zeros({minlength}, dtype::int64);  // NumPy's, weights or not
  const array xi = x.astype(dtype::int64);
  const auto [lo, hi] = frontend::value_range(xi);
  if (lo < 0) throw value_error("bincount: 'list' argument must have no negative elements");
  ir::library_call c;
  c.op = ir::library_op::bincount;
  c.dt = dtype::int64;
  c.rows = xn->size();
  c.length = std::max(hi + 1, minlength);
  c.weighted = weights != nullptr;
  std::vector<array> inputs{xi};
  if (weights) inputs.push_back(weights->astype(dtype::float64));
  return frontend::library_node(c, out, inputs, {c.length});
}

}  // namespace

array bincount(const array& x, std::int64_t minlength) {
  return bincount_of(x, nullptr, minlength);
}
array bincount(const array& x, const array& weights, std::int64_t minlength) {
  return bincount_of(x, &weights, minlength);
}

}  // namespace ndfuse
