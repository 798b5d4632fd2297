// The element types of the solvers' own kernels (solver_kernels.cu, small_eigh.cu, small_svd.cu):
// float and double, and complex64 and complex128 as CUDA's float2 and double2, the (re, im) pairs
// that device_complex.cuh computes with (and cuSOLVER's cuComplex and cuDoubleComplex are). One
// switch, so the entry points cannot drift apart. Host-includable: cusolver_batched.cpp uses it too.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "ndfuse/dtype.hpp"
#include "ndfuse/error.hpp"

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

// Calls f with a value of dt's element type (f takes it as `auto e`, its type `decltype(e)`). Any
// other dtype throws dtype_error: "<op>: no solver for <dtype>".
template <class F>
void by_element_type(dtype dt, const char* op, F&& f) {
  switch (dt) {
    case dtype::float32:
      return f(float{});
    case dtype::float64:
      return f(double{});
    case dtype::complex64:
      return f(float2{});
    case dtype::complex128:
      return f(double2{});
    default:
      throw dtype_error(std::string(op) + ": no solver for " + std::string(dtype_name(dt)));
  }
}

}  // namespace ndfuse::backend::cuda
