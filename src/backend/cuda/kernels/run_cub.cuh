// CUB's two-phase calls (library.cu, float_sort.cu): nvcc-only.
#pragma once
#include <algorithm>
#include <cstddef>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"

namespace ndfuse::backend::cuda {

// Runs a CUB device algorithm the two-phase way: ask for the temporary storage, then run. At least
// one byte is allocated, since a null temporary pointer would make the second call a size query.
template <class F>
inline void run_cub(const char* name, F&& algorithm) {
  std::size_t bytes = 0;
  check(algorithm(nullptr, bytes), name);
  scratch temp(std::max<std::size_t>(bytes, 1));
  check(algorithm(temp.get(), bytes), name);
}

}  // namespace ndfuse::backend::cuda
