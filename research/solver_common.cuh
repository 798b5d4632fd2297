// Shared by the solver experiments (eigh_batched.cu, svd_batched.cu), each of which compiles one of
// ndfuse's solver kernels in (included before this header): what the kernel file needs from the rest
// of the library, cuSOLVER's status check, and the four element types' traits and conversions.
#pragma once
#include <cuComplex.h>
#include <cusolverDn.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <type_traits>

// What the kernel files need from the rest of the library.
namespace ndfuse {
std::string_view dtype_name(dtype) {
  return "?";
}
namespace backend::cuda {
void check(cudaError_t s, const char* call) {
  if (s != cudaSuccess) std::printf("%s: %s\n", call, cudaGetErrorString(s)), std::exit(1);
}
cudaStream_t current_stream() {
  return nullptr;
}
}  // namespace backend::cuda
}  // namespace ndfuse

#define SOLVER(x)                                                            \
  do {                                                                       \
    cusolverStatus_t s = (x);                                                \
    if (s != CUSOLVER_STATUS_SUCCESS) {                                      \
      std::printf("%s:%d cusolver status %d\n", __FILE__, __LINE__, int(s)); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

template <class Real, ndfuse::dtype D, cudaDataType T, cudaDataType RT>
struct element_traits {
  using real = Real;
  static constexpr ndfuse::dtype dt = D;
  static constexpr cudaDataType t = T, rt = RT;
  static constexpr const char* name = D == ndfuse::dtype::float32     ? "float32"
                                      : D == ndfuse::dtype::float64   ? "float64"
                                      : D == ndfuse::dtype::complex64 ? "complex64"
                                                                      : "complex128";
};
template <class E>
struct traits;
template <>
struct traits<float> : element_traits<float, ndfuse::dtype::float32, CUDA_R_32F, CUDA_R_32F> {};
template <>
struct traits<double> : element_traits<double, ndfuse::dtype::float64, CUDA_R_64F, CUDA_R_64F> {};
template <>
struct traits<cuComplex> : element_traits<float, ndfuse::dtype::complex64, CUDA_C_32F, CUDA_R_32F> {};
template <>
struct traits<cuDoubleComplex> : element_traits<double, ndfuse::dtype::complex128, CUDA_C_64F, CUDA_R_64F> {};

template <class E>
std::complex<double> get(const E& v) {
  if constexpr (std::is_same_v<E, cuComplex>)
    return {v.x, v.y};
  else if constexpr (std::is_same_v<E, cuDoubleComplex>)
    return {v.x, v.y};
  else
    return {double(v), 0.0};
}
template <class E>
E make(std::complex<double> v) {
  if constexpr (std::is_same_v<E, cuComplex>)
    return {float(v.real()), float(v.imag())};
  else if constexpr (std::is_same_v<E, cuDoubleComplex>)
    return {v.real(), v.imag()};
  else
    return E(v.real());
}
template <class E>
constexpr bool complex_v = std::is_same_v<E, cuComplex> || std::is_same_v<E, cuDoubleComplex>;
