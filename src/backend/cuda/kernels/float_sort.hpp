// The values of one float32 or float64 row sorted in NumPy's order by CUB's own float keys
// (float_sort.cu); library.cu's sort dispatches there. No CUDA headers here.
#pragma once
#include <cstdint>

#include "ndfuse/dtype.hpp"

namespace ndfuse::backend::cuda {

// Writes the n values at `in` (dt float32 or float64), sorted, to `out`; enqueued on the current
// stream, waits for nothing.
void sort_float_row(dtype dt, const void* in, void* out, std::int64_t n);

}  // namespace ndfuse::backend::cuda
