// Shared helpers of the op definitions (ops/*.hpp): type traits over compute types, wrapping integer
// arithmetic, and the complex kernels whose rounding NumPy fixes (its multiply, divide, power).
//
// Bit-exactness with NumPy assumes the compiler does not contract a * b + c into an FMA on its own
// (GCC does for C++ whenever the target has FMA, e.g. -march=native or aarch64, unless
// -ffp-contract=off): NumPy rounds those products, and where it fuses, the code here calls std::fma.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "ir/host_types.hpp"
#include "ir/op_code.hpp"

namespace ndfuse::ir::ops {

// Compute types, as host functors see them: bool, intN_t/uintN_t, float (also float16), double and
// std::complex of float/double.
template <class T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;
template <class T>
inline constexpr bool is_sint_v = (is_int_v<T> && std::is_signed_v<T>);
template <class T>
inline constexpr bool is_uint_v = (is_int_v<T> && std::is_unsigned_v<T>);
template <class T>
inline constexpr bool is_real_v = std::is_floating_point_v<T>;

namespace detail {

// Signed overflow is undefined in C++ but wraps in NumPy, so integer arithmetic goes through the
// unsigned twin. Types narrower than int would promote to (signed) int, where a product such as
// 0xffff * 0xffff overflows; `wide_t` keeps them unsigned.
template <class T>
using uint_t = std::make_unsigned_t<T>;
template <class T>
using wide_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, uint_t<T>>;

template <class T>
inline T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<wide_t<T>>(static_cast<uint_t<T>>(a)) + static_cast<uint_t<T>>(b));
}
template <class T>
inline T wrap_sub(T a, T b) {
  return static_cast<T>(static_cast<wide_t<T>>(static_cast<uint_t<T>>(a)) - static_cast<uint_t<T>>(b));
}
template <class T>
inline T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<wide_t<T>>(static_cast<uint_t<T>>(a)) *
                        static_cast<wide_t<T>>(static_cast<uint_t<T>>(b)));
}
template <class T>
inline T wrap_neg(T a) {
  return static_cast<T>(wide_t<T>{0} - static_cast<uint_t<T>>(a));
}

// Truthiness as C sees it: NaN is true, a complex number is true when either part is.
template <class T>
inline bool truthy(T a) {
  if constexpr (is_complex_v<T>)
    return a.real() != 0 || a.imag() != 0;
  else
    return a != T{};
}

// The complex product NumPy computes on FMA hardware (its AVX2/AVX-512/NEON loops use a fused
// multiply-add/subtract): re = fma(ar, br, -ai*bi), im = fma(ar, bi, ai*br). No C99 Annex G
// infinity recovery, unlike the compiler's operator*.
template <class R>
inline std::complex<R> cmul_fused(std::complex<R> a, std::complex<R> b) {
  return {std::fma(a.real(), b.real(), -(a.imag() * b.imag())),
          std::fma(a.real(), b.imag(), a.imag() * b.real())};
}
// The unfused textbook product, as npy_cpow uses for small integer powers.
template <class R>
inline std::complex<R> cmul_plain(std::complex<R> a, std::complex<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// Smith's division as npy_cpow uses it to invert a negative integer power.
template <class R>
inline std::complex<R> cdiv_smith(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abs_br = std::fabs(br), abs_bi = std::fabs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return {ar / abs_br, ai / abs_bi};
    const R rat = bi / br;
    const R scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi;
  const R scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// |z| as NumPy's SIMD complex absolute computes it (every contiguous or strided loop on x86-64 and
// ARM64): larger * sqrt(fma(r, r, 1)) with r = smaller / larger, after mapping any infinite part to
// inf and then any NaN part to NaN. It differs from hypot in the last bit for some inputs.
template <class R>
inline R cabs_numpy(std::complex<R> z) {
  constexpr R inf = std::numeric_limits<R>::infinity();
  constexpr R nan = std::numeric_limits<R>::quiet_NaN();
  R re = std::fabs(z.real()), im = std::fabs(z.imag());
  const bool re_inf = re == inf, im_inf = im == inf;
  if (re_inf) im = inf;
  if (im_inf) re = inf;
  const bool re_nan = std::isnan(re), im_nan = std::isnan(im);
  if (re_nan) im = nan;
  if (im_nan) re = nan;
  const R larger = re > im ? re : im;
  const R smaller = im < re ? im : re;
  const R ratio = (larger == 0 || smaller == inf) ? R(0) : smaller / larger;
  return std::sqrt(std::fma(ratio, ratio, R(1))) * larger;
}

// NumPy's float divmod (npy_divmod, after CPython's float divmod): the quotient and remainder of
// floor division, with the remainder taking the divisor's sign.
template <class R>
inline R floor_divmod(R a, R b, R& mod) {
  mod = std::fmod(a, b);
  if (b == 0) return a / b;
  R div = (a - mod) / b;
  if (mod != 0) {
    if (std::isless(b, R(0)) != std::isless(mod, R(0))) {
      mod += b;
      div -= R(1);
    }
  } else {
    mod = std::copysign(R(0), b);
  }
  R floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (std::isgreater(div - floordiv, R(0.5))) floordiv += R(1);
  } else {
    floordiv = std::copysign(R(0), a / b);
  }
  return floordiv;
}

}  // namespace detail
}  // namespace ndfuse::ir::ops
