// Matrices scaled into range around the cuSOLVER and cuBLAS routines that do not do it themselves.
//
// LAPACK's gesdd, gesvd and geev scale a matrix whose largest entry lies outside [2^-484, 2^484]
// (float64; [2^-51, 2^51] in float32: sqrt of safmin / eps and its inverse) before they work on it,
// so NumPy's answers near the ends of the exponent range are as accurate as at unit scale.
// cuSOLVER's and cuBLAS's do not all do so. On an H100 (CUDA 13.0; tests/oracle/gen_solvers.py's
// range cases):
//   - Xgesvdp failed with status 6 on 42 x 40 float64 matrices of largest entry ~2^1023 or ~2^-1026
//     (subnormal), and Xgesvd's singular values at ~2^-1000 were off by 1e-5 relative;
//   - cuBLAS's batched getrf called complex 8 x 8 matrices of entries ~2^-1000 (complex128) or
//     ~2^-120 (complex64) singular;
//   - QR scales as its CPU twin must (Debian 12's OpenBLAS geqrf overflowed in float32 at 2^127).
// So such a matrix is multiplied by 2^-e, putting its largest real or imaginary part in [1/2, 1), and
// the answer scaled back: singular values and R by 2^e (U, V and Q do not change); solve scales the
// right-hand side with the matrix instead ((s A) x = s b has the same x). A power of two is exact
// (but for entries that end up below the normal range: below eps of the largest), and a matrix inside
// the range is left alone, so its answer is what it was, bit for bit.
//
// The largest part of one large matrix is a grid-wide max of the reals' bit patterns, which order as
// the magnitudes do: an atomicMax, order-free, so the result is deterministic. A NaN's bits rank above
// infinity's; a matrix holding either, or all zeros, is left as it is.
#include <algorithm>
#include <cstdint>
#include <string>

#include "backend/cuda/kernels/floating_element_types.hpp"
#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/range_exponent.cuh"
#include "backend/cuda/vendor/cusolver.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

using bits_t = unsigned long long;

__device__ bits_t magnitude_bits(float x) {
  return __float_as_uint(fabsf(x));
}
__device__ bits_t magnitude_bits(double x) {
  return static_cast<bits_t>(__double_as_longlong(fabs(x)));
}
template <class R>
__device__ R from_bits(bits_t b) {
  if constexpr (sizeof(R) == 4)
    return __uint_as_float(static_cast<unsigned>(b));
  else
    return __longlong_as_double(static_cast<long long>(b));
}

// *largest = max of |x[i]|'s bits: each block reduces its share, then one atomicMax.
template <class R>
__global__ void largest_magnitude(const R* x, int64_t len, bits_t* largest) {
  __shared__ bits_t per_warp[block_size / 32];
  bits_t m = 0;
  for (int64_t i = thread_index(); i < len; i += thread_count()) m = max(m, magnitude_bits(x[i]));
  for (int off = 16; off > 0; off /= 2) m = max(m, __shfl_xor_sync(~0u, m, off));
  if ((threadIdx.x & 31) == 0) per_warp[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < block_size / 32; ++w) m = max(m, per_warp[w]);
    atomicMax(largest, m);
  }
}

// x[i] *= 2^(sign e), e from *largest.
template <class R>
__global__ void scale_by_exponent(R* x, int64_t len, const bits_t* largest, int sign) {
  const int e = sign * safe_range_exponent(from_bits<R>(*largest));
  if (e == 0) return;
  for (int64_t i = thread_index(); i < len; i += thread_count()) x[i] = ldexp(x[i], e);
}

// The grid of the reduction: enough blocks to fill the GPU, few enough that the atomics stay cheap.
constexpr int64_t reduction_blocks = 1024;

template <class R>
void into_range_as(int64_t len, R* x, void* largest) {
  auto* l = static_cast<bits_t*>(largest);
  check(cudaMemsetAsync(l, 0, sizeof(bits_t), current_stream()), "cudaMemsetAsync");
  const auto blocks = static_cast<unsigned>(std::min((len + block_size - 1) / block_size, reduction_blocks));
  largest_magnitude<R><<<blocks, block_size, 0, current_stream()>>>(x, len, l);
  check(cudaGetLastError(), "largest_magnitude");
  launch("scale_by_exponent", len, scale_by_exponent<R>, x, len, static_cast<const bits_t*>(l), -1);
}

// Stacks of small matrices, one warp a matrix: out_m = a_m 2^-e_m, and b_m (in place) times the same.
template <class R>
__global__ void copy_pair_into_range(const R* a, R* out, int64_t count, int per_a, R* b, int64_t per_b) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = thread_count() / 32;
  for (int64_t m = thread_index() / 32; m < count; m += warps) {
    const R* am = a + m * per_a;
    R big = 0;
    for (int i = lane; i < per_a; i += 32) big = fmax(big, fabs(am[i]));
    for (int off = 16; off > 0; off /= 2) big = fmax(big, __shfl_xor_sync(~0u, big, off));
    const int e = safe_range_exponent(big);  // the same in every lane
    R* om = out + m * per_a;
    for (int i = lane; i < per_a; i += 32) om[i] = e ? ldexp(am[i], -e) : am[i];
    if (e)
      for (int64_t i = lane; i < per_b; i += 32) b[m * per_b + i] = ldexp(b[m * per_b + i], -e);
  }
}

}  // namespace

void scale_into_range(dtype dt, std::int64_t count, void* a, void* largest) {
  const std::int64_t reals = count * (is_complex(dt) ? 2 : 1);
  if (reals <= 0) return;
  by_element_type(dt, "range scaling", [&](auto e) {
    using R = real_t<decltype(e)>;
    into_range_as(reals, static_cast<R*>(a), largest);
  });
}

void scale_back(dtype dt, std::int64_t reals, void* values, const void* largest) {
  const auto* l = static_cast<const bits_t*>(largest);
  if (reals <= 0) return;
  by_element_type(dt, "range scaling", [&](auto e) {
    using R = real_t<decltype(e)>;
    launch("scale_by_exponent", reals, scale_by_exponent<R>, static_cast<R*>(values), reals, l, 1);
  });
}

void copy_systems_into_range(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, const void* a,
                             void* out, void* b) {
  const int reals = is_complex(dt) ? 2 : 1, per_a = int(n * n) * reals;  // n <= 32
  const std::int64_t per_b = n * k * reals;
  if (count <= 0 || per_a == 0) return;
  by_element_type(dt, "range scaling", [&](auto e) {
    using R = real_t<decltype(e)>;
    launch("copy_pair_into_range", count * 32, copy_pair_into_range<R>, static_cast<const R*>(a),
           static_cast<R*>(out), count, per_a, static_cast<R*>(b), per_b);
  });
}

}  // namespace ndfuse::backend::cuda
