// A device-to-host copy done by the SMs instead of a copy engine. The destination is pinned host
// memory, which unified addressing maps into the device's address space, so a kernel can store to
// it over PCIe. For small copies (a stack's info codes, a reduction's scalar) this finishes sooner
// than a DMA, whose setup costs more than the bytes do; transfer.cpp picks between the two.
#pragma once
#include <cstddef>

namespace ndfuse::backend::cuda {

// Queues, on the current stream, the copy of `nbytes` from device memory `src` to pinned host
// memory `pinned_dst`. The bytes are there once the stream has passed this point.
void store_to_pinned(void* pinned_dst, const void* src, std::size_t nbytes);

}  // namespace ndfuse::backend::cuda
