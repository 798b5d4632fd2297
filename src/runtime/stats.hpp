// The counters behind nf::stats(). Hot paths bump them through these inline helpers.
#pragma once
#include <atomic>
#include <cstdint>

#include "ndfuse/config.hpp"

namespace ndfuse::runtime {

struct counters {
  std::atomic<std::uint64_t> kernels_launched{0}, kernels_compiled{0}, cache_hits_memory{0},
      cache_hits_disk{0}, library_calls{0}, evaluations{0}, automatic_splits{0}, buffers_donated{0},
      fft_plans_created{0}, plans_reused{0}, bytes_allocated{0}, bytes_in_use{0}, peak_bytes{0};
};
counters& global_counters();

inline void note_allocation(std::uint64_t n) {
  auto& c = global_counters();
  c.bytes_allocated += n;
  std::uint64_t now = c.bytes_in_use += n;
  std::uint64_t peak = c.peak_bytes.load();
  while (now > peak && !c.peak_bytes.compare_exchange_weak(peak, now)) {
  }
}
inline void note_release(std::uint64_t n) {
  global_counters().bytes_in_use -= n;
}

}  // namespace ndfuse::runtime
