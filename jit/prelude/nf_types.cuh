// ndfuse device prelude: element types, conversions, vector memory access and index streams.
// NVRTC compiles generated kernels with no include paths, so nothing here includes a toolkit
// header: float16 and complex are our own types, and conversions use PTX directly.
#ifndef NF_TYPES_CUH
#define NF_TYPES_CUH

// --- Storage types, named after the ndfuse dtypes ----------------------------------------------
// nvcc's loop unrolling; nothing where the prelude compiles as host C++ (GCC warns on the pragma).
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define NF_UNROLL _Pragma("unroll")
#else
#define NF_UNROLL
#endif

typedef signed char nf_int8;
typedef short nf_int16;
typedef int nf_int32;
typedef long long nf_int64;
typedef unsigned char nf_uint8;
typedef unsigned short nf_uint16;
typedef unsigned int nf_uint32;
typedef unsigned long long nf_uint64;

// IEEE binary16, stored as its bits. Arithmetic happens in float32 and rounds once per op, as
// NumPy's float16 loops do.
struct nf_float16 {
  unsigned short bits;
};

// bfloat16: the upper half of a float32's bits. Arithmetic happens in float32 and rounds once per
// op, as for float16.
struct nf_bfloat16 {
  unsigned short bits;
};

// Complex numbers as NumPy stores them: real part, then imaginary part.
template <class R>
struct alignas(2 * sizeof(R)) nf_complex {
  R re, im;
};
typedef nf_complex<float> nf_complex64;
typedef nf_complex<double> nf_complex128;

// --- Type traits (no <type_traits> under NVRTC) ---------------------------------------------------
template <class A, class B>
constexpr bool nf_is_same = false;
template <class A>
constexpr bool nf_is_same<A, A> = true;

template <class T>
constexpr bool nf_is_bool = nf_is_same<T, bool>;
template <class T>
constexpr bool nf_is_sint =
    nf_is_same<T, nf_int8> || nf_is_same<T, nf_int16> || nf_is_same<T, nf_int32> || nf_is_same<T, nf_int64>;
template <class T>
constexpr bool nf_is_uint = nf_is_same<T, nf_uint8> || nf_is_same<T, nf_uint16> || nf_is_same<T, nf_uint32> ||
                            nf_is_same<T, nf_uint64>;
template <class T>
constexpr bool nf_is_int = nf_is_sint<T> || nf_is_uint<T>;
// The 16-bit floats (float16 and bfloat16): stored as bits, computed in float32.
template <class T>
constexpr bool nf_is_half = nf_is_same<T, nf_float16> || nf_is_same<T, nf_bfloat16>;
template <class T>
constexpr bool nf_is_real = nf_is_same<T, float> || nf_is_same<T, double>;  // 16-bit floats excluded
template <class T>
constexpr bool nf_is_complex = false;
template <class R>
constexpr bool nf_is_complex<nf_complex<R>> = true;

// The unsigned twin of an integer type, and the type its wrapping arithmetic runs in: types
// narrower than int would otherwise promote to signed int, where e.g. 0xffff * 0xffff overflows.
template <class T>
struct nf_unsigned_of {
  typedef T type;
};
template <>
struct nf_unsigned_of<nf_int8> {
  typedef nf_uint8 type;
};
template <>
struct nf_unsigned_of<nf_int16> {
  typedef nf_uint16 type;
};
template <>
struct nf_unsigned_of<nf_int32> {
  typedef nf_uint32 type;
};
template <>
struct nf_unsigned_of<nf_int64> {
  typedef nf_uint64 type;
};
template <class T>
using nf_unsigned = typename nf_unsigned_of<T>::type;

template <bool C, class A, class B>
struct nf_conditional {
  typedef A type;
};
template <class A, class B>
struct nf_conditional<false, A, B> {
  typedef B type;
};
template <class T>
using nf_wide = typename nf_conditional<(sizeof(T) < sizeof(unsigned)), unsigned, nf_unsigned<T>>::type;

// --- float16 conversions ----------------------------------------------------------------------------
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// cvt.rn rounds to nearest even straight from the source precision (a double is not first rounded
// to float), which is what NumPy's float16 casts do.
__device__ __forceinline__ float nf_half_to_float(nf_float16 h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
}
__device__ __forceinline__ nf_float16 nf_half_from(float f) {
  nf_float16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(f));
  return h;
}
__device__ __forceinline__ nf_float16 nf_half_from(double d) {
  nf_float16 h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.bits) : "d"(d));
  return h;
}
#else
// Compiled as host C++ by the CPU backend, which defines these (src/backend/cpu/prelude_host.hpp).
inline float nf_half_to_float(nf_float16 h);
inline nf_float16 nf_half_from(float f);
inline nf_float16 nf_half_from(double d);
#endif

// --- bfloat16 conversions (integer arithmetic: no sm_80 instruction needed) -------------------------
__device__ __forceinline__ float nf_bf16_to_float(nf_bfloat16 b) {
  return __uint_as_float((unsigned)b.bits << 16);
}
__device__ __forceinline__ nf_bfloat16 nf_bf16_from(float f) {
  const unsigned u = __float_as_uint(f);
  nf_bfloat16 b;
  if ((u & 0x7fffffffu) > 0x7f800000u)
    b.bits = (unsigned short)((u >> 16) | 0x40u);  // a quiet NaN of the same sign
  else  // just under half a unit plus the kept lowest bit: ties to even, carrying up to infinity
    b.bits = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  return b;
}
// Straight from double, rounding once: to 8 significant bits (2^-133 steps below float32's normal
// range), which is then exact in float32.
__device__ __forceinline__ nf_bfloat16 nf_bf16_from(double d) {
  if (d != d || d == 0 || d - d != 0) return nf_bf16_from((float)d);  // NaN, zero, infinity
  int e;
  frexp(d, &e);
  const int unit = e - 8 > -133 ? e - 8 : -133;
  const double r = ldexp(rint(ldexp(d, -unit)), unit);
  return nf_bf16_from((float)r);  // exact, or beyond 2^128: infinity
}

// The type an op computes in (float for float16), and the way back.
template <class T>
__device__ __forceinline__ T nf_up(T x) {
  return x;
}
__device__ __forceinline__ float nf_up(nf_float16 x) {
  return nf_half_to_float(x);
}
__device__ __forceinline__ float nf_up(nf_bfloat16 x) {
  return nf_bf16_to_float(x);
}
template <class T, class C>
__device__ __forceinline__ T nf_down(C x) {
  if constexpr (nf_is_same<T, nf_float16>)
    return nf_half_from(x);
  else if constexpr (nf_is_same<T, nf_bfloat16>)
    return nf_bf16_from(x);
  else
    return x;
}

// |a| as the unsigned type of a's width: the magnitude of MIN too.
template <class T>
__device__ __forceinline__ nf_unsigned<T> nf_magnitude(T a) {
  typedef nf_unsigned<T> U;
  if constexpr (nf_is_sint<T>)
    return a < 0 ? (U)((U)0 - (U)a) : (U)a;
  else
    return (U)a;
}
// --- Complex helpers shared by several ops ----------------------------------------------------------
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cplx(R re, R im) {
  nf_complex<R> z;
  z.re = re;
  z.im = im;
  return z;
}
// The product NumPy's SIMD loops compute (fused multiply-add/subtract, no C99 Annex G recovery).
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cmul_fused(nf_complex<R> a, nf_complex<R> b) {
  return nf_cplx<R>(fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re));
}
// The unfused textbook product (npy_cpow's repeated multiplication).
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cmul_plain(nf_complex<R> a, nf_complex<R> b) {
  return nf_cplx<R>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Smith's division as npy_cpow uses it to invert a negative integer power.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cdiv_smith(nf_complex<R> a, nf_complex<R> b) {
  const R abs_br = fabs(b.re), abs_bi = fabs(b.im);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return nf_cplx<R>(a.re / abs_br, a.im / abs_bi);
    const R rat = b.im / b.re;
    const R scl = R(1) / (b.re + b.im * rat);
    return nf_cplx<R>((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  const R rat = b.re / b.im;
  const R scl = R(1) / (b.im + b.re * rat);
  return nf_cplx<R>((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}

// Truthiness as C sees it: NaN is true, a complex number is true when either part is.
template <class T>
__device__ __forceinline__ bool nf_truthy(T a) {
  if constexpr (nf_is_complex<T>)
    return a.re != 0 || a.im != 0;
  else if constexpr (nf_is_half<T>)
    return nf_up(a) != 0.0f;
  else
    return a != T(0);
}

// --- Casts (NumPy's unsafe casting) ------------------------------------------------------------------
// Float to integer as NumPy behaves on x86-64, where C leaves it undefined: out-of-range and NaN
// go through int32 for targets of up to 32 bits (INT32_MIN) and through int64 for the rest (INT64_MIN),
// then wrap to the target (PTX's cvt would saturate instead).
template <class To>
__device__ __forceinline__ To nf_float_to_int(double d) {
  if constexpr (nf_is_same<To, nf_uint64>) {
    if (d >= 0 && d < 18446744073709551616.0) return (nf_uint64)d;
  }
  if constexpr (sizeof(To) < 4 || nf_is_same<To, nf_int32>) {  // through int32, as x86-64's cvttsd2si
    if (!(d > -2147483649.0 && d < 2147483648.0)) return (To)(nf_int32)(-2147483647 - 1);
    return (To)(nf_int32)d;
  }
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return (To)(nf_int64)(-9223372036854775807LL - 1);
  return (To)(nf_int64)d;
}

template <class To, class From>
__device__ __forceinline__ To nf_cast(From x) {
  if constexpr (nf_is_same<To, From>) {
    return x;
  } else if constexpr (nf_is_bool<To>) {
    return nf_truthy(x);
  } else if constexpr (nf_is_half<To>) {
    if constexpr (nf_is_complex<From>)
      return nf_down<To>((double)x.re);
    else if constexpr (nf_is_same<From, float>)
      return nf_down<To>(x);
    else if constexpr (nf_is_half<From>)
      return nf_down<To>(nf_up(x));  // float16 <-> bfloat16: exact in float32, rounded once
    else
      return nf_down<To>((double)x);  // integers go through double, as on the host
  } else if constexpr (nf_is_complex<To>) {
    typedef decltype(To{}.re) R;
    if constexpr (nf_is_complex<From>)
      return nf_cplx<R>((R)x.re, (R)x.im);
    else
      return nf_cplx<R>((R)nf_up(x), R(0));
  } else if constexpr (nf_is_real<To>) {
    if constexpr (nf_is_complex<From>)
      return (To)x.re;  // the imaginary part is discarded
    else
      return (To)nf_up(x);
  } else {  // integer target
    if constexpr (nf_is_complex<From>)
      return nf_float_to_int<To>((double)x.re);
    else if constexpr (nf_is_half<From> || nf_is_real<From>)
      return nf_float_to_int<To>((double)nf_up(x));
    else
      return (To)x;  // bool or integer: modular
  }
}

// --- Index streams: arange, linspace, eye ------------------------------------------------------------
// One layout for every dtype keeps the host side (jit/kernel_abi.cpp) simple.
struct nf_iota_params {
  double start_re, start_im, step_re, step_im;  // float, complex and bool dtypes
  long long start_int, step_int;                // integer dtypes (truncated on the host)
  long long offset;                             // added to the affine index (eye's -k)
  int equals;                                   // eye: the value is (affine index + offset == 0)
};

// start + (affine + offset) * step in the dtype's own arithmetic (NumPy's arange fill), or eye's
// (affine + offset == 0).
template <class T>
__device__ __forceinline__ T nf_iota(const nf_iota_params& p, long long affine) {
  const long long a = affine + p.offset;
  if (p.equals) return nf_cast<T>(a == 0);
  if constexpr (nf_is_bool<T>) {
    return p.start_re + p.step_re * (double)a != 0.0 || p.start_im + p.step_im * (double)a != 0.0;
  } else if constexpr (nf_is_complex<T>) {
    typedef decltype(T{}.re) R;
    const R x = (R)a;
    // (x + 0i) * step as a complex product, unfused.
    return nf_cplx<R>((R)p.start_re + (x * (R)p.step_re - R(0) * (R)p.step_im),
                      (R)p.start_im + (x * (R)p.step_im + R(0) * (R)p.step_re));
  } else if constexpr (nf_is_half<T> || nf_is_real<T>) {
    typedef decltype(nf_up(T{})) C;
    return nf_down<T>((C)p.start_re + (C)a * (C)p.step_re);
  } else {
    return (T)((nf_uint64)p.start_int + (nf_uint64)a * (nf_uint64)p.step_int);  // wraps
  }
}

// --- Kernel parameters and memory access --------------------------------------------------------------
// Per-dimension sizes, strides or coefficients of the collapsed iteration space.
template <int N, class I>
struct nf_dims {
  I d[N];
};

// N consecutive elements moved as one load or store of N * sizeof(T) <= 16 bytes.
template <class T, int N>
struct alignas(sizeof(T) * N) nf_vec {
  T v[N];
};
template <int Bytes>
struct nf_raw_of;
template <>
struct nf_raw_of<1> {
  typedef unsigned char type;
};
template <>
struct nf_raw_of<2> {
  typedef unsigned short type;
};
template <>
struct nf_raw_of<4> {
  typedef unsigned int type;
};
template <>
struct nf_raw_of<8> {
  typedef uint2 type;
};
template <>
struct nf_raw_of<16> {
  typedef uint4 type;
};

// Through an integer vector type, so bool and float16 vectors also become one wide memory access.
template <int N, class T>
__device__ __forceinline__ nf_vec<T, N> nf_load_vec(const T* p) {
  typedef typename nf_raw_of<sizeof(T) * N>::type raw_t;
  union {
    raw_t raw;
    nf_vec<T, N> vec;
  } u;
  u.raw = *reinterpret_cast<const raw_t*>(p);
  return u.vec;
}
// The same elements from an address not aligned for one wide access (a view at an odd offset, such
// as a[1:]): N loads of one element each, still coalesced across the warp.
template <int N, class T>
__device__ __forceinline__ nf_vec<T, N> nf_load_elements(const T* p) {
  nf_vec<T, N> x;
  NF_UNROLL
  for (int l = 0; l < N; ++l) x.v[l] = p[l];
  return x;
}
template <int N, class T>
__device__ __forceinline__ void nf_store_vec(T* p, const nf_vec<T, N>& x) {
  typedef typename nf_raw_of<sizeof(T) * N>::type raw_t;
  union {
    raw_t raw;
    nf_vec<T, N> vec;
  } u;
  u.vec = x;
  *reinterpret_cast<raw_t*>(p) = u.raw;
}
template <int Bytes, class T>
__device__ __forceinline__ bool nf_aligned(const T* p) {
  return (reinterpret_cast<unsigned long long>(p) & (Bytes - 1)) == 0;
}

#endif  // NF_TYPES_CUH
