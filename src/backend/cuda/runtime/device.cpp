// The public device and stream API (include/ndfuse/device.hpp) over the per-thread state in
// cuda_api.cpp. Builds without CUDA get the stubs in src/backend/select.cpp instead.
#include "ndfuse/device.hpp"

#include <string>
#include <utility>

#include "backend/cuda/runtime/arrival_counters.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "ir/placement.hpp"
#include "ndfuse/error.hpp"

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

stream stream::current() {
  return stream(cu::current_stream(), cu::current_device(), false);
}

stream stream::external(void* handle, int device_id) {
  cu::info(device_id);  // a GPU that is not there throws device_error
  return stream(handle, device_id, false);
}

stream get_current_stream() {
  return stream::current();
}

event::event(bool disable_timing, bool blocking) : device_(cu::current_device()), timing_(!disable_timing) {
  unsigned flags = (disable_timing ? cudaEventDisableTiming : 0u) | (blocking ? cudaEventBlockingSync : 0u);
  cudaEvent_t e = nullptr;
  cu::check(cudaEventCreateWithFlags(&e, flags), "cudaEventCreateWithFlags");
  handle_ = e;
}

event::~event() {
  if (!handle_) return;
  try {
    cu::device_guard on(device_);
    cudaEventDestroy(static_cast<cudaEvent_t>(handle_));  // released once pending work is done
  } catch (...) {
    // Only device_guard throws, when the device vanished; the event went with it.
  }
}

event::event(event&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), device_(other.device_), timing_(other.timing_) {}

event& event::operator=(event&& other) noexcept {
  if (this != &other) {
    event dying(std::move(*this));
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = other.device_;
    timing_ = other.timing_;
  }
  return *this;
}

void event::record() {
  cu::device_guard on(device_);
  cu::check(cudaEventRecord(static_cast<cudaEvent_t>(handle_), cu::stream_of(device_)), "cudaEventRecord");
}

void event::record(const stream& s) {
  if (s.device_id() != device_)
    throw device_error("nf::cuda::event::record: the event is on GPU " + std::to_string(device_) +
                       " and the stream on GPU " + std::to_string(s.device_id()));
  cu::device_guard on(device_);
  cu::check(cudaEventRecord(static_cast<cudaEvent_t>(handle_), static_cast<cudaStream_t>(s.handle())),
            "cudaEventRecord");
}

void event::synchronize() const {
  cu::device_guard on(device_);
  cu::check(cudaEventSynchronize(static_cast<cudaEvent_t>(handle_)), "cudaEventSynchronize");
}

bool event::done() const {
  cu::device_guard on(device_);
  const cudaError_t r = cudaEventQuery(static_cast<cudaEvent_t>(handle_));
  if (r == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  cu::check(r, "cudaEventQuery");
  return true;
}

void event::wait() const {
  cu::device_guard on(device_);
  cu::check(cudaStreamWaitEvent(cu::stream_of(device_), static_cast<cudaEvent_t>(handle_), 0),
            "cudaStreamWaitEvent");
}

void event::wait(const stream& s) const {
  cu::device_guard on(s.device_id());
  cu::check(cudaStreamWaitEvent(static_cast<cudaStream_t>(s.handle()), static_cast<cudaEvent_t>(handle_), 0),
            "cudaStreamWaitEvent");
}

float elapsed_ms(const event& start, const event& end) {
  if (!start.timing_ || !end.timing_)
    throw device_error("nf::cuda::elapsed_ms: an event made with disable_timing cannot be timed");
  cu::device_guard on(end.device_);
  float ms = 0;
  cu::check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle_),
                                 static_cast<cudaEvent_t>(end.handle_)),
            "cudaEventElapsedTime");
  return ms;
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
