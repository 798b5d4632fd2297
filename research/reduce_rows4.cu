// Experiment (not part of the build), session 22: rows of four (sum over axis 1 of a 67108864 x 4
// float32 array: 1 GiB in, 256 MiB out), where ndfuse and CuPy both took 0.440 ms in session 21.
// Session 17 (reduce_shapes.cu) found one thread per row with the whole grid fastest among register
// mappings (0.437 hand-written); this one tries what it did not: cache hints on the loads and stores
// (streaming, L2 256-byte prefetch, evict-first) and the bulk copy engine (sm_90) on both sides:
// persistent blocks that bring 1024-row chunks into a shared-memory ring and write their sums back
// with a bulk store. Floors in the same process: a read of the input alone, a write of the output
// alone, and a device-to-device copy.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 research/reduce_rows4.cu -o reduce_rows4 \
//     && ./reduce_rows4
// H100 80GB HBM3 (session 22), medians of 21, two rounds alike (ms):
//   floors: a read of the 1 GiB input alone 0.339, a write of the 256 MiB output alone 0.163, a
//   device-to-device copy moving the same 1.25 GiB 0.452;
//   one thread per row, plain loads and stores 0.4343-0.4345 (3.09 TB/s): the fastest of all;
//   streaming stores, L2 256-byte prefetch loads, and evict-first on both sides 0.4346-0.4360
//   (level); streaming loads, no-allocate loads and evict-first loads alone 0.446-0.455 (slower);
//   bulk copies in (1024 or 2048-row chunks, 2-4 stages, 2-4 blocks per SM), with bulk or
//   per-thread stores out: 0.4431-0.4500 (slower: unlike the full sum, whose single-lane fold
//   benefits, these rows are one load per thread already).
//   So the rows-of-four row is at what this GPU does for its traffic; CuPy's 0.440 and ndfuse's
//   0.440 in bench_cuda_reduce (session 21) are both within 1.3% of the hand-written kernel, and
//   session 18 measured ndfuse's generated kernel within 0.4% of it in one process (reduce_paths.cu).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "bulk_copy.cuh"
#include "reduce_common.cuh"

__device__ __forceinline__ float fold(float4 x) {
  return ((0.f + x.x) + x.y + x.z) + x.w;
}

// ---- one thread per row, with load and store variants ----
enum class ld { plain, cs, l2_256, no_alloc_256, evict_first };
enum class st { plain, cs, evict_first };

template <ld L>
__device__ __forceinline__ float4 load(const float4* p, uint64_t policy) {
  float4 v;
  if constexpr (L == ld::plain) {
    v = __ldg(p);
  } else if constexpr (L == ld::cs) {
    v = __ldcs(p);
  } else if constexpr (L == ld::l2_256) {
    asm volatile("ld.global.nc.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else if constexpr (L == ld::no_alloc_256) {
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
  } else {
    asm volatile("ld.global.nc.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p), "l"(policy));
  }
  return v;
}
template <st S>
__device__ __forceinline__ void store(float* p, float v, uint64_t policy) {
  if constexpr (S == st::plain)
    *p = v;
  else if constexpr (S == st::cs)
    __stcs(p, v);
  else
    asm volatile("st.global.L2::cache_hint.f32 [%0], %1, %2;" ::"l"(p), "f"(v), "l"(policy) : "memory");
}

template <ld L, st S>
__global__ void __launch_bounds__(256, 8)
    rows4(const float4* __restrict__ in, float* __restrict__ out, unsigned n) {
  uint64_t policy = 0;
  if constexpr (L == ld::evict_first || S == st::evict_first)
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  const unsigned o = blockIdx.x * 256 + threadIdx.x;
  if (o < n) store<S>(out + o, fold(load<L>(in + o, policy)), policy);
}

// Persistent blocks: block b takes chunks b, b + G, ... of ROWS rows, STAGES of them in flight in a
// shared-memory ring filled by thread 0; each thread sums rows t, t + 256, ... of a chunk. BULK_OUT:
// the sums go to a double-buffered shared tile that thread 0 writes back with a bulk store; else each
// thread stores its sums itself (coalesced). n must be a multiple of ROWS here.
template <int ROWS, int STAGES, bool BULK_OUT>
__global__ void __launch_bounds__(256)
    rows4_bulk(const float4* __restrict__ in, float* __restrict__ out, unsigned n) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ __align__(8) uint64_t full[STAGES];
  constexpr unsigned in_bytes = ROWS * 16, out_bytes = ROWS * 4;
  float* tiles = reinterpret_cast<float*>(smem + STAGES * in_bytes);  // two output tiles
  const unsigned t = threadIdx.x, b = blockIdx.x, G = gridDim.x;
  const unsigned chunks = n / ROWS, mine = chunks > b ? (chunks - b + G - 1) / G : 0;
  auto issue = [&](unsigned k) {
    const unsigned s = k % STAGES;
    bar_expect(&full[s], in_bytes);
    bulk_load(smem + s * in_bytes, in + size_t(b + k * G) * ROWS, in_bytes, &full[s]);
  };
  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) bar_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (t == 0)
    for (unsigned k = 0; k < mine && k < STAGES; ++k) issue(k);
  for (unsigned k = 0; k < mine; ++k) {
    const unsigned s = k % STAGES;
    const size_t row0 = size_t(b + k * G) * ROWS;
    bar_wait(&full[s], (k / STAGES) & 1);
    const float4* c = reinterpret_cast<const float4*>(smem + s * in_bytes);
    float r[ROWS / 256];
#pragma unroll
    for (unsigned i = 0; i < ROWS / 256; ++i) r[i] = fold(c[i * 256 + t]);
    if constexpr (BULK_OUT) {
      float* tile = tiles + (k & 1) * ROWS;
      if (t == 0) bulk_store_wait_read<1>();  // the store of chunk k - 2 has left this tile
      __syncthreads();
#pragma unroll
      for (unsigned i = 0; i < ROWS / 256; ++i) tile[i * 256 + t] = r[i];
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      __syncthreads();  // stage s is read and the tile is written
      if (t == 0) {
        bulk_store(out + row0, tile, out_bytes);
        if (k + STAGES < mine) issue(k + STAGES);
      }
    } else {
#pragma unroll
      for (unsigned i = 0; i < ROWS / 256; ++i) out[row0 + i * 256 + t] = r[i];
      __syncthreads();
      if (t == 0 && k + STAGES < mine) issue(k + STAGES);
    }
  }
  if constexpr (BULK_OUT)
    if (t == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// ---- floors ----
__global__ void __launch_bounds__(256, 8) read_only(const float4* __restrict__ in, float* out, unsigned n) {
  const unsigned o = blockIdx.x * 256 + threadIdx.x;
  const float v = fold(in[o]);
  if (v == 12345.f) out[o] = v;  // never true for the input below, but the load must happen
}
__global__ void __launch_bounds__(256, 8) write_only(float* __restrict__ out, unsigned n) {
  const unsigned o = blockIdx.x * 256 + threadIdx.x;
  out[o] = float(o);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  const unsigned n = 67108864;
  std::vector<float> h(size_t(n) * 4);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float((i * 2654435761u) % 1000) / 7.f;
  std::vector<float> want(n);
  for (size_t o = 0; o < n; ++o) want[o] = ((0.f + h[4 * o]) + h[4 * o + 1] + h[4 * o + 2]) + h[4 * o + 3];
  float *in, *out, *copy;
  CHECK(cudaMalloc(&in, h.size() * 4));
  CHECK(cudaMalloc(&out, size_t(n) * 4));
  CHECK(cudaMalloc(&copy, size_t(n) * 20));  // two halves of the bytes moved
  CHECK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const double bytes = double(n) * 20;
  std::vector<float> got(n);
  auto line = [&](const char* name, float ms, bool check) {
    long bad = 0;
    if (check) {
      CHECK(cudaMemcpy(got.data(), out, size_t(n) * 4, cudaMemcpyDeviceToHost));
      for (size_t o = 0; o < n; ++o) bad += got[o] != want[o];
      CHECK(cudaMemset(out, 0, size_t(n) * 4));
    }
    std::printf("%-44s %.4f ms  %5.0f GB/s%s\n", name, ms, bytes / ms / 1e6,
                check ? (bad ? "  WRONG" : "  ok") : "");
  };
  const unsigned grid = n / 256;
  for (int round = 0; round < 2; ++round) {
    std::printf("round %d\n", round);
    line("D2D copy of 640 MiB (1.25 GiB moved)",
         median_ms(
             [&] {
               CHECK(
                   cudaMemcpyAsync(copy + size_t(n) * 5 / 2, copy, size_t(n) * 10, cudaMemcpyDeviceToDevice));
             },
             21),
         false);
    std::printf("%-44s %.4f ms\n", "read 1 GiB only",
                median_ms([&] { read_only<<<grid, 256>>>(in4, out, n); }, 21));
    std::printf("%-44s %.4f ms\n", "write 256 MiB only",
                median_ms([&] { write_only<<<grid, 256>>>(out, n); }, 21));
#define ROW(L, S)                           \
  line("thread per row, ld " #L ", st " #S, \
       median_ms([&] { rows4<ld::L, st::S><<<grid, 256>>>(in4, out, n); }, 21), true)
    ROW(plain, plain);
    ROW(cs, plain);
    ROW(plain, cs);
    ROW(cs, cs);
    ROW(l2_256, plain);
    ROW(no_alloc_256, plain);
    ROW(l2_256, cs);
    ROW(evict_first, plain);
    ROW(evict_first, evict_first);
#undef ROW
#define BULK(R, S, OUT, PER_SM)                                                                          \
  {                                                                                                      \
    const int sm = S * R * 16 + 2 * R * 4;                                                               \
    CHECK(cudaFuncSetAttribute(rows4_bulk<R, S, OUT>, cudaFuncAttributeMaxDynamicSharedMemorySize, sm)); \
    line("bulk " #R " rows x " #S " stages, " #PER_SM "/SM, out " #OUT,                                  \
         median_ms([&] { rows4_bulk<R, S, OUT><<<sms * PER_SM, 256, sm>>>(in4, out, n); }, 21), true);   \
  }
    BULK(1024, 4, true, 2);
    BULK(1024, 4, false, 2);
    BULK(1024, 3, true, 3);
    BULK(2048, 3, true, 2);
    BULK(512, 4, true, 4);
    BULK(1024, 2, true, 4);
#undef BULK
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(copy));
}
