// Backend selection: NDFUSE_BACKEND=cpu|cuda, else cuda when built with CUDA and a device is
// present, else cpu. Asking for cuda where there is none throws rather than quietly measuring the CPU.
// Builds without CUDA also get the nf::cuda device API here, as stubs reporting no device.
#include <string>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "backend/cuda/cuda_backend.hpp"
#endif

namespace ndfuse::backend {

namespace {

std::unique_ptr<device_backend> choose() {
  const std::string want = support::env::raw(support::env::var::backend).value_or("");
  if (!want.empty() && want != "cpu" && want != "cuda")
    throw device_error("NDFUSE_BACKEND=" + want + " is not a backend (cpu or cuda)");
  if (want == "cpu") return cpu::make_backend();
#if defined(NDFUSE_WITH_CUDA)
  std::string why;
  if (cuda::probe_device_count(&why) > 0) return cuda::make_backend();
  if (want == "cuda") throw device_error("NDFUSE_BACKEND=cuda, but no CUDA device is usable: " + why);
#else
  if (want == "cuda") throw device_error("NDFUSE_BACKEND=cuda, but ndfuse was built without CUDA");
#endif
  return cpu::make_backend();
}

}  // namespace

device_backend& current() {
  // A throw leaves the static unset, so the next call reports the same error again.
  static const std::unique_ptr<device_backend> chosen = choose();
  return *chosen;
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
stream_scope::stream_scope(const stream&) : previous_(nullptr), device_(0) {
  no_cuda("stream_scope");
}
stream_scope::~stream_scope() = default;

}  // namespace ndfuse::cuda
#endif
