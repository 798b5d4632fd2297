// Experiment (not part of the build), session 25: the GPU time a stream-ordered allocation adds to a
// step. fft_paths.cu (session 23) found an allocation and a free between two events cost about
// 0.6 us where nothing costs 1.3. Here, as bench/README.md times every row (a 512 MiB copy keeps the
// GPU busy, then events around the step, median of 41), with the step:
//   nothing | alloc | free (of a block allocated before the busy copy) | alloc + free
//   kernel                a small elementwise kernel (1e6 float64, out = in * 2 + 1) into a kept
//                         buffer
//   alloc + kernel        the same kernel into a block from cudaMallocAsync, freed after the stop
//                         event (as ndfuse's bench frees the previous result before the busy copy)
//   alloc + kernel + free the block freed inside the timed step
//   reuse + kernel        into a block allocated and freed on the stream before the busy copy and
//                         taken back from a host-side list (what CuPy's and PyTorch's pools do)
//   eager 16 (pool)       16 such kernels in a row, each into a new block from cudaMallocAsync,
//                         the previous step's block freed with cudaFreeAsync after it (an eager
//                         chain: each step's intermediate dies once the next step is queued)
//   eager 16 (reuse)      the same with the blocks taken from and returned to a host-side list
//   eager 16 (kept)       the same kernels into two kept buffers, no allocation at all
//   nvcc -O3 -std=c++17 -arch=sm_90 research/stream_alloc_cost.cu -o stream_alloc_cost \
//     && ./stream_alloc_cost
// H100 80GB HBM3, two runs of three rounds (us): nothing 1.25-1.28; alloc 1.25-1.28; free 1.92;
// alloc + free 1.92; kernel 9.50-9.63; alloc + kernel 9.57-9.70; free before + alloc + kernel
// 9.54-9.70; alloc + kernel + free 10.21-10.34; reuse + kernel 9.63-9.70; eager 16 (pool)
// 96.6-97.0, (reuse) 86.4-86.6, (kept) 86.8-87.1.
// So cudaMallocAsync costs the GPU nothing, and each cudaFreeAsync costs it about 0.65 us where the
// stream reaches it, also between kernels: 15 frees made the eager chain 10.3 us (12%) slower, and a
// host-side list of freed blocks takes all of it back. ndfuse keeps freed blocks so since this
// session (src/backend/cuda/runtime/memory.cpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "reduce_common.cuh"  // CHECK

__global__ void chain(const double* __restrict__ in, double* __restrict__ out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0 + 1.0;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s\n", prop.name);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long keep = ~0ull;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  const std::size_t busy = 512u << 20;
  void *busy_src, *busy_dst;
  CHECK(cudaMalloc(&busy_src, busy));
  CHECK(cudaMalloc(&busy_dst, busy));
  const unsigned n = 1000000;
  const std::size_t bytes = n * sizeof(double);
  double *in, *kept;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&kept, bytes));
  CHECK(cudaMemset(in, 0, bytes));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));

  // before(): queued ahead of the busy copy; step(): between the events; after(): after the stop.
  auto median_us = [&](const std::function<void()>& before, const std::function<void()>& step,
                       const std::function<void()>& after) {
    std::vector<float> t;
    for (int i = 0; i < 43; ++i) {
      before();
      CHECK(cudaMemcpyAsync(busy_dst, busy_src, busy, cudaMemcpyDeviceToDevice, s));
      CHECK(cudaEventRecord(a, s));
      step();
      CHECK(cudaEventRecord(b, s));
      after();
      CHECK(cudaEventSynchronize(b));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      if (i >= 2) t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  auto none = [] {};
  void* p = nullptr;
  auto alloc = [&] { CHECK(cudaMallocAsync(&p, bytes, s)); };
  auto free_p = [&] { CHECK(cudaFreeAsync(p, s)); };
  auto launch = [&](double* out) { chain<<<(n + 255) / 256, 256, 0, s>>>(in, out, n); };
  std::vector<void*> cached;  // host-side list of blocks freed on s
  auto take_cached = [&] {
    if (cached.empty())
      CHECK(cudaMallocAsync(&p, bytes, s));
    else
      p = cached.back(), cached.pop_back();
  };
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d (us)\n", round);
    std::printf("  %-28s %.2f\n", "nothing", median_us(none, none, none));
    std::printf("  %-28s %.2f\n", "alloc", median_us(none, alloc, free_p));
    std::printf("  %-28s %.2f\n", "free", median_us(alloc, free_p, none));
    std::printf("  %-28s %.2f\n", "alloc + free",
                median_us(
                    none, [&] { alloc(), free_p(); }, none));
    std::printf("  %-28s %.2f\n", "kernel",
                median_us(
                    none, [&] { launch(kept); }, none));
    std::printf("  %-28s %.2f\n", "alloc + kernel",
                median_us(
                    none, [&] { alloc(), launch(static_cast<double*>(p)); }, free_p));
    alloc();  // each run of the next row frees the block the run before it allocated
    std::printf("  %-28s %.2f\n", "free before + alloc + kernel",
                median_us(
                    free_p, [&] { alloc(), launch(static_cast<double*>(p)); }, none));
    free_p();
    std::printf("  %-28s %.2f\n", "alloc + kernel + free",
                median_us(
                    none, [&] { alloc(), launch(static_cast<double*>(p)), free_p(); }, none));
    std::printf(
        "  %-28s %.2f\n", "reuse + kernel",
        median_us(
            none, [&] { take_cached(), launch(static_cast<double*>(p)); }, [&] { cached.push_back(p); }));
    // An eager chain of 16 steps on 1e6 float64 (kept input, each step reads the previous result).
    auto eager = [&](int how) {
      double* prev = in;
      void* prev_block = nullptr;
      for (int k = 0; k < 16; ++k) {
        void* block = nullptr;
        if (how == 2)
          block = k % 2 ? static_cast<void*>(kept) : static_cast<void*>(busy_dst);
        else if (how == 1 && !cached.empty())
          block = cached.back(), cached.pop_back();
        else
          CHECK(cudaMallocAsync(&block, bytes, s));
        chain<<<(n + 255) / 256, 256, 0, s>>>(prev, static_cast<double*>(block), n);
        if (prev_block && how == 0) CHECK(cudaFreeAsync(prev_block, s));
        if (prev_block && how == 1) cached.push_back(prev_block);
        prev = static_cast<double*>(block);
        prev_block = how == 2 ? nullptr : block;
      }
      p = prev_block;  // the result, freed (or returned) after the stop event
    };
    std::printf("  %-28s %.2f\n", "eager 16 (pool)",
                median_us(
                    none, [&] { eager(0); },
                    [&] {
                      if (p) CHECK(cudaFreeAsync(p, s));
                    }));
    std::printf("  %-28s %.2f\n", "eager 16 (reuse)",
                median_us(
                    none, [&] { eager(1); },
                    [&] {
                      if (p) cached.push_back(p);
                    }));
    std::printf("  %-28s %.2f\n", "eager 16 (kept)",
                median_us(
                    none, [&] { eager(2); }, none));
  }
  CHECK(cudaStreamSynchronize(s));
}
