// Experiment (not part of the build), session 25: why torch.compile's rows of four (sum over axis 1
// of 67108864 x 4 float32) take 0.4357 ms in the bench's protocol where ndfuse and CuPy take 0.440.
// triton_reduce_probe.py dumped its kernel (Triton 3.6, autotuned XBLOCK 512, 8 warps): two
// neighbouring rows per thread, eight 4-byte loads `ld.global.L1::evict_last.L2::cache_hint` with
// an L2 evict_last policy, one 8-byte store. Session 22 (reduce_rows4.cu) tried evict_first and
// streaming hints, never evict_last. Variants here, in one process, medians of 21:
//   hand 1x v4          one thread per row, one 16-byte load (ndfuse's layout), block 256
//   ... evict_last      the same load with L1::evict_last and/or the L2 evict_last policy
//   hand 2x             two neighbouring rows per thread (two 16-byte loads, one 8-byte store)
//   triton-like         Triton's kernel written in CUDA (scalar loads, with or without both hints)
//   triton cubin        Triton's own cubin, loaded with the driver API (argv[1], if given)
//   generated           ndfuse's rendered kernel (generated/gen_rows4_s18.cuh, which is what ndfuse
//                       renders at this session's start), launched as ndfuse launches it
//   generated body, driver V   the same kernel body over variants of nf_reduce_per_thread (below)
//   hand, generated arguments  hand 1x with the generated kernel's arguments and grid-stride loop
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 -Ijit/prelude -Iresearch/generated \
//     research/reduce_rows4_hints.cu -lcuda -o rows4_hints && ./rows4_hints [triton.cubin]
// H100 80GB HBM3, five runs of three rounds, range and median over the rounds (ms); the spread
// between runs, 2-3 us, is as large as most differences here, so compare within a run too:
//   triton cubin 0.4350-0.4364 (one run); triton-like 0.4346-0.4399, median 0.4359-0.4366 with or
//   without the hints; hand 1x 0.4354-0.4391, median 0.4364; hand 1x with an evict_last hint or
//   both, and hand 2x, medians 0.4359-0.4372; hand with the generated arguments median 0.4388;
//   generated median 0.4409; drivers 0 / 1 / 2 / 3 / 4 medians 0.4398 / 0.4385 / 0.4393 / 0.4391 /
//   0.4389; drivers 5 / 6 (two runs only) 0.4377 / 0.4376.
//   Within the last two runs: hand 0.4356, hand with the generated arguments 0.4367, drivers 5 and
//   6 0.4376, driver 0 0.4394, generated 0.4400.
// So the hints and two rows per thread change nothing measurable, and the loop shapes gain about
// 1-2 us (0.2-0.4%) at most, the most with the row length a compile-time constant (drivers 5 and 6,
// whose code is the hand kernel's), a key per row length for that. Triton's kernel is 0.5-1 us
// ahead of the hand-written one. What separates torch.compile (0.4357 in the bench protocol) from
// ndfuse (0.440) is thus 2-4 us of kernel and, outside it, the stream-ordered allocation of ndfuse's
// output (about 0.6 us of GPU time per burst, fft_paths.cu), where PyTorch's caching allocator costs
// the GPU nothing. The hints and the second row were not worth their code; the constant row length
// was (commit 8b0ea9d, kernel_reduction::per_thread_n_red): bench_cuda_reduce's rows of four then
// took 0.4384 ms against CuPy's 0.4401 and torch.compile's 0.4356 in one gpu-check run.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "gen_rows4_s18.cuh"
#include "nf_prelude.cuh"
#include "reduce_common.cuh"

enum hint { plain, l1_last, l2_last, both_last };

template <hint H>
__device__ __forceinline__ float4 load4(const float4* p, uint64_t policy) {
  float4 v;
  if constexpr (H == plain) {
    v = __ldg(p);
  } else if constexpr (H == l1_last) {
    asm volatile("ld.global.nc.L1::evict_last.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (H == l2_last) {
    asm volatile("ld.global.nc.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p), "l"(policy));
  } else {
    asm volatile("ld.global.nc.L1::evict_last.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p), "l"(policy));
  }
  return v;
}
template <hint H>
__device__ __forceinline__ float load1(const float* p, uint64_t policy) {
  float v;
  if constexpr (H == plain)
    v = __ldg(p);
  else
    asm volatile("ld.global.L1::evict_last.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
  return v;
}
template <hint H>
__device__ __forceinline__ uint64_t policy_of() {
  uint64_t policy = 0;
  if constexpr (H == l2_last || H == both_last)
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

__device__ __forceinline__ float fold(float4 x) {
  return ((0.f + x.x) + x.y + x.z) + x.w;
}

template <hint H>
__global__ void __launch_bounds__(256, 8) rows4_1x(const float4* __restrict__ in, float* __restrict__ out) {
  const uint64_t policy = policy_of<H>();
  const unsigned o = blockIdx.x * 256 + threadIdx.x;
  out[o] = fold(load4<H>(in + o, policy));
}

template <hint H>
__global__ void __launch_bounds__(256, 8) rows4_2x(const float4* __restrict__ in, float* __restrict__ out) {
  const uint64_t policy = policy_of<H>();
  const unsigned o = (blockIdx.x * 256 + threadIdx.x) * 2;
  const float4 a = load4<H>(in + o, policy), b = load4<H>(in + o + 1, policy);
  *reinterpret_cast<float2*>(out + o) = make_float2(fold(a), fold(b));
}

// Triton's kernel: row o's element k is load k of the thread; the loads of the two rows interleave.
template <hint H>
__global__ void __launch_bounds__(256)
    rows4_triton_like(const float* __restrict__ in, float* __restrict__ out) {
  const uint64_t policy = policy_of<H>();
  const unsigned o = blockIdx.x * 512 + threadIdx.x * 2;
  const float* p = in + size_t(o) * 4;
  float a[4], b[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) a[k] = load1<H>(p + k, policy), b[k] = load1<H>(p + 4 + k, policy);
  *reinterpret_cast<float2*>(out + o) =
      make_float2(((a[0] + a[1]) + a[2]) + a[3], ((b[0] + b[1]) + b[2]) + b[3]);
}

// nf_reduce_per_thread (jit/prelude/nf_reduce.cuh) and variants of its loop over one output's units:
//   0  as ndfuse has it: 4 units in flight while 4 remain, then one at a time (which nvcc unrolls
//      by 4 behind a jump table of remainders)
//   1  the same with the one-at-a-time loop kept a loop (#pragma unroll 1)
//   2  variant 1 with 2 units in flight before it (rows of 1-3 units take fewer tests)
//   3  variant 1 without the grid-stride loop (the grid covers every output once)
//   4  variant 3 with the wide load taken unconditionally (no test of reduce.wide)
//   5  the units per output a compile-time constant (1), the loops unrolled away
//   6  variant 5 with the row's length in elements a constant too (the element index o * 4 + k)
template <int V, class Acc, class Idx, class Combine, class Element, class Finish>
__device__ __forceinline__ void per_thread(const nf_reduce_args& p, const Acc identity,
                                           const Combine& combine, const Element& element,
                                           const Finish& finish) {
  const Idx n_out = (Idx)p.n_out, n_red = V >= 5 ? 1 : (Idx)p.n_red;
  const Idx threads = (Idx)blockDim.x * blockDim.y;
  for (Idx o = (Idx)blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x; o < n_out;
       o += (Idx)gridDim.x * threads) {
    Acc acc = identity;
    Idx r = 0;
    if constexpr (V >= 5) {
#pragma unroll
      for (; r < n_red; ++r) acc = combine(acc, element(o, r));
      finish(o, acc);
      continue;
    }
    nf_fold_in_flight<4>(acc, r, (Idx)1, n_red, o, combine, element);
    if constexpr (V >= 3) {
#pragma unroll 1
      for (; r < n_red; ++r) acc = combine(acc, element(o, r));
      finish(o, acc);
      return;
    } else if constexpr (V == 0) {
      for (; r < n_red; ++r) acc = combine(acc, element(o, r));
    } else {
      if constexpr (V == 2) nf_fold_in_flight<2>(acc, r, (Idx)1, n_red, o, combine, element);
#pragma unroll 1
      for (; r < n_red; ++r) acc = combine(acc, element(o, r));
    }
    finish(o, acc);
  }
}

// The hand-written kernel with the generated one's arguments, index arithmetic and grid-stride loop.
__global__ void __launch_bounds__(256, 8)
    hand_args(const unsigned n, const nf_dims<2, unsigned> shape, const nf_reduce_args reduce,
              float* __restrict__ out0, const float* __restrict__ in0, const float identity) {
  const unsigned n_out = (unsigned)reduce.n_out, n_red = (unsigned)reduce.n_red;
  for (unsigned o = blockIdx.x * 256 + threadIdx.x; o < n_out; o += gridDim.x * 256) {
    const float4 x = *reinterpret_cast<const float4*>(in0 + o * n_red);
    out0[o] = identity + (((x.x + x.y) + x.z) + x.w);
  }
}

// The generated kernel's body (gen_rows4_s18.cuh) over the driver variant V.
template <int V>
__global__ void __launch_bounds__(256, 8)
    gen_variant(const unsigned n, const nf_dims<2, unsigned> shape, const nf_reduce_args reduce,
                float* __restrict__ out0, const float* __restrict__ in0, const float identity) {
  typedef unsigned idx;
  const idx n_red = V == 6 ? 4 : (idx)reduce.n_red;
  auto element = [&](const idx o, const idx r) { return k_6709f59797bb9aa7_element(in0[o * n_red + r]); };
  auto finish = [&](const idx o, const float acc) { k_6709f59797bb9aa7_finish(out0[o], acc); };
  auto element_unit = [&](const idx o, const idx u) {
    if (V == 4 || reduce.wide) {
      const idx i = o * n_red + u * 4;
      const nf_vec<float, 4> x0 = nf_load_vec<4>(in0 + i);
      float a = k_6709f59797bb9aa7_element(x0.v[0]);
#pragma unroll
      for (int l = 1; l < 4; ++l) a = k_6709f59797bb9aa7_combine()(a, k_6709f59797bb9aa7_element(x0.v[l]));
      return a;
    }
    float a = element(o, u * 4);
#pragma unroll
    for (int l = 1; l < 4; ++l) a = k_6709f59797bb9aa7_combine()(a, element(o, u * 4 + l));
    return a;
  };
  nf_reduce_args units = reduce;
  units.n_red /= 4;
  per_thread<V, float, idx>(units, identity, k_6709f59797bb9aa7_combine(), element_unit, finish);
}

#define DRV(x)                                                       \
  do {                                                               \
    CUresult r = (x);                                                \
    if (r != CUDA_SUCCESS) {                                         \
      std::printf("%s:%d driver error %d\n", __FILE__, __LINE__, r); \
      std::exit(1);                                                  \
    }                                                                \
  } while (0)

int main(int argc, char** argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const unsigned n = 67108864;
  std::vector<float> h(size_t(n) * 4);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float((i * 2654435761u) % 1000) / 7.f;
  std::vector<float> want(n);
  for (size_t o = 0; o < n; ++o) want[o] = ((0.f + h[4 * o]) + h[4 * o + 1] + h[4 * o + 2]) + h[4 * o + 3];
  float *in, *out;
  CHECK(cudaMalloc(&in, h.size() * 4));
  CHECK(cudaMalloc(&out, size_t(n) * 4));
  CHECK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  const float4* in4 = reinterpret_cast<const float4*>(in);

  CUfunction triton = nullptr;
  if (argc > 1) {
    CUmodule module;
    DRV(cuModuleLoad(&module, argv[1]));
    DRV(cuModuleGetFunction(&triton, module, "triton_poi_fused_sum_0"));
  }
  std::vector<float> got(n);
  auto line = [&](const char* name, float ms) {
    CHECK(cudaMemcpy(got.data(), out, size_t(n) * 4, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (size_t o = 0; o < n; ++o) bad += got[o] != want[o];
    CHECK(cudaMemset(out, 0, size_t(n) * 4));
    std::printf("%-40s %.4f ms  %5.0f GB/s  %s\n", name, ms, double(n) * 20 / ms / 1e6, bad ? "WRONG" : "ok");
  };
  nf_reduce_args a{n, 4, nullptr, nullptr, 1, 0, 0};
  nf_dims<2, unsigned> shape{{n, 4}};
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d\n", round);
    line("hand 1x v4", median_ms([&] { rows4_1x<plain><<<n / 256, 256>>>(in4, out); }, 21));
    line("hand 1x v4, L1 evict_last", median_ms([&] { rows4_1x<l1_last><<<n / 256, 256>>>(in4, out); }, 21));
    line("hand 1x v4, L2 evict_last", median_ms([&] { rows4_1x<l2_last><<<n / 256, 256>>>(in4, out); }, 21));
    line("hand 1x v4, both evict_last",
         median_ms([&] { rows4_1x<both_last><<<n / 256, 256>>>(in4, out); }, 21));
    line("hand 2x v4", median_ms([&] { rows4_2x<plain><<<n / 512, 256>>>(in4, out); }, 21));
    line("hand 2x v4, both evict_last",
         median_ms([&] { rows4_2x<both_last><<<n / 512, 256>>>(in4, out); }, 21));
    line("triton-like, plain", median_ms([&] { rows4_triton_like<plain><<<n / 512, 256>>>(in, out); }, 21));
    line("triton-like, both evict_last",
         median_ms([&] { rows4_triton_like<both_last><<<n / 512, 256>>>(in, out); }, 21));
    if (triton) {
      void* null = nullptr;
      unsigned xnumel = n;
      void* params[] = {&in, &out, &xnumel, &null, &null};
      line("triton cubin",
           median_ms(
               [&] { DRV(cuLaunchKernel(triton, n / 512, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr)); },
               21));
    }
    line("generated",
         median_ms(
             [&] { k_6709f59797bb9aa7<<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
             21));
    line("generated body, driver 0 (ndfuse's)",
         median_ms([&] { gen_variant<0><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 1",
         median_ms([&] { gen_variant<1><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 2",
         median_ms([&] { gen_variant<2><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 3",
         median_ms([&] { gen_variant<3><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 4",
         median_ms([&] { gen_variant<4><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 5",
         median_ms([&] { gen_variant<5><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line("generated body, driver 6",
         median_ms([&] { gen_variant<6><<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); },
                   21));
    line(
        "hand, generated arguments",
        median_ms([&] { hand_args<<<dim3(n / 256, 1), dim3(256, 1)>>>(n * 4, shape, a, out, in, 0.f); }, 21));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}
