// Experiment (not part of the build): ndfuse's generated reduction kernels (dumped with
// nf::jit::source into generated/, compiled here by nvcc with NVRTC's options) against hand-written
// kernels of the same mapping and CUB, in one process on cudaMalloc'd buffers: is the gap to CuPy
// in bench_cuda_reduce in the kernel or around it?
// Session 17, H100: rows of four ran 0.447 ms generated against 0.437 hand-written; the full sum
// 0.657-0.659 generated, 0.658 hand-written, 0.653-0.656 CUB. A one-thread-per-output path at the
// top of nf_reduce (no block set-up) brought rows of four to 0.443, but it doubled NVRTC's compile
// time of every reduction kernel (the reduce tests on the GPU took 1.7 to 2.3 times as long), so it
// was reverted: first-call latency matters more than 1%.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 -Ijit/prelude -Ibench/experiments/generated \
//     bench/experiments/reduce_generated.cu -o reduce_generated && ./reduce_generated
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "gen_full.cuh"
#include "gen_rows4.cuh"

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

float median_ms(const std::function<void()>& f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  f();
  f();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 21; ++i) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__global__ void __launch_bounds__(256, 8) rows4_hand(const float4* __restrict__ in, float* __restrict__ out,
                                                     unsigned n_out) {
  const unsigned o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < n_out) {
    const float4 x = in[o];
    out[o] = (((0.f + x.x) + x.y) + x.z) + x.w;
  }
}

__global__ void __launch_bounds__(256, 8) full_hand(const double2* __restrict__ in, unsigned n, double* partials,
                                                    unsigned* arrivals, double* out) {
  __shared__ double sh[256];
  __shared__ bool last;
  const unsigned t = threadIdx.x, stride = gridDim.x * 256;
  unsigned r = blockIdx.x * 256 + t;
  double acc = 0;
  for (; r + 7 * stride < n; r += 8 * stride) {
    double2 x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = in[r + k * stride];
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += x[k].x + x[k].y;
  }
  for (; r < n; r += stride) acc += in[r].x + in[r].y;
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

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const unsigned grid_y = prop.multiProcessorCount * 8;
  for (int round = 0; round < 2; ++round) {
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
      line("copy 1.25 GiB", median_ms([&] { CHECK(cudaMemcpyAsync(in + size_t(n_out) * 2, in, size_t(n_out) * 8, cudaMemcpyDeviceToDevice)); }));
      line("hand, one thread per row", median_ms([&] { rows4_hand<<<n_out / 256, 256>>>((const float4*)in, out, n_out); }));
      nf_reduce_args a{n_out, 4, nullptr, nullptr, 4, 1};
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
      line("CUB DeviceReduce::Sum", median_ms([&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n)); }));
      line("hand, N=8", median_ms([&] { full_hand<<<grid_y, 256>>>((const double2*)in, n / 2, partials, arrivals, out); }));
      nf_reduce_args a{1, n, partials, arrivals, 2, 1};
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
  return 0;
}
