#include "runtime/stats.hpp"

namespace ndfuse {

namespace runtime {
counters& global_counters() {
  static counters c;
  return c;
}
}  // namespace runtime

stats_t stats() {
  auto& c = runtime::global_counters();
  stats_t s;
  s.kernels_launched = c.kernels_launched;
  s.kernels_compiled = c.kernels_compiled;
  s.cache_hits_memory = c.cache_hits_memory;
  s.cache_hits_disk = c.cache_hits_disk;
  s.library_calls = c.library_calls;
  s.evaluations = c.evaluations;
  s.automatic_splits = c.automatic_splits;
  s.buffers_donated = c.buffers_donated;
  s.fft_plans_created = c.fft_plans_created;
  s.plans_reused = c.plans_reused;
  s.bytes_allocated = c.bytes_allocated;
  s.bytes_in_use = c.bytes_in_use;
  s.peak_bytes = c.peak_bytes;
  return s;
}

void reset_stats() {
  auto& c = runtime::global_counters();
  c.kernels_launched = 0;
  c.kernels_compiled = 0;
  c.cache_hits_memory = 0;
  c.cache_hits_disk = 0;
  c.library_calls = 0;
  c.evaluations = 0;
  c.automatic_splits = 0;
  c.buffers_donated = 0;
  c.fft_plans_created = 0;
  c.plans_reused = 0;
  c.bytes_allocated = 0;
  c.peak_bytes = c.bytes_in_use.load();
}

}  // namespace ndfuse
