// NumPy's elementwise functions with more than one result or with mixed-dtype loops (frexp, modf,
// divmod, ldexp), and those NumPy writes in Python over ufuncs (float_power, nan_to_num, i0): built
// from registry ops in NumPy's order of operations, so they fuse and round as NumPy's do.
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "frontend/build.hpp"
#include "frontend/composite_support.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse {

using frontend::float_loop;
using ir::op_code;

std::pair<array, array> frexp(const array& x) {
  const array f = x.astype(float_loop(x.dtype(), "frexp"));
  return {frontend::unary(op_code::frexp_mantissa, f), frontend::unary(op_code::frexp_exponent, f)};
}

std::pair<array, array> modf(const array& x) {
  const array f = x.astype(float_loop(x.dtype(), "modf"));
  // The fraction x - trunc(x) is exact; an infinity's is a zero, and each keeps x's sign.
  const array whole = trunc(f);
  return {copysign(where(isinf(f), 0, f - whole), f), whole};
}

std::pair<array, array> divmod(const operand& a, const operand& b) {
  // Each operand is read twice: held here as lvalues, a temporary is not consumed by the first op.
  const std::optional<array> x = a.arr ? std::optional<array>(*a.arr) : std::nullopt;
  const std::optional<array> y = b.arr ? std::optional<array>(*b.arr) : std::nullopt;
  const operand xa = x ? operand(*x) : a, yb = y ? operand(*y) : b;
  return {floor_divide(xa, yb), remainder(xa, yb)};
}

array ldexp(const array& x1, const array& x2) {
  const dtype t = float_loop(x1.dtype(), "ldexp");
  const dtype n = x2.dtype();
  if (!(n == dtype::bool_ || is_integer(n)) || n == dtype::uint64)
    throw dtype_error(
        std::string("ldexp: the exponent must be an integer array of at most 64 signed bits, got ") +
        std::string(dtype_name(n)) + " (NumPy: TypeError)");
  // Past these exponents every finite value of t has overflowed or underflowed already, so the
  // clamp changes no result, and the clamped exponent is exact in t.
  const std::int64_t reach = t == dtype::float16 ? 64 : t == dtype::float32 ? 320 : 2200;
  const array exponent = clip(x2.astype(dtype::int64), -reach, reach).astype(t);
  return frontend::binary(op_code::ldexp_float, x1.astype(t), exponent);
}

array ldexp(const array& x1, std::int64_t x2) {
  const frontend::operands_device on_their_device(x1);
  return ldexp(x1, full({}, scalar(x2), dtype::int64));
}

array float_power(const operand& a, const operand& b) {
  const dtype t = is_complex(result_type(a, b)) ? dtype::complex128 : dtype::float64;
  if (a.arr && b.arr) return power(a.arr->astype(t), b.arr->astype(t));
  if (a.arr) return power(a.arr->astype(t), b);
  if (b.arr) return power(a, b.arr->astype(t));
  return power(a, b);
}

namespace {

// x's non-finite values replaced; x is real and floating.
array finite_parts(const array& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  double hi = std::numeric_limits<double>::max(), lo = -hi;
  if (x.dtype() == dtype::float32) {
    hi = std::numeric_limits<float>::max();
    lo = -hi;
  } else if (x.dtype() == dtype::float16) {
    hi = 65504.0;
    lo = -hi;
  } else if (x.dtype() == dtype::bfloat16) {
    hi = 3.3895313892515355e38;
    lo = -hi;
  }
  const double inf = std::numeric_limits<double>::infinity();
  return where(isnan(x), nan,
               where(equal(x, inf), posinf.value_or(hi), where(equal(x, -inf), neginf.value_or(lo), x)))
      .astype(x.dtype());
}

}  // namespace

array nan_to_num(const array& x, double nan, std::optional<double> posinf, std::optional<double> neginf) {
  if (!is_inexact(x.dtype())) return x;
  if (!is_complex(x.dtype())) return finite_parts(x, nan, posinf, neginf);
  // Every part is finite now, so re + 1j * im builds the complex number exactly.
  const array re = finite_parts(real(x), nan, posinf, neginf);
  const array im = finite_parts(imag(x), nan, posinf, neginf);
  return (re + im * std::complex<double>(0, 1)).astype(x.dtype());
}

namespace {

// Cephes' Chebyshev coefficients for exp(-x) I0(x) on [0, 8] and exp(-x) sqrt(x) I0(x) on (8, inf),
// as NumPy's _i0A and _i0B.
constexpr double i0_a[] = {
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
    -1.1685332877993451e-14, 7.676185498604936e-14,  -4.856446783111929e-13, 2.95505266312964e-12,
    -1.726826291441556e-11,  9.675809035373237e-11,  -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08,  6.046995022541919e-08,  -2.670793853940612e-07, 1.1173875391201037e-06,
    -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
    -0.0005763755745385824,  0.0016394756169413357,  -0.004324309995050576,  0.010546460394594998,
    -0.02373741480589947,    0.04930528423967071,    -0.09490109704804764,   0.17162090152220877,
    -0.3046826723431984,     0.6767952744094761};
constexpr double i0_b[] = {
    -7.233180487874754e-18,  -4.830504485944182e-18,  4.46562142029676e-17,    3.461222867697461e-17,
    -2.8276239805165836e-16, -3.425485619677219e-16,  1.7725601330565263e-15,  3.8116806693526224e-15,
    -9.554846698828307e-15,  -4.150569347287222e-14,  1.54008621752141e-14,    3.8527783827421426e-13,
    7.180124451383666e-13,   -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
    1.1889147107846439e-11,  4.94060238822497e-10,    3.3962320257083865e-09,  2.266668990498178e-08,
    2.0489185894690638e-07,  2.8913705208347567e-06,  6.889758346916825e-05,   0.0033691164782556943,
    0.8044904110141088};

// NumPy's _chbevl: the Clenshaw recurrence, step by step as NumPy's Python loop computes it (its
// first two steps still hold Python floats in b1 and b2).
template <std::size_t N>
array chbevl(const array& x, const double (&vals)[N]) {
  static_assert(N >= 3);
  array b1 = x * vals[0] - 0.0 + vals[1];
  array b0 = x * b1 - vals[0] + vals[2];
  array b2 = b1;
  for (std::size_t i = 3; i < N; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + vals[i];
  }
  return 0.5 * (b0 - b2);
}

}  // namespace

array i0(const array& x_in) {
  if (is_complex(x_in.dtype())) throw dtype_error("i0: complex input is not supported (NumPy: TypeError)");
  const array x = abs(is_floating(x_in.dtype()) ? x_in : x_in.astype(dtype::float64));
  const array small = exp(x) * chbevl(x / 2.0 - 2, i0_a);
  const array large = exp(x) * chbevl(32.0 / x - 2.0, i0_b) / sqrt(x);
  return where(less_equal(x, 8.0), small, large);
}

}  // namespace ndfuse
