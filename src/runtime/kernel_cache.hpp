// The in-memory kernel cache, keyed by structure only (kernel_ir::key()), so a loop over changing
// sizes of the same rank or changing scalars compiles once.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backend/backend.hpp"

namespace ndfuse::runtime {

class kernel_cache {
 public:
  const backend::compiled_kernel& get(backend::device_backend& b, const ir::kernel_ir& k,
                                      const std::string& key);
  void clear();

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<backend::compiled_kernel>> kernels_;
};

kernel_cache& global_kernel_cache();

}  // namespace ndfuse::runtime
