// Experiment (not part of the build): which thread mappings bring ndfuse's reductions to the copy
// bandwidth where bench_cuda_reduce still trails CuPy: rows of four (sum over axis 1 of a
// 67108864 x 4 float32 array: ndfuse 0.457 ms, CuPy 0.440 in session 17) and the full float64 sum
// of 2 GB (0.664 against CUB's 0.657). Each variant is timed with events (median of 15 or 21) next
// to a device-to-device copy and CUB. Part 3 runs ndfuse's own generated kernels (dumped with
// nf::jit::source into generated/, compiled here with NVRTC's options) beside the hand-written ones.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 -Ijit/prelude -Iresearch/generated \
//     research/reduce_shapes.cu -o reduce_shapes && ./reduce_shapes
// Session 17, H100 80GB HBM3:
//   - rows of four, hand-written: 0.453 ms with the grid capped at 8 devices of resident blocks
//     (ndfuse's reduce_dims then), 0.437 with one block per 256 rows; 2 or 4 rows per thread
//     changed nothing. reduce_dims now launches the whole grid (bench_cuda_reduce: 0.457 -> 0.447).
//   - rows of four, generated: 0.447 against the hand-written 0.437 in one process. A path at the top
//     of nf_reduce for one thread per output (no block set-up) brought it to 0.443, but it doubled
//     NVRTC's compile time of every reduction kernel (the GPU reduce tests took 1.7 to 2.3 times
//     as long), so it was reverted: first-call latency matters more than 1%.
//   - full sum: the strided mapping (ndfuse's) matched CUB within 0.3-0.8% at 528 to 2112 blocks and
//     4 to 16 loads in flight; one contiguous chunk per block (CUB's even share) was 7-9% slower.
//     Generated 0.657-0.662 ms, hand-written 0.658-0.661, CUB 0.653-0.657.
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "gen_full.cuh"   // k_774269b240294b35: sum of float64, full
#include "gen_rows4.cuh"  // k_e9b676681afe03d5: sum over axis 1 of float32
#include "reduce_common.cuh"

float median_ms(const std::function<void()>& f) {
  return median_ms(f, 15);
}

// --- rows of four -------------------------------------------------------------------------------
// K outputs per thread per step, their loads issued together; grid-stride over the outputs.
template <int K>
__global__ void __launch_bounds__(256, 8)
    rows4(const float4* __restrict__ in, float* __restrict__ out, unsigned n_out) {
  const unsigned step = gridDim.x * blockDim.x;
  unsigned o = blockIdx.x * blockDim.x + threadIdx.x;
  for (; o + (K - 1) * step < n_out; o += K * step) {
    float4 x[K];
#pragma unroll
    for (int k = 0; k < K; ++k) x[k] = in[o + k * step];
#pragma unroll
    for (int k = 0; k < K; ++k) out[o + k * step] = ((0.f + x[k].x) + x[k].y + x[k].z) + x[k].w;
  }
  for (; o < n_out; o += step) {
    const float4 x = in[o];
    out[o] = ((0.f + x.x) + x.y + x.z) + x.w;
  }
}

// K consecutive outputs per thread per step (one thread reads K * 16 contiguous bytes).
template <int K>
__global__ void __launch_bounds__(256, 8)
    rows4_adjacent(const float4* __restrict__ in, float* __restrict__ out, unsigned n_out) {
  const unsigned step = gridDim.x * blockDim.x * K;
  for (unsigned o = (blockIdx.x * blockDim.x + threadIdx.x) * K; o < n_out; o += step) {
    float4 x[K];
#pragma unroll
    for (int k = 0; k < K; ++k) x[k] = in[o + k];
    float r[K];
#pragma unroll
    for (int k = 0; k < K; ++k) r[k] = ((0.f + x[k].x) + x[k].y + x[k].z) + x[k].w;
    if constexpr (K == 4) {
      *reinterpret_cast<float4*>(out + o) = make_float4(r[0], r[1], r[2], r[3]);
    } else if constexpr (K == 2) {
      *reinterpret_cast<float2*>(out + o) = make_float2(r[0], r[1]);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) out[o + k] = r[k];
    }
  }
}

// --- full float64 sum ---------------------------------------------------------------------------
// The end of every full-sum variant: finish_full (reduce_common.cuh).

// ndfuse's driver: grid_y blocks split the elements (unit = double2), each thread strides by
// grid * 256 units with N loads in flight, a shared-memory tree, partials, and the last block folds.
template <int N>
__global__ void __launch_bounds__(256, 8) full_strided(const double2* __restrict__ in, unsigned long long n,
                                                       double* partials, unsigned* arrivals, double* out) {
  const unsigned t = threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * 256;
  unsigned long long r = (unsigned long long)blockIdx.x * 256 + t;
  double acc = 0;
  for (; r + (N - 1) * stride < n; r += N * stride) {
    double2 x[N];
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = in[r + k * stride];
#pragma unroll
    for (int k = 0; k < N; ++k) acc += x[k].x + x[k].y;
  }
  for (; r < n; r += stride) acc += in[r].x + in[r].y;
  finish_full(acc, partials, arrivals, out);
}

// Each block owns one contiguous chunk (CUB's even share), walked 256 * N units at a time.
template <int N>
__global__ void __launch_bounds__(256, 8) full_chunked(const double2* __restrict__ in, unsigned long long n,
                                                       double* partials, unsigned* arrivals, double* out) {
  const unsigned t = threadIdx.x;
  const unsigned long long per = (n + gridDim.x - 1) / gridDim.x;
  const unsigned long long begin = blockIdx.x * per, end = begin + per < n ? begin + per : n;
  double acc = 0;
  unsigned long long r = begin + t;
  for (; r + (N - 1) * 256 < end; r += N * 256) {
    double2 x[N];
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = in[r + k * 256];
#pragma unroll
    for (int k = 0; k < N; ++k) acc += x[k].x + x[k].y;
  }
  for (; r < end; r += 256) acc += in[r].x + in[r].y;
  finish_full(acc, partials, arrivals, out);
}

// Part 3: the generated kernels, launched as reduce_dims launches them, beside the hand-written ones.
void generated_vs_hand(int sms) {
  const unsigned grid_y = sms * 8;
  {
    const unsigned n_out = 67108864;
    float *in, *out;
    CHECK(cudaMalloc(&in, size_t(n_out) * 16));
    CHECK(cudaMalloc(&out, size_t(n_out) * 4));
    CHECK(cudaMemset(in, 0x3f, size_t(n_out) * 16));
    const double bytes = double(n_out) * 20;
    auto line = [&](const char* name, float ms) {
      std::printf("rows4 %-36s %.4f ms  %.0f GB/s\n", name, ms, bytes / ms / 1e6);
    };
    line("hand, one thread per row",
         median_ms([&] { rows4<1><<<n_out / 256, 256>>>((const float4*)in, out, n_out); }));
    nf_reduce_args a{n_out, 4, nullptr, nullptr, 1};
    nf_dims<2, unsigned> shape{{n_out, 4}};
    line("generated, grid 262144 x (1, 256)", median_ms([&] {
           k_e9b676681afe03d5<<<dim3(n_out / 256, 1), dim3(1, 256)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  {
    const unsigned n = 250000000;
    double *in, *partials, *out;
    unsigned* arrivals;
    CHECK(cudaMalloc(&in, size_t(n) * 8));
    CHECK(cudaMalloc(&partials, 65536 * 8));
    CHECK(cudaMalloc(&out, 8));
    CHECK(cudaMalloc(&arrivals, 4));
    CHECK(cudaMemset(arrivals, 0, 4));
    CHECK(cudaMemset(in, 0x3f, size_t(n) * 8));
    const double bytes = double(n) * 8;
    auto line = [&](const char* name, float ms) {
      double got;
      CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
      std::printf("full  %-36s %.4f ms  %.0f GB/s  (sum %.17g)\n", name, ms, bytes / ms / 1e6, got);
    };
    void* temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n));
    CHECK(cudaMalloc(&temp, temp_bytes));
    line("CUB DeviceReduce::Sum",
         median_ms([&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n)); }));
    line("hand, N=8", median_ms([&] {
           full_strided<8><<<grid_y, 256>>>((const double2*)in, n / 2, partials, arrivals, out);
         }));
    nf_reduce_args a{1, n, partials, arrivals, 1};
    nf_dims<1, unsigned> shape{{n}};
    line("generated, grid (1, 1056) x 256", median_ms([&] {
           k_774269b240294b35<<<dim3(1, grid_y), dim3(256, 1)>>>(n, shape, a, out, in, 0.0);
         }));
    CHECK(cudaFree(in));
    CHECK(cudaFree(partials));
    CHECK(cudaFree(out));
    CHECK(cudaFree(arrivals));
    CHECK(cudaFree(temp));
  }
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);

  // Rows of four: 67108864 x 4 float32 (1 GiB in, 256 MiB out).
  {
    const unsigned n_out = 67108864;
    std::vector<float> h(size_t(n_out) * 4);
    for (size_t i = 0; i < h.size(); ++i) h[i] = float((i * 2654435761u) % 1000) / 7.f;
    float *in, *out, *copy;
    CHECK(cudaMalloc(&in, h.size() * 4));
    CHECK(cudaMalloc(&out, size_t(n_out) * 4));
    CHECK(cudaMalloc(&copy, size_t(n_out) * 5 * 4 / 2));
    CHECK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    const double bytes = double(n_out) * 20;
    auto report = [&](const char* name, float ms) {
      std::vector<float> got(n_out);
      CHECK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (unsigned o = 0; o < n_out; o += 9973) {
        const float want = ((0.f + h[o * 4]) + h[o * 4 + 1] + h[o * 4 + 2]) + h[o * 4 + 3];
        bad += got[o] != want;
      }
      CHECK(cudaMemset(out, 0, size_t(n_out) * 4));
      std::printf("rows4 %-34s %.3f ms  %.0f GB/s%s\n", name, ms, bytes / ms / 1e6, bad ? "  WRONG" : "");
    };
    std::printf("copy of 1.25 GiB (read + write 2.5 GiB)   %.3f ms\n", median_ms([&] {
                  CHECK(cudaMemcpyAsync(copy, in, size_t(n_out) * 5 * 2, cudaMemcpyDeviceToDevice));
                }));
    const unsigned blocks = n_out / 256;
    for (unsigned grid : {unsigned(sms * 8 * 8), unsigned(sms * 8), blocks}) {
      char name[64];
      std::snprintf(name, sizeof name, "K=1 grid %u", grid);
      report(name, median_ms([&] { rows4<1><<<grid, 256>>>((const float4*)in, out, n_out); }));
      std::snprintf(name, sizeof name, "K=2 grid %u", std::min(grid, blocks / 2));
      report(name, median_ms([&] {
               rows4<2><<<std::min(grid, blocks / 2), 256>>>((const float4*)in, out, n_out);
             }));
      std::snprintf(name, sizeof name, "K=4 grid %u", std::min(grid, blocks / 4));
      report(name, median_ms([&] {
               rows4<4><<<std::min(grid, blocks / 4), 256>>>((const float4*)in, out, n_out);
             }));
      std::snprintf(name, sizeof name, "adjacent K=2 grid %u", std::min(grid, blocks / 2));
      report(name, median_ms([&] {
               rows4_adjacent<2><<<std::min(grid, blocks / 2), 256>>>((const float4*)in, out, n_out);
             }));
      std::snprintf(name, sizeof name, "adjacent K=4 grid %u", std::min(grid, blocks / 4));
      report(name, median_ms([&] {
               rows4_adjacent<4><<<std::min(grid, blocks / 4), 256>>>((const float4*)in, out, n_out);
             }));
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(copy));
  }

  // Full float64 sum of 2 GiB.
  {
    const unsigned long long n = 1ull << 28;
    std::vector<double> h(n);
    double want = 0;
    for (size_t i = 0; i < n; ++i) want += (h[i] = double((i * 2654435761u) % 1000) / 7.0);
    double *in, *partials, *out;
    unsigned* arrivals;
    CHECK(cudaMalloc(&in, n * 8));
    CHECK(cudaMalloc(&partials, 65536 * 8));
    CHECK(cudaMalloc(&out, 8));
    CHECK(cudaMalloc(&arrivals, 4));
    CHECK(cudaMemset(arrivals, 0, 4));
    CHECK(cudaMemcpy(in, h.data(), n * 8, cudaMemcpyHostToDevice));
    const double bytes = double(n) * 8;
    auto report = [&](const char* name, float ms) {
      double got;
      CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemset(out, 0, 8));
      std::printf("full  %-34s %.3f ms  %.0f GB/s  rel err %.1e\n", name, ms, bytes / ms / 1e6,
                  std::fabs(got - want) / want);
    };
    double* copy;
    CHECK(cudaMalloc(&copy, n * 4));
    std::printf("copy of 1 GiB (read + write 2 GiB)        %.3f ms\n",
                median_ms([&] { CHECK(cudaMemcpyAsync(copy, in, n * 4, cudaMemcpyDeviceToDevice)); }));
    CHECK(cudaFree(copy));
    void* temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n));
    CHECK(cudaMalloc(&temp, temp_bytes));
    report("CUB DeviceReduce::Sum",
           median_ms([&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n)); }));
    const unsigned long long units = n / 2;
    for (unsigned grid : {unsigned(sms * 8), unsigned(sms * 16), unsigned(sms * 4)}) {
      char name[64];
#define RUN(KERNEL, N)                                                \
  std::snprintf(name, sizeof name, #KERNEL " N=%d grid %u", N, grid); \
  report(name,                                                        \
         median_ms([&] { KERNEL<N><<<grid, 256>>>((const double2*)in, units, partials, arrivals, out); }));
      RUN(full_strided, 8)
      RUN(full_strided, 16)
      RUN(full_strided, 4)
      RUN(full_chunked, 8)
      RUN(full_chunked, 16)
      RUN(full_chunked, 4)
    }
  }
  generated_vs_hand(sms);
  return 0;
}
