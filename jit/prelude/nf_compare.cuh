// ndfuse device prelude: comparisons, logical and bitwise ops, extrema, rounding, classification and
// complex parts. As in nf_arith.cuh, each nf_<op> is its op's only body, run by both backends.
#ifndef NF_COMPARE_CUH
#define NF_COMPARE_CUH
#include "nf_types.cuh"

// --- Comparisons ---------------------------------------------------------------------------------------
// Complex numbers order lexicographically; a real-part difference decides only when neither
// imaginary part is NaN (NumPy's CLT/CLE).
template <class R>
__device__ __forceinline__ bool nf_complex_less(nf_complex<R> a, nf_complex<R> b) {
  return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im < b.im);
}
template <class R>
__device__ __forceinline__ bool nf_complex_less_equal(nf_complex<R> a, nf_complex<R> b) {
  return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}

template <class T>
__device__ __forceinline__ bool nf_equal(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return a.re == b.re && a.im == b.im;
  else
    return nf_up(a) == nf_up(b);
}
template <class T>
__device__ __forceinline__ bool nf_not_equal(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return a.re != b.re || a.im != b.im;
  else
    return nf_up(a) != nf_up(b);
}
template <class T>
__device__ __forceinline__ bool nf_less(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return nf_complex_less(a, b);
  else
    return nf_up(a) < nf_up(b);
}
template <class T>
__device__ __forceinline__ bool nf_less_equal(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return nf_complex_less_equal(a, b);
  else
    return nf_up(a) <= nf_up(b);
}
template <class T>
__device__ __forceinline__ bool nf_greater(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return nf_complex_less(b, a);
  else
    return nf_up(a) > nf_up(b);
}
template <class T>
__device__ __forceinline__ bool nf_greater_equal(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return nf_complex_less_equal(b, a);
  else
    return nf_up(a) >= nf_up(b);
}

// --- Logical (any dtype, by truthiness) and bitwise (bool and integers) --------------------------------
template <class T>
__device__ __forceinline__ bool nf_logical_and(T a, T b) {
  return nf_truthy(a) && nf_truthy(b);
}
template <class T>
__device__ __forceinline__ bool nf_logical_or(T a, T b) {
  return nf_truthy(a) || nf_truthy(b);
}
template <class T>
__device__ __forceinline__ bool nf_logical_xor(T a, T b) {
  return nf_truthy(a) != nf_truthy(b);
}
template <class T>
__device__ __forceinline__ bool nf_logical_not(T a) {
  return !nf_truthy(a);
}

template <class T>
__device__ __forceinline__ T nf_bitwise_and(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a && b;
  else
    return (T)(a & b);
}
template <class T>
__device__ __forceinline__ T nf_bitwise_or(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a || b;
  else
    return (T)(a | b);
}
template <class T>
__device__ __forceinline__ T nf_bitwise_xor(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a != b;
  else
    return (T)(a ^ b);
}
template <class T>
__device__ __forceinline__ T nf_invert(T a) {
  if constexpr (nf_is_bool<T>)
    return !a;
  else
    return (T)~a;
}

// The number of 1 bits in |a| (NumPy's bitwise_count).
template <class T>
__device__ __forceinline__ nf_uint8 nf_bitwise_count(T a) {
  if constexpr (nf_is_int<T>) {
    auto m = (nf_uint64)nf_magnitude(a);
    nf_uint8 n = 0;
    for (; m != 0; m &= m - 1) ++n;
    return n;
  } else {
    return (nf_uint8)0;  // no loop
  }
}

// A count that is negative (huge once unsigned) or at least the width shifts every bit out.
template <class T>
__device__ __forceinline__ T nf_left_shift(T a, T b) {
  typedef nf_wide<T> W;
  typedef nf_unsigned<T> U;
  const U n = (U)b;
  const W shifted = (W)((W)(U)a << (n & (sizeof(T) * 8 - 1)));
  return n < sizeof(T) * 8 ? (T)(U)shifted : T(0);
}
// Signed values shift arithmetically, an out-of-range count leaving only the sign (0 or -1).
template <class T>
__device__ __forceinline__ T nf_right_shift(T a, T b) {
  const nf_unsigned<T> n = (nf_unsigned<T>)b;
  const unsigned bits = sizeof(T) * 8;
  if constexpr (nf_is_sint<T>)
    return (T)(a >> (n < bits ? n : bits - 1));
  else
    return n < bits ? (T)(a >> (n & (bits - 1))) : T(0);
}

// --- Extrema: maximum/minimum propagate NaN, fmax/fmin ignore it ----------------------------------------
// Real loops pick the second argument when the two compare equal, as NumPy's SIMD loops do.
template <class T>
__device__ __forceinline__ bool nf_has_nan(T a) {
  if constexpr (nf_is_complex<T>)
    return isnan(a.re) || isnan(a.im);
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return isnan(nf_up(a));
  else
    return false;
}

template <class T>
__device__ __forceinline__ T nf_maximum(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a || b;
  else if constexpr (nf_is_complex<T>)
    return nf_has_nan(a) || nf_complex_less_equal(b, a) ? a : b;
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return (nf_up(a) > nf_up(b) || nf_has_nan(a)) ? a : b;
  else
    return a > b ? a : b;
}
template <class T>
__device__ __forceinline__ T nf_minimum(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a && b;
  else if constexpr (nf_is_complex<T>)
    return nf_has_nan(a) || nf_complex_less_equal(a, b) ? a : b;
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return (nf_up(a) < nf_up(b) || nf_has_nan(a)) ? a : b;
  else
    return a < b ? a : b;
}
template <class T>
__device__ __forceinline__ T nf_fmax(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a || b;
  else if constexpr (nf_is_complex<T>)
    return nf_has_nan(b) || nf_complex_less_equal(b, a) ? a : b;
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return (nf_up(a) > nf_up(b) || nf_has_nan(b)) ? a : b;
  else
    return a > b ? a : b;
}
template <class T>
__device__ __forceinline__ T nf_fmin(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a && b;
  else if constexpr (nf_is_complex<T>)
    return nf_has_nan(b) || nf_complex_less_equal(a, b) ? a : b;
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return (nf_up(a) < nf_up(b) || nf_has_nan(b)) ? a : b;
  else
    return a < b ? a : b;
}

// --- Rounding: bool and integer loops return the input; rint rounds half to even ------------------------
template <class T>
__device__ __forceinline__ T nf_floor(T a) {
  if constexpr (nf_is_half<T>)
    return nf_down<T>(floorf(nf_up(a)));
  else if constexpr (nf_is_real<T>)
    return floor(a);
  else
    return a;
}
template <class T>
__device__ __forceinline__ T nf_ceil(T a) {
  if constexpr (nf_is_half<T>)
    return nf_down<T>(ceilf(nf_up(a)));
  else if constexpr (nf_is_real<T>)
    return ceil(a);
  else
    return a;
}
template <class T>
__device__ __forceinline__ T nf_trunc(T a) {
  if constexpr (nf_is_half<T>)
    return nf_down<T>(truncf(nf_up(a)));
  else if constexpr (nf_is_real<T>)
    return trunc(a);
  else
    return a;
}
template <class T>
__device__ __forceinline__ T nf_rint(T a) {
  if constexpr (nf_is_half<T>)
    return nf_down<T>(rintf(nf_up(a)));
  else if constexpr (nf_is_real<T>)
    return rint(a);
  else if constexpr (nf_is_complex<T>)
    return {rint(a.re), rint(a.im)};
  else
    return a;
}

// --- Classification and complex parts --------------------------------------------------------------------
template <class T>
__device__ __forceinline__ bool nf_isnan(T a) {
  return nf_has_nan(a);
}
template <class T>
__device__ __forceinline__ bool nf_isinf(T a) {
  if constexpr (nf_is_complex<T>)
    return isinf(a.re) || isinf(a.im);
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return isinf(nf_up(a));
  else
    return false;
}
template <class T>
__device__ __forceinline__ bool nf_isfinite(T a) {
  if constexpr (nf_is_complex<T>)
    return isfinite(a.re) && isfinite(a.im);
  else if constexpr (nf_is_half<T> || nf_is_real<T>)
    return isfinite(nf_up(a));
  else
    return true;
}
template <class T>
__device__ __forceinline__ auto nf_real(T a) {
  if constexpr (nf_is_complex<T>)
    return a.re;
  else
    return a;
}
template <class T>
__device__ __forceinline__ auto nf_imag(T a) {
  if constexpr (nf_is_complex<T>)
    return a.im;
  else
    return T{};  // the imaginary part of a real array is zero
}
template <class T>
__device__ __forceinline__ T nf_conjugate(T a) {
  if constexpr (nf_is_complex<T>)
    return {a.re, -a.im};
  else
    return a;
}

#endif  // NF_COMPARE_CUH
