// LAPACK's rule for scaling a matrix into range before it is factored (gesdd, gesvd, geev and the
// rest scale by it): range_scale.cu's kernels around cuSOLVER and cuBLAS, and solver_kernels.cu's
// solve_small, which scales inside. nvcc-only.
#pragma once

namespace ndfuse::backend::cuda {

// The e that scales a matrix of largest part `big` by 2^-e: 0 inside LAPACK's safe range
// ([2^-484, 2^484] in float64, [2^-51, 2^51] in float32: sqrt of safmin / eps and its inverse) and
// for a zero, infinite or NaN big; else the one that puts big 2^-e in [1/2, 1).
template <class R>
__device__ int safe_range_exponent(R big) {
  constexpr int safe = sizeof(R) == 4 ? 51 : 484;
  if (!(big > 0) || !isfinite(big)) return 0;
  int e = 0;
  frexp(big, &e);  // big = f 2^e, f in [1/2, 1)
  return e > safe || e <= -safe ? e : 0;
}

}  // namespace ndfuse::backend::cuda
