// The kernel behind store_to_pinned (pinned_store.hpp).
#include "backend/cuda/grid_launch.cuh"
#include "backend/cuda/pinned_store.hpp"

namespace ndfuse::backend::cuda {

namespace {

// One word per thread and a grid stride; the word is as wide as both pointers' alignment and the
// length allow, so an aligned copy moves 16 bytes per store.
template <class W>
__global__ void store_words(W* dst, const W* src, int64_t words) {
  for (int64_t i = thread_index(); i < words; i += thread_count()) dst[i] = src[i];
}

template <class W>
void store_as(void* dst, const void* src, std::size_t nbytes) {
  launch("store_to_pinned", int64_t(nbytes / sizeof(W)), store_words<W>, static_cast<W*>(dst),
         static_cast<const W*>(src), int64_t(nbytes / sizeof(W)));
}

}  // namespace

void store_to_pinned(void* pinned_dst, const void* src, std::size_t nbytes) {
  const auto fit =
      reinterpret_cast<std::uintptr_t>(pinned_dst) | reinterpret_cast<std::uintptr_t>(src) | nbytes;
  if (fit % 16 == 0)
    store_as<uint4>(pinned_dst, src, nbytes);
  else if (fit % 8 == 0)
    store_as<unsigned long long>(pinned_dst, src, nbytes);
  else if (fit % 4 == 0)
    store_as<unsigned>(pinned_dst, src, nbytes);
  else
    store_as<unsigned char>(pinned_dst, src, nbytes);
}

}  // namespace ndfuse::backend::cuda
