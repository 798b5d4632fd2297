// What the CUDA backend needs from CUDA itself: checked calls, the driver functions it uses, and
// this thread's current device and stream.
//
// The library links only the runtime (cudart) and NVRTC, never libcuda: the runtime opens the
// driver lazily and reports "no driver" as an error code, so a CUDA build starts and runs on the
// cpu backend on a machine without a driver. Driver functions (module loading, launches) come
// through cudaGetDriverEntryPointByVersion once a device is known to exist.
#pragma once
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace ndfuse::backend::cuda {

constexpr int max_devices = 64;

// Each throws device_error naming `call`, the error name and its description; out_of_memory for an
// allocation. A sticky error (an illegal address in a kernel, a trap) is kept, and from then on
// every failure on that device, and throw_if_unusable, report it instead of its consequences.
void check(cudaError_t status, const char* call);
void check(CUresult status, const char* call);
// Throws the current device's sticky error, if it has had one: called before work is queued there and
// by the library wrappers (cuBLAS, cuSOLVER, cuFFT) when a call fails.
void throw_if_unusable();

// The driver functions the backend calls, resolved once. Throws device_error when the driver lacks one.
struct driver_api {
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy_max_blocks = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
};
const driver_api& driver();

// Number of usable devices; 0 (never an exception) when the driver or a GPU is missing. `why`
// receives the runtime's reason when it is 0.
int probe_device_count(std::string* why = nullptr);

struct device_info {
  int id = 0;
  int sm_count = 0;
  int major = 0, minor = 0;
  int max_threads_per_sm = 0;
  std::size_t shared_per_sm = 0;     // bytes of shared memory per SM
  std::size_t shared_per_block = 0;  // the most one block may have (after opting in)
  std::string arch;                  // "sm_90"
};
const device_info& info(int device);

// This thread's current device, with its primary context bound to the thread (driver calls need
// that, and a new host thread has none until it first touches the runtime).
int current_device();
cudaStream_t current_stream();  // of the current device; nullptr is the legacy default stream
void set_current_device(int device);
void set_current_stream(int device, cudaStream_t s);
cudaStream_t stream_of(int device);

// Makes `device` current for a scope, restoring the previous one; does nothing when already current.
class device_guard {
 public:
  explicit device_guard(int device);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_;
};

}  // namespace ndfuse::backend::cuda
