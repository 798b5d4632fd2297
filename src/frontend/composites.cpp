// NumPy's Python-level functions (include/ndfuse/composites.hpp), each written over ndfuse's ops in
// the order NumPy's own source computes it, so results round alike and the ops fuse.
#include "ndfuse/composites.hpp"

#include "frontend/composite_support.hpp"
#include "frontend/operands_device.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse {

using frontend::float_loop;
using frontend::normalized_axis;

namespace {

// x * c in x's float loop, c rounded as NumPy's C constant of that precision is. float16 loops
// compute in float32 and round once.
array scaled(const array& x, double c64, float c32, const char* op) {
  const dtype t = float_loop(x.dtype(), op);
  if (t == dtype::float64) return x.astype(t) * c64;
  const array f = x.astype(dtype::float32) * static_cast<double>(c32);
  return t == dtype::float32 ? f : f.astype(t);
}

array moved_last(const array& a, int axis) {
  return axis == static_cast<int>(a.ndim()) - 1 ? a : moveaxis(a, axis, -1);
}
array moved_back(const array& a, int axis) {
  return axis == static_cast<int>(a.ndim()) - 1 ? a : moveaxis(a, -1, axis);
}

}  // namespace

// --- Comparisons ---------------------------------------------------------------------------------

array isclose(const array& a, const array& b, double rtol, double atol, bool equal_nan) {
  // NumPy: y = asanyarray(y, dtype=result_type(y, 1.)); then
  // less_equal(abs(x - y), atol + rtol * abs(y)) & isfinite(y) | (x == y).
  const array y = is_inexact(b.dtype()) ? b : b.astype(dtype::float64);
  array r = (less_equal(abs(a - y), atol + rtol * abs(y)) & isfinite(y)) | equal(a, y);
  if (equal_nan) r = r | (isnan(a) & isnan(y));
  return r;
}

bool allclose(const array& a, const array& b, double rtol, double atol, bool equal_nan) {
  return all(isclose(a, b, rtol, atol, equal_nan)).item<bool>();
}

bool array_equal(const array& a, const array& b, bool equal_nan) {
  if (a.shape() != b.shape()) return false;
  array same = equal(a, b);
  if (equal_nan) same = same | (isnan(a) & isnan(b));
  return all(same).item<bool>();
}

bool array_equiv(const array& a, const array& b) {
  try {
    (void)broadcast_shapes(a.shape(), b.shape());
  } catch (const shape_error&) {
    return false;
  }
  return all(equal(a, b)).item<bool>();
}

array isposinf(const array& x) {
  if (is_complex(x.dtype())) throw dtype_error("isposinf: complex input is not supported (NumPy: TypeError)");
  return equal(x, std::numeric_limits<double>::infinity());
}

array isneginf(const array& x) {
  if (is_complex(x.dtype())) throw dtype_error("isneginf: complex input is not supported (NumPy: TypeError)");
  return equal(x, -std::numeric_limits<double>::infinity());
}

array iscomplex(const array& x) {
  return is_complex(x.dtype()) ? not_equal(imag(x), 0) : zeros(x.shape(), dtype::bool_);
}

array isreal(const array& x) {
  return is_complex(x.dtype()) ? equal(imag(x), 0) : ones(x.shape(), dtype::bool_);
}

bool iscomplexobj(const array& x) {
  return is_complex(x.dtype());
}

bool isrealobj(const array& x) {
  return !is_complex(x.dtype());
}

// --- Elementwise --------------------------------------------------------------------------------

// NumPy's npy_deg2rad: x * (NPY_PI / 180.0), and NPY_PIf / 180.0f in single precision (which rounds
// to the same float); npy_rad2deg: x * (180.0 / NPY_PI), whose float form 180.0f / NPY_PIf is not
// the float nearest 180 / pi.
array deg2rad(const array& x) {
  constexpr double pi = std::numbers::pi;
  return scaled(x, pi / 180.0, static_cast<float>(pi) / 180.0f, "deg2rad");
}
array radians(const array& x) {
  return deg2rad(x);
}
array rad2deg(const array& x) {
  constexpr double pi = std::numbers::pi;
  return scaled(x, 180.0 / pi, 180.0f / static_cast<float>(pi), "rad2deg");
}
array degrees(const array& x) {
  return rad2deg(x);
}

array fabs(const array& x) {
  return abs(x.astype(float_loop(x.dtype(), "fabs")));
}

array sinc(const array& x) {
  // NumPy: y = pi * where(x == 0, 1.0e-20, x); sin(y) / y.
  const array y = std::numbers::pi * where(equal(x, 0), 1.0e-20, x);
  return sin(y) / y;
}

array fix(const array& x) {
  // NumPy 2: res = ceil(x); floor(x, out=res, where=greater_equal(x, 0)).
  return where(greater_equal(x, 0), floor(x), ceil(x));
}

array heaviside(const array& x1, const operand& x2) {
  const dtype t = float_loop(result_type(x1, x2), "heaviside");
  const array x = x1.astype(t);
  const array h0 = where(isnan(x), x, x2).astype(t);  // x2 in t, broadcast with x
  // NumPy's loop: isnan(x) ? x : x == 0 ? h0 : x < 0 ? 0 : 1.
  return where(isnan(x), x, where(equal(x, 0), h0, where(less(x, 0), 0, 1).astype(t)));
}

// --- The array API's names ------------------------------------------------------------------------

array concat(const std::vector<array>& arrays, int axis) {
  return concatenate(arrays, axis);
}

array astype(const array& x, dtype t) {
  return x.astype(t);
}

array permute_dims(const array& a, const std::vector<int>& axes) {
  return transpose(a, axes);
}

array matrix_transpose(const array& a) {
  if (a.ndim() < 2)
    throw value_error("matrix_transpose: input array must be at least 2-dimensional, got " +
                      std::to_string(a.ndim()) + " dimension(s)");
  return swapaxes(a, -1, -2);
}

namespace {

array cumulative(const array& x, std::optional<int> axis, reduce_dtype dt, bool include_initial, bool product,
                 const char* op) {
  if (x.ndim() == 0) return cumulative(ravel(x), axis, dt, include_initial, product, op);  // as 1-d, as NumPy
  if (!axis) {
    if (x.ndim() != 1)
      throw value_error(std::string(op) + ": axis must be given for an array of more than one dimension");
    axis = 0;
  }
  const int ax = normalized_axis(*axis, x.ndim(), op);
  array r = product ? cumprod(x, ax, dt) : cumsum(x, ax, dt);
  if (!include_initial) return r;
  shape_t first = r.shape();
  first[ax] = 1;
  return concatenate({full(first, scalar(product ? 1 : 0), r.dtype()), r}, ax);
}

}  // namespace

array cumulative_sum(const array& x, std::optional<int> axis, reduce_dtype dt, bool include_initial) {
  const frontend::operands_device on_their_device(x);
  return cumulative(x, axis, dt, include_initial, false, "cumulative_sum");
}

array cumulative_prod(const array& x, std::optional<int> axis, reduce_dtype dt, bool include_initial) {
  const frontend::operands_device on_their_device(x);
  return cumulative(x, axis, dt, include_initial, true, "cumulative_prod");
}

int ndim(const array& a) {
  return static_cast<int>(a.ndim());
}
shape_t shape(const array& a) {
  return a.shape();
}
std::int64_t size(const array& a) {
  return a.size();
}

array nancumsum(const array& a, std::optional<int> axis, reduce_dtype dt) {
  return cumsum(is_inexact(a.dtype()) ? where(isnan(a), 0, a) : a, axis, dt);
}

array nancumprod(const array& a, std::optional<int> axis, reduce_dtype dt) {
  return cumprod(is_inexact(a.dtype()) ? where(isnan(a), 1, a) : a, axis, dt);
}

array select(const std::vector<array>& conditions, const std::vector<array>& choices, scalar otherwise) {
  const frontend::operands_device on_their_device(conditions, choices);
  if (conditions.size() != choices.size())
    throw value_error("select: list of cases must be same length as list of conditions");
  if (conditions.empty()) throw value_error("select with an empty condition list is not possible");
  for (std::size_t i = 0; i < conditions.size(); ++i)
    if (conditions[i].dtype() != dtype::bool_)
      throw dtype_error("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
  // NumPy: the result dtype is result_type(*choices, default); the last condition is applied
  // first, so the first true one wins.
  dtype t = result_type(choices[0], operand(otherwise));
  for (const auto& c : choices) t = promote_types(t, c.dtype());
  array result = full({}, otherwise, t);
  for (std::size_t i = conditions.size(); i-- > 0;)
    result = where(conditions[i], choices[i], result).astype(t);
  shape_t shape = result.shape();
  for (const auto& c : conditions) shape = broadcast_shapes(shape, c.shape());
  return broadcast_to(result, shape).copy();
}

std::vector<array> unravel_index(const array& indices, const shape_t& shape) {
  if (!is_integer(indices.dtype()) && indices.dtype() != dtype::bool_)
    throw dtype_error("unravel_index: only int indices permitted");
  std::int64_t total = 1;
  for (std::int64_t d : shape) total *= d;
  if (indices.size() > 0) {
    const std::int64_t lo = min(indices).astype(dtype::int64).item<std::int64_t>();
    const std::int64_t hi = max(indices).astype(dtype::int64).item<std::int64_t>();
    if (lo < 0 || hi >= total)
      throw value_error("unravel_index: index " + std::to_string(lo < 0 ? lo : hi) +
                        " is out of bounds for array with size " + std::to_string(total));
  }
  const array flat = indices.astype(dtype::int64);
  std::vector<array> out;
  std::int64_t stride = total;
  for (std::int64_t d : shape) {
    stride = d > 0 ? stride / d : 0;
    out.push_back(d > 0 ? remainder(floor_divide(flat, std::max<std::int64_t>(stride, 1)), d) : flat * 0);
  }
  return out;
}

array ravel_multi_index(const std::vector<array>& multi_index, const shape_t& dims) {
  if (multi_index.size() != dims.size())
    throw value_error("ravel_multi_index: parameter multi_index must be a sequence of length " +
                      std::to_string(dims.size()));
  array flat;
  std::int64_t stride = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    const array& idx = multi_index[k];
    if (!is_integer(idx.dtype())) throw dtype_error("ravel_multi_index: only int indices permitted");
    if (idx.size() > 0) {
      const std::int64_t lo = min(idx).astype(dtype::int64).item<std::int64_t>();
      const std::int64_t hi = max(idx).astype(dtype::int64).item<std::int64_t>();
      if (lo < 0 || hi >= dims[k]) throw value_error("ravel_multi_index: invalid entry in coordinates array");
    }
    const array term = idx.astype(dtype::int64) * stride;
    flat = k + 1 == dims.size() ? term : flat + term;
    stride *= dims[k];
  }
  return flat;
}

array median(const array& a, std::optional<int> axis, bool keepdims) {
  const frontend::operands_device on_their_device(a);
  const array x = axis ? a : ravel(a);
  const int ax = axis ? normalized_axis(*axis, x.ndim(), "median") : 0;
  const array s = sort(moved_last(x, ax), -1);
  const std::int64_t n = s.shape().empty() ? 1 : s.shape().back();
  const dtype result = is_inexact(a.dtype()) ? a.dtype() : dtype::float64;
  shape_t out = s.shape();
  out.pop_back();
  array m;
  if (n == 0) {
    m = full(out, std::numeric_limits<double>::quiet_NaN(), result);
  } else if (n % 2 == 1) {
    m = s(ellipsis, n / 2).astype(result);  // NumPy: the mean of one element
  } else {
    m = mean(stack({s(ellipsis, n / 2 - 1), s(ellipsis, n / 2)}, -1), -1);
  }
  if (n > 0 && is_inexact(a.dtype())) m = where(isnan(s(ellipsis, n - 1)), s(ellipsis, n - 1), m);
  if (keepdims) {
    if (!axis) return m.reshape(shape_t(a.ndim(), 1));
    return expand_dims(m, ax);
  }
  return m;
}

array logspace(double start, double stop, std::int64_t num, bool endpoint, double base) {
  return power(base, linspace(start, stop, num, endpoint));
}

array isin(const array& element, const array& test_elements, bool invert) {
  const array sorted = sort(ravel(test_elements), none);
  const std::int64_t n = sorted.size();
  array found;
  if (n == 0) {
    found = zeros(element.shape(), dtype::bool_);
  } else {
    const array at = searchsorted(sorted, ravel(element));
    const array clipped = minimum(at, n - 1);
    found = (less(at, n) & equal(take(sorted, clipped), ravel(element))).reshape(element.shape());
  }
  return invert ? logical_not(found) : found;
}

array union1d(const array& a, const array& b) {
  return unique(concatenate({ravel(a), ravel(b)}, 0));
}

array intersect1d(const array& a, const array& b) {
  // NumPy: aux = sort(concatenate((unique(a), unique(b)))); aux[:-1][aux[1:] == aux[:-1]].
  const array aux = sort(concatenate({unique(a), unique(b)}, 0), none);
  if (aux.size() < 2) return aux(slice(0, 0));
  return aux(slice(none, -1))(equal(aux(slice(1, none)), aux(slice(none, -1))));
}

array setdiff1d(const array& a, const array& b) {
  const array ua = unique(a);
  return ua(isin(ua, b, true));
}

array setxor1d(const array& a, const array& b) {
  const frontend::operands_device on_their_device(a, b);
  // NumPy: aux sorted; flag = concatenate(([True], aux[1:] != aux[:-1], [True]));
  // aux[flag[1:] & flag[:-1]].
  const array aux = sort(concatenate({unique(a), unique(b)}, 0), none);
  if (aux.size() == 0) return aux;
  const array one = ones({1}, dtype::bool_);
  const array flag = concatenate({one, not_equal(aux(slice(1, none)), aux(slice(none, -1))), one}, 0);
  return aux(logical_and(flag(slice(1, none)), flag(slice(none, -1))));
}

// --- Differences and joins ---------------------------------------------------------------------

array diff(const array& a, int n, int axis) {
  if (n < 0) throw value_error("diff: order must be non-negative but got " + std::to_string(n));
  if (n == 0) return a;
  if (a.ndim() == 0) throw value_error("diff requires input that is at least one dimensional");
  const int ax = normalized_axis(axis, a.ndim(), "diff");
  array r = moved_last(a, ax);
  for (int k = 0; k < n; ++k) {
    const array hi = r(ellipsis, slice(1, none)), lo = r(ellipsis, slice(none, -1));
    r = r.dtype() == dtype::bool_ ? not_equal(hi, lo) : hi - lo;
  }
  return moved_back(r, ax);
}

array ediff1d(const array& a, const std::optional<array>& to_end, const std::optional<array>& to_begin) {
  const frontend::operands_device on_their_device(a, to_end, to_begin);
  // NumPy casts to_begin and to_end to the result's dtype with same_kind casting.
  const array flat = ravel(a);
  array d = flat(slice(1, none)) - flat(slice(none, -1));
  if (!to_begin && !to_end) return d;
  std::vector<array> parts;
  auto add = [&](const array& v, const char* what) {
    if (!can_cast(v.dtype(), d.dtype(), casting::same_kind))
      throw dtype_error(std::string("ediff1d: dtype of `") + what +
                        "` must be compatible with input ary under the "
                        "`same_kind` rule");
    parts.push_back(ravel(v).astype(d.dtype()));
  };
  if (to_begin) add(*to_begin, "to_begin");
  parts.push_back(d);
  if (to_end) add(*to_end, "to_end");
  return concatenate(parts, 0);
}

array append(const array& arr, const array& values) {
  return concatenate({ravel(arr), ravel(values)}, 0);
}

array append(const array& arr, const array& values, int axis) {
  return concatenate({arr, values}, axis);
}

namespace {

int split_axis(const array& a, int least, int axis, const char* op) {
  if (a.ndim() < least)
    throw value_error(std::string(op) + " only works on arrays of " + std::to_string(least) +
                      " or more dimensions");
  return axis;
}

}  // namespace

std::vector<array> hsplit(const array& a, std::int64_t sections) {
  return split(a, sections, split_axis(a, 1, a.ndim() > 1 ? 1 : 0, "hsplit"));
}
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split(a, indices, split_axis(a, 1, a.ndim() > 1 ? 1 : 0, "hsplit"));
}
std::vector<array> vsplit(const array& a, std::int64_t sections) {
  return split(a, sections, split_axis(a, 2, 0, "vsplit"));
}
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split(a, indices, split_axis(a, 2, 0, "vsplit"));
}
std::vector<array> dsplit(const array& a, std::int64_t sections) {
  return split(a, sections, split_axis(a, 3, 2, "dsplit"));
}
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices) {
  return split(a, indices, split_axis(a, 3, 2, "dsplit"));
}

// --- Triangles ---------------------------------------------------------------------------------

array tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype t) {
  // NumPy: greater_equal.outer(arange(N), arange(-k, M - k)).astype(dtype).
  const std::int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) throw value_error("tri: negative dimensions are not allowed");
  const array rows = arange(scalar(n)).reshape({n, 1});
  const array shifted = arange(scalar(-k), scalar(cols - k)).reshape({1, cols});
  return greater_equal(rows, shifted).astype(t);
}

std::vector<array> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return nonzero(tri(n, m, k, dtype::bool_));
}

std::vector<array> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return nonzero(logical_not(tri(n, m, k - 1, dtype::bool_)));
}

std::vector<array> diag_indices(std::int64_t n, int ndim) {
  if (n < 0) throw value_error("diag_indices: negative dimensions are not allowed");
  return std::vector<array>(static_cast<std::size_t>(std::max(ndim, 0)), arange(scalar(n)));
}

// --- Cross products -----------------------------------------------------------------------------

namespace {

array cross_of(const array& a, const array& b, int axis, const char* op) {
  const int aa = normalized_axis(axis, a.ndim(), op), ab = normalized_axis(axis, b.ndim(), op);
  const array x = moved_last(a, aa), y = moved_last(b, ab);
  // 3-element vectors only: NumPy 2.5 ended the deprecated 2-element form (its z component).
  if (x.shape().back() != 3 || y.shape().back() != 3)
    throw value_error(std::string(op) + ": both vectors must have 3 elements along the axis, got " +
                      std::to_string(x.shape().back()) + " and " + std::to_string(y.shape().back()));
  auto part = [](const array& v, std::int64_t i) { return v(ellipsis, i); };
  const array a0 = part(x, 0), a1 = part(x, 1), a2 = part(x, 2), b0 = part(y, 0), b1 = part(y, 1),
              b2 = part(y, 2);
  // NumPy's order: cp0 = a1 * b2 - a2 * b1, cp1 = a2 * b0 - a0 * b2, cp2 = a0 * b1 - a1 * b0.
  const array r = stack({a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0}, -1);
  // The result's vectors lie along `axis` too (NumPy's axisc).
  return moved_back(r, normalized_axis(axis, r.ndim(), op));
}

}  // namespace

array cross(const array& a, const array& b, int axis) {
  const frontend::operands_device on_their_device(a, b);
  return cross_of(a, b, axis, "cross");
}

namespace linalg {
array matmul(const array& a, const array& b) {
  return ndfuse::matmul(a, b);
}
array matrix_transpose(const array& a) {
  return ndfuse::matrix_transpose(a);
}
array cross(const array& a, const array& b, int axis) {
  const frontend::operands_device on_their_device(a, b);
  return cross_of(a, b, axis, "linalg.cross");
}
}  // namespace linalg

namespace frontend {

int normalized_axis(int axis, std::int64_t ndim, const char* op) {
  if (axis < -ndim || axis >= ndim)
    throw shape_error(std::string(op) + ": axis " + std::to_string(axis) +
                      " is out of bounds for array of dimension " + std::to_string(ndim));
  return axis < 0 ? static_cast<int>(axis + ndim) : axis;
}

// The float dtype of NumPy's float-only ufunc loops (e, f, d) for x: x's own when it is floating;
// for bool and integers the smallest of float16, float32, float64 that holds them safely.
dtype float_loop(dtype t, const char* op) {
  if (is_complex(t))
    throw dtype_error(std::string(op) + ": complex input is not supported (NumPy: TypeError)");
  if (is_floating(t)) return t;
  for (dtype f : {dtype::float16, dtype::float32, dtype::float64})
    if (can_cast(t, f)) return f;
  return dtype::float64;
}

}  // namespace frontend

}  // namespace ndfuse
