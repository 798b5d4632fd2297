// Experiment (not part of the build), session 18: (1) rows of four (sum over axis 1 of 67108864 x 4
// float32) with a per-thread driver, no shared memory and no barrier, written as ndfuse renders it
// since then (nf_reduce_per_thread); (2) layouts of the full float64 sum (2^28) against CUB's.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 -Ijit/prelude -Iresearch/generated \
//     research/reduce_paths.cu -o reduce_paths && ./reduce_paths
// generated/gen_rows4.cuh and gen_full.cuh were rendered before this session (both paths in one
// kernel); gen_rows4_s18.cuh and gen_full_s18.cuh by the renderer since (only the layout the sizes
// take: units with one thread per output, and units over a block's lanes).
// H100 80GB HBM3, two rounds, medians of 21:
//   - rows of four: hand-written 0.4348-0.4358 ms, streaming hints 0.4355-0.4361; generated with
//     both paths 0.4458-0.4459, with the unit path only 0.4450-0.4461; the per-thread driver
//     0.4372-0.4389 (block 1 x 256 or 256 x 1, or a quarter of the grid, alike).
//   - full sum: CUB 0.7046-0.7049 ms; generated 0.7085-0.7088; hand-written strided (ndfuse's
//     mapping) 0.7036-0.7070 at 1056, 2112 or 5280 blocks, with plain, __ldcs or no-allocate
//     loads alike; CUB's even share of whole tiles 0.7023-0.7211. No layout is clearly ahead of
//     CUB's: the differences are within the run-to-run spread of 2-3 us.
//   - since session 18 (gen_*_s18.cuh, another process): rows of four 0.4388-0.4399 ms against
//     hand-written 0.4371-0.4383 and the old two-path kernel 0.4468-0.4491; bench_cuda_reduce's
//     sum_axis1/float32_67108864x4 went from 0.447 to 0.440 ms (CuPy 0.4398 in the same run).
//   - nf_reduce with contiguous ranges per block (as full_tiles; tried and reverted in session
//     18): bench_cuda_reduce's full sum of 2.5e8 float64 went 0.664 -> 0.660 ms and sum over axis
//     0 of 16384^2 0.391 -> 0.381, but here the generated full sum of 2^28 went 0.7056 -> 0.7227-
//     0.7241, and in the bench sum over axis 1 of 4 x 67108864 0.362 -> 0.367 and over axis 0 of
//     67108864 x 4 0.379 -> 0.384: power-of-two sizes lost more than the others gained. full_tiles
//     here, with its blocks' ranges as far apart, did not lose; the cause is not found.
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <functional>
#include <vector>
#include "gen_full.cuh"
#include "gen_full_s18.cuh"
#include "gen_rows4.cuh"
#include "gen_rows4_s18.cuh"
#include "nf_prelude.cuh"
#include "reduce_common.cuh"

constexpr int reps = 21;  // per median
float median_ms(const std::function<void()>& f) {
  return median_ms(f, reps);
}

template <class Acc, class Idx, class Combine, class Element, class Finish>
__device__ __forceinline__ void pt_driver(const nf_reduce_args& p, const Acc identity, const Combine& combine,
                                          const Element& element, const Finish& finish) {
  const Idx n_out = (Idx)p.n_out, n_red = (Idx)p.n_red;
  const Idx threads = (Idx)blockDim.x * blockDim.y;
  const Idx step = (Idx)gridDim.x * threads;
  for (Idx o = (Idx)blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x; o < n_out; o += step) {
    Acc acc = identity;
    Idx r = 0;
    nf_fold_in_flight<4>(acc, r, (Idx)1, n_red, o, combine, element);
    for (; r < n_red; ++r) acc = combine(acc, element(o, r));
    finish(o, acc);
  }
}

// gen_rows4 with the unit path only, and the per-thread driver (k_pt) or the general one
// (k_units_only: what rendering one path gives).
template <bool PerThread>
__global__ void __launch_bounds__(256, 8)
    k_rows4(const unsigned n, const nf_dims<2, unsigned> shape, const nf_reduce_args reduce,
            float* __restrict__ out0, const float* __restrict__ in0, const float identity) {
  typedef unsigned idx;
  const idx n_red = (idx)reduce.n_red;
  auto element = [&](const idx o, const idx r) { return k_e9b676681afe03d5_element(in0[o * n_red + r]); };
  auto finish = [&](const idx o, const float acc) { k_e9b676681afe03d5_finish(out0[o], acc); };
  auto element_unit = [&](const idx o, const idx u) {
    if (reduce.wide) {
      const idx i = o * n_red + u * 4;
      const nf_vec<float, 4> x0 = nf_load_vec<4>(in0 + i);
      float a = k_e9b676681afe03d5_element(x0.v[0]);
#pragma unroll
      for (int l = 1; l < 4; ++l) a = k_e9b676681afe03d5_combine()(a, k_e9b676681afe03d5_element(x0.v[l]));
      return a;
    }
    float a = element(o, u * 4);
#pragma unroll
    for (int l = 1; l < 4; ++l) a = k_e9b676681afe03d5_combine()(a, element(o, u * 4 + l));
    return a;
  };
  nf_reduce_args units = reduce;
  units.n_red /= 4;
  if constexpr (PerThread)
    pt_driver<float, idx>(units, identity, k_e9b676681afe03d5_combine(), element_unit, finish);
  else
    nf_reduce<float, idx, true>(units, identity, k_e9b676681afe03d5_combine(), element_unit, finish);
}

__global__ void __launch_bounds__(256, 8)
    rows4_hand(const float4* __restrict__ in, float* __restrict__ out, unsigned n_out) {
  unsigned o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < n_out) {
    const float4 x = in[o];
    out[o] = ((0.f + x.x) + x.y + x.z) + x.w;
  }
}
__global__ void __launch_bounds__(256, 8)
    rows4_stream(const float4* __restrict__ in, float* __restrict__ out, unsigned n_out) {
  unsigned o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < n_out) {
    const float4 x = __ldcs(in + o);
    __stcs(out + o, ((0.f + x.x) + x.y + x.z) + x.w);
  }
}

// ---- full sum ----
template <int LOAD>
__device__ __forceinline__ double2 ld(const double2* p) {
  if constexpr (LOAD == 0)
    return *p;
  else if constexpr (LOAD == 1)
    return __ldcs(p);
  else if constexpr (LOAD == 2)
    return __ldg(p);
  else {
    double2 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v2.f64 {%0,%1}, [%2];"
                 : "=d"(v.x), "=d"(v.y)
                 : "l"(p));
    return v;
  }
}
template <int N, int LOAD>
__global__ void __launch_bounds__(256, 8) full_strided(const double2* __restrict__ in, unsigned n,
                                                       double* partials, unsigned* arrivals, double* out) {
  const unsigned t = threadIdx.x, stride = gridDim.x * 256;
  unsigned r = blockIdx.x * 256 + t;
  double acc = 0;
  for (; r + (N - 1) * stride < n; r += N * stride) {
    double2 x[N];
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = ld<LOAD>(in + r + k * stride);
#pragma unroll
    for (int k = 0; k < N; ++k) acc = (acc + x[k].x) + x[k].y;
  }
  for (; r < n; r += stride) acc = (acc + in[r].x) + in[r].y;
  finish_full(acc, partials, arrivals, out);
}
// CUB's even share: block b owns a contiguous range of whole tiles (256 x N units), walked tile by tile.
template <int N, int LOAD>
__global__ void __launch_bounds__(256, 8) full_tiles(const double2* __restrict__ in, unsigned n,
                                                     double* partials, unsigned* arrivals, double* out) {
  const unsigned t = threadIdx.x, tile = 256 * N;
  const unsigned tiles = n / tile;
  const unsigned per = tiles / gridDim.x, extra = tiles % gridDim.x;
  const unsigned first = blockIdx.x * per + min(blockIdx.x, extra);
  const unsigned count = per + (blockIdx.x < extra);
  double acc = 0;
  for (unsigned k0 = first; k0 < first + count; ++k0) {
    const double2* p = in + (size_t)k0 * tile + t;
    double2 x[N];
#pragma unroll
    for (int k = 0; k < N; ++k) x[k] = ld<LOAD>(p + k * 256);
#pragma unroll
    for (int k = 0; k < N; ++k) acc = (acc + x[k].x) + x[k].y;
  }
  if (blockIdx.x == gridDim.x - 1)
    for (unsigned r = tiles * tile + t; r < n; r += 256) acc = (acc + in[r].x) + in[r].y;
  finish_full(acc, partials, arrivals, out);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  for (int round = 0; round < 2; ++round) {
    const unsigned n_out = 67108864;
    float *in, *out;
    CHECK(cudaMalloc(&in, size_t(n_out) * 16));
    CHECK(cudaMalloc(&out, size_t(n_out) * 4));
    CHECK(cudaMemset(in, 0x3f, size_t(n_out) * 16));
    auto line = [&](const char* name, float ms) { std::printf("rows4 %-40s %.4f ms\n", name, ms); };
    nf_reduce_args a{n_out, 4, nullptr, nullptr, 1};
    nf_dims<2, unsigned> shape{{n_out, 4}};
    line("hand", median_ms([&] { rows4_hand<<<n_out / 256, 256>>>((const float4*)in, out, n_out); }));
    line("hand, streaming hints",
         median_ms([&] { rows4_stream<<<n_out / 256, 256>>>((const float4*)in, out, n_out); }));
    line("generated (both paths)", median_ms([&] {
           k_e9b676681afe03d5<<<dim3(n_out / 256, 1), dim3(1, 256)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("generated, units only", median_ms([&] {
           k_rows4<false><<<dim3(n_out / 256, 1), dim3(1, 256)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("per-thread driver, block (1,256)", median_ms([&] {
           k_rows4<true><<<dim3(n_out / 256, 1), dim3(1, 256)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("per-thread driver, block (256,1)", median_ms([&] {
           k_rows4<true><<<dim3(n_out / 256, 1), dim3(256, 1)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("per-thread driver, grid/4", median_ms([&] {
           k_rows4<true><<<dim3(n_out / 1024, 1), dim3(256, 1)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("generated since session 18", median_ms([&] {
           k_6709f59797bb9aa7<<<dim3(n_out / 256, 1), dim3(256, 1)>>>(n_out * 4, shape, a, out, in, 0.f);
         }));
    line("hand (again)", median_ms([&] { rows4_hand<<<n_out / 256, 256>>>((const float4*)in, out, n_out); }));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  {
    const unsigned n = 1u << 28;
    full_sum_buffers b = make_full_sum(n);
    double *in = b.in, *partials = b.partials, *out = b.out;
    unsigned* arrivals = b.arrivals;
    const double want = b.want;
    auto line = [&](const char* name, float ms) {
      double got;
      CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemset(out, 0, 8));
      std::printf("full  %-40s %.4f ms  rel err %.1e\n", name, ms, std::fabs(got - want) / want);
    };
    void* temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n));
    CHECK(cudaMalloc(&temp, temp_bytes));
    const unsigned units = n / 2;
    for (int round = 0; round < 2; ++round) {
      line("CUB", median_ms([&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n)); }));
      nf_reduce_args a{1, n, partials, arrivals, 1};
      nf_dims<1, unsigned> shape{{n}};
      line("generated, 1056", median_ms([&] {
             k_774269b240294b35<<<dim3(1, sms * 8), dim3(256, 1)>>>(n, shape, a, out, in, 0.0);
           }));
      line("generated since session 18, 1056", median_ms([&] {
             k_265334c37ab42754<<<dim3(1, sms * 8), dim3(256, 1)>>>(n, shape, a, out, in, 0.0);
           }));
      char name[80];
      for (unsigned g : {unsigned(sms * 8), unsigned(sms * 16), unsigned(sms * 40)}) {
#define RUN(K, N, L)                                                     \
  std::snprintf(name, sizeof name, #K " N=%d load=%d grid %u", N, L, g); \
  line(name, median_ms([&] { K<N, L><<<g, 256>>>((const double2*)in, units, partials, arrivals, out); }));
        RUN(full_strided, 8, 0)
        RUN(full_strided, 8, 1)
        RUN(full_strided, 8, 3)
        RUN(full_tiles, 8, 0) RUN(full_tiles, 16, 0) RUN(full_tiles, 8, 3) RUN(full_tiles, 16, 3)
      }
    }
  }
  return 0;
}
