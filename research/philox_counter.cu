// What does the generated float64 uniform kernel lose against the hand-written Philox4x32 fill, and
// which change wins it back? The kernels below are the renderer's grid-stride vector loop with the
// prelude's element function (nf_random), then the same with the draw's upper counter words fixed
// for the whole draw (no carry from the lower words: the compiler keeps them uniform), with four
// elements a thread, and the hand-written one-pair-a-thread kernel of philox_throughput.cu.
//
//   nvcc -O3 -arch=sm_90 --fmad=false -I jit/prelude -I research research/philox_counter.cu -o /tmp/pc &&
//   /tmp/pc
//
// Protocol: CUDA events around each kernel, median of 21 runs after two warm-ups (reduce_common.cuh's
// median_ms; the numbers in research/README.md were taken with one warm-up); 2.5e8 float64 (2 GB).
#include <cuda_runtime.h>

#include <cstdio>

#include "nf_random.cuh"
#include "reduce_common.cuh"

constexpr long long n = 250'000'000;

__global__ void fill(double2* out, unsigned pairs) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = double2{0.5, 0.25};
}

// Block b with the upper 64 counter bits fixed: what nf_random_block32 computes when the host knows
// the draw's lower word cannot wrap.
__device__ __forceinline__ nf_u32x4 block_fixed_upper(const nf_random_params& p, nf_uint64 b) {
  const nf_uint64 lo = p.ctr[0] + p.first + b;
  return nf_philox4x32_10(
      nf_u32x4{{(nf_uint32)lo, (nf_uint32)(lo >> 32), (nf_uint32)p.ctr[1], (nf_uint32)(p.ctr[1] >> 32)}},
      (nf_uint32)p.key[0], (nf_uint32)(p.key[0] >> 32));
}

template <int Variant>
__device__ __forceinline__ double element(const nf_random_params& p, long long a) {
  if constexpr (Variant == 0) return nf_random<NF_PHILOX4X32, NF_UNIT_DOUBLE, 0>(p, a);
  const nf_uint64 u = (nf_uint64)a;
  return nf_random_from_block32<NF_UNIT_DOUBLE>(block_fixed_upper(p, u >> 1), (int)(u & 1));
}

// The renderer's loop: W elements a thread and step, through 16-byte stores.
template <int Variant, int W>
__global__ void __launch_bounds__(256) grid_stride(const unsigned n, double* out, const nf_random_params p) {
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x, step = gridDim.x * blockDim.x;
  for (unsigned v = first; v < n / W; v += step) {
    const unsigned i = v * W;
    double y[W];
#pragma unroll
    for (int l = 0; l < W; ++l) y[l] = element<Variant>(p, (long long)(i + l));
#pragma unroll
    for (int l = 0; l < W; l += 2) *(double2*)(out + i + l) = double2{y[l], y[l + 1]};
  }
}

// The renderer's element in one step a thread, without the loop.
template <int Variant>
__global__ void __launch_bounds__(256) one_step(const unsigned n, double* out, const nf_random_params p) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n / 2) return;
  const unsigned i = v * 2;
  *(double2*)(out + i) = double2{element<Variant>(p, (long long)i), element<Variant>(p, (long long)(i + 1))};
}

// Hand-written: one block a thread, its two doubles stored at once, counter (t, 0).
__global__ void hand(double2* out, unsigned k0, unsigned k1, unsigned pairs) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const nf_u32x4 b = nf_philox4x32_10(nf_u32x4{{t, 0, 0, 0}}, k0, k1);
  out[t] = double2{nf_unit_double((nf_uint64)b.v[0] << 32 | b.v[1]),
                   nf_unit_double((nf_uint64)b.v[2] << 32 | b.v[3])};
}

int main() {
  double* out;
  cudaMalloc(&out, n * sizeof(double));
  const nf_random_params p{{0x1234567ull, 0}, {5, 0, 0, 0}, 0, 0, 0, 0};
  const unsigned bs = 256, pairs = unsigned(n / 2);
  auto grid = [&](long long threads) { return unsigned((threads + bs - 1) / bs); };
  std::printf("fill (write limit)                  %.3f ms\n",
              median_ms([&] { fill<<<grid(pairs), bs>>>((double2*)out, pairs); }, 21));
  std::printf("hand, a block a thread              %.3f ms\n",
              median_ms([&] { hand<<<grid(pairs), bs>>>((double2*)out, 7u, 9u, pairs); }, 21));
  std::printf("prelude, 2 a thread (as rendered)   %.3f ms\n",
              median_ms([&] { grid_stride<0, 2><<<grid(n / 2), bs>>>(unsigned(n), out, p); }, 21));
  std::printf("fixed upper words, 2 a thread       %.3f ms\n",
              median_ms([&] { grid_stride<1, 2><<<grid(n / 2), bs>>>(unsigned(n), out, p); }, 21));
  std::printf("prelude, 4 a thread                 %.3f ms\n",
              median_ms([&] { grid_stride<0, 4><<<grid(n / 4), bs>>>(unsigned(n), out, p); }, 21));
  std::printf("fixed upper words, 4 a thread       %.3f ms\n",
              median_ms([&] { grid_stride<1, 4><<<grid(n / 4), bs>>>(unsigned(n), out, p); }, 21));
  std::printf("prelude, one step a thread, no loop  %.3f ms\n",
              median_ms([&] { one_step<0><<<grid(n / 2), bs>>>(unsigned(n), out, p); }, 21));
  std::printf("fixed upper, one step, no loop      %.3f ms\n",
              median_ms([&] { one_step<1><<<grid(n / 2), bs>>>(unsigned(n), out, p); }, 21));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (int per_sm : {8, 16, 32, 64, 128}) {
    std::printf("prelude, 2 a thread, grid %d x SMs   %.3f ms\n", per_sm,
                median_ms([&] { grid_stride<0, 2><<<sms * per_sm, bs>>>(unsigned(n), out, p); }, 21));
    std::printf("fixed upper, 2 a thread, grid %d x SMs %.3f ms\n", per_sm,
                median_ms([&] { grid_stride<1, 2><<<sms * per_sm, bs>>>(unsigned(n), out, p); }, 21));
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
