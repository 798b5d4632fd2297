// The CUBIN of a kernel IR for one architecture: render (jit/render) -> disk cache -> NVRTC
// (jit/nvrtc_compiler) -> store in the disk cache. The step before loading; it needs no device,
// so the disk-cache integration is tested in CI. No CUDA headers here.
#pragma once
#include <string>

#include "ir/kernel_ir.hpp"
#include "jit/cuda_tuning.hpp"

namespace ndfuse::support {
class disk_cache;
}

namespace ndfuse::backend::cuda {

struct kernel_binary {
  std::string name;  // k_<structural hash>, as the plan step and nf::jit::source name it
  std::string cubin;
  bool from_disk = false;  // found in the disk cache: no NVRTC compile happened
};

// `sm` is major * 10 + minor (90 for sm_90). Disk loads are skipped when `allow_disk_loads` is
// false, or when NDFUSE_DUMP_DIR or NDFUSE_DEBUG >= 3 ask to see every kernel's source and NVRTC
// log; a fresh compile is still stored. Throws compile_error when NVRTC fails.
kernel_binary cubin_for(const jit::tuned_ir& k, int sm, support::disk_cache& cache,
                        bool allow_disk_loads = true);

// k_<hash of the kernel IR's structure>: a kernel's tunings share its name (their sources differ).
std::string kernel_name(const ir::kernel_ir& k);

}  // namespace ndfuse::backend::cuda
