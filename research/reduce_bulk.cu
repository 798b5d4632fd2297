// Experiment (not part of the build), session 21: the full float64 sum (2.5e8 and 2^28 elements)
// with its input brought into shared memory by the bulk copy engine (cp.async.bulk, completing on
// an mbarrier), against CUB's DeviceReduce::Sum and ndfuse's strided register mapping
// (reduce_paths.cu's full_strided, N = 8). Every block takes chunks b, b + G, b + 2G, ... (G blocks),
// a ring of STAGES chunk buffers kept full by thread 0; each thread folds its double2's of a chunk
// in a fixed order, so the bits depend on the sizes and grid alone, as in ndfuse's driver.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 research/reduce_bulk.cu -o reduce_bulk \
//     && ./reduce_bulk
// H100 80GB HBM3 (session 21), medians of 21, two rounds alike; ms for 2.5e8 float64, then 2^28:
//   CUB 0.6530-0.6537, 0.7012-0.7023; strided registers (ndfuse before) 0.6577-0.6589, 0.7047-0.7070;
//   bulk 16 KB x 4 stages, 2 blocks/SM 0.6386-0.6405, 0.6851-0.6853; 32 KB x 3, 2/SM 0.6370-0.6374,
//   0.6828-0.6848; 32 KB x 2, 3/SM 0.6385-0.6387; 16 KB x 3, 4/SM 0.6452; 8 KB x 4, 4/SM 0.6463-0.6469;
//   8 KB x 2, 8/SM 0.6515-0.6518; an evict-first L2 hint changed nothing (16 KB x 4, 3/SM 0.6425
//   against 0.6422). Fewer, larger copies and two blocks per SM read fastest (3.13-3.14 TB/s against
//   CUB's 3.06); ndfuse's staged fold (nf_reduce_staged) takes 16 KB chunks of float64 (1024 units),
//   up to four stages, two blocks per SM.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <vector>

#include "bulk_copy.cuh"
#include "reduce_common.cuh"

// CHUNK bytes a chunk, STAGES chunks in flight per block; HINT: evict-first L2 policy on the copies.
template <int CHUNK, int STAGES, bool HINT>
__global__ void __launch_bounds__(256) full_bulk(const double2* __restrict__ in, unsigned long long units,
                                                 double* partials, unsigned* arrivals, double* out) {
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) uint64_t full[STAGES];
  constexpr unsigned per_chunk = CHUNK / 16;  // double2's
  const unsigned t = threadIdx.x, b = blockIdx.x, G = gridDim.x;
  const unsigned long long chunks = units / per_chunk;
  const unsigned long long mine = chunks > b ? (chunks - b + G - 1) / G : 0;
  uint64_t policy = 0;
  if constexpr (HINT) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  auto issue = [&](unsigned long long k) {
    const unsigned s = k % STAGES;
    bar_expect(&full[s], CHUNK);
    const double2* src = in + (b + k * G) * per_chunk;
    if constexpr (HINT)
      bulk_load_hint(ring + s * CHUNK, src, CHUNK, &full[s], policy);
    else
      bulk_load(ring + s * CHUNK, src, CHUNK, &full[s]);
  };
  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) bar_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (t == 0)
    for (unsigned long long k = 0; k < mine && k < STAGES; ++k) issue(k);
  double acc = 0;
  for (unsigned long long k = 0; k < mine; ++k) {
    const unsigned s = k % STAGES;
    bar_wait(&full[s], unsigned(k / STAGES) & 1);
    const double2* c = reinterpret_cast<const double2*>(ring + s * CHUNK);
    double2 x[per_chunk / 256];
#pragma unroll
    for (unsigned i = 0; i < per_chunk / 256; ++i) x[i] = c[i * 256 + t];
#pragma unroll
    for (unsigned i = 0; i < per_chunk / 256; ++i) acc = (acc + x[i].x) + x[i].y;
    __syncthreads();  // every thread is done with stage s before it is refilled
    if (t == 0 && k + STAGES < mine) issue(k + STAGES);
  }
  // The units after the last whole chunk, strided over every block.
  for (unsigned long long r = chunks * per_chunk + (unsigned long long)b * 256 + t; r < units;
       r += (unsigned long long)G * 256)
    acc = (acc + in[r].x) + in[r].y;
  finish_full(acc, partials, arrivals, out);
}

// ndfuse's mapping (reduce_paths.cu): unit r, r + stride, ... with eight loads in flight.
__global__ void __launch_bounds__(256, 8) full_strided(const double2* __restrict__ in, unsigned n,
                                                       double* partials, unsigned* arrivals, double* out) {
  const unsigned t = threadIdx.x, stride = gridDim.x * 256;
  unsigned r = blockIdx.x * 256 + t;
  double acc = 0;
  for (; r + 7 * stride < n; r += 8 * stride) {
    double2 x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = in[r + k * stride];
#pragma unroll
    for (int k = 0; k < 8; ++k) acc = (acc + x[k].x) + x[k].y;
  }
  for (; r < n; r += stride) acc = (acc + in[r].x) + in[r].y;
  finish_full(acc, partials, arrivals, out);
}

__global__ void copy_kernel(const double2* __restrict__ in, double2* __restrict__ out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  for (const unsigned long long n : {250000000ull, 1ull << 28}) {
    full_sum_buffers b = make_full_sum(n);
    double *in = b.in, *partials = b.partials, *out = b.out, *copy_out;
    unsigned* arrivals = b.arrivals;
    const double want = b.want;
    CHECK(cudaMalloc(&copy_out, n * 8));
    std::printf("n = %llu float64 (%.3f GB)\n", n, n * 8e-9);
    auto line = [&](const char* name, float ms) {
      double got;
      CHECK(cudaMemcpy(&got, out, 8, cudaMemcpyDeviceToHost));
      CHECK(cudaMemset(out, 0, 8));
      std::printf("  %-44s %.4f ms  %.3f TB/s  rel err %.1e\n", name, ms, n * 8e-9 / ms,
                  std::fabs(got - want) / want);
    };
    void* temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n));
    CHECK(cudaMalloc(&temp, temp_bytes));
    const unsigned long long units = n / 2;
    char name[96];
    for (int round = 0; round < 2; ++round) {
      const float copy_ms = median_ms(
          [&] { copy_kernel<<<sms * 8, 256>>>((const double2*)in, (double2*)copy_out, unsigned(units)); },
          21);
      std::printf("  %-44s %.4f ms  (read limit at copy bandwidth %.4f ms)\n", "copy (read + write)", copy_ms,
                  copy_ms / 2);
      line("CUB",
           median_ms([&] { CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, (long long)n)); }, 21));
      line("strided N=8, 1056", median_ms(
                                    [&] {
                                      full_strided<<<sms * 8, 256>>>((const double2*)in, unsigned(units),
                                                                     partials, arrivals, out);
                                    },
                                    21));
#define BULK(CHUNK, STAGES, HINT, PER_SM)                                                                 \
  {                                                                                                       \
    auto k = full_bulk<CHUNK, STAGES, HINT>;                                                              \
    const int smem = CHUNK * STAGES;                                                                      \
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));                    \
    std::snprintf(name, sizeof name, "bulk %2d KB x %d%s, %d/SM", CHUNK / 1024, STAGES,                   \
                  HINT ? " evict" : "", PER_SM);                                                          \
    line(name,                                                                                            \
         median_ms(                                                                                       \
             [&] { k<<<sms * PER_SM, 256, smem>>>((const double2*)in, units, partials, arrivals, out); }, \
             21));                                                                                        \
  }
      BULK(8192, 4, false, 4)
      BULK(8192, 4, false, 6)
      BULK(16384, 3, false, 4)
      BULK(16384, 4, false, 2)
      BULK(16384, 4, false, 3)
      BULK(16384, 6, false, 2)
      BULK(32768, 3, false, 2)
      BULK(32768, 2, false, 3)
      BULK(16384, 4, true, 3)
      BULK(8192, 2, false, 8)
      CHECK(cudaGetLastError());
    }
    CHECK(cudaFree(temp));
    CHECK(cudaFree(copy_out));
    free_full_sum(b);
  }
  return 0;
}
