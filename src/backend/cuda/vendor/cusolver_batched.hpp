// cuSOLVER's batched routines for stacks of small matrices (cusolver.cpp uses them for n <= 32),
// on the handle's stream; each waits for nothing. Matrices are contiguous and column-major.
#pragma once
#include <cusolverDn.h>

#include "ndfuse/dtype.hpp"

namespace ndfuse::backend::cuda {

// Throws out_of_memory or device_error naming `call` unless `s` is success.
void check_solver(cusolverStatus_t s, const char* call);

// The column-major Cholesky factor, in the triangle `fill` names, of each n x n matrix at the
// `count` device addresses `ptrs`, in place.
void potrf_batched(cusolverDnHandle_t h, dtype dt, cublasFillMode_t fill, int n, void** ptrs, int* info,
                   int count);

}  // namespace ndfuse::backend::cuda
