#include "backend/cuda/runtime/arrival_counters.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"

namespace ndfuse::backend::cuda {

namespace {

struct counters {
  unsigned* data = nullptr;
  std::size_t capacity = 0;
};

std::mutex counters_mutex;
std::map<std::pair<int, cudaStream_t>, counters> by_stream;

// A reduction's grid has fewer columns than a device's resident blocks whenever blocks share outputs
// (jit::reduce_dims), so this covers any current GPU at the first allocation.
constexpr std::size_t min_capacity = 4096;

}  // namespace

unsigned* arrival_counters(std::size_t count) {
  const int device = current_device();
  const cudaStream_t s = current_stream();
  std::lock_guard lock(counters_mutex);
  counters& c = by_stream[{device, s}];
  if (c.capacity < count) {
    const std::size_t capacity = std::max(count, min_capacity);
    // Stream-ordered: kernels queued before still use the old buffer until the free's turn.
    auto* fresh = static_cast<unsigned*>(device_allocate(capacity * sizeof(unsigned)));
    check(cudaMemsetAsync(fresh, 0, capacity * sizeof(unsigned), s), "cudaMemsetAsync");
    if (c.data) device_free(c.data);
    c = {fresh, capacity};
  }
  return c.data;
}

void forget_arrival_counters(int device, cudaStream_t s) {
  unsigned* data = nullptr;
  {
    std::lock_guard lock(counters_mutex);
    auto it = by_stream.find({device, s});
    if (it == by_stream.end()) return;
    data = it->second.data;
    by_stream.erase(it);
  }
  // The stream's work has finished, so freeing on whichever stream is current is safe; device_free
  // also drops the buffer from the owners map that device_allocate filled.
  device_guard on(device);
  device_free(data);
}

}  // namespace ndfuse::backend::cuda
