// Experiment (not part of the build), session 26: after the allocator began keeping freed blocks
// (05bac65), ndfuse's fft of 2^24 complex128 still read 2 us over the direct cufftExecZ2Z in the
// same bench_cuda_fft run (0.596 ms against 0.594, x_cufft 1.004). ndfuse's call differs from the
// direct one in three ways: it sets the stream and the work area before every exec (the area from
// the allocator, so the same block again), its input and output come from the stream-ordered pool,
// and its input is a tone where the direct row's is a memset. This times each difference alone, as
// bench/README.md times every row (a 512 MiB copy keeps the GPU busy, events around the call,
// median of 21), in rounds that interleave the variants, and times on the host how long
// cufftSetStream and cufftSetWorkArea take while the GPU is busy (a call that waited for the GPU
// would put host time between the events). PyTorch's call (cufftXtMakePlanMany, cufftXtExec) is
// timed too: it read 591.6-592.2 us in the same bench rounds as CuPy's 595 and the direct 593-595.
//   nvcc -O3 -std=c++17 -arch=sm_90 research/fft_exec_calls.cu -lcufft -o fft_exec_calls
// H100 80GB HBM3, cuFFT 12000, session 26, two runs of three rounds (medians of 21, us):
//   memset_in (the direct row's buffers and input) 595.5-597.4; tone_in 594.8-596.1; tone_in pool io
//   593.5-594.3; set stream each call 594.0-594.4; same work area each call 593.2-594.0; stream + area
//   (ndfuse's calls) 593.5-594.7; alternating two areas 593.7-594.2; PyTorch's Xt plan 594.9-595.1
//   (pool io) and 595.5-595.9 (cudaMalloc io). On the host, with the GPU busy, cufftSetStream took
//   0.1-0.2 us, cufftSetWorkArea 0.1-0.2 us and cufftExecZ2Z 11-28 us: neither setter waits for the
//   GPU or costs it anything. The pattern ndfuse calls is among the fastest measured; the memset
//   input of bench_cuda_fft's direct row reads about 1 us slower than a tone, and buffers from
//   cudaMalloc 0.5-1.5 us slower than from the pool. In the same session's bench_cuda_fft rounds
//   (iteration medians, run_median_ms): ndfuse 594.9-595.6, the direct call 592.8-595.1, CuPy
//   594.6-595, PyTorch 591.6-592.2; fft_ncu_probe.py shows PyTorch and CuPy run the same kernels.
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "fft_common.cuh"

namespace {

constexpr long long n = 1ll << 24;
constexpr std::size_t bytes = sizeof(cufftDoubleComplex) * n;

__global__ void tone(cufftDoubleComplex* x, long long count) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < count; i += 256ll * gridDim.x) {
    const double ph = 2 * 3.141592653589793 * 5.0 * double(i) / double(count);
    x[i] = {cos(ph), sin(ph)};
  }
}

struct variant {
  std::string name;
  std::function<void()> call;
};

}  // namespace

int main() {
  print_gpu_and_cufft();
  const busy_copy busy;
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long keep = ~0ull;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));

  cufftDoubleComplex *tone_in, *memset_in, *out, *pool_in, *pool_out;
  CHECK(cudaMalloc(&tone_in, bytes));
  CHECK(cudaMalloc(&memset_in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMallocAsync(&pool_in, bytes, 0));
  CHECK(cudaMallocAsync(&pool_out, bytes, 0));
  tone<<<1024, 256>>>(tone_in, n);
  tone<<<1024, 256>>>(pool_in, n);
  CHECK(cudaMemset(memset_in, 0x3f, bytes));  // bench_cuda_fft's direct row
  CHECK(cudaDeviceSynchronize());

  // ndfuse's plan: cufftCreate, no auto-allocation, cufftMakePlanMany64.
  cufftHandle plan;
  std::size_t work_bytes = 0;
  FFT_CHECK(cufftCreate(&plan));
  FFT_CHECK(cufftSetAutoAllocation(plan, 0));
  long long dims[1] = {n};
  FFT_CHECK(cufftMakePlanMany64(plan, 1, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, 1, &work_bytes));
  void *work, *work2;
  CHECK(cudaMallocAsync(&work, work_bytes, 0));
  CHECK(cudaMallocAsync(&work2, work_bytes, 0));
  FFT_CHECK(cufftSetStream(plan, 0));
  FFT_CHECK(cufftSetWorkArea(plan, work));
  CHECK(cudaDeviceSynchronize());

  // PyTorch's plan: cufftXtMakePlanMany with CUDA_C_64F types, run with cufftXtExec.
  cufftHandle xt_plan;
  std::size_t xt_work_bytes = 0;
  FFT_CHECK(cufftCreate(&xt_plan));
  FFT_CHECK(cufftSetAutoAllocation(xt_plan, 0));
  FFT_CHECK(cufftXtMakePlanMany(xt_plan, 1, dims, nullptr, 1, 1, CUDA_C_64F, nullptr, 1, 1, CUDA_C_64F, 1,
                                &xt_work_bytes, CUDA_C_64F));
  void* xt_work;
  CHECK(cudaMallocAsync(&xt_work, xt_work_bytes, 0));
  FFT_CHECK(cufftSetStream(xt_plan, 0));
  FFT_CHECK(cufftSetWorkArea(xt_plan, xt_work));
  std::printf("work bytes: many64 %zu, xt %zu\n", work_bytes, xt_work_bytes);
  CHECK(cudaDeviceSynchronize());

  auto exec = [&](cufftDoubleComplex* i, cufftDoubleComplex* o) {
    FFT_CHECK(cufftExecZ2Z(plan, i, o, CUFFT_FORWARD));
  };
  bool flip = false;
  const std::vector<variant> variants = {
      {"memset_in (direct row)", [&] { exec(memset_in, out); }},
      {"tone_in", [&] { exec(tone_in, out); }},
      {"tone_in pool io", [&] { exec(pool_in, pool_out); }},
      {"set stream each call",
       [&] {
         FFT_CHECK(cufftSetStream(plan, 0));
         exec(pool_in, pool_out);
       }},
      {"set same work area each call",
       [&] {
         FFT_CHECK(cufftSetWorkArea(plan, work));
         exec(pool_in, pool_out);
       }},
      {"set stream + same area (ndfuse)",
       [&] {
         FFT_CHECK(cufftSetStream(plan, 0));
         FFT_CHECK(cufftSetWorkArea(plan, work));
         exec(pool_in, pool_out);
       }},
      {"xt plan, pool io", [&] { FFT_CHECK(cufftXtExec(xt_plan, pool_in, pool_out, CUFFT_FORWARD)); }},
      {"xt plan, cudaMalloc io", [&] { FFT_CHECK(cufftXtExec(xt_plan, tone_in, out, CUFFT_FORWARD)); }},
      {"alternate two work areas",
       [&] {
         flip = !flip;
         FFT_CHECK(cufftSetWorkArea(plan, flip ? work2 : work));
         exec(pool_in, pool_out);
       }},
  };

  // Host time of the setters while the GPU is busy: a setter that waited for the GPU would take
  // about as long as the copy (hundreds of us).
  for (int k = 0; k < 3; ++k) {
    busy.enqueue();
    auto t0 = std::chrono::steady_clock::now();
    FFT_CHECK(cufftSetStream(plan, 0));
    auto t1 = std::chrono::steady_clock::now();
    FFT_CHECK(cufftSetWorkArea(plan, k % 2 ? work2 : work));
    auto t2 = std::chrono::steady_clock::now();
    exec(pool_in, pool_out);
    auto t3 = std::chrono::steady_clock::now();
    CHECK(cudaDeviceSynchronize());
    using us = std::chrono::duration<double, std::micro>;
    std::printf("host, GPU busy: cufftSetStream %.1f us, cufftSetWorkArea %.1f us, cufftExecZ2Z %.1f us\n",
                us(t1 - t0).count(), us(t2 - t1).count(), us(t3 - t2).count());
  }
  FFT_CHECK(cufftSetWorkArea(plan, work));

  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (const auto& v : variants)
    for (int w = 0; w < 3; ++w) timed_once(busy, v.call, a, b);
  constexpr int rounds = 3, reps = 21;
  for (int r = 0; r < rounds; ++r) {
    std::printf("round %d (median of %d, us):\n", r, reps);
    for (const auto& v : variants) {
      std::vector<float> t;
      for (int i = 0; i < reps; ++i) t.push_back(timed_once(busy, v.call, a, b));
      std::sort(t.begin(), t.end());
      std::printf("  %-34s %8.1f  (min %.1f)\n", v.name.c_str(), 1e3 * t[reps / 2], 1e3 * t[0]);
    }
  }
  return 0;
}
