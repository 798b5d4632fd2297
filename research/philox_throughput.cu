// Which counter-based bit generator can fill 2 GB of float64 uniforms at the write limit on Hopper?
// Philox4x64-10 (NumPy's Philox, the prelude's nf_philox4x64_10) computed once per element or once per
// block of four words, against Philox4x32-10 (cuRAND's and PyTorch's, two 32-bit words per double)
// and a plain fill (the write limit).
//
//   nvcc -O3 -arch=sm_90 -I jit/prelude research/philox_throughput.cu -o /tmp/philox && /tmp/philox
//
// Protocol: CUDA events around each kernel, median of 21 runs after a warm-up.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "nf_random.cuh"

constexpr long long n = 250'000'000;

__global__ void fill(double* out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    out[i] = 0.5;
}

// Every element computes its own block: what a fused leaf costs when nothing is shared.
__global__ void word_per_element(double* out, nf_u64x2 key, nf_u64x4 ctr, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = nf_unit_double(nf_philox_word(key, ctr, i));
}

// One block per thread, four elements out of it.
__global__ void block_per_thread(double* out, nf_u64x2 key, nf_u64x4 ctr, long long n) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (4 * t >= n) return;
  const nf_u64x4 b = nf_philox4x64_10(nf_counter_add(ctr, t), key);
  for (int j = 0; j < 4 && 4 * t + j < n; ++j) out[4 * t + j] = nf_unit_double(b.v[j]);
}

// Two elements per thread through a 16-byte store, the words of one block shared by two threads'
// neighbours: each thread computes the block of its first word (half the threads recompute).
__global__ void pair_per_thread(double2* out, nf_u64x2 key, nf_u64x4 ctr, long long pairs) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const nf_u64x4 b = nf_philox4x64_10(nf_counter_add(ctr, t / 2), key);
  const int j = int(t % 2) * 2;
  out[t] = double2{nf_unit_double(b.v[j]), nf_unit_double(b.v[j + 1])};
}

struct u32x4 {
  unsigned v[4];
};
__device__ __forceinline__ u32x4 philox4x32_10(u32x4 c, unsigned k0, unsigned k1) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    const unsigned hi0 = __umulhi(0xD2511F53u, c.v[0]), lo0 = 0xD2511F53u * c.v[0];
    const unsigned hi1 = __umulhi(0xCD9E8D57u, c.v[2]), lo1 = 0xCD9E8D57u * c.v[2];
    c = u32x4{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
  }
  return c;
}
// Philox4x32-10: one block gives two doubles (53 bits of two 32-bit words each).
__global__ void philox32_block_per_thread(double2* out, unsigned k0, unsigned k1, long long pairs) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const u32x4 b = philox4x32_10(u32x4{{unsigned(t), unsigned(t >> 32), 0, 0}}, k0, k1);
  auto unit = [](unsigned hi, unsigned lo) {
    return double(((unsigned long long)hi << 32 | lo) >> 11) * (1.0 / 9007199254740992.0);
  };
  out[t] = double2{unit(b.v[0], b.v[1]), unit(b.v[2], b.v[3])};
}

// One Philox4x32-10 block per element (counter = element index): the layout a fused leaf computes
// alone. float64 from words 0 and 1; float32 from word 0; a normal by Box-Muller from all four.
__global__ void philox32_block_per_element(double* out, unsigned k0, unsigned k1, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const u32x4 b = philox4x32_10(u32x4{{unsigned(i), unsigned(i >> 32), 0, 0}}, k0, k1);
  out[i] = double(((unsigned long long)b.v[0] << 32 | b.v[1]) >> 11) * (1.0 / 9007199254740992.0);
}
__global__ void philox32_float_per_element(float* out, unsigned k0, unsigned k1, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const u32x4 b = philox4x32_10(u32x4{{unsigned(i), unsigned(i >> 32), 0, 0}}, k0, k1);
  out[i] = float(b.v[0] >> 8) * (1.0f / 16777216.0f);
}
__global__ void philox32_normal_per_element(double* out, unsigned k0, unsigned k1, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const u32x4 b = philox4x32_10(u32x4{{unsigned(i), unsigned(i >> 32), 0, 0}}, k0, k1);
  const double u1 =
      (double(((unsigned long long)b.v[0] << 32 | b.v[1]) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
  const double u2 = double(((unsigned long long)b.v[2] << 32 | b.v[3]) >> 11) * (1.0 / 9007199254740992.0);
  out[i] = sqrt(-2.0 * log(u1)) * cospi(2.0 * u2);
}

// The prelude's own element function (nf_random, as a generated kernel calls it) in the layout of
// philox32_block_per_thread: does the prelude's counter arithmetic cost anything?
__global__ void prelude_pair_per_thread(double2* out, nf_random_params p, long long pairs) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  out[t] = double2{nf_random<NF_PHILOX4X32, NF_UNIT_DOUBLE, 0>(p, 2 * t),
                   nf_random<NF_PHILOX4X32, NF_UNIT_DOUBLE, 0>(p, 2 * t + 1)};
}
// The same through a 32-bit grid-stride loop over vectors, as the renderer writes it.
__global__ void prelude_grid_stride(double* out, nf_random_params p, unsigned n) {
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x, step = gridDim.x * blockDim.x;
  for (unsigned v = first; v < n / 2; v += step) {
    const unsigned i = v * 2;
    double y[2];
#pragma unroll
    for (int l = 0; l < 2; ++l) y[l] = nf_random<NF_PHILOX4X32, NF_UNIT_DOUBLE, 0>(p, (long long)(i + l));
    *(double2*)(out + i) = double2{y[0], y[1]};
  }
}

template <class F>
float time_ms(F launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  launch();
  std::vector<float> t;
  for (int r = 0; r < 21; ++r) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[10];
}

int main() {
  double* out;
  cudaMalloc(&out, n * sizeof(double));
  const nf_u64x2 key{{0x1234567ull, 0x89abcdefull}};
  const nf_u64x4 ctr{{5, 0, 0, 0}};
  const int bs = 256;
  auto grid = [&](long long threads) { return unsigned((threads + bs - 1) / bs); };
  std::printf("fill (write limit)          %.3f ms\n", time_ms([&] { fill<<<132 * 16, bs>>>(out, n); }));
  std::printf("4x64 block per element      %.3f ms\n",
              time_ms([&] { word_per_element<<<grid(n), bs>>>(out, key, ctr, n); }));
  std::printf("4x64 block per 4 elements   %.3f ms\n",
              time_ms([&] { block_per_thread<<<grid(n / 4), bs>>>(out, key, ctr, n); }));
  std::printf("4x64 block per 2 elements   %.3f ms\n",
              time_ms([&] { pair_per_thread<<<grid(n / 2), bs>>>((double2*)out, key, ctr, n / 2); }));
  std::printf("4x32 block per 2 elements   %.3f ms\n",
              time_ms([&] { philox32_block_per_thread<<<grid(n / 2), bs>>>((double2*)out, 7u, 9u, n / 2); }));
  std::printf("4x32 block per element      %.3f ms\n",
              time_ms([&] { philox32_block_per_element<<<grid(n), bs>>>(out, 7u, 9u, n); }));
  std::printf("4x32 float32 per element    %.3f ms (1 GB; fill of 1 GB: %.3f)\n",
              time_ms([&] { philox32_float_per_element<<<grid(n), bs>>>((float*)out, 7u, 9u, n); }),
              time_ms([&] { fill<<<132 * 16, bs>>>(out, n / 2); }));
  std::printf("4x32 Box-Muller per element %.3f ms\n",
              time_ms([&] { philox32_normal_per_element<<<grid(n), bs>>>(out, 7u, 9u, n); }));
  const nf_random_params rp{{0x1234567ull, 0}, {5, 0, 0, 0}, 0, 0, 0, 0};
  std::printf("prelude, block per 2 elements %.3f ms\n",
              time_ms([&] { prelude_pair_per_thread<<<grid(n / 2), bs>>>((double2*)out, rp, n / 2); }));
  std::printf("prelude, grid-stride vectors  %.3f ms\n",
              time_ms([&] { prelude_grid_stride<<<grid(n / 2), bs>>>(out, rp, unsigned(n)); }));
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
