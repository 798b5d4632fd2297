// Windows, convolution, correlation and interp (include/ndfuse/numerical.hpp), in the order of
// operations of NumPy's lib/_function_base_impl.py and of its C correlate and interp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/numerical.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse {

namespace {

constexpr double pi = std::numbers::pi;

// NumPy's n = arange(1 - M, M, 2) of the symmetric windows, float64 (M is a float there).
array symmetric_points(std::int64_t M) {
  return arange(static_cast<double>(1 - M), static_cast<double>(M), 2.0);
}

// M < 1 and M == 1 as NumPy's windows answer them, or nothing.
std::optional<array> trivial_window(std::int64_t M) {
  if (M < 1) return zeros({0});
  if (M == 1) return ones({1});
  return std::nullopt;
}

// NumPy's cosine windows: c0 + c1 cos(pi n / (M - 1)) [+ c2 cos(2 pi n / (M - 1))].
array cosine_window(std::int64_t M, double c0, double c1, double c2 = 0) {
  if (auto w = trivial_window(M)) return *w;
  const array n = symmetric_points(M);
  const double m1 = static_cast<double>(M - 1);
  array w = c0 + c1 * cos(pi * n / m1);
  if (c2 != 0) w = w + c2 * cos(2.0 * pi * n / m1);
  return w;
}

}  // namespace

array bartlett(std::int64_t M) {
  if (auto w = trivial_window(M)) return *w;
  const array n = symmetric_points(M);
  const double m1 = static_cast<double>(M - 1);
  return where(less_equal(n, 0), 1 + n / m1, 1 - n / m1);
}

array blackman(std::int64_t M) {
  return cosine_window(M, 0.42, 0.5, 0.08);
}

array hamming(std::int64_t M) {
  return cosine_window(M, 0.54, 0.46);
}

array hanning(std::int64_t M) {
  return cosine_window(M, 0.5, 0.5);
}

array kaiser(std::int64_t M, double beta) {
  if (M == 1) return ones({1});
  const array n = arange(0.0, static_cast<double>(std::max<std::int64_t>(M, 0)), 1.0);
  const double alpha = static_cast<double>(M - 1) / 2.0;
  return i0(beta * sqrt(1 - square((n - alpha) / alpha))) / i0(full({}, scalar(beta), dtype::float64));
}

namespace {

// out[i] = sum_j a[k0 + i + j] * w[j] over the j where a's index is inside it, for i < length: the
// dot products of NumPy's _pyarray_correlate, as one gather and one fused reduction.
array sliding_dot(const array& a, const array& w, std::int64_t k0, std::int64_t length) {
  const std::int64_t n = a.size(), m = w.size();
  const dtype t = promote_types(a.dtype(), w.dtype());
  array at = arange(k0, k0 + length).reshape({length, 1}) + arange(m).reshape({1, m});
  const array inside = greater_equal(at, 0) & less(at, n);
  array clipped = minimum(maximum(at, 0), n - 1);
  const array terms =
      where(inside, take(a.astype(t), frontend::known_range(clipped, 0, n - 1)) * w.astype(t), 0);
  return sum(terms.astype(t), 1, false, t);
}

// The window of the full correlation z[k] = sum_j a[k + j] w[j] (k from -(m - 1)) that each mode
// keeps, for a of n values and w of m: its first k and its length, as NumPy's C code (which swaps
// the operands when n < m and reverses the result) produces.
std::pair<std::int64_t, std::int64_t> mode_window(std::string_view mode, std::int64_t n, std::int64_t m,
                                                  const char* op) {
  if (mode == "full") return {-(m - 1), n + m - 1};
  if (mode == "same") return n >= m ? std::pair{-(m / 2), n} : std::pair{-(m - 1 - n / 2), m};
  if (mode == "valid") return n >= m ? std::pair{std::int64_t{0}, n - m + 1} : std::pair{-(m - n), m - n + 1};
  throw value_error(std::string(op) + ": mode must be one of 'valid', 'same', or 'full' (got '" +
                    std::string(mode) + "')");
}

void check_vectors(const array& a, const array& v, const char* op) {
  if (a.ndim() > 1 || v.ndim() > 1)
    throw value_error(std::string(op) + ": object too deep for desired array");
  if (a.size() == 0) throw value_error(std::string(op) + ": a cannot be empty");
  if (v.size() == 0) throw value_error(std::string(op) + ": v cannot be empty");
}

}  // namespace

array convolve(const array& a_in, const array& v_in, std::string_view mode) {
  const frontend::operands_device on_their_device(a_in, v_in);
  const array a0 = atleast_1d(a_in), v0 = atleast_1d(v_in);
  const bool swap = v0.size() > a0.size();
  const array& a = swap ? v0 : a0;
  const array& v = swap ? a0 : v0;
  check_vectors(a, v, "convolve");
  const auto [k0, length] = mode_window(mode, a.size(), v.size(), "convolve");
  return sliding_dot(a, flip(v), k0, length);
}

array correlate(const array& a_in, const array& v_in, std::string_view mode) {
  const frontend::operands_device on_their_device(a_in, v_in);
  // Unlike convolve, NumPy's correlate takes no 0-d operand.
  if (a_in.ndim() == 0 || v_in.ndim() == 0)
    throw value_error("correlate: object of too small depth for desired array");
  const array& a = a_in;
  const array& v = v_in;
  check_vectors(a, v, "correlate");
  const auto [k0, length] = mode_window(mode, a.size(), v.size(), "correlate");
  return sliding_dot(a, is_complex(v.dtype()) ? conj(v) : v, k0, length);
}

namespace {

// NumPy's arr_interp on float64 x, xp, fp (fp real).
array interp_real(const array& x, const array& xp, const array& fp, double left, double right) {
  const std::int64_t n = xp.size();
  if (n == 1) return where(less(x, xp(0)), left, where(greater(x, xp(0)), right, fp(0)));
  // j with xp[j] <= x < xp[j + 1] (NumPy's binary_search_with_guess), clipped into [0, n - 2].
  array j = searchsorted(xp, x, "right") - 1;
  array lo = minimum(maximum(j, 0), n - 2);
  frontend::known_range(lo, 0, n - 2);
  array hi = lo + 1;
  frontend::known_range(hi, 1, n - 1);
  const array x0 = take(xp, lo), x1 = take(xp, hi), y0 = take(fp, lo), y1 = take(fp, hi);
  const array slope = (y1 - y0) / (x1 - x0);
  const array forward = slope * (x - x0) + y0;
  // If we get NaN in one direction, try the other; equal neighbours give their value.
  const array backward = slope * (x - x1) + y1;
  const array inner = where(isnan(forward), where(isnan(backward) & equal(y0, y1), y0, backward), forward);
  const array at_point = where(equal(x0, x), y0, inner);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return where(isnan(x), nan,
               where(less(x, xp(0)), left,
                     where(greater(x, xp(n - 1)), right, where(equal(x, xp(n - 1)), fp(n - 1), at_point))));
}

}  // namespace

array interp(const array& x_in, const array& xp_in, const array& fp_in, std::optional<double> left,
             std::optional<double> right, std::optional<double> period) {
  if (xp_in.ndim() != 1 || fp_in.ndim() != 1) throw value_error("interp: object too deep for desired array");
  if (xp_in.size() == 0) throw value_error("interp: array of sample points is empty");
  if (xp_in.size() != fp_in.size()) throw value_error("interp: fp and xp are not of the same length.");
  if (is_complex(x_in.dtype()) || is_complex(xp_in.dtype()))
    throw dtype_error("interp: x and xp must be real");
  const bool complex_fp = is_complex(fp_in.dtype());
  array x = x_in.astype(dtype::float64), xp = xp_in.astype(dtype::float64);
  array fp = fp_in.astype(complex_fp ? dtype::complex128 : dtype::float64);
  if (period) {
    if (*period == 0) throw value_error("interp: period must be a non-zero value");
    const double p = std::abs(*period);
    x = remainder(x, p);
    xp = remainder(xp, p);
    const array order = argsort(xp, -1);
    xp = take(xp, order);
    fp = take(fp, order);
    const std::int64_t n = xp.size();
    xp = concatenate({xp(slice(n - 1, n)) - p, xp, xp(slice(0, 1)) + p}, 0);
    fp = concatenate({fp(slice(n - 1, n)), fp, fp(slice(0, 1))}, 0);
  }
  const std::int64_t n = fp.size();
  // With a period, left and right are unused, as NumPy's.
  const bool has_left = left.has_value() && !period, has_right = right.has_value() && !period;
  const double left_value = has_left ? *left : 0.0, right_value = has_right ? *right : 0.0;
  if (!complex_fp) {
    const double l = has_left ? left_value : fp(0).item<double>();
    const double r = has_right ? right_value : fp(n - 1).item<double>();
    return interp_real(x, xp, fp, l, r);
  }
  // A given left or right is real: its imaginary part is 0.
  const std::complex<double> l = left ? std::complex<double>(*left) : fp(0).item<std::complex<double>>();
  const std::complex<double> r =
      right ? std::complex<double>(*right) : fp(n - 1).item<std::complex<double>>();
  const array re = interp_real(x, xp, real(fp), l.real(), r.real());
  const array im = interp_real(x, xp, imag(fp), l.imag(), r.imag());
  return re + im * std::complex<double>(0, 1);
}

}  // namespace ndfuse
