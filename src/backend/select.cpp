// Devices to backends: the CPU backend for the CPU, the CUDA backend (one for every GPU, each with
// its own state inside) for the GPUs; and the process default device from NDFUSE_DEVICE or
// NDFUSE_BACKEND. Asking for a GPU where there is none throws rather than quietly running on the
// CPU. Builds without CUDA also get the nf::cuda device API here, as stubs reporting no device.
#include <string>
#include <utility>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "backend/cuda/cuda_backend.hpp"
#endif

namespace ndfuse::backend {

void device_backend::copy_peer(void*, int, const void*, int, std::size_t) {
  throw device_error(std::string(name()) + " backend: no copies between GPUs");
}

namespace {

// GPUs usable now, and why there are none.
int gpu_count(std::string* why) {
#if defined(NDFUSE_WITH_CUDA)
  return cuda::probe_device_count(why);
#else
  *why = "ndfuse was built without CUDA";
  return 0;
#endif
}

device choose_default() {
  using support::env::var;
  std::string want = support::env::raw(var::device).value_or("");
  const char* from = "NDFUSE_DEVICE";
  if (want.empty()) {
    want = support::env::raw(var::backend).value_or("");
    from = "NDFUSE_BACKEND";
    if (!want.empty() && want != "cpu" && want != "cuda")
      throw device_error("NDFUSE_BACKEND=" + want + " is not a backend (cpu or cuda)");
  }
  if (want.empty()) {
    std::string why;
    return gpu_count(&why) > 0 ? device::cuda(0) : device::cpu();
  }
  device d;
  try {
    d = device(want);
  } catch (const value_error&) {
    throw device_error(std::string(from) + "=" + want + " is not a device (cpu, cuda or cuda:N)");
  }
  of(d);  // throws where it is not there
  return d;
}

}  // namespace

device default_device() {
  // A throw leaves the static unset, so the next call reports the same error again.
  static const device chosen = choose_default();
  return chosen;
}

device_backend& of(device d) {
  if (d.is_cpu()) {
    static const std::unique_ptr<device_backend> cpu_backend = cpu::make_backend();
    return *cpu_backend;
  }
  // Every evaluation asks: the count and the reason are read once.
  static const auto [n, why] = [] {
    std::string reason;
    const int count = gpu_count(&reason);
    return std::pair<int, std::string>(count, reason);
  }();
  if (d.index() < 0 || d.index() >= n)
    throw device_error("device " + d.str() + " does not exist (" + std::to_string(n) + " GPU(s)" +
                       (n == 0 ? ": " + why : "") + ")");
#if defined(NDFUSE_WITH_CUDA)
  static const std::unique_ptr<device_backend> cuda_backend = cuda::make_backend();
  return *cuda_backend;
#else
  throw device_error("device " + d.str() + ": ndfuse was built without CUDA");
#endif
}

device_backend& current() {
  return of(current_device());
}

}  // namespace ndfuse::backend

#if !defined(NDFUSE_WITH_CUDA)
namespace ndfuse::cuda {

namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw device_error(std::string("nf::cuda::") + what + ": ndfuse was built without CUDA");
}
}  // namespace

int device_count() {
  return 0;
}
int get_device() {
  no_cuda("get_device");
}
void set_device(int) {
  no_cuda("set_device");
}
void synchronize() {
  no_cuda("synchronize");
}
memory_info mem_info() {
  no_cuda("mem_info");
}
void free_cached_memory() {
  no_cuda("free_cached_memory");
}
device::device(int) : previous_(0) {
  no_cuda("device");
}
device::~device() = default;
stream::stream() {
  no_cuda("stream");
}
stream::~stream() = default;
stream::stream(stream&& other) noexcept = default;
stream& stream::operator=(stream&& other) noexcept = default;
stream stream::null() {
  no_cuda("stream::null");
}
void stream::synchronize() const {
  no_cuda("stream::synchronize");
}
stream stream::current() {
  no_cuda("stream::current");
}
stream stream::external(void*, int) {
  no_cuda("stream::external");
}
stream get_current_stream() {
  no_cuda("get_current_stream");
}
event::event(bool, bool) {
  no_cuda("event");
}
event::~event() = default;
event::event(event&&) noexcept = default;
event& event::operator=(event&&) noexcept = default;
void event::record() {
  no_cuda("event::record");
}
void event::record(const stream&) {
  no_cuda("event::record");
}
void event::synchronize() const {
  no_cuda("event::synchronize");
}
bool event::done() const {
  no_cuda("event::done");
}
void event::wait() const {
  no_cuda("event::wait");
}
void event::wait(const stream&) const {
  no_cuda("event::wait");
}
float elapsed_ms(const event&, const event&) {
  no_cuda("elapsed_ms");
}
stream_scope::stream_scope(const stream&) : previous_(nullptr), device_(0) {
  no_cuda("stream_scope");
}
stream_scope::~stream_scope() = default;

}  // namespace ndfuse::cuda
#endif
