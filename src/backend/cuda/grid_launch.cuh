// Grid-stride launches of the library calls' own kernels (library.cu, solver_kernels.cu): nvcc-only.
#pragma once
#include <algorithm>
#include <cstdint>

#include "backend/cuda/cuda_api.hpp"

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

}  // namespace ndfuse::backend::cuda
