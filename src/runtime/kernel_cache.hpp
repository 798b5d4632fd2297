// The in-memory kernel cache, keyed by backend and structure only (kernel_ir::key()), so a loop over changing
// sizes of the same rank or changing scalars compiles once (on the CUDA backend, once per tuning its
// sizes take: jit/cuda_tuning.hpp).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backend/backend.hpp"

namespace ndfuse::schedule {
struct kernel_ref;  // schedule/plan.hpp
}

namespace ndfuse::runtime {

class kernel_cache {
 public:
  // The kernel for `key`, compiled (or loaded from the disk cache) on a miss. `remembered`, when
  // still of this cache's generation, answers without the lock; it is updated otherwise. The kernel
  // returned lives as long as `remembered` holds it, even when clear() runs on another thread.
  const backend::compiled_kernel& get(backend::device_backend& b, const ir::kernel_ir& k,
                                      const std::string& key, schedule::kernel_ref& remembered);
  void clear();

 private:
  std::mutex mutex_;
  std::atomic<std::uint64_t> generation_{1};  // bumped by clear(): remembered kernels are gone
  // Per backend: the CPU's programs and the GPUs' modules of one kernel share its key.
  std::unordered_map<const backend::device_backend*,
                     std::unordered_map<std::string, std::shared_ptr<const backend::compiled_kernel>>>
      kernels_;
};

kernel_cache& global_kernel_cache();

}  // namespace ndfuse::runtime
