// Host <-> device copies through pinned staging buffers. Pageable memory cannot be DMA'd directly,
// and letting the driver stage it serializes the host copy with the DMA; here a ring of pinned
// slots lets the host copy of one chunk (spread over a few threads) overlap the DMA of the previous
// one, and events say when a slot is free again. A small device-to-host copy uses a pinned buffer of
// the calling thread's own instead, without the ring's lock and events. Every host pointer is treated
// the same way, so the caller's buffer is never read or written after these return.
#pragma once
#include <cstddef>

namespace ndfuse::backend::cuda {

// Returns once `src` has been read; the last DMA may still be in flight (stream ordered).
void copy_host_to_device(void* dst, const void* src, std::size_t nbytes);
// Returns once `dst` holds the data, after everything queued before it on the current stream.
void copy_device_to_host(void* dst, const void* src, std::size_t nbytes);

}  // namespace ndfuse::backend::cuda
