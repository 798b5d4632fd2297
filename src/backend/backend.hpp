// The backend interface: memory, transfers, running kernel IR, and library calls. The runtime
// drives it; the fuser never sees it.
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "ir/library.hpp"
#include "ir/memory_owner.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse::backend {

// A backend's ready-to-run form of one kernel_ir (CPU: a resolved program; CUDA: a loaded CUfunction).
struct compiled_kernel {
  virtual ~compiled_kernel() = default;
  // Loaded from the on-disk cache rather than compiled: counted as cache_hits_disk, not kernels_compiled.
  bool from_disk_cache = false;
  // The backend compiles at launch, per tuning of the launch's sizes, and counts those compiles
  // itself (the CUDA backend: jit/cuda_tuning.hpp).
  bool compiled_at_launch = false;
};

// The memory of the buffers it runs on is its own (ir::memory_owner: allocate, deallocate).
class device_backend : public ir::memory_owner {
 public:
  virtual ~device_backend() = default;
  virtual std::string_view name() const = 0;

  virtual void copy_from_host(void* dst, const void* src, std::size_t nbytes) = 0;
  virtual void copy_to_host(void* dst, const void* src, std::size_t nbytes) = 0;  // waits

  virtual std::unique_ptr<compiled_kernel> compile(const ir::kernel_ir& k) = 0;
  virtual void launch(const compiled_kernel& k, const ir::kernel_ir& ir, const ir::kernel_args& a) = 0;
  // A library call (ir/library.hpp): `inputs` point at each operand's first element, in C order;
  // `outputs` are fresh buffers, one per output the call names. Enqueued like a launch.
  virtual void run_library(const ir::library_call& c, const std::vector<const void*>& inputs,
                           const std::vector<void*>& outputs) = 0;
  virtual void synchronize() = 0;

  // GPU `index` becomes the one this thread's calls go to; returns the previous (the CPU has one).
  virtual int activate(int index) { return index; }
  // A copy from another GPU's memory, ordered after the work queued on both (the CUDA backend).
  virtual void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes);
};

// The process default device: NDFUSE_DEVICE, else NDFUSE_BACKEND (cpu, or cuda for GPU 0), else
// GPU 0 when one is usable, else the CPU. A device that is not there throws device_error.
device default_device();
// The backend that runs device d's plans, checking that d exists (device_error where not).
device_backend& of(device d);
// The backend of this thread's current device.
device_backend& current();

}  // namespace ndfuse::backend
