#include "backend/cuda/runtime/cuda_api.hpp"

#include <array>
#include <atomic>
#include <mutex>

#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

struct thread_state {
  int device = 0;
  int bound = -1;  // the device whose primary context this thread has made current
  std::array<cudaStream_t, max_devices> streams{};  // nullptr: the legacy default stream
};
thread_local thread_state this_thread;

void check_device_id(int device) {
  std::string why;
  const int n = probe_device_count(&why);
  if (device < 0 || device >= n || device >= max_devices)
    throw device_error("cuda: device " + std::to_string(device) + " does not exist (" + std::to_string(n) +
                       " device(s) present" + (n == 0 ? ": " + why : "") + ")");
}

template <class F>
void resolve(const char* symbol, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  // 12000: the ABI these signatures have had since CUDA 12.0, whatever newer driver is installed.
  cudaError_t status = cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableLegacyStream, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || p == nullptr) {
    cudaGetLastError();
    throw device_error(std::string("cuda: the driver does not provide ") + symbol + " (" +
                       cudaGetErrorName(status) + ", query result " +
                       std::to_string(static_cast<int>(found)) +
                       "); the NVIDIA driver may be older than CUDA 12");
  }
  fn = reinterpret_cast<F>(p);
}

// A sticky error (a kernel's illegal address, a trap, an assert) leaves the device's context unusable
// for the rest of the process: every later call on it fails, most with the same code, some with
// unrelated-looking ones (a cuBLAS "execution failed", a launch "not initialized"). The first one is
// kept per device, and every later failure on that device, and every launch there, reports it.
struct sticky_errors {
  std::atomic<bool> any{false};
  std::mutex mutex;
  std::array<std::string, max_devices> first;
};
sticky_errors& sticky() {
  static sticky_errors* s = new sticky_errors;  // never destroyed: read by buffers freed at exit
  return *s;
}

int device_now() {
  int d = 0;
  if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= max_devices) d = 0;
  return d;
}

bool is_sticky(cudaError_t s) {
  switch (s) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

bool is_sticky(CUresult s) {
  switch (s) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
      return true;
    default:
      return false;
  }
}

// Records `message` as the device's sticky error (unless one is already kept) and throws it.
[[noreturn]] void throw_sticky(const std::string& message) {
  const int d = device_now();
  sticky_errors& s = sticky();
  {
    std::lock_guard lock(s.mutex);
    if (s.first[d].empty())
      s.first[d] = message + ". The error is sticky: device " + std::to_string(d) +
                   "'s CUDA context cannot be used again in this process, and every later call on it "
                   "fails; restart the process (compute-sanitizer --tool memcheck names the faulting "
                   "kernel)";
    s.any.store(true, std::memory_order_release);
  }
  throw_if_unusable();
  throw device_error(message);  // not reached: the record above is there
}

}  // namespace

void throw_if_unusable() {
  sticky_errors& s = sticky();
  if (!s.any.load(std::memory_order_acquire)) return;
  const int d = device_now();
  std::lock_guard lock(s.mutex);
  if (!s.first[d].empty()) throw device_error(s.first[d]);
}

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so later calls do not report it again
  std::string message = std::string("CUDA error in ") + call + ": " + cudaGetErrorName(status) + " (" +
                        cudaGetErrorString(status) + ")";
  if (is_sticky(status)) throw_sticky(message);
  throw_if_unusable();
  if (status == cudaErrorMemoryAllocation) throw out_of_memory(message);
  throw device_error(message);
}

void check(CUresult status, const char* call) {
  if (status == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  const driver_api& d = driver();
  if (d.get_error_name) d.get_error_name(status, &name);
  if (d.get_error_string) d.get_error_string(status, &text);
  std::string message = std::string("CUDA driver error in ") + call + ": " +
                        (name ? name : "CUresult " + std::to_string(static_cast<int>(status))) + " (" +
                        (text ? text : "no description") + ")";
  if (is_sticky(status)) throw_sticky(message);
  throw_if_unusable();
  if (status == CUDA_ERROR_OUT_OF_MEMORY) throw out_of_memory(message);
  throw device_error(message);
}

const driver_api& driver() {
  static const driver_api api = [] {
    driver_api a;
    resolve("cuGetErrorName", a.get_error_name);
    resolve("cuGetErrorString", a.get_error_string);
    resolve("cuModuleLoadData", a.module_load_data);
    resolve("cuModuleUnload", a.module_unload);
    resolve("cuModuleGetFunction", a.module_get_function);
    resolve("cuLaunchKernel", a.launch_kernel);
    resolve("cuOccupancyMaxActiveBlocksPerMultiprocessor", a.occupancy_max_blocks);
    resolve("cuFuncGetAttribute", a.func_get_attribute);
    resolve("cuFuncSetAttribute", a.func_set_attribute);
    return a;
  }();
  return api;
}

int probe_device_count(std::string* why) {
  // Probed once: without a driver every probe would retry loading libcuda.
  static const std::pair<int, std::string> probed = [] {
    int n = 0;
    cudaError_t status = cudaGetDeviceCount(&n);
    if (status != cudaSuccess) {
      cudaGetLastError();
      return std::pair<int, std::string>(
          0, std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status));
    }
    return std::pair<int, std::string>(n, n > 0 ? "" : "no CUDA device is present");
  }();
  if (why) *why = probed.second;
  return probed.first;
}

const device_info& info(int device) {
  static std::array<std::once_flag, max_devices> once;
  static std::array<device_info, max_devices> infos;
  if (device < 0 || device >= max_devices) check_device_id(device);  // throws
  std::call_once(once[device], [device] {
    check_device_id(device);  // once: launches ask for info() every time
    device_info& d = infos[device];
    d.id = device;
    check(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute");
    check(cudaDeviceGetAttribute(&d.major, cudaDevAttrComputeCapabilityMajor, device),
          "cudaDeviceGetAttribute");
    check(cudaDeviceGetAttribute(&d.minor, cudaDevAttrComputeCapabilityMinor, device),
          "cudaDeviceGetAttribute");
    check(cudaDeviceGetAttribute(&d.max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device),
          "cudaDeviceGetAttribute");
    int shared_sm = 0, shared_block = 0;
    check(cudaDeviceGetAttribute(&shared_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
          "cudaDeviceGetAttribute");
    check(cudaDeviceGetAttribute(&shared_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
          "cudaDeviceGetAttribute");
    d.shared_per_sm = static_cast<std::size_t>(shared_sm);
    d.shared_per_block = static_cast<std::size_t>(shared_block);
    d.arch = "sm_" + std::to_string(d.major) + std::to_string(d.minor);
  });
  return infos[device];
}

int current_device() {
  thread_state& t = this_thread;
  if (t.bound != t.device) {
    check_device_id(t.device);
    check(cudaSetDevice(t.device), "cudaSetDevice");
    t.bound = t.device;
  }
  return t.device;
}

cudaStream_t current_stream() {
  return this_thread.streams[current_device()];
}

void set_current_device(int device) {
  check_device_id(device);
  this_thread.device = device;
  current_device();
}

void set_current_stream(int device, cudaStream_t s) {
  check_device_id(device);
  this_thread.streams[device] = s;
}

cudaStream_t stream_of(int device) {
  check_device_id(device);
  return this_thread.streams[device];
}

device_guard::device_guard(int device) : previous_(current_device()) {
  if (device != previous_) set_current_device(device);
}

device_guard::~device_guard() {
  if (this_thread.device != previous_) {
    this_thread.device = previous_;
    // A failure here would mean the previous device vanished; a destructor cannot report it.
    if (cudaSetDevice(previous_) == cudaSuccess)
      this_thread.bound = previous_;
    else
      cudaGetLastError();
  }
}

}  // namespace ndfuse::backend::cuda
