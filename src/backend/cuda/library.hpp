// Library calls on the CUDA backend (ir/library.hpp): CUB radix sorts and selection plus a few small
// kernels, compiled by nvcc into the library (library.cu), and matrix products through cuBLAS
// (cublas.cpp), all dispatched by run_library. No CUDA headers here: cuda_backend.cpp includes this.
#pragma once
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cuda {

// Enqueues the call on this thread's current device and stream; waits for nothing. Throws
// device_error (or out_of_memory) when CUDA reports a failure.
void run_library(const ir::library_call& c, const std::vector<const void*>& inputs,
                 const std::vector<void*>& outputs);

}  // namespace ndfuse::backend::cuda
