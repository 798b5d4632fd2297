// Stream-ordered device memory: cudaMallocAsync / cudaFreeAsync on the current stream, from each
// device's default pool with its release threshold raised so freed blocks stay in the pool and
// are reused instead of going back to the driver at every synchronization.
#pragma once
#include <cstddef>

namespace ndfuse::backend::cuda {

// On this thread's current device and stream. Throws out_of_memory with the sizes involved.
void* device_allocate(std::size_t nbytes);
// On the device that owns `p`, ordered after the work queued so far on this thread's current
// stream of that device (the stream that last used the buffer, unless streams were mixed).
void device_free(void* p);

}  // namespace ndfuse::backend::cuda
