// The powers of two that scale a matrix into range before it is factored: LAPACK's rule (gesdd,
// gesvd, geev and the rest scale by it) for range_scale.cu's kernels around cuSOLVER and cuBLAS and
// for solver_kernels.cu's solve_small, which scales inside; and the Jacobi eigh kernels' even one
// (jacobi_rotation.cuh). nvcc-only.
#pragma once

namespace ndfuse::backend::cuda {

// The e of big = f 2^e with f in [1/2, 1); 0 for a zero, infinite or NaN big, which no scaling helps.
template <class R>
__device__ int exponent_of(R big) {
  if (!(big > 0) || !isfinite(big)) return 0;
  int e = 0;
  frexp(big, &e);
  return e;
}

// The e that scales a matrix of largest part `big` by 2^-e: 0 inside LAPACK's safe range
// ([2^-484, 2^484] in float64, [2^-51, 2^51] in float32: sqrt of safmin / eps and its inverse);
// else the one that puts big 2^-e in [1/2, 1).
template <class R>
__device__ int safe_range_exponent(R big) {
  constexpr int safe = sizeof(R) == 4 ? 51 : 484;
  const int e = exponent_of(big);
  return e > safe || e <= -safe ? e : 0;
}

// The e that scales one column of largest part `big` up by 2^-e, putting big 2^-e in [1/2, 1), when it
// lies below the safe range; else 0 (large columns are left to the whole matrix's scaling). Scaling
// A's columns keeps partial pivoting's choices and the factors exact (backend/cpu/lapack.cpp's
// scale_small_columns is the host's twin): a subnormal pivot's reciprocal is infinite.
template <class R>
__device__ int small_column_exponent(R big) {
  constexpr int safe = sizeof(R) == 4 ? 51 : 484;
  const int e = exponent_of(big);
  return e <= -safe ? e : 0;
}

// The even exponent e that puts a matrix whose largest part is `big` at big 2^-e in [1/4, 1), inside
// the range or not. The eigh kernels iterate on A 2^-e and scale the eigenvalues back, as LAPACK's
// syevd scales into range first: unscaled, a_qq - a_pp of two diagonal entries of opposite signs near
// the largest number overflowed (tau infinite, t = 0: wrong eigenvalues with info 0), and the
// rotation threshold eps sqrt|a_pp| sqrt|a_qq| underflowed to zero near the smallest. Scaling by a
// power of two is exact, and an even one keeps every square root exact too (sqrt(4^k x) = 2^k
// sqrt(x)), so a matrix already in range takes the same rotations, bit for bit.
template <class R>
__device__ int even_range_exponent(R big) {
  const int e = exponent_of(big);
  return e + (e & 1);  // an odd e rounds up (two's complement: -3 & 1 is 1 too)
}

}  // namespace ndfuse::backend::cuda
