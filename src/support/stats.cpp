#include "support/stats.hpp"

#include <mutex>
#include <vector>

namespace ndfuse {

namespace support {

namespace {

// Every shard ever made (never freed: a thread's counts stay in the total after it exits), the
// ones free for a new thread, and the sums at the last reset_stats(). Made once and never destroyed,
// so a thread that exits during static destruction still finds it.
struct shard_registry {
  std::mutex mutex;
  std::vector<event_counts*> all, free;
  stats_t baseline;
};
shard_registry& registry() {
  static auto* r = new shard_registry;
  return *r;
}

// Trivially destructible, so a count bumped after `give_back` ran (late in the thread's exit)
// still works: it takes a shard that then simply stays with the dead thread.
thread_local event_counts* shard = nullptr;

struct give_back_at_exit {
  ~give_back_at_exit() {
    if (!shard) return;
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    r.free.push_back(shard);
    shard = nullptr;
  }
};
thread_local give_back_at_exit give_back;

event_counts* take_shard() {
  (void)&give_back;  // constructs this thread's give_back, so that the shard returns at exit
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  if (!r.free.empty()) {
    event_counts* s = r.free.back();
    r.free.pop_back();
    return s;
  }
  r.all.push_back(new event_counts);
  return r.all.back();
}

// The event sums over every shard (with the registry's lock held).
stats_t event_sums(const shard_registry& r) {
  stats_t s;
  for (const event_counts* c : r.all) {
    s.kernels_launched += c->kernels_launched.get();
    s.kernels_compiled += c->kernels_compiled.get();
    s.cache_hits_memory += c->cache_hits_memory.get();
    s.cache_hits_disk += c->cache_hits_disk.get();
    s.library_calls += c->library_calls.get();
    s.evaluations += c->evaluations.get();
    s.automatic_splits += c->automatic_splits.get();
    s.buffers_donated += c->buffers_donated.get();
    s.fft_plans_created += c->fft_plans_created.get();
    s.plans_reused += c->plans_reused.get();
    s.blocks_reused += c->blocks_reused.get();
  }
  return s;
}

}  // namespace

event_counts& counters_here() {
  if (!shard) [[unlikely]]
    shard = take_shard();
  return *shard;
}

memory_counts& memory_counters() {
  static memory_counts c;
  return c;
}

}  // namespace support

stats_t stats() {
  auto& r = support::registry();
  stats_t s;
  {
    std::lock_guard lock(r.mutex);
    s = support::event_sums(r);
    const stats_t& b = r.baseline;
    s.kernels_launched -= b.kernels_launched;
    s.kernels_compiled -= b.kernels_compiled;
    s.cache_hits_memory -= b.cache_hits_memory;
    s.cache_hits_disk -= b.cache_hits_disk;
    s.library_calls -= b.library_calls;
    s.evaluations -= b.evaluations;
    s.automatic_splits -= b.automatic_splits;
    s.buffers_donated -= b.buffers_donated;
    s.fft_plans_created -= b.fft_plans_created;
    s.plans_reused -= b.plans_reused;
    s.blocks_reused -= b.blocks_reused;
    s.bytes_allocated = support::memory_counters().bytes_allocated - b.bytes_allocated;
  }
  auto& m = support::memory_counters();
  s.bytes_in_use = m.bytes_in_use;
  s.peak_bytes = m.peak_bytes;
  return s;
}

// Event counts are never written by another thread than their shard's: a reset records the sums
// as a baseline that stats() subtracts.
void reset_stats() {
  auto& r = support::registry();
  auto& m = support::memory_counters();
  std::lock_guard lock(r.mutex);
  r.baseline = support::event_sums(r);
  r.baseline.bytes_allocated = m.bytes_allocated;
  m.peak_bytes = m.bytes_in_use.load();
}

}  // namespace ndfuse
