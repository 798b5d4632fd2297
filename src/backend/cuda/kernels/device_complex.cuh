// Arithmetic on the solver kernels' element types (solver_kernels.cu, small_eigh.cu, small_svd.cu):
// float and double, and complex64 / complex128 as CUDA's float2 / double2 (re, im) pairs, so one
// template serves the four dtypes. nvcc-only.
#pragma once
#include <cuda_runtime.h>

#include "backend/cuda/kernels/floating_element_types.hpp"  // real_of, real_t

namespace ndfuse::backend::cuda {

template <class T>
constexpr bool is_complex_pair = sizeof(T) == 2 * sizeof(real_t<T>);

__device__ inline float mul(float a, float b) {
  return a * b;
}
__device__ inline double mul(double a, double b) {
  return a * b;
}
__device__ inline float2 mul(float2 a, float2 b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
__device__ inline double2 mul(double2 a, double2 b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
__device__ inline float2 mul(float a, float2 b) {
  return {a * b.x, a * b.y};
}
__device__ inline double2 mul(double a, double2 b) {
  return {a * b.x, a * b.y};
}
__device__ inline float add(float a, float b) {
  return a + b;
}
__device__ inline double add(double a, double b) {
  return a + b;
}
__device__ inline float2 add(float2 a, float2 b) {
  return {a.x + b.x, a.y + b.y};
}
__device__ inline double2 add(double2 a, double2 b) {
  return {a.x + b.x, a.y + b.y};
}
__device__ inline float sub(float a, float b) {
  return a - b;
}
__device__ inline double sub(double a, double b) {
  return a - b;
}
__device__ inline float2 sub(float2 a, float2 b) {
  return {a.x - b.x, a.y - b.y};
}
__device__ inline double2 sub(double2 a, double2 b) {
  return {a.x - b.x, a.y - b.y};
}

__device__ inline float conj(float a) {
  return a;
}
__device__ inline double conj(double a) {
  return a;
}
__device__ inline float2 conj(float2 a) {
  return {a.x, -a.y};
}
__device__ inline double2 conj(double2 a) {
  return {a.x, -a.y};
}

__device__ inline float real(float a) {
  return a;
}
__device__ inline double real(double a) {
  return a;
}
__device__ inline float real(float2 a) {
  return a.x;
}
__device__ inline double real(double2 a) {
  return a.x;
}

__device__ inline bool is_zero(float a) {
  return a == 0;
}
__device__ inline bool is_zero(double a) {
  return a == 0;
}
__device__ inline bool is_zero(float2 a) {
  return a.x == 0 && a.y == 0;
}
__device__ inline bool is_zero(double2 a) {
  return a.x == 0 && a.y == 0;
}

// |a|, for complex without overflow or underflow in the squares.
__device__ inline float magnitude_of(float a) {
  return fabsf(a);
}
__device__ inline double magnitude_of(double a) {
  return fabs(a);
}
__device__ inline float magnitude_of(float2 a) {
  return hypotf(a.x, a.y);
}
__device__ inline double magnitude_of(double2 a) {
  return hypot(a.x, a.y);
}

// An element whose real part is r and whose imaginary part (if any) is zero.
template <class T>
__device__ T from_real(real_t<T> r) {
  if constexpr (is_complex_pair<T>)
    return T{r, 0};
  else
    return T(r);
}

// |a|^2, plainly (the callers scale first).
template <class T>
__device__ real_t<T> abs2(T a) {
  if constexpr (is_complex_pair<T>)
    return a.x * a.x + a.y * a.y;
  else
    return a * a;
}

// The larger of |re a| and |im a|: within a factor sqrt(2) of |a|, with no square root.
template <class T>
__device__ real_t<T> largest_part(T a) {
  if constexpr (is_complex_pair<T>)
    return fmax(fabs(a.x), fabs(a.y));
  else
    return fabs(a);
}

template <class T>
__device__ bool has_nan(T a) {
  if constexpr (is_complex_pair<T>)
    return isnan(a.x) || isnan(a.y);
  else
    return isnan(a);
}

// a * 2^e, exact unless the result leaves the normal range (ldexp, so no power of two overflows).
template <class T>
__device__ T times_power_of_two(T a, int e) {
  if constexpr (is_complex_pair<T>)
    return T{ldexp(a.x, e), ldexp(a.y, e)};
  else
    return ldexp(a, e);
}

// Lane `src`'s a, every lane of the warp taking part.
template <class T>
__device__ T shuffle(T a, int src) {
  if constexpr (is_complex_pair<T>)
    return T{__shfl_sync(~0u, a.x, src), __shfl_sync(~0u, a.y, src)};
  else
    return __shfl_sync(~0u, a, src);
}

}  // namespace ndfuse::backend::cuda
