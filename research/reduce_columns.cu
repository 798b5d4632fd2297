// Experiment (not part of the build): which thread mapping brings the column sum
// (sum over axis 0 of a 16384 x 16384 float32 array, 1 GiB) to the read limit. In the 634c400 report
// ndfuse took 391 us against torch.compile's 365 and a read limit of 356 (half a 1 GiB copy).
// ndfuse's outer fold (reduce_dims): a warp spans 32 neighbouring columns, a block 32 columns x 8
// row lanes, each lane one 4-byte load per row, eight loads in flight; 512 column blocks, and
// gridDim.y = 3 blocks split each column (partials, the last block to arrive folds them), so
// 1536 blocks where 1056 (8 per SM) are resident at once.
// Variants: V neighbouring columns per lane (one 4-, 8- or 16-byte load per row), RL row lanes per
// block, F loads in flight, and gridDim.y. The fold order is the driver's: lane (x, y) takes rows
// y, y + stride, ...; the block folds its row lanes in a fixed tree; partials in block order.
// Session 24, H100 80GB HBM3 (read limit 0.361-0.362 ms, medians of 21):
//   - ndfuse's kernel (ab7a917): grid_y 3 (its grid) 0.387-0.389, 1 0.365-0.366, 2, 4 and 8 0.375-0.377;
//   - hand-written, 1 column per lane: as the generated one; 2 or 4 columns per lane (one 8- or
//     16-byte load per row): 0.359-0.366 at 512-2048 blocks, 4 or 8 loads in flight alike;
//   - ndfuse with output units (4 columns per lane), first rendered with __launch_bounds__(256, 8)
//     (32 registers) / without the cap: grid_y 4 0.356 / 0.356, 8 0.358 / 0.361, 16 0.359 / 0.358;
//     element loads (same order) 0.370 / 0.378. var's second pass (x and the mean, two inputs)
//     spilled under the cap: 0.44-0.47 ms, against 0.357 without it. So the plan takes output units,
//     uncapped, split into half a wave; generated/ keeps only that rendering (64f11d2).
//     bench_cuda_reduce then: sum_axis0/float32_16384x16384 0.391 -> 0.362 ms (torch.compile 0.365,
//     CuPy 0.486), sum_axis0/float32_67108864x4 0.378 -> 0.362.
//   nvcc -O3 -std=c++17 --fmad=false -arch=sm_90 -Ijit/prelude -Iresearch/generated \
//     research/reduce_columns.cu -o reduce_columns && ./reduce_columns
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gen_cols.cuh"        // k_fd858006290f5dca: ndfuse's sum over axis 0 of float32 (ab7a917)
#include "gen_cols_units.cuh"  // k_d9365577c51c5ff1: the same with 4 columns per lane (64f11d2)
#include "gen_var_units.cuh"   // k_3bcb5eb8ebfa762d: var's sum of squared deviations, likewise
#include "reduce_common.cuh"

constexpr unsigned rows = 16384, cols = 16384;

template <int V>
struct vec_of;
template <>
struct vec_of<1> {
  using type = float;
};
template <>
struct vec_of<2> {
  using type = float2;
};
template <>
struct vec_of<4> {
  using type = float4;
};

template <int V>
__device__ __forceinline__ void load_columns(const float* p, float (&x)[V]) {
  const auto v = __ldg(reinterpret_cast<const typename vec_of<V>::type*>(p));
  const float* f = reinterpret_cast<const float*>(&v);
#pragma unroll
  for (int k = 0; k < V; ++k) x[k] = f[k];
}

// The block's RL row lanes of each column folded into row 0 of sh, in a fixed tree.
template <int V, int RL>
__device__ __forceinline__ void fold_row_lanes(float (&sh)[RL][32 * V], unsigned tx, unsigned ty) {
  __syncthreads();
  for (unsigned s = RL / 2; s > 0; s >>= 1) {
    if (ty < s)
#pragma unroll
      for (int k = 0; k < V; ++k) sh[ty][tx * V + k] += sh[ty + s][tx * V + k];
    __syncthreads();
  }
}

// V columns per lane, a block of 32 x RL lanes, F loads in flight.
template <int V, int RL, int F>
__global__ void __launch_bounds__(32 * RL) column_sum(const float* __restrict__ in, float* __restrict__ out,
                                                      float* __restrict__ partials, unsigned* arrivals) {
  __shared__ float sh[RL][32 * V];
  __shared__ bool last;
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned c = (blockIdx.x * 32 + tx) * V;
  const unsigned stride = gridDim.y * RL;
  float acc[V];
#pragma unroll
  for (int k = 0; k < V; ++k) acc[k] = 0.f;
  unsigned r = blockIdx.y * RL + ty;
  for (; r + (F - 1) * stride < rows; r += F * stride) {
    float x[F][V];
#pragma unroll
    for (int f = 0; f < F; ++f) load_columns<V>(in + (size_t)(r + f * stride) * cols + c, x[f]);
#pragma unroll
    for (int f = 0; f < F; ++f)
#pragma unroll
      for (int k = 0; k < V; ++k) acc[k] += x[f][k];
  }
  for (; r < rows; r += stride) {
    float x[V];
    load_columns<V>(in + (size_t)r * cols + c, x);
#pragma unroll
    for (int k = 0; k < V; ++k) acc[k] += x[k];
  }
#pragma unroll
  for (int k = 0; k < V; ++k) sh[ty][tx * V + k] = acc[k];
  fold_row_lanes<V, RL>(sh, tx, ty);
  if (gridDim.y == 1) {
    if (ty == 0)
#pragma unroll
      for (int k = 0; k < V; ++k) out[c + k] = sh[0][tx * V + k];
    return;
  }
  if (ty == 0)
#pragma unroll
    for (int k = 0; k < V; ++k) partials[(size_t)blockIdx.y * cols + c + k] = sh[0][tx * V + k];
  __threadfence();
  __syncthreads();
  if (tx == 0 && ty == 0) last = atomicAdd(arrivals + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  // The last block: lane (tx, ty) folds column tx*V+k's partials ty, ty + RL, ... then the tree.
#pragma unroll
  for (int k = 0; k < V; ++k) {
    float a = 0.f;
    for (unsigned y = ty; y < gridDim.y; y += RL) a += __ldcg(partials + (size_t)y * cols + c + k);
    sh[ty][tx * V + k] = a;
  }
  fold_row_lanes<V, RL>(sh, tx, ty);
  if (ty == 0)
#pragma unroll
    for (int k = 0; k < V; ++k) out[c + k] = sh[0][tx * V + k];
  if (tx == 0 && ty == 0) arrivals[blockIdx.x] = 0;
}

struct buffers {
  float *in, *out, *partials;
  unsigned* arrivals;
  std::vector<float> want;
};

bool check(const buffers& b, const char* what) {
  std::vector<float> got(cols);
  CHECK(cudaMemcpy(got.data(), b.out, cols * 4, cudaMemcpyDeviceToHost));
  for (unsigned j = 0; j < cols; ++j)
    if (got[j] != b.want[j]) {
      std::printf("%s: WRONG at column %u: %g, want %g\n", what, j, got[j], b.want[j]);
      return false;
    }
  return true;
}

int failures = 0;
void line(const buffers& b, const char* what, unsigned blocks, float ms, float limit) {
  if (!check(b, what)) ++failures;
  std::printf("%-44s %6u blocks  %.4f ms  %.3f x the read limit\n", what, blocks, ms, ms / limit);
}

template <int V, int RL, int F>
void run(buffers& b, unsigned grid_y, float limit) {
  CHECK(cudaMemset(b.out, 0xff, cols * 4));
  const dim3 grid(cols / (32 * V), grid_y), block(32, RL);
  const float ms =
      median_ms([&] { column_sum<V, RL, F><<<grid, block>>>(b.in, b.out, b.partials, b.arrivals); }, 21);
  CHECK(cudaGetLastError());
  char what[96];
  std::snprintf(what, sizeof what, "V=%d RL=%d F=%d grid_y=%u", V, RL, F, grid_y);
  line(b, what, grid.x * grid.y, ms, limit);
}

int main() {
  buffers b;
  const size_t n = size_t(rows) * cols;
  CHECK(cudaMalloc(&b.in, n * 4));
  CHECK(cudaMalloc(&b.out, cols * 4));
  CHECK(cudaMalloc(&b.partials, size_t(64) * cols * 4));  // rows 32.. also take var outputs not compared
  CHECK(cudaMalloc(&b.arrivals, 4096 * 4));
  CHECK(cudaMemset(b.arrivals, 0, 4096 * 4));
  // Quarters of small integers: every partial sum is exact in float32, so any order gives the same bits.
  std::vector<float> h(n);
  b.want.assign(cols, 0.f);
  for (unsigned i = 0; i < rows; ++i)
    for (unsigned j = 0; j < cols; ++j) {
      const float v = float((i * 7u + j * 13u) % 17u) * 0.25f;
      h[size_t(i) * cols + j] = v;
      b.want[j] += v;
    }
  CHECK(cudaMemcpy(b.in, h.data(), n * 4, cudaMemcpyHostToDevice));
  float* copy;
  CHECK(cudaMalloc(&copy, n * 4));
  const float copy_ms =
      median_ms([&] { CHECK(cudaMemcpyAsync(copy, b.in, n * 4, cudaMemcpyDeviceToDevice)); }, 21);
  const float limit = copy_ms / 2;
  std::printf("copy of 1 GiB %.4f ms; read limit (half) %.4f ms\n", copy_ms, limit);
  CHECK(cudaFree(copy));

  // ndfuse's kernel as rendered, at its grid (512 x 3) and others.
  for (unsigned gy : {3u, 1u, 2u, 4u, 6u, 8u}) {
    CHECK(cudaMemset(b.out, 0xff, cols * 4));
    nf_reduce_args a{cols, rows, b.partials, b.arrivals, 0, 0, 0};
    nf_dims<2, unsigned> shape{{cols, rows}};
    nf_dims<2, int> strides{{1, int(cols)}};
    const float ms = median_ms(
        [&] {
          k_fd858006290f5dca<<<dim3(cols / 32, gy), dim3(32, 8)>>>(rows * cols, shape, a, b.out, b.in,
                                                                   strides, 0.f);
        },
        21);
    CHECK(cudaGetLastError());
    char what[64];
    std::snprintf(what, sizeof what, "generated, grid_y=%u", gy);
    line(b, what, cols / 32 * gy, ms, limit);
  }
  // ndfuse's kernels with output units, as rendered now (no register cap): 128 blocks of 32 lanes x
  // 4 columns, grid_y 4 (reduce_dims: half a wave of 1056), 8 and 16; wide and element loads.
  float* mean;
  float* var_out[2];  // grid_y 4's outputs, wide and element loads: one fold order
  CHECK(cudaMalloc(&mean, cols * 4));
  for (auto& v : var_out) CHECK(cudaMalloc(&v, cols * 4));
  {
    std::vector<float> m(cols);
    for (unsigned j = 0; j < cols; ++j) m[j] = b.want[j] / rows;
    CHECK(cudaMemcpy(mean, m.data(), cols * 4, cudaMemcpyHostToDevice));
  }
  nf_dims<2, unsigned> shape{{cols, rows}};
  nf_dims<2, int> strides{{1, int(cols)}}, mean_strides{{1, 0}};
  for (int round = 0; round < 2; ++round)
    for (unsigned gy : {4u, 8u, 16u})
      for (unsigned wide : {1u, 0u}) {
        if (wide == 0 && gy != 4) continue;
        nf_reduce_args a{cols, rows, b.partials, b.arrivals, wide, 0, 0};
        CHECK(cudaMemset(b.out, 0xff, cols * 4));
        const dim3 grid(cols / 128, gy), block(32, 8);
        const float ms = median_ms(
            [&] { k_d9365577c51c5ff1<<<grid, block>>>(rows * cols, shape, a, b.out, b.in, strides, 0.f); },
            21);
        CHECK(cudaGetLastError());
        char what[80];
        std::snprintf(what, sizeof what, "units sum grid_y=%u%s", gy, wide ? "" : " element loads");
        line(b, what, grid.x * gy, ms, limit);
        float* vo = gy == 4 ? var_out[wide ? 0 : 1] : b.partials + size_t(32) * cols;
        const float vms = median_ms(
            [&] {
              k_3bcb5eb8ebfa762d<<<grid, block>>>(rows * cols, shape, a, vo, b.in, strides, mean,
                                                  mean_strides, float(rows), 0.f);
            },
            21);
        CHECK(cudaGetLastError());
        std::printf("%-44s %6u blocks  %.4f ms  %.3f x the read limit\n",
                    (std::string(what) + ", var's pass").c_str(), grid.x * gy, vms, vms / limit);
      }
  {
    // The variance kernel's outputs agree bit for bit between wide and element loads (one fold
    // order), and with a float64 reference to float32 rounding.
    std::vector<float> v[2];
    for (int i = 0; i < 2; ++i) {
      v[i].resize(cols);
      CHECK(cudaMemcpy(v[i].data(), var_out[i], cols * 4, cudaMemcpyDeviceToHost));
    }
    double worst = 0;
    int differ = 0;
    for (unsigned j = 0; j < cols; ++j) {
      double mu = 0, ss = 0;
      for (unsigned i = 0; i < rows; ++i) mu += h[size_t(i) * cols + j];
      mu /= rows;
      for (unsigned i = 0; i < rows; ++i)
        ss += (h[size_t(i) * cols + j] - mu) * (h[size_t(i) * cols + j] - mu);
      worst = std::max(worst, std::abs(v[0][j] - ss / rows) / (ss / rows));
      differ += std::memcmp(&v[0][j], &v[1][j], 4) != 0;
    }
    std::printf(
        "var pass: %d columns differ between wide and element loads; worst relative error "
        "against float64 %.3g%s\n",
        differ, worst, worst < 1e-5 ? "" : " (TOO LARGE)");
    failures += differ != 0 || worst >= 1e-5;
  }
  for (int round = 0; round < 2; ++round) {
    std::printf("-- round %d\n", round);
    run<1, 8, 8>(b, 3, limit);
    run<1, 8, 8>(b, 2, limit);
    run<1, 8, 8>(b, 4, limit);
    run<1, 8, 8>(b, 8, limit);
    run<1, 8, 16>(b, 2, limit);
    run<1, 16, 8>(b, 2, limit);
    run<2, 8, 8>(b, 4, limit);
    run<2, 8, 8>(b, 6, limit);
    run<2, 8, 8>(b, 8, limit);
    run<2, 8, 4>(b, 8, limit);
    run<4, 8, 4>(b, 8, limit);
    run<4, 8, 4>(b, 12, limit);
    run<4, 8, 4>(b, 16, limit);
    run<4, 8, 8>(b, 8, limit);
    run<4, 8, 8>(b, 16, limit);
    run<4, 4, 8>(b, 16, limit);
    run<4, 4, 8>(b, 32, limit);
    run<4, 16, 4>(b, 8, limit);
    run<4, 16, 4>(b, 4, limit);
  }
  std::printf(failures ? "%d variants WRONG\n" : "all variants exact\n", failures);
  return failures != 0;
}
