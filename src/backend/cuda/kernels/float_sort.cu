// The values of one float32 or float64 row, sorted by CUB's radix sort reading the input and
// writing the output directly: no pass mapping floats to keys before the sort or back after it.
#include "backend/cuda/kernels/float_sort.hpp"

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <string>

#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/run_cub.cuh"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

// CUB's own float keys (it flips the bits as each pass reads them) order the values as library.cu's
// value_key does, except two ways: -0.0 and 0.0 are equal (kept in input order, where value_key puts
// -0.0 first; NumPy leaves that order open), and NaNs with the sign bit set come first. Reading the input
// directly, CUB writes the sorted values to `out` with no key pass before or after (on an H100, 2 x 280 us of
// a 3 ms sort of 1e8 float32). Two small kernels then move any leading NaNs to the end, their sign cleared as
// value_key's order has them; without such NaNs the search finds out[0] is not one and the other two return
// at once.
template <class F>
__device__ bool negative_nan(F v) {
  return v != v && signbit(v);
}

// The length of the run of negative NaNs at the start of a sorted row: a 1024-way search by one
// block, each round narrowing [lo, hi) to one of 1024 slices (three rounds for 1e9 elements).
template <class F>
__global__ void leading_nan_count(const F* sorted, int64_t n, int64_t* count) {
  __shared__ int64_t lo, hi;
  if (!negative_nan(sorted[0])) {
    if (threadIdx.x == 0) *count = 0;
    return;
  }
  if (threadIdx.x == 0) lo = 1, hi = n;  // sorted[lo - 1] is a negative NaN; sorted[hi] is not (or hi == n)
  __syncthreads();
  while (hi - lo > 0) {
    const int64_t l = lo, h = hi, step = (h - l + blockDim.x - 1) / blockDim.x;
    const int64_t at = l + step * threadIdx.x;  // slice threadIdx.x: [at, at + step)
    __syncthreads();
    // The slice whose first element is a negative NaN and whose next slice starts past the run.
    if (at < h && negative_nan(sorted[at]) && (at + step >= h || !negative_nan(sorted[at + step]))) {
      lo = at + 1;
      hi = at + step < h ? at + step : h;
    }
    if (threadIdx.x == 0 && !negative_nan(sorted[l])) hi = l;  // the run ends before the range
    __syncthreads();
  }
  if (threadIdx.x == 0) *count = lo;
}

// out rotated left by *count into spare, the moved NaNs' sign cleared; nothing when *count is 0.
template <class F>
__global__ void nans_to_end(const F* out, F* spare, int64_t n, const int64_t* count) {
  const int64_t k = *count;
  if (k == 0) return;
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    const F v = out[(i + k) % n];
    spare[i] = i >= n - k ? F(fabs(v)) : v;
  }
}

template <class F>
__global__ void copy_back(const F* spare, F* out, int64_t n, const int64_t* count) {
  if (*count == 0) return;
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = spare[i];
}

template <class F>
void sort_floats(const void* in, void* out, int64_t n) {
  const auto* values = static_cast<const F*>(in);
  auto* sorted = static_cast<F*>(out);
  run_cub("cub::DeviceRadixSort::SortKeys", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, bytes, values, sorted, n, 0, int(8 * sizeof(F)),
                                          current_stream());
  });
  scratch count(sizeof(int64_t)), spare(sizeof(F) * n);
  leading_nan_count<F><<<1, 1024, 0, current_stream()>>>(sorted, n, count.get<int64_t>());
  check(cudaGetLastError(), "leading_nan_count");
  // At most 1024 blocks (their grid-stride loops cover n): 8192 blocks that read the count and
  // return took 7.7 us a kernel on an H100.
  const int64_t grid_items = std::min<int64_t>(n, int64_t{1024} * block_size);
  launch("nans_to_end", grid_items, nans_to_end<F>, sorted, spare.get<F>(), n, count.get<int64_t>());
  launch("copy_back", grid_items, copy_back<F>, spare.get<F>(), sorted, n, count.get<int64_t>());
}

}  // namespace

void sort_float_row(dtype dt, const void* in, void* out, std::int64_t n) {
  if (n == 0) return;
  if (dt == dtype::float32) return sort_floats<float>(in, out, n);
  if (dt == dtype::float64) return sort_floats<double>(in, out, n);
  throw error("sort_float_row: no float sort for " + std::string(dtype_name(dt)));
}

}  // namespace ndfuse::backend::cuda
