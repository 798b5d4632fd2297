// Grid-stride launches of the library calls' own kernels (library.cu, solver_kernels.cu), and the
// warp-packed ones of the small-matrix solvers (inverses, eigh, svd): nvcc-only.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backend/cuda/runtime/cuda_api.hpp"

namespace ndfuse::backend::cuda {

using std::int64_t;

constexpr int block_size = 256;
// Kernels loop with a grid stride, so a grid this size fills any current GPU and more work loops.
constexpr int64_t max_blocks = 8192;

__device__ inline int64_t thread_index() {
  return blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
}
__device__ inline int64_t thread_count() {
  return int64_t(gridDim.x) * blockDim.x;
}

// Queues a grid-stride kernel over `n` items on the current stream. An empty grid is a launch
// error, so n == 0 launches nothing.
template <class... Params, class... Args>
inline void launch(const char* name, int64_t n, void (*kernel)(Params...), Args... args) {
  if (n <= 0) return;
  const auto blocks = static_cast<unsigned>(std::min((n + block_size - 1) / block_size, max_blocks));
  kernel<<<blocks, block_size, 0, current_stream()>>>(args...);
  check(cudaGetLastError(), name);
}

// How a stack of `count` small matrices (n <= 32) lies on the GPU: each matrix in a segment of `seg`
// lanes (n rounded up to a power of two, a lane an index), `per_warp` matrices a warp side by side,
// `warps` warps a block sharing `shared_bytes` of shared memory, and `blocks` blocks (at most
// max_blocks: the kernels loop over the rest of the stack).
struct warp_packing {
  int seg, per_warp, warps;
  unsigned blocks;
  std::size_t shared_bytes;
};

// A matrix takes matrix_bytes + lane_bytes * seg of shared memory. A warp holds 32 / seg of them, or
// as many as the 48 KiB of a block's default shared memory holds (a tall svd's full U can take 17
// KiB); a block as many warps as 48 KiB holds, from 1 to max_warps. Kernels that take 32 / seg a warp
// without being told (invert_small, jacobi_eigh) rely on that cap never biting for them: their warp of
// n <= 32 matrices takes at most 33 KiB (eigh's one 32 x 32 complex128 matrix and its vectors).
inline warp_packing pack_warps(std::int64_t n, std::int64_t count, std::size_t matrix_bytes,
                               std::size_t lane_bytes, int max_warps) {
  constexpr std::size_t block_shared = 48 * 1024;
  int seg = 1;
  while (seg < n) seg *= 2;
  const std::size_t bytes = matrix_bytes + lane_bytes * std::size_t(seg);
  const int per_warp = int(std::min<std::size_t>(32 / seg, std::max<std::size_t>(block_shared / bytes, 1)));
  const std::size_t warp_bytes = bytes * per_warp;
  const int warps = int(std::clamp<std::size_t>(block_shared / warp_bytes, 1, std::size_t(max_warps)));
  const std::int64_t warps_needed = (count + per_warp - 1) / per_warp;
  const auto blocks = unsigned(std::min<std::int64_t>((warps_needed + warps - 1) / warps, max_blocks));
  return {seg, per_warp, warps, blocks, warp_bytes * warps};
}

// Queues a kernel over a packed stack on the current stream: 32 threads a warp.
template <class... Params, class... Args>
inline void launch_packed(const char* name, const warp_packing& p, void (*kernel)(Params...), Args... args) {
  kernel<<<p.blocks, 32 * p.warps, p.shared_bytes, current_stream()>>>(args...);
  check(cudaGetLastError(), name);
}

}  // namespace ndfuse::backend::cuda
