// ndfuse device prelude: transcendental ops on real numbers, through CUDA's libdevice (accurate to a
// few ulp, not bit-identical to glibc; tests compare with a tolerance). float16 computes in float32
// and rounds once, as NumPy's e->e loops do. Complex overloads are in nf_complex_math.cuh.
#ifndef NF_MATH_CUH
#define NF_MATH_CUH
#include "nf_types.cuh"

#define NF_REAL_UNARY(name, f32, f64)                          \
  __device__ __forceinline__ float name(float a) {             \
    return f32(a);                                             \
  }                                                            \
  __device__ __forceinline__ double name(double a) {           \
    return f64(a);                                             \
  }                                                            \
  __device__ __forceinline__ nf_float16 name(nf_float16 a) {   \
    return nf_half_from(f32(nf_half_to_float(a)));             \
  }                                                            \
  __device__ __forceinline__ nf_bfloat16 name(nf_bfloat16 a) { \
    return nf_bf16_from(f32(nf_bf16_to_float(a)));             \
  }

#define NF_REAL_BINARY(name, f32, f64)                                        \
  __device__ __forceinline__ float name(float a, float b) {                   \
    return f32(a, b);                                                         \
  }                                                                           \
  __device__ __forceinline__ double name(double a, double b) {                \
    return f64(a, b);                                                         \
  }                                                                           \
  __device__ __forceinline__ nf_float16 name(nf_float16 a, nf_float16 b) {    \
    return nf_half_from(f32(nf_half_to_float(a), nf_half_to_float(b)));       \
  }                                                                           \
  __device__ __forceinline__ nf_bfloat16 name(nf_bfloat16 a, nf_bfloat16 b) { \
    return nf_bf16_from(f32(nf_bf16_to_float(a), nf_bf16_to_float(b)));       \
  }

NF_REAL_UNARY(nf_exp, expf, exp)
NF_REAL_UNARY(nf_exp2, exp2f, exp2)
NF_REAL_UNARY(nf_expm1, expm1f, expm1)
NF_REAL_UNARY(nf_log, logf, log)
NF_REAL_UNARY(nf_log2, log2f, log2)
NF_REAL_UNARY(nf_log10, log10f, log10)
NF_REAL_UNARY(nf_log1p, log1pf, log1p)
NF_REAL_UNARY(nf_sqrt, sqrtf, sqrt)  // correctly rounded (no --use_fast_math)
NF_REAL_UNARY(nf_cbrt, cbrtf, cbrt)
NF_REAL_UNARY(nf_sin, sinf, sin)
NF_REAL_UNARY(nf_cos, cosf, cos)
NF_REAL_UNARY(nf_tan, tanf, tan)
NF_REAL_UNARY(nf_arcsin, asinf, asin)
NF_REAL_UNARY(nf_arccos, acosf, acos)
NF_REAL_UNARY(nf_arctan, atanf, atan)
NF_REAL_UNARY(nf_sinh, sinhf, sinh)
NF_REAL_UNARY(nf_cosh, coshf, cosh)
NF_REAL_UNARY(nf_tanh, tanhf, tanh)
NF_REAL_UNARY(nf_arcsinh, asinhf, asinh)
NF_REAL_UNARY(nf_arccosh, acoshf, acosh)
NF_REAL_UNARY(nf_arctanh, atanhf, atanh)
NF_REAL_BINARY(nf_arctan2, atan2f, atan2)
NF_REAL_BINARY(nf_hypot, hypotf, hypot)

// NumPy's npy_logaddexp: log(e^a + e^b) without overflow. Equal arguments (infinities of one sign
// included) add log 2; a NaN difference is the answer.
template <class R>
__device__ __forceinline__ R nf_logaddexp_of(R a, R b) {
  if (a == b) return a + R(0.693147180559945309417232121458176568);
  const R d = a - b;
  if (d > 0) return a + nf_log1p(nf_exp(-d));
  if (d <= 0) return b + nf_log1p(nf_exp(d));
  return d;
}
// npy_logaddexp2: log2(2^a + 2^b), with log2(1 + x) as log1p(x) / log 2.
template <class R>
__device__ __forceinline__ R nf_logaddexp2_of(R a, R b) {
  if (a == b) return a + R(1);
  const R d = a - b;
  if (d > 0) return a + R(1.442695040888963407359924681001892137) * nf_log1p(nf_exp2(-d));
  if (d <= 0) return b + R(1.442695040888963407359924681001892137) * nf_log1p(nf_exp2(d));
  return d;
}
NF_REAL_BINARY(nf_logaddexp, nf_logaddexp_of, nf_logaddexp_of)
NF_REAL_BINARY(nf_logaddexp2, nf_logaddexp2_of, nf_logaddexp2_of)

// --- Floating-point bits: signs, neighbours, binary exponents ------------------------------------
// The 16-bit floats work on their bits, so NaN payloads and zero signs pass through untouched.
template <class T>
__device__ __forceinline__ bool nf_signbit(T a) {
  if constexpr (nf_is_half<T>)
    return (a.bits & 0x8000u) != 0;
  else if constexpr (nf_is_real<T>)
    return signbit(a);
  else
    return false;  // no loop
}
template <class T>
__device__ __forceinline__ T nf_copysign(T a, T b) {
  if constexpr (nf_is_half<T>) {
    T r;
    r.bits = (unsigned short)((a.bits & 0x7fffu) | (b.bits & 0x8000u));
    return r;
  } else if constexpr (nf_is_real<T>) {
    return copysign(a, b);
  } else {
    return a;  // no loop
  }
}
// Bit steps for the 16-bit floats, as NumPy's npy_half_nextafter (equal arguments give b, as C's
// nextafter and NumPy 2.5's; earlier NumPy gave a); libm's otherwise.
template <class T>
__device__ __forceinline__ T nf_nextafter(T a, T b) {
  if constexpr (nf_is_half<T>) {
    const float x = nf_up(a), y = nf_up(b);
    T r = a;
    if (isnan(x) || isnan(y)) return nf_down<T>(x + y);
    if (x == y) return b;
    if (x == 0.0f)
      r.bits = (unsigned short)((b.bits & 0x8000u) | 1u);  // the smallest subnormal toward b
    else if ((x < y) == (x > 0.0f))
      r.bits = (unsigned short)(a.bits + 1u);  // away from zero
    else
      r.bits = (unsigned short)(a.bits - 1u);
    return r;
  } else if constexpr (nf_is_real<T>) {
    return nextafter(a, b);
  } else {
    return a;  // no loop
  }
}
// a * 2^n, rounded once. n is an integer held in a's own type (nf::ldexp converts and clamps it);
// any other n still gives one answer on every backend: NaN for NaN, and n clamped to +-2200 (past
// which every finite a has over- or underflowed) before it becomes an int.
template <class R>
__device__ __forceinline__ R nf_ldexp_of(R a, R n) {
  if (isnan(n)) return a + n;
  const R m = n < R(-2200) ? R(-2200) : (n > R(2200) ? R(2200) : n);
  return ldexp(a, (int)m);
}
template <class T>
__device__ __forceinline__ T nf_ldexp_float(T a, T n) {
  if constexpr (nf_is_half<T>)
    return nf_down<T>(nf_ldexp_of(nf_up(a), nf_up(n)));
  else if constexpr (nf_is_real<T>)
    return nf_ldexp_of(a, n);
  else
    return a;  // no loop
}
// frexp's two results: the mantissa in [0.5, 1) with a's sign, and the exponent; zero, infinity and
// NaN give themselves and exponent 0, as NumPy's.
template <class T>
__device__ __forceinline__ T nf_frexp_mantissa(T a) {
  if constexpr (nf_is_half<T>) {
    int e;
    const float x = nf_up(a);
    return isfinite(x) ? nf_down<T>(frexpf(x, &e)) : a;
  } else if constexpr (nf_is_real<T>) {
    int e;
    return isfinite(a) ? frexp(a, &e) : a;
  } else {
    return a;  // no loop
  }
}
template <class T>
__device__ __forceinline__ nf_int32 nf_frexp_exponent(T a) {
  int e = 0;
  if constexpr (nf_is_half<T> || nf_is_real<T>) {
    const auto x = nf_up(a);
    if (isfinite(x)) frexp(x, &e);
  }
  return (nf_int32)e;
}

#undef NF_REAL_UNARY
#undef NF_REAL_BINARY

#endif  // NF_MATH_CUH
