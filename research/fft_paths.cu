// Experiment (not part of the build), session 23: where CuPy's 3-4 us lead on a 2^24-point
// complex128 FFT comes from (full report of session 22: CuPy 591 us, ndfuse 595, the C++ bench's
// direct cufftExecZ2Z 594, all on one cuFFT 12000). The same forward transform, out of place, timed
// as bench/README.md times every row (a 512 MiB device-to-device copy first keeps the GPU busy,
// then events around the one call; median of 21), in rounds that interleave the variants:
//   plan1d        cufftPlan1d: cuFFT allocates its own work area (the bench's cufft_direct row)
//   many64_pool   ndfuse's path: cufftCreate, no auto-allocation, cufftMakePlanMany64, the work area
//                 from the stream-ordered pool each call (cudaMallocAsync / cudaFreeAsync)
//   many64_fixed  the same plan, one work area set once
//   make1d_fixed  CuPy's Plan1d: cufftMakePlan1d without auto-allocation, a work area set once
//   *_async_io    input and output from cudaMallocAsync instead of cudaMalloc
//   *_fresh_out   a new output buffer from the pool every call, as an eager library returns one
//   nvcc -O3 -std=c++17 -arch=sm_90 research/fft_paths.cu -lcufft -o fft_paths && ./fft_paths
// H100 80GB HBM3, cuFFT 12000 (12.0.0.61), session 23, two runs of three rounds (medians of 21, us):
//   plan1d 594.5-595.3; many64_pool 595.8-596.8; many64_fixed 594.2-594.7; make1d_fixed 594.5-596.0;
//   plan1d_async_io 593.2-593.8; many64_pool_async_io 593.5-594.7; make1d_fixed_async_io 592.5-593.5;
//   many64_pool_fresh_out (ndfuse's whole path) 595.7-596.6; make1d_fixed_fresh_out 596.6-597.2;
//   make1d_in_place 594.8-595.1. No transform: nothing 1.3, one stream-ordered allocation and free
//   1.9 at 4 KiB or 256 MiB, two of them 1.9.
// fft_cupy_probe.py in the same session: CuPy loads the toolkit's libcufft.so.12 (the same md5),
// makes a Plan1d (keeping its 256 MiB work area in its plan cache), and cupy.fft.fft took 594.3-595.7
// us (its Plan1d.fft into one output 593.0-593.3). So the 591 of session 22's report was a fast run
// of CuPy's, not a faster path: a stream-ordered allocation costs about 0.6 us of GPU time (one per
// burst), buffers from the pool read 1-2.5 us faster than cudaMalloc's, and what is left between
// ndfuse (about 596) and CuPy (about 595) is the work area and the output ndfuse allocates in the
// stream, where CuPy's pool costs the GPU nothing.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstdio>
#include <string>
#include <vector>

#include "fft_common.cuh"

namespace {

constexpr long long n = 1ll << 24;
constexpr std::size_t bytes = sizeof(cufftDoubleComplex) * n;

struct variant {
  std::string name;
  std::function<void()> call;
  std::vector<float> times;
};

__global__ void tone(cufftDoubleComplex* x, long long count) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < count; i += 256ll * gridDim.x) {
    const double ph = 2 * 3.141592653589793 * 5.0 * double(i) / double(count);
    x[i] = {cos(ph), sin(ph)};
  }
}

}  // namespace

int main() {
  print_gpu_and_cufft();
  const busy_copy busy;
  // Keep freed pool memory (as ndfuse's backend and CuPy's pool do).
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long keep = ~0ull;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));

  cufftDoubleComplex *in, *out, *in_async, *out_async;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMallocAsync(&in_async, bytes, 0));
  CHECK(cudaMallocAsync(&out_async, bytes, 0));
  tone<<<1024, 256>>>(in, n);
  tone<<<1024, 256>>>(in_async, n);
  CHECK(cudaDeviceSynchronize());

  cufftHandle plan1d;
  FFT_CHECK(cufftPlan1d(&plan1d, int(n), CUFFT_Z2Z, 1));
  cufftHandle many;
  std::size_t many_work = 0;
  FFT_CHECK(cufftCreate(&many));
  FFT_CHECK(cufftSetAutoAllocation(many, 0));
  long long dims[1] = {n};
  FFT_CHECK(cufftMakePlanMany64(many, 1, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, 1, &many_work));
  cufftHandle make1d;
  std::size_t make1d_work = 0;
  FFT_CHECK(cufftCreate(&make1d));
  FFT_CHECK(cufftSetAutoAllocation(make1d, 0));
  FFT_CHECK(cufftMakePlan1d(make1d, int(n), CUFFT_Z2Z, 1, &make1d_work));
  std::printf("work bytes: many64 %zu, make1d %zu (data %zu)\n", many_work, make1d_work, bytes);
  void *work_many, *work_make1d;
  CHECK(cudaMalloc(&work_many, many_work));
  CHECK(cudaMalloc(&work_make1d, make1d_work));
  cufftHandle many_fixed;  // a second plan of the same kind, its area set once
  std::size_t fixed_work = 0;
  FFT_CHECK(cufftCreate(&many_fixed));
  FFT_CHECK(cufftSetAutoAllocation(many_fixed, 0));
  FFT_CHECK(
      cufftMakePlanMany64(many_fixed, 1, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, 1, &fixed_work));
  FFT_CHECK(cufftSetWorkArea(many_fixed, work_many));
  FFT_CHECK(cufftSetWorkArea(make1d, work_make1d));

  auto pool_call = [&](cufftDoubleComplex* i, cufftDoubleComplex* o) {
    void* w = nullptr;
    CHECK(cudaMallocAsync(&w, many_work, 0));
    FFT_CHECK(cufftSetWorkArea(many, w));
    FFT_CHECK(cufftExecZ2Z(many, i, o, CUFFT_FORWARD));
    CHECK(cudaFreeAsync(w, 0));
  };
  auto fresh = [&](auto&& exec) {
    return [exec] {
      cufftDoubleComplex* o = nullptr;
      CHECK(cudaMallocAsync(&o, bytes, 0));
      exec(o);
      CHECK(cudaFreeAsync(o, 0));
    };
  };
  std::vector<variant> v;
  v.push_back({"plan1d", [&] { FFT_CHECK(cufftExecZ2Z(plan1d, in, out, CUFFT_FORWARD)); }, {}});
  v.push_back({"many64_pool", [&] { pool_call(in, out); }, {}});
  v.push_back({"many64_fixed", [&] { FFT_CHECK(cufftExecZ2Z(many_fixed, in, out, CUFFT_FORWARD)); }, {}});
  v.push_back({"make1d_fixed", [&] { FFT_CHECK(cufftExecZ2Z(make1d, in, out, CUFFT_FORWARD)); }, {}});
  v.push_back(
      {"plan1d_async_io", [&] { FFT_CHECK(cufftExecZ2Z(plan1d, in_async, out_async, CUFFT_FORWARD)); }, {}});
  v.push_back({"many64_pool_async_io", [&] { pool_call(in_async, out_async); }, {}});
  v.push_back({"make1d_fixed_async_io",
               [&] { FFT_CHECK(cufftExecZ2Z(make1d, in_async, out_async, CUFFT_FORWARD)); },
               {}});
  v.push_back({"many64_pool_fresh_out", fresh([&](cufftDoubleComplex* o) { pool_call(in_async, o); }), {}});
  v.push_back(
      {"make1d_fixed_fresh_out",
       fresh([&](cufftDoubleComplex* o) { FFT_CHECK(cufftExecZ2Z(make1d, in_async, o, CUFFT_FORWARD)); }),
       {}});
  v.push_back(
      {"make1d_in_place", [&] { FFT_CHECK(cufftExecZ2Z(make1d, out_async, out_async, CUFFT_FORWARD)); }, {}});
  // What a stream-ordered allocation and free cost on the GPU's timeline, without a transform.
  auto alloc_free = [](std::size_t size) {
    return [size] {
      void* p = nullptr;
      CHECK(cudaMallocAsync(&p, size, 0));
      CHECK(cudaFreeAsync(p, 0));
    };
  };
  v.push_back({"nothing", [] {}, {}});
  v.push_back({"alloc_free_4KiB", alloc_free(4096), {}});
  v.push_back({"alloc_free_256MiB", alloc_free(bytes), {}});
  v.push_back({"two_alloc_free_256MiB",
               [&] {
                 void *p = nullptr, *q = nullptr;
                 CHECK(cudaMallocAsync(&p, bytes, 0));
                 CHECK(cudaMallocAsync(&q, bytes, 0));
                 CHECK(cudaFreeAsync(q, 0));
                 CHECK(cudaFreeAsync(p, 0));
               },
               {}});
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (auto& x : v)
    for (int w = 0; w < 3; ++w) timed_once(busy, x.call, a, b);
  constexpr int rounds = 3, reps = 21;
  for (int r = 0; r < rounds; ++r) {
    std::printf("round %d (median of %d, us):\n", r, reps);
    for (auto& x : v) {
      std::vector<float> t;
      for (int i = 0; i < reps; ++i) t.push_back(timed_once(busy, x.call, a, b));
      std::sort(t.begin(), t.end());
      std::printf("  %-24s %8.1f  (min %.1f)\n", x.name.c_str(), 1e3 * t[reps / 2], 1e3 * t[0]);
    }
  }
  return 0;
}
