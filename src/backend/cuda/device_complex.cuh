// Arithmetic on the solver kernels' element types (solver_kernels.cu, small_eigh.cu): float and
// double, and complex64 / complex128 as CUDA's float2 / double2 (re, im) pairs, so one template
// serves the four dtypes. nvcc-only.
#pragma once
#include <cuda_runtime.h>

namespace ndfuse::backend::cuda {

// The real type of an element: float for float and float2, double for double and double2.
template <class T>
struct real_of {
  using type = T;
};
template <>
struct real_of<float2> {
  using type = float;
};
template <>
struct real_of<double2> {
  using type = double;
};
template <class T>
using real_t = typename real_of<T>::type;

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
  if constexpr (sizeof(T) == 2 * sizeof(real_t<T>))
    return T{r, 0};
  else
    return T(r);
}

}  // namespace ndfuse::backend::cuda
