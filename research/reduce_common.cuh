// Shared by the reduction experiments (reduce_shapes.cu, reduce_paths.cu) and philox_counter.cu:
// error checks, event timing, and the end of a full float64 sum as ndfuse's driver does it (a shared-memory
// tree over the block, one partial per block, the last block to arrive folds the partials in block order).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(x)                                                            \
  do {                                                                      \
    cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                 \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

// The median of `reps` runs of f, timed with events after two warm-up runs.
inline float median_ms(const std::function<void()>& f, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();
  f();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__device__ __forceinline__ void finish_full(double acc, double* partials, unsigned* arrivals, double* out) {
  __shared__ double sh[256];
  __shared__ bool last;
  const unsigned t = threadIdx.x;
  sh[t] = acc;
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = sh[0];
  __threadfence();
  __syncthreads();
  if (t == 0) last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  acc = 0;
  for (unsigned y = t; y < gridDim.x; y += 256) acc += __ldcg(partials + y);
  sh[t] = acc;
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0) *out = sh[0], *arrivals = 0;
}

// The full sums' input on the device: n float64 values ((i * 2654435761) % 1000) / 7, their sum on
// the host (`want`), and the partials, counter and result that finish_full uses.
struct full_sum_buffers {
  double *in = nullptr, *partials = nullptr, *out = nullptr;
  unsigned* arrivals = nullptr;
  double want = 0;
};
inline full_sum_buffers make_full_sum(unsigned long long n) {
  full_sum_buffers b;
  CHECK(cudaMalloc(&b.in, n * 8));
  CHECK(cudaMalloc(&b.partials, 65536 * 8));
  CHECK(cudaMalloc(&b.out, 8));
  CHECK(cudaMalloc(&b.arrivals, 4));
  CHECK(cudaMemset(b.arrivals, 0, 4));
  std::vector<double> h(n);
  for (unsigned long long i = 0; i < n; ++i) b.want += (h[i] = double((i * 2654435761u) % 1000) / 7.0);
  CHECK(cudaMemcpy(b.in, h.data(), n * 8, cudaMemcpyHostToDevice));
  return b;
}
inline void free_full_sum(full_sum_buffers& b) {
  CHECK(cudaFree(b.in));
  CHECK(cudaFree(b.partials));
  CHECK(cudaFree(b.out));
  CHECK(cudaFree(b.arrivals));
}
