// Stream-ordered device memory: cudaMallocAsync / cudaFreeAsync on the current stream, from each
// device's default pool with its release threshold raised so freed blocks stay in the pool and
// are reused instead of going back to the driver at every synchronization. In front of the pool, a
// freed block waits on the host for the next allocation of its size on the same stream, which then
// costs neither call (memory.cpp says why).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

namespace ndfuse::backend::cuda {

// On this thread's current device and stream. Throws out_of_memory with the sizes involved.
void* device_allocate(std::size_t nbytes);
// On the device that owns `p`, ordered after the work queued so far on this thread's current
// stream of that device (the stream that last used the buffer, unless streams were mixed).
void device_free(void* p);
// Gives the blocks kept for `stream` of `device` back to the pool: before the stream is destroyed.
void release_kept_blocks(int device, cudaStream_t stream);
// Gives every kept block of `device` back to the pool, waits for the device, and trims the pool:
// what ndfuse holds for reuse goes back to the driver.
void release_cached_memory(int device);

// Stream-ordered scratch memory for library calls, freed (after the work queued so far on the
// current stream) when it goes out of scope.
class scratch {
 public:
  explicit scratch(std::size_t nbytes) : p_(nbytes ? device_allocate(nbytes) : nullptr) {}
  ~scratch() {
    // Destructors must not throw. A failed free means the context is already broken (a sticky
    // error), which the next checked call reports.
    try {
      if (p_) device_free(p_);
    } catch (...) {
    }
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  template <class T = void>
  T* get() const {
    return static_cast<T*>(p_);
  }

 private:
  void* p_;
};

}  // namespace ndfuse::backend::cuda
