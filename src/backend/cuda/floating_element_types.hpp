// The element types of the solvers' own kernels (solver_kernels.cu, small_eigh.cu, small_svd.cu):
// float and double, and complex64 and complex128 as CUDA's float2 and double2, the (re, im) pairs
// that device_complex.cuh computes with. One switch, so the entry points cannot drift apart.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "ndfuse/dtype.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

// Calls f with a value of dt's element type (f takes it as `auto e`, its type `decltype(e)`). Any
// other dtype throws dtype_error: "<op>: no solver kernel for <dtype>".
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
      throw dtype_error(std::string(op) + ": no solver kernel for " + std::string(dtype_name(dt)));
  }
}

}  // namespace ndfuse::backend::cuda
