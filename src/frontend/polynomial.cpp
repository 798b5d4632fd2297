// NumPy's poly* functions over coefficient arrays (include/ndfuse/numerical.hpp), in the order of
// lib/_polynomial_impl.py: Horner's rule, padded sums, convolution, the companion matrix's
// eigenvalues and the scaled Vandermonde least squares.
#include <algorithm>
#include <limits>
#include <string>

#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/numerical.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse {

array polyval(const array& p_in, const array& x) {
  const frontend::operands_device on_their_device(p_in, x);
  if (p_in.ndim() == 0) throw dtype_error("polyval: iteration over a 0-d array (NumPy: TypeError)");
  const array& p = p_in;
  array y = zeros_like(x);
  // Each coefficient is a numpy scalar of p's dtype in NumPy's loop: a strong 0-d operand.
  for (std::int64_t i = 0; i < p.size(); ++i) y = y * x + p(i);
  return y;
}

namespace {

array padded_sum(const array& a1_in, const array& a2_in, bool subtract_second) {
  const array a1 = atleast_1d(a1_in), a2 = atleast_1d(a2_in);
  const std::int64_t diff = a2.size() - a1.size();
  array x = a1, y = a2;
  if (diff > 0) x = concatenate({zeros({diff}, a1.dtype()), a1}, 0);
  if (diff < 0) y = concatenate({zeros({-diff}, a2.dtype()), a2}, 0);
  return subtract_second ? x - y : x + y;
}

// poly1d's coefficients: leading zeros dropped, [0] if nothing is left.
array without_leading_zeros(const array& a_in) {
  const array a = atleast_1d(a_in);
  const array nz = flatnonzero(a);
  if (nz.size() == 0) return zeros({1}, a.dtype());
  return a(slice(nz(0).item<std::int64_t>(), a.size()));
}

}  // namespace

array polyadd(const array& a1, const array& a2) {
  const frontend::operands_device on_their_device(a1, a2);
  return padded_sum(a1, a2, false);
}

array polysub(const array& a1, const array& a2) {
  const frontend::operands_device on_their_device(a1, a2);
  return padded_sum(a1, a2, true);
}

array polymul(const array& a1, const array& a2) {
  const frontend::operands_device on_their_device(a1, a2);
  return convolve(without_leading_zeros(a1), without_leading_zeros(a2));
}

namespace {

// NumPy's __array_function__ dispatchers of poly and roots iterate their argument: a TypeError for 0-d.
void check_iterable(const array& a, const char* op) {
  if (a.ndim() == 0)
    throw dtype_error(std::string(op) +
                      ": dispatcher for __array_function__ did not return an iterable (a 0-d input)");
}

}  // namespace

array poly(const array& seq_in) {
  const frontend::operands_device on_their_device(seq_in);
  check_iterable(seq_in, "poly");
  array seq = seq_in;
  const shape_t sh = seq.shape();
  if (sh.size() == 2 && sh[0] == sh[1] && sh[0] != 0) {
    seq = linalg::eigvals(seq);
  } else if (sh.size() == 1) {
    // NumPy's mintypecode: float32 and the complex dtypes stay, everything else becomes float64.
    const dtype t = seq.dtype();
    if (!(t == dtype::float32 || t == dtype::float64 || is_complex(t))) seq = seq.astype(dtype::float64);
  } else {
    throw value_error("poly: input must be 1d or non-empty square 2d array.");
  }
  if (seq.size() == 0) return full({}, scalar(1.0), dtype::float64);
  // a <- convolve(a, [1, -zero]): each new coefficient is a[k] * 1 + a[k - 1] * (-zero), a dot of
  // two exact-or-once-rounded products, which this sum reproduces.
  array a = ones({1}, seq.dtype());
  for (std::int64_t i = 0; i < seq.size(); ++i) {
    const array minus_zero = negative(seq(i));
    const std::int64_t n = a.size();
    const array shifted = concatenate({zeros({1}, a.dtype()), a}, 0);
    const array kept = concatenate({a, zeros({1}, a.dtype())}, 0);
    a = where(arange(n + 1) == 0, kept,
              where(arange(n + 1) == n, shifted * minus_zero, kept + shifted * minus_zero));
  }
  if (is_complex(a.dtype())) {
    // Roots that are all complex conjugates give a real polynomial.
    const array r = seq.astype(dtype::complex128);
    if (all(equal(sort(r), sort(conj(r)))).item<bool>()) a = real(a);
  }
  return a;
}

array roots(const array& p_in) {
  const frontend::operands_device on_their_device(p_in);
  check_iterable(p_in, "roots");
  array p = p_in;
  if (p.ndim() != 1) throw value_error("roots: Input must be a rank-1 array.");
  const array nz = flatnonzero(p);
  if (nz.size() == 0) return zeros({0});
  const std::int64_t first = nz(0).item<std::int64_t>(), last = nz(nz.size() - 1).item<std::int64_t>();
  const std::int64_t trailing = p.size() - last - 1;
  p = p(slice(first, last + 1));
  if (!is_inexact(p.dtype())) p = p.astype(dtype::float64);
  const std::int64_t n = p.size();
  array r = zeros({0}, p.dtype());
  if (n > 1) {
    // The companion matrix: ones below the diagonal, -p[1:] / p[0] in the first row.
    const array sub = diag(ones({n - 2}, p.dtype()), -1);
    const array top = (negative(p(slice(1, n))) / p(0)).reshape({1, n - 1});
    const array a = concatenate({top, sub(slice(1, n - 1))}, 0);
    r = linalg::eigvals(a);
  }
  return concatenate({r, zeros({trailing}, r.dtype())}, 0);
}

array vander(const array& x, std::optional<std::int64_t> N, bool increasing) {
  const frontend::operands_device on_their_device(x);
  if (x.ndim() != 1) throw value_error("vander: x must be a one-dimensional array or sequence.");
  const std::int64_t n = x.size(), cols = N.value_or(n);
  if (cols < 0) throw value_error("vander: negative dimensions are not allowed");
  const dtype t = promote_types(x.dtype(), dtype::int64);
  const array column = x.astype(t).reshape({n, 1});
  // 1, x, x*x, (x*x)*x, ...: NumPy's multiply.accumulate, one product at a time.
  std::vector<array> powers;
  if (cols > 0) powers.push_back(ones({n, 1}, t));
  for (std::int64_t k = 1; k < cols; ++k) powers.push_back(k == 1 ? column : powers.back() * column);
  if (!increasing) std::reverse(powers.begin(), powers.end());
  if (powers.empty()) return zeros({n, 0}, t);
  return concatenate(powers, 1);
}

array polyfit(const array& x_in, const array& y_in, std::int64_t deg, std::optional<double> rcond,
              const std::optional<array>& w_in) {
  const frontend::operands_device on_their_device(x_in, y_in, w_in);
  // NumPy's x + 0.0: integers become float64, float32 stays.
  const auto inexact = [](const array& a) { return is_inexact(a.dtype()) ? a : a.astype(dtype::float64); };
  const array x = inexact(x_in), y = inexact(y_in);
  if (deg < 0) throw value_error("polyfit: expected deg >= 0");
  if (x.ndim() != 1) throw dtype_error("polyfit: expected 1D vector for x");
  if (x.size() == 0) throw dtype_error("polyfit: expected non-empty vector for x");
  if (y.ndim() < 1 || y.ndim() > 2) throw dtype_error("polyfit: expected 1D or 2D array for y");
  if (x.shape()[0] != y.shape()[0]) throw dtype_error("polyfit: expected x and y to have same length");
  const double eps = x.dtype() == dtype::float32 ? std::numeric_limits<float>::epsilon()
                                                 : std::numeric_limits<double>::epsilon();
  const double cut = rcond.value_or(static_cast<double>(x.size()) * eps);
  array lhs = vander(x, deg + 1), rhs = y;
  if (w_in) {
    const array w = inexact(*w_in);
    if (w.ndim() != 1) throw dtype_error("polyfit: expected a 1-d array for weights");
    if (w.shape()[0] != y.shape()[0]) throw dtype_error("polyfit: expected w and y to have the same length");
    lhs = lhs * w.reshape({w.size(), 1});
    rhs = rhs.ndim() == 2 ? rhs * w.reshape({w.size(), 1}) : rhs * w;
  }
  const array scale = sqrt(sum(lhs * lhs, 0));
  lhs = lhs / scale;
  const linalg::lstsq_result fit = linalg::lstsq(lhs, rhs, cut);
  return (fit.x.T() / scale).T();
}

}  // namespace ndfuse
