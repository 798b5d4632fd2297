// Reductions and scans: validate the axes, resolve NumPy's dtypes, build one reduce (or scan)
// node whose input cast runs in the fused prologue, and the elementwise tail (mean's divide).
#include "ndfuse/reduce.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "frontend/reduce_build.hpp"
#include "ir/host_types.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse {
namespace frontend {

using ir::op_code;

std::uint64_t axis_mask(const axes& a, std::int64_t ndim, const char* op) {
  if (ndim > 64) throw shape_error(std::string(op) + ": arrays of more than 64 dimensions are not supported");
  if (a.all()) return ndim == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << ndim) - 1;
  std::uint64_t mask = 0;
  for (int axis : a.list()) {
    const std::int64_t d = axis < 0 ? axis + ndim : axis;
    if (d < 0 || d >= ndim)
      throw shape_error(std::string(op) + ": axis " + std::to_string(axis) +
                        " is out of bounds for array of dimension " + std::to_string(ndim));
    if (mask & (std::uint64_t(1) << d))
      throw shape_error(std::string(op) + ": duplicate value in 'axis' (" + std::to_string(axis) + ")");
    mask |= std::uint64_t(1) << d;
  }
  return mask;
}

std::int64_t reduced_count(const shape_t& shape, std::uint64_t mask) {
  std::int64_t n = 1;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (mask >> d & 1) n *= shape[d];
  return n;
}

shape_t reduced_shape(const shape_t& shape, std::uint64_t mask, bool keepdims) {
  shape_t out;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (!(mask >> d & 1))
      out.push_back(shape[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

namespace {

template <class T>
void put(ir::scalar_bits& b, T v, int at = 0) {
  std::memcpy(b.bytes + at * sizeof(T), &v, sizeof(T));
}

// The identity in `t` of the fold: `high` selects the top of the order (min's start), `nan` the
// NaN start of fmin/fmax (which any number replaces).
ir::scalar_bits extreme_bits(dtype t, bool high, bool nan) {
  ir::scalar_bits b;
  const double inf = high ? HUGE_VAL : -HUGE_VAL;
  const double v = nan ? std::numeric_limits<double>::quiet_NaN() : inf;
  switch (t) {
    case dtype::bool_:
      put<std::uint8_t>(b, high ? 1 : 0);
      break;
    case dtype::int8:
      put<std::int8_t>(b, high ? INT8_MAX : INT8_MIN);
      break;
    case dtype::int16:
      put<std::int16_t>(b, high ? INT16_MAX : INT16_MIN);
      break;
    case dtype::int32:
      put<std::int32_t>(b, high ? INT32_MAX : INT32_MIN);
      break;
    case dtype::int64:
      put<std::int64_t>(b, high ? INT64_MAX : INT64_MIN);
      break;
    case dtype::uint8:
      put<std::uint8_t>(b, high ? UINT8_MAX : 0);
      break;
    case dtype::uint16:
      put<std::uint16_t>(b, high ? UINT16_MAX : 0);
      break;
    case dtype::uint32:
      put<std::uint32_t>(b, high ? UINT32_MAX : 0);
      break;
    case dtype::uint64:
      put<std::uint64_t>(b, high ? UINT64_MAX : 0);
      break;
    case dtype::float16:
      put<std::uint16_t>(b, ir::double_to_half(v));
      break;
    case dtype::bfloat16:
      put<std::uint16_t>(b, ir::double_to_bfloat16(v));
      break;
    case dtype::float32:
      put<float>(b, static_cast<float>(v));
      break;
    case dtype::float64:
      put<double>(b, v);
      break;
    case dtype::complex64:
      put<float>(b, static_cast<float>(v), 0);
      put<float>(b, static_cast<float>(v), 1);
      break;
    case dtype::complex128:
      put<double>(b, v, 0);
      put<double>(b, v, 1);
      break;
  }
  return b;
}

const char* combine_name(op_code c) {
  return c == op_code::add           ? "add"
         : c == op_code::multiply    ? "multiply"
         : c == op_code::minimum     ? "minimum"
         : c == op_code::maximum     ? "maximum"
         : c == op_code::fmin        ? "fmin"
         : c == op_code::fmax        ? "fmax"
         : c == op_code::logical_and ? "logical_and"
                                     : "logical_or";
}

bool has_identity(op_code c) {
  return c != op_code::minimum && c != op_code::maximum && c != op_code::fmin && c != op_code::fmax;
}

void check_nonempty(const node_ptr& x, std::uint64_t mask, const char* op, const char* ufunc) {
  if (x->size() == 0 && reduced_count(x->shape, mask) == 0)
    throw shape_error(std::string(op) + ": zero-size array to reduction operation " + ufunc +
                      " which has no identity (shape " + shape_str(x->shape) + ")");
}

node_ptr reduce_node(const node_ptr& input, dtype result, const ir::reduction_params& p, bool keepdims) {
  node_ptr n = make_node(op_code::reduce, result, {input}, reduced_shape(input->shape, p.axes, keepdims));
  n->reduction = p;
  return n;
}

}  // namespace

ir::scalar_bits identity_bits(op_code combine, dtype t) {
  switch (combine) {
    case op_code::add:
    case op_code::logical_or:
      return {};
    case op_code::multiply:
    case op_code::logical_and:
      return scalar_to_bits(scalar(1), t, "identity");
    case op_code::minimum:
      return extreme_bits(t, true, false);
    case op_code::maximum:
      return extreme_bits(t, false, false);
    case op_code::fmin:
      return is_inexact(t) ? extreme_bits(t, true, true) : extreme_bits(t, true, false);
    case op_code::fmax:
      return is_inexact(t) ? extreme_bits(t, false, true) : extreme_bits(t, false, false);
    default:
      throw error("reduce: no identity for this combining op");
  }
}

dtype sum_dtype(dtype t) {
  if (t == dtype::bool_ || is_signed_integer(t)) return dtype::int64;
  if (is_unsigned_integer(t)) return dtype::uint64;
  return t;
}

array as_inexact(const array& x) {
  return is_inexact(x.dtype()) ? x : x.astype(dtype::float64);
}

array reduce_value(const array& x, op_code combine, dtype acc, dtype result, std::uint64_t mask,
                   bool keepdims, const char* op, const std::optional<ir::scalar_bits>& initial) {
  const node_ptr& xn = checked(x, op);
  if (!has_identity(combine) && !initial) check_nonempty(xn, mask, op, combine_name(combine));
  ir::reduction_params p;
  p.combine = combine;
  p.acc_dt = acc;
  p.identity = initial ? *initial : identity_bits(combine, acc);
  p.axes = mask;
  return finish(reduce_node(cast_node(xn, acc), result, p, keepdims));
}

array reduce_arg(const array& x, ir::reduce_kind kind, std::uint64_t mask, bool keepdims, const char* op) {
  const node_ptr& xn = checked(x, op);
  if (std::popcount(mask) > 1 && std::popcount(mask) != static_cast<int>(xn->shape.size()))
    throw shape_error(std::string(op) + ": axis must be one integer or none, not several axes");
  check_nonempty(xn, mask, op, op);
  // NumPy's argmax over several axes is an error; axis=None means the flattened array.
  ir::reduction_params p;
  p.kind = kind;
  p.acc_dt = xn->dt;
  p.axes = mask;
  return finish(reduce_node(xn, dtype::int64, p, keepdims));
}

array reduce_user(const array& x, std::shared_ptr<const ir::user_kernel> combine, std::uint64_t mask,
                  bool keepdims, const ir::scalar_bits& identity, const char* op) {
  const node_ptr& xn = checked(x, op);
  ir::reduction_params p;
  p.combine = op_code::user;
  p.acc_dt = xn->dt;
  p.identity = identity;
  p.axes = mask;
  node_ptr n = reduce_node(xn, xn->dt, p, keepdims);
  n->params().user = std::move(combine);
  return finish(std::move(n));
}

array& assign_reduction(out o, const array& result, const char* op) {
  if (o.target.shape() != result.shape())
    throw shape_error(std::string(op) + ": output parameter has shape " + shape_str(o.target.shape()) +
                      ", the reduction's result has shape " + shape_str(result.shape()));
  // NumPy casts a reduction into out= unsafely (a float sum into an int out truncates).
  o.target.assign(result, casting::unsafe);
  return o.target;
}

}  // namespace frontend

using frontend::reduce_value;
using ir::op_code;

namespace {

std::uint64_t mask_of(const array& a, const axes& axis, const char* op) {
  return frontend::axis_mask(axis, frontend::checked(a, op)->shape.size(), op);
}

// sum, prod: the accumulator is NumPy's (widened ints; float16 accumulates in float32 and rounds
// once at the end, as NumPy's pairwise half sum does).
array fold(const array& a, op_code combine, const axes& axis, bool keepdims, reduce_dtype dt,
           const char* op) {
  const dtype in = frontend::checked(a, op)->dt;
  const dtype result = dt ? *dt : frontend::sum_dtype(in);
  const dtype acc = frontend::accumulator_for(result);
  return reduce_value(a, combine, acc, result, mask_of(a, axis, op), keepdims, op);
}

// x with NaN replaced by `fill` (NumPy's _replace_nan); x itself when it cannot hold NaN.
array replace_nan(const array& x, double fill) {
  if (!is_inexact(x.dtype())) return x;
  return where(isnan(x), operand(fill), x);
}

array mean_of(const array& a, const axes& axis, bool keepdims, reduce_dtype dt, const char* op) {
  const dtype in = frontend::checked(a, op)->dt;
  const std::uint64_t mask = mask_of(a, axis, op);
  // NumPy: ints and bool average in float64; float16 sums in float32 and divides there.
  const dtype result = dt ? *dt : (is_inexact(in) ? in : dtype::float64);
  const dtype acc = frontend::accumulator_for(result);
  array total = reduce_value(a, op_code::add, acc, acc, mask, keepdims, op);
  const auto count = static_cast<double>(frontend::reduced_count(a.shape(), mask));
  array m = true_divide(total, operand(count));
  return m.dtype() == result ? m : m.astype(result);
}

}  // namespace

#define NDFUSE_REDUCE_FORMS(name)                                                        \
  array name(array&& a, axes axis, bool keepdims, reduce_dtype dt) {                     \
    return frontend::consume(a, name(a, std::move(axis), keepdims, dt));                 \
  }                                                                                      \
  array& name(const array& a, axes axis, bool keepdims, reduce_dtype dt, out o) {        \
    return frontend::assign_reduction(o, name(a, std::move(axis), keepdims, dt), #name); \
  }
#define NDFUSE_EXTREMA_FORMS(name)                                                   \
  array name(array&& a, axes axis, bool keepdims) {                                  \
    return frontend::consume(a, name(a, std::move(axis), keepdims));                 \
  }                                                                                  \
  array& name(const array& a, axes axis, bool keepdims, out o) {                     \
    return frontend::assign_reduction(o, name(a, std::move(axis), keepdims), #name); \
  }

array sum(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  return fold(a, op_code::add, axis, keepdims, dt, "sum");
}
array prod(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  return fold(a, op_code::multiply, axis, keepdims, dt, "prod");
}
array nansum(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  frontend::checked(a, "nansum");
  return fold(replace_nan(a, 0.0), op_code::add, axis, keepdims, dt, "nansum");
}
array nanprod(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  frontend::checked(a, "nanprod");
  return fold(replace_nan(a, 1.0), op_code::multiply, axis, keepdims, dt, "nanprod");
}
array mean(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  return mean_of(a, axis, keepdims, dt, "mean");
}
array nanmean(const array& a, axes axis, bool keepdims, reduce_dtype dt) {
  const dtype in = frontend::checked(a, "nanmean")->dt;
  if (!is_inexact(in)) return mean_of(a, axis, keepdims, dt, "nanmean");
  // NumPy: sum of the non-NaN values over their count, in the sum's dtype.
  const std::uint64_t mask = mask_of(a, axis, "nanmean");
  const dtype result = dt ? *dt : in;
  array total = fold(replace_nan(a, 0.0), op_code::add, axis, keepdims, result, "nanmean");
  array count = reduce_value(logical_not(isnan(a)), op_code::add, dtype::int64, dtype::int64, mask, keepdims,
                             "nanmean");
  array m = true_divide(total, count);
  return m.dtype() == result ? m : m.astype(result);
}
NDFUSE_REDUCE_FORMS(sum)
NDFUSE_REDUCE_FORMS(prod)
NDFUSE_REDUCE_FORMS(nansum)
NDFUSE_REDUCE_FORMS(nanprod)
NDFUSE_REDUCE_FORMS(mean)
NDFUSE_REDUCE_FORMS(nanmean)

array min(const array& a, axes axis, bool keepdims) {
  const dtype t = frontend::checked(a, "min")->dt;
  return reduce_value(a, op_code::minimum, t, t, mask_of(a, axis, "min"), keepdims, "min");
}
array max(const array& a, axes axis, bool keepdims) {
  const dtype t = frontend::checked(a, "max")->dt;
  return reduce_value(a, op_code::maximum, t, t, mask_of(a, axis, "max"), keepdims, "max");
}
array amin(const array& a, axes axis, bool keepdims) {
  return min(a, std::move(axis), keepdims);
}
array amax(const array& a, axes axis, bool keepdims) {
  return max(a, std::move(axis), keepdims);
}
array nanmin(const array& a, axes axis, bool keepdims) {
  const dtype t = frontend::checked(a, "nanmin")->dt;
  return reduce_value(a, op_code::fmin, t, t, mask_of(a, axis, "nanmin"), keepdims, "nanmin");
}
array nanmax(const array& a, axes axis, bool keepdims) {
  const dtype t = frontend::checked(a, "nanmax")->dt;
  return reduce_value(a, op_code::fmax, t, t, mask_of(a, axis, "nanmax"), keepdims, "nanmax");
}
array ptp(const array& a, axes axis, bool keepdims) {
  return subtract(max(a, axis, keepdims), min(a, axis, keepdims));
}
array any(const array& a, axes axis, bool keepdims) {
  return reduce_value(a, op_code::logical_or, dtype::bool_, dtype::bool_, mask_of(a, axis, "any"), keepdims,
                      "any");
}
array all_t::operator()(const array& a, axes axis, bool keepdims) const {
  return reduce_value(a, op_code::logical_and, dtype::bool_, dtype::bool_, mask_of(a, axis, "all"), keepdims,
                      "all");
}
array& all_t::operator()(const array& a, axes axis, bool keepdims, out o) const {
  return frontend::assign_reduction(o, (*this)(a, std::move(axis), keepdims), "all");
}
array count_nonzero(const array& a, axes axis, bool keepdims) {
  const std::uint64_t mask = mask_of(a, axis, "count_nonzero");
  return reduce_value(a.astype(dtype::bool_), op_code::add, dtype::int64, dtype::int64, mask, keepdims,
                      "count_nonzero");
}
array argmin(const array& a, axes axis, bool keepdims) {
  return frontend::reduce_arg(a, ir::reduce_kind::argmin, mask_of(a, axis, "argmin"), keepdims, "argmin");
}
array argmax(const array& a, axes axis, bool keepdims) {
  return frontend::reduce_arg(a, ir::reduce_kind::argmax, mask_of(a, axis, "argmax"), keepdims, "argmax");
}
array nanargmin(const array& a, axes axis, bool keepdims) {
  return frontend::reduce_arg(a, ir::reduce_kind::nanargmin, mask_of(a, axis, "nanargmin"), keepdims,
                              "nanargmin");
}
array nanargmax(const array& a, axes axis, bool keepdims) {
  return frontend::reduce_arg(a, ir::reduce_kind::nanargmax, mask_of(a, axis, "nanargmax"), keepdims,
                              "nanargmax");
}
NDFUSE_EXTREMA_FORMS(min)
NDFUSE_EXTREMA_FORMS(max)
NDFUSE_EXTREMA_FORMS(amin)
NDFUSE_EXTREMA_FORMS(amax)
NDFUSE_EXTREMA_FORMS(nanmin)
NDFUSE_EXTREMA_FORMS(nanmax)
NDFUSE_EXTREMA_FORMS(ptp)
NDFUSE_EXTREMA_FORMS(any)
NDFUSE_EXTREMA_FORMS(count_nonzero)
NDFUSE_EXTREMA_FORMS(argmin)
NDFUSE_EXTREMA_FORMS(argmax)
NDFUSE_EXTREMA_FORMS(nanargmin)
NDFUSE_EXTREMA_FORMS(nanargmax)

namespace {

// cumsum/cumprod: a scan node over one axis (or, for axis=None, over every axis in C order with a
// 1-D result, NumPy's flattened scan).
array scan(const array& a, op_code combine, std::optional<int> axis, reduce_dtype dt, const char* op) {
  const frontend::node_ptr& xn = frontend::checked(a, op);
  const dtype result = dt ? *dt : frontend::sum_dtype(xn->dt);
  const dtype acc = frontend::accumulator_for(result);
  ir::reduction_params p;
  p.combine = combine;
  p.acc_dt = acc;
  p.identity = frontend::identity_bits(combine, acc);
  shape_t shape = xn->shape;
  if (axis) {
    if (xn->shape.empty())
      throw shape_error(std::string(op) + ": axis " + std::to_string(*axis) +
                        " is out of bounds for array of dimension 0");
    p.axes = frontend::axis_mask(axes(*axis), static_cast<std::int64_t>(xn->shape.size()), op);
  } else {
    p.axes = frontend::axis_mask(axes(), static_cast<std::int64_t>(xn->shape.size()), op);
    shape = {xn->size()};
  }
  auto n = frontend::make_node(op_code::scan, result, {frontend::cast_node(xn, acc)}, shape);
  n->reduction = p;
  return frontend::finish(n);
}

}  // namespace

array cumsum(const array& a, std::optional<int> axis, reduce_dtype dt) {
  return scan(a, op_code::add, axis, dt, "cumsum");
}
array cumprod(const array& a, std::optional<int> axis, reduce_dtype dt) {
  return scan(a, op_code::multiply, axis, dt, "cumprod");
}

}  // namespace ndfuse
