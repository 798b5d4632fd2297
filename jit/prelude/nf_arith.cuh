// ndfuse device prelude: the arithmetic ops (nf_compare.cuh has the rest of the ops that need no
// transcendental function). Each nf_<op> is its op's only body: NVRTC compiles it into kernels and
// the CPU backend calls it compiled as host C++ (src/backend/cpu/prelude_host.hpp), so both backends
// agree bit for bit. Integers wrap, integer division by zero gives 0, float floor_divide/remainder
// follow npy_divmod. float16 computes in float32 and
// rounds once (nf_up/nf_down), except where the result is one of the inputs, returned as is.
#ifndef NF_ARITH_CUH
#define NF_ARITH_CUH
#include "nf_types.cuh"

// --- Arithmetic --------------------------------------------------------------------------------------
template <class T>
__device__ __forceinline__ T nf_add(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a || b;
  else if constexpr (nf_is_int<T>)
    return (T)((nf_wide<T>)(nf_unsigned<T>)a + (nf_unsigned<T>)b);
  else if constexpr (nf_is_half<T>)
    return nf_down<T>(nf_up(a) + nf_up(b));
  else if constexpr (nf_is_complex<T>)
    return {a.re + b.re, a.im + b.im};
  else
    return a + b;
}

template <class T>
__device__ __forceinline__ T nf_subtract(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a != b;  // no NumPy loop
  else if constexpr (nf_is_int<T>)
    return (T)((nf_wide<T>)(nf_unsigned<T>)a - (nf_unsigned<T>)b);
  else if constexpr (nf_is_half<T>)
    return nf_down<T>(nf_up(a) - nf_up(b));
  else if constexpr (nf_is_complex<T>)
    return {a.re - b.re, a.im - b.im};
  else
    return a - b;
}

template <class T>
__device__ __forceinline__ T nf_multiply(T a, T b) {
  if constexpr (nf_is_bool<T>)
    return a && b;
  else if constexpr (nf_is_int<T>)
    return (T)((nf_wide<T>)(nf_unsigned<T>)a * (nf_wide<T>)(nf_unsigned<T>)b);
  else if constexpr (nf_is_half<T>)
    return nf_down<T>(nf_up(a) * nf_up(b));
  else if constexpr (nf_is_complex<T>)
    return nf_cmul_fused(a, b);
  else
    return a * b;
}

// NumPy's complex division: Smith's method, with NaN inputs passed through as NumPy does.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_complex_divide(nf_complex<R> a, nf_complex<R> b) {
  const R ar = a.re, ai = a.im, br = b.re, bi = b.im;
  const R abs_br = fabs(br), abs_bi = fabs(bi);
  const bool ar_nan = isnan(ar), ai_nan = isnan(ai);
  if (!isnan(br) && !isnan(bi) && (ar_nan || ai_nan) &&
      ((((!ar_nan && isinf(ar)) || (!ai_nan && isinf(ai))) && (br != 0 || bi != 0)) ||
       (isinf(br) && isinf(bi)))) {
    const R nan = ar_nan ? ar : ai;
    return nf_cplx<R>(nan, nan);
  }
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) {
      if ((ar_nan && (ai == 0 || ai_nan)) || (ar == 0 && ai_nan))
        return nf_cplx<R>(ar_nan ? ar : ai, ai_nan ? ai : ar);
      return nf_cplx<R>(ar / abs_br, ai / abs_bi);
    }
    const R rat = bi / br;
    const R scl = R(1) / (br + bi * rat);
    return nf_cplx<R>((ar + ai * rat) * scl, (ai - ar * rat) * scl);
  }
  const R rat = br / bi;
  const R scl = R(1) / (bi + br * rat);
  return nf_cplx<R>((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}

template <class T>
__device__ __forceinline__ T nf_true_divide(T a, T b) {
  if constexpr (nf_is_complex<T>)
    return nf_complex_divide(a, b);
  else if constexpr (nf_is_half<T>)
    return nf_down<T>(nf_up(a) / nf_up(b));
  else if constexpr (nf_is_real<T>)
    return a / b;
  else
    return a;  // no loop: integers divide in float64 after the frontend's cast
}

// npy_divmod: the quotient and remainder of floor division, the remainder taking the divisor's sign.
template <class R>
__device__ __forceinline__ R nf_floor_divmod(R a, R b, R& mod) {
  mod = fmod(a, b);
  if (b == 0) return a / b;
  R div = (a - mod) / b;
  if (mod != 0) {
    if ((b < R(0)) != (mod < R(0))) {
      mod += b;
      div -= R(1);
    }
  } else {
    mod = copysign(R(0), b);
  }
  R floordiv;
  if (div != 0) {
    floordiv = floor(div);
    if (div - floordiv > R(0.5)) floordiv += R(1);
  } else {
    floordiv = copysign(R(0), a / b);
  }
  return floordiv;
}

// gcd and lcm of the magnitudes (NumPy's npy_gcd / npy_lcm, wrapping as they do where the result
// does not fit: gcd(MIN, 0) is MIN).
template <class T>
__device__ __forceinline__ T nf_gcd(T a, T b) {
  if constexpr (nf_is_int<T>) {
    nf_unsigned<T> x = nf_magnitude(a), y = nf_magnitude(b);
    while (x != 0) {
      const nf_unsigned<T> r = (nf_unsigned<T>)(y % x);
      y = x;
      x = r;
    }
    return (T)y;
  } else {
    return a;  // no loop
  }
}
template <class T>
__device__ __forceinline__ T nf_lcm(T a, T b) {
  if constexpr (nf_is_int<T>) {
    typedef nf_unsigned<T> U;
    const U g = (U)nf_gcd(a, b);
    return g == 0 ? T(0) : (T)(U)((nf_wide<T>)(nf_magnitude(a) / g) * (nf_wide<T>)nf_magnitude(b));
  } else {
    return a;  // no loop
  }
}

template <class T>
__device__ __forceinline__ T nf_floor_divide(T a, T b) {
  if constexpr (nf_is_int<T>) {
    if (b == 0) return 0;
    if constexpr (nf_is_sint<T>) {
      if (b == -1) return (T)((nf_wide<T>)0 - (nf_unsigned<T>)a);  // MIN // -1 wraps to MIN
      T q = (T)(a / b);
      if (((a > 0) != (b > 0)) && q * b != a) --q;
      return q;
    } else {
      return (T)(a / b);
    }
  } else if constexpr (nf_is_half<T>) {
    return nf_down<T>(nf_floor_divide(nf_up(a), nf_up(b)));
  } else if constexpr (nf_is_real<T>) {
    if (b == 0) return a / b;
    T mod;
    return nf_floor_divmod(a, b, mod);
  } else {
    return a;  // no loop (bool, complex)
  }
}

template <class T>
__device__ __forceinline__ T nf_remainder(T a, T b) {
  if constexpr (nf_is_int<T>) {
    if (b == 0) return 0;
    if constexpr (nf_is_sint<T>) {
      if (b == -1) return 0;  // also MIN % -1, which would trap
      T r = (T)(a % b);
      if (r != 0 && ((a > 0) != (b > 0))) r = (T)(r + b);
      return r;
    } else {
      return (T)(a % b);
    }
  } else if constexpr (nf_is_half<T>) {
    return nf_down<T>(nf_remainder(nf_up(a), nf_up(b)));
  } else if constexpr (nf_is_real<T>) {
    if (b == 0) return fmod(a, b);
    T mod;
    nf_floor_divmod(a, b, mod);
    return mod;
  } else {
    return a;  // no loop (bool, complex)
  }
}

template <class T>
__device__ __forceinline__ T nf_fmod(T a, T b) {
  if constexpr (nf_is_int<T>) {
    if (b == 0) return 0;
    if constexpr (nf_is_sint<T>) {
      if (b == -1) return 0;
    }
    return (T)(a % b);  // truncated, sign of the dividend, as C
  } else if constexpr (nf_is_half<T>) {
    return nf_down<T>(fmodf(nf_up(a), nf_up(b)));
  } else if constexpr (nf_is_real<T>) {
    return fmod(a, b);
  } else {
    return a;  // no loop (bool, complex)
  }
}

// Complex power lives in nf_complex_math.cuh (it needs exp and log).
template <class T>
__device__ __forceinline__ T nf_power(T a, T b) {
  if constexpr (nf_is_int<T>) {
    // A negative exponent is a ValueError in NumPy; an element that slips through gives 0.
    if constexpr (nf_is_sint<T>) {
      if (b < 0) return 0;
    }
    // Square-and-multiply in unsigned arithmetic, so the result wraps like NumPy's.
    typedef nf_wide<T> W;
    typedef nf_unsigned<T> U;
    W base = (U)a;
    U e = (U)b;
    W out = (e & 1u) ? base : W(1);
    e = (U)(e >> 1);
    while (e != 0) {
      base = (U)(base * base);
      if (e & 1u) out = (U)(out * base);
      e = (U)(e >> 1);
    }
    return (T)(U)out;
  } else if constexpr (nf_is_half<T>) {
    return nf_down<T>(powf(nf_up(a), nf_up(b)));
  } else if constexpr (nf_is_real<T>) {
    return pow(a, b);
  } else {
    return a;  // no loop (bool)
  }
}

template <class T>
__device__ __forceinline__ T nf_positive(T a) {
  return a;
}

template <class T>
__device__ __forceinline__ T nf_negative(T a) {
  if constexpr (nf_is_bool<T>)
    return a;  // no NumPy loop
  else if constexpr (nf_is_int<T>)
    return (T)((nf_wide<T>)0 - (nf_unsigned<T>)a);
  else if constexpr (nf_is_half<T>)
    return T{(unsigned short)(a.bits ^ 0x8000u)};
  else if constexpr (nf_is_complex<T>)
    return {-a.re, -a.im};
  else
    return -a;
}

// |z| as NumPy's SIMD complex absolute computes it (differs from hypot in the last bit for some z).
template <class R>
__device__ __forceinline__ R nf_cabs_numpy(nf_complex<R> z) {
  const R inf = R(1) / R(0);
  R re = fabs(z.re), im = fabs(z.im);
  const bool re_inf = re == inf, im_inf = im == inf;
  if (re_inf) im = inf;
  if (im_inf) re = inf;
  const bool re_nan = isnan(re), im_nan = isnan(im);
  if (re_nan) im = re;
  if (im_nan) re = im;
  const R larger = re > im ? re : im;
  const R smaller = im < re ? im : re;
  const R ratio = (larger == 0 || smaller == inf) ? R(0) : smaller / larger;
  return sqrt(fma(ratio, ratio, R(1))) * larger;
}

template <class T>
__device__ __forceinline__ auto nf_absolute(T a) {
  if constexpr (nf_is_sint<T>)
    return a < 0 ? (T)((nf_wide<T>)0 - (nf_unsigned<T>)a) : a;  // abs(MIN) == MIN
  else if constexpr (nf_is_half<T>)
    return T{(unsigned short)(a.bits & 0x7fffu)};
  else if constexpr (nf_is_real<T>)
    return fabs(a);
  else if constexpr (nf_is_complex<T>)
    return nf_cabs_numpy(a);
  else
    return a;  // bool, unsigned
}

template <class T>
__device__ __forceinline__ T nf_sign(T a) {
  if constexpr (nf_is_uint<T>) {
    return (T)(a != 0);
  } else if constexpr (nf_is_sint<T>) {
    return (T)((a > 0) - (a < 0));
  } else if constexpr (nf_is_half<T>) {
    const float f = nf_up(a);
    return isnan(f) ? a : nf_down<T>(nf_sign(f));
  } else if constexpr (nf_is_real<T>) {
    return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));  // sign(-0.0) is +0.0, NaN stays
  } else if constexpr (nf_is_complex<T>) {
    // NumPy 2: z / |z| with |z| from hypot, and fixed results for infinite and zero inputs.
    typedef decltype(a.re) R;
    const R nan = R(0) / R(0);
    const R mag = hypot(a.re, a.im);
    if (isnan(mag)) return {nan, nan};
    if (isinf(mag)) {
      if (isinf(a.re)) {
        if (isinf(a.im)) return {nan, nan};
        return {a.re > 0 ? R(1) : R(-1), R(0)};
      }
      return {R(0), a.im > 0 ? R(1) : R(-1)};
    }
    if (mag == 0) return {R(0), R(0)};
    return {a.re / mag, a.im / mag};
  } else {
    return a;  // no loop (bool)
  }
}

template <class T>
__device__ __forceinline__ T nf_square(T a) {
  if constexpr (nf_is_bool<T>)
    return a;  // no loop
  else
    return nf_multiply(a, a);
}

template <class T>
__device__ __forceinline__ T nf_reciprocal(T a) {
  if constexpr (nf_is_int<T>) {
    // NumPy computes 1.0 / a and converts back; on x86-64 the conversion of inf (a == 0) gives
    // MIN for 32- and 64-bit signed types and 0 for narrower and unsigned ones.
    if (a == 0) {
      if constexpr (nf_is_sint<T> && sizeof(T) >= 4)
        return (T)((nf_unsigned<T>)1 << (sizeof(T) * 8 - 1));
      else
        return 0;
    }
    return (T)(T(1) / a);
  } else if constexpr (nf_is_half<T>) {
    return nf_down<T>(1.0f / nf_up(a));
  } else if constexpr (nf_is_real<T>) {
    return T(1) / a;
  } else if constexpr (nf_is_complex<T>) {
    typedef decltype(a.re) R;
    if (fabs(a.im) <= fabs(a.re)) {
      const R r = a.im / a.re;
      const R d = a.re + a.im * r;
      return {R(1) / d, -r / d};
    }
    const R r = a.re / a.im;
    const R d = a.re * r + a.im;
    return {r / d, R(-1) / d};
  } else {
    return a;  // no loop (bool)
  }
}

#endif  // NF_ARITH_CUH
