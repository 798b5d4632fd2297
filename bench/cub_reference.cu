// CUB's sum for bench_cuda_reduce (see cub_reference.hpp): the same-run reference for ndfuse's
// full reduction, as cufft_direct is for the FFTs.
#include <cub/device/device_reduce.cuh>

#include "cub_reference.hpp"

namespace bench_cuda {

cudaError_t cub_sum(void* temp, std::size_t& temp_bytes, const double* in, double* out, std::int64_t n,
                    cudaStream_t stream) {
  return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
}

}  // namespace bench_cuda
