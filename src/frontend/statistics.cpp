// var, std, their nan forms and average: composites of reductions and elementwise ops with
// NumPy's intermediate dtypes (numpy/_core/_methods.py and lib/_nanfunctions_impl.py), so the
// rounding steps match NumPy's and each reduction fuses with its producers.
#include <cmath>

#include "frontend/reduce_build.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

namespace {

using ir::op_code;

// |d|^2 in d's real dtype: d*d, or real(d * conj(d)) for complex d.
array abs_squared(const array& d) {
  return is_complex(d.dtype()) ? real(multiply(d, conj(d))) : multiply(d, d);
}

// NumPy's _var: the mean with keepdims, the squared deviations, their sum over n - ddof.
array variance(const array& a, const axes& axis, double ddof, bool keepdims, reduce_dtype dt,
               const char* op) {
  const dtype in = frontend::checked(a, op)->dt;
  const std::uint64_t mask = frontend::axis_mask(axis, a.ndim(), op);
  const auto n = static_cast<double>(frontend::reduced_count(a.shape(), mask));
  // Ints and bool compute in float64; otherwise the input's dtype (or dtype=).
  const reduce_dtype work = dt ? dt : (is_inexact(in) ? reduce_dtype{} : reduce_dtype{dtype::float64});
  array mean_keep = true_divide(sum(a, axis, true, work), operand(n));
  array sq = abs_squared(subtract(a, mean_keep));
  return true_divide(sum(sq, axis, keepdims, work), operand(std::max(n - ddof, 0.0)));
}

// NumPy's _nanvar: NaNs count as absent (replaced by 0 and left out of the count); a slice with
// n - ddof <= 0 is NaN.
array nan_variance(const array& a, const axes& axis, double ddof, bool keepdims, reduce_dtype dt,
                   const char* op) {
  const dtype in = frontend::checked(a, op)->dt;
  if (!is_inexact(in)) return variance(a, axis, ddof, keepdims, dt, op);
  const std::uint64_t mask = frontend::axis_mask(axis, a.ndim(), op);
  array nan = isnan(a);
  array clean = where(nan, operand(0.0), a);
  array count_keep =
      frontend::reduce_value(logical_not(nan), op_code::add, dtype::int64, dtype::int64, mask, true, op);
  array total_keep = sum(clean, axis, true, dt);
  array avg = true_divide(total_keep, count_keep).astype(total_keep.dtype());
  array dev = where(nan, operand(0.0), subtract(clean, avg).astype(clean.dtype()));
  array var_sum = sum(abs_squared(dev), axis, keepdims, dt);
  array dof = subtract(
      frontend::reduce_value(logical_not(nan), op_code::add, dtype::int64, dtype::int64, mask, keepdims, op),
      operand(ddof));
  array v = true_divide(var_sum, dof);
  v = v.astype(var_sum.dtype());
  return where(less_equal(dof, operand(0)), operand(std::nan("")), v);
}

}  // namespace

array var(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return variance(a, axis, ddof, keepdims, dt, "var");
}
array std(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return sqrt(variance(a, axis, ddof, keepdims, dt, "std"));
}
array nanvar(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return nan_variance(a, axis, ddof, keepdims, dt, "nanvar");
}
array nanstd(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return sqrt(nan_variance(a, axis, ddof, keepdims, dt, "nanstd"));
}
array var(array&& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return frontend::consume(a, var(a, std::move(axis), ddof, keepdims, dt));
}
array std(array&& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return frontend::consume(a, std(a, std::move(axis), ddof, keepdims, dt));
}
array nanvar(array&& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return frontend::consume(a, nanvar(a, std::move(axis), ddof, keepdims, dt));
}
array nanstd(array&& a, axes axis, double ddof, bool keepdims, reduce_dtype dt) {
  return frontend::consume(a, nanstd(a, std::move(axis), ddof, keepdims, dt));
}
array& var(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt, out o) {
  return frontend::assign_reduction(o, var(a, std::move(axis), ddof, keepdims, dt), "var");
}
array& std(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt, out o) {
  return frontend::assign_reduction(o, std(a, std::move(axis), ddof, keepdims, dt), "std");
}

array average(const array& a, axes axis, bool keepdims) {
  return mean(a, std::move(axis), keepdims);
}

namespace {

// 1-D weights along `axis` of an n-d array, as a broadcastable view: shape 1 everywhere but
// there. The weights are evaluated first (a view of a buffer costs nothing).
array weights_along(const array& weights, int axis, std::int64_t ndim) {
  array w = weights;
  w.eval();
  const auto& wn = w.node();
  auto view = ir::new_node();
  view->place = wn->place;
  view->op = ir::op_code::buffer;
  view->dt = wn->dt;
  view->shape.assign(static_cast<std::size_t>(ndim), 1);
  view->shape[static_cast<std::size_t>(axis)] = wn->shape[0];
  view->strides.assign(static_cast<std::size_t>(ndim), 0);
  view->strides[static_cast<std::size_t>(axis)] = wn->strides[0];
  view->offset = wn->offset;
  view->storage = wn->storage;
  view->publish();
  return array(view);
}

}  // namespace

array average(const array& a, axes axis, const array& weights_in, bool keepdims) {
  const auto& an = frontend::checked(a, "average");
  const auto& wn0 = frontend::checked(weights_in, "average");
  array weights = weights_in;
  if (wn0->shape != an->shape) {
    // NumPy: differing shapes need 1-D weights and one axis, with the axis' length.
    if (axis.all())
      throw shape_error("average: axis must be specified when shapes of a " + shape_str(an->shape) +
                        " and weights " + shape_str(wn0->shape) + " differ");
    if (wn0->shape.size() != 1 || axis.list().size() != 1)
      throw shape_error("average: 1D weights expected when shapes of a " + shape_str(an->shape) +
                        " and weights " + shape_str(wn0->shape) + " differ");
    const std::uint64_t mask = frontend::axis_mask(axis, a.ndim(), "average");
    int k = 0;
    while (!(mask >> k & 1)) ++k;
    if (wn0->shape[0] != an->shape[static_cast<std::size_t>(k)])
      throw shape_error("average: length of weights " + shape_str(wn0->shape) +
                        " not compatible with specified axis of shape " + shape_str(an->shape));
    weights = weights_along(weights_in, k, a.ndim());
  }
  const auto& wn = weights.node();
  // NumPy: result_type(a, w, 1.0) for integer inputs; the weights' sum is the scale.
  dtype t = promote_types(an->dt, wn->dt);
  if (!is_inexact(an->dt)) t = promote_types(t, dtype::float64);
  array scale = sum(weights, axis, keepdims, t);
  array weighted = sum(multiply(a.astype(t), weights.astype(t)), axis, keepdims, t);
  return true_divide(weighted, scale);
}

}  // namespace ndfuse
