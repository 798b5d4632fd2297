// The counters behind nf::stats(). Hot paths bump them through these inline helpers.
//
// Event counts (launches, cache hits, evaluations, ...) live in one shard per thread: a small
// array's step bumps several, and a locked read-modify-write on one shared line costs each of them
// tens of cycles. A shard is written only by the thread holding it (a plain load and store), and
// stats() sums every shard. Byte counts stay process-wide atomics: the peak needs one running total.
#pragma once
#include <atomic>
#include <cstdint>

#include "ndfuse/config.hpp"

namespace ndfuse::support {

class event_count {
 public:
  void operator++() { add(1); }
  void add(std::uint64_t n) { v_.store(v_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed); }
  std::uint64_t get() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> v_{0};
};

struct event_counts {
  event_count kernels_launched, kernels_compiled, cache_hits_memory, cache_hits_disk, library_calls,
      evaluations, automatic_splits, buffers_donated, fft_plans_created, plans_reused, blocks_reused;
};

// This thread's shard. A thread that exits hands its shard (counts kept) to the next new thread.
event_counts& counters_here();

struct memory_counts {
  std::atomic<std::uint64_t> bytes_allocated{0}, bytes_in_use{0}, peak_bytes{0};
};
memory_counts& memory_counters();

inline void note_allocation(std::uint64_t n) {
  auto& c = memory_counters();
  c.bytes_allocated += n;
  std::uint64_t now = c.bytes_in_use += n;
  std::uint64_t peak = c.peak_bytes.load();
  while (now > peak && !c.peak_bytes.compare_exchange_weak(peak, now)) {
  }
}
inline void note_release(std::uint64_t n) {
  memory_counters().bytes_in_use -= n;
}

}  // namespace ndfuse::support
