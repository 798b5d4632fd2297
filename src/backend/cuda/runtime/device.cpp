// The public device and stream API (include/ndfuse/device.hpp) over the per-thread state in
// cuda_api.cpp. Builds without CUDA get the stubs in src/backend/select.cpp instead.
#include "ndfuse/device.hpp"

#include <utility>

#include "backend/cuda/runtime/arrival_counters.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "ir/placement.hpp"

namespace ndfuse::cuda {

namespace cu = backend::cuda;

int device_count() {
  return cu::probe_device_count();
}
int get_device() {
  return cu::current_device();
}
void set_device(int id) {
  cu::set_current_device(id);
  ir::set_thread_placement(ir::placement::of(ndfuse::device::cuda(id)));
}

void synchronize() {
  cu::current_device();
  cu::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

memory_info mem_info() {
  cu::current_device();
  memory_info m;
  cu::check(cudaMemGetInfo(&m.free_bytes, &m.total_bytes), "cudaMemGetInfo");
  return m;
}

void free_cached_memory() {
  cu::release_cached_memory(cu::current_device());
}

device::device(int id) : previous_(cu::current_device()) {
  cu::set_current_device(id);
  previous_place_ = ir::set_thread_placement(ir::placement::of(ndfuse::device::cuda(id))).bits();
}
device::~device() {
  ir::set_thread_placement(ir::placement::from_bits(previous_place_));
  try {
    cu::set_current_device(previous_);
  } catch (...) {
    // The previous device existed when the guard was made; nothing sensible to do in a destructor.
  }
}

stream::stream() : device_(cu::current_device()), owned_(true) {
  cudaStream_t s = nullptr;
  cu::check(cudaStreamCreateWithFlags(&s, cudaStreamDefault), "cudaStreamCreateWithFlags");
  handle_ = s;
}

stream::~stream() {
  if (!owned_ || !handle_) return;
  // Freed buffers and kernels may still be queued on it: finish them before the handle dies.
  try {
    cu::device_guard on(device_);
    cudaStreamSynchronize(static_cast<cudaStream_t>(handle_));
    cu::forget_arrival_counters(device_, static_cast<cudaStream_t>(handle_));
    cu::release_kept_blocks(device_, static_cast<cudaStream_t>(handle_));
    cudaStreamDestroy(static_cast<cudaStream_t>(handle_));
    cudaGetLastError();
  } catch (...) {
    // Only device_guard throws, when the device vanished; the stream went with it.
  }
}

stream::stream(stream&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      device_(other.device_),
      owned_(std::exchange(other.owned_, false)) {}

stream& stream::operator=(stream&& other) noexcept {
  if (this != &other) {
    stream dying(std::move(*this));
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = other.device_;
    owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

stream stream::null() {
  return stream(nullptr, cu::current_device(), false);
}

void stream::synchronize() const {
  cu::device_guard on(device_);
  cu::check(cudaStreamSynchronize(static_cast<cudaStream_t>(handle_)), "cudaStreamSynchronize");
}

stream_scope::stream_scope(const stream& s) : device_(s.device_id()) {
  previous_ = cu::stream_of(device_);
  cu::set_current_stream(device_, static_cast<cudaStream_t>(s.handle()));
}

stream_scope::~stream_scope() {
  try {
    cu::set_current_stream(device_, static_cast<cudaStream_t>(previous_));
  } catch (...) {
  }
}

}  // namespace ndfuse::cuda
