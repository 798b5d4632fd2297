// The direct-call reference of bench_cuda_reduce: CUB's DeviceReduce::Sum, the library CuPy's full
// sum runs on (cub_reference.cu, compiled by nvcc; this header is plain C++).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bench_cuda {

// Queues the sum of n doubles at `in` into *out on `stream`. CUB's two phases: with a null `temp`
// it only sets temp_bytes to the temporary storage it needs.
cudaError_t cub_sum(void* temp, std::size_t& temp_bytes, const double* in, double* out, std::int64_t n,
                    cudaStream_t stream);

}  // namespace bench_cuda
