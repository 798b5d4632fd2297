#include "runtime/kernel_cache.hpp"

#include "runtime/stats.hpp"

namespace ndfuse::runtime {

const backend::compiled_kernel& kernel_cache::get(backend::device_backend& b, const ir::kernel_ir& k,
                                                  const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(key);
  if (it != kernels_.end()) {
    ++global_counters().cache_hits_memory;
    return *it->second;
  }
  auto compiled = b.compile(k);
  ++(compiled->from_disk_cache ? global_counters().cache_hits_disk : global_counters().kernels_compiled);
  return *kernels_.emplace(key, std::move(compiled)).first->second;
}

void kernel_cache::clear() {
  std::lock_guard lock(mutex_);
  kernels_.clear();
}

kernel_cache& global_kernel_cache() {
  static kernel_cache c;
  return c;
}

}  // namespace ndfuse::runtime
