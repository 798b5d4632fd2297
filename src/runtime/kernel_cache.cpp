#include "runtime/kernel_cache.hpp"

#include "schedule/plan.hpp"
#include "support/stats.hpp"

namespace ndfuse::runtime {

const backend::compiled_kernel& kernel_cache::get(backend::device_backend& b, const ir::kernel_ir& k,
                                                  const std::string& key, schedule::kernel_ref& remembered) {
  if (remembered.kernel && remembered.generation == generation_.load(std::memory_order_acquire)) {
    ++support::counters_here().cache_hits_memory;
    return *remembered.kernel;
  }
  std::lock_guard lock(mutex_);
  auto& kernels = kernels_[&b];
  auto it = kernels.find(key);
  if (it != kernels.end()) {
    ++support::counters_here().cache_hits_memory;
  } else {
    std::shared_ptr<const backend::compiled_kernel> compiled = b.compile(k);
    if (!compiled->compiled_at_launch)
      ++(compiled->from_disk_cache ? support::counters_here().cache_hits_disk
                                   : support::counters_here().kernels_compiled);
    it = kernels.emplace(key, std::move(compiled)).first;
  }
  remembered = {it->second, generation_.load(std::memory_order_relaxed)};
  return *remembered.kernel;
}

void kernel_cache::clear() {
  std::lock_guard lock(mutex_);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  kernels_.clear();
}

kernel_cache& global_kernel_cache() {
  static kernel_cache c;
  return c;
}

}  // namespace ndfuse::runtime
