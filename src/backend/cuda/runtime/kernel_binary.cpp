#include "backend/cuda/runtime/kernel_binary.hpp"

#include <chrono>
#include <cstdio>

#include "jit/nvrtc_compiler.hpp"
#include "jit/render.hpp"
#include "support/disk_cache.hpp"
#include "support/env.hpp"
#include "support/hash.hpp"
#include "support/log.hpp"

namespace ndfuse::backend::cuda {

namespace {

using support::env::debug_level;

// A disk hit would skip what jit/nvrtc_compiler.hpp promises for these settings (a .cu dump, the
// source and NVRTC log on stderr), so with them every kernel goes through NVRTC.
bool inspection_requested() {
  return !support::env::dump_dir().empty() || debug_level() >= 3;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string kernel_name(const ir::kernel_ir& k) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "k_%016llx", static_cast<unsigned long long>(support::fnv1a(k.key())));
  return buf;
}

kernel_binary cubin_for(const jit::tuned_ir& k, int sm, support::disk_cache& cache, bool allow_disk_loads) {
  const auto t0 = std::chrono::steady_clock::now();
  kernel_binary out;
  out.name = kernel_name(k);
  const std::string arch = "sm_" + std::to_string(sm);
  const std::string source = jit::render(k, out.name);
  // The fingerprint covers NVRTC's version, the options and the prelude text the source includes.
  const std::string key =
      support::disk_cache::make_key(source, jit::compile_fingerprint(sm), jit::nvrtc_version(), arch);
  if (allow_disk_loads && !inspection_requested()) {
    if (auto hit = cache.load(key)) {
      out.cubin = std::move(*hit);
      out.from_disk = true;
      if (debug_level() >= 2)
        support::log_line(out.name + ": disk cache hit " + cache.entry_path(key) + " (" +
                          std::to_string(ms_since(t0)) + " ms)");
      return out;
    }
  }
  jit::compiled_binary bin = jit::compile_to_cubin(source, out.name, sm);
  out.cubin.assign(bin.cubin.begin(), bin.cubin.end());
  const bool stored = cache.store(key, out.cubin);
  if (debug_level() >= 2)
    support::log_line(out.name + ": NVRTC compiled for " + arch + " in " + std::to_string(ms_since(t0)) +
                      " ms" + (stored ? ", stored in the disk cache" : ""));
  return out;
}

}  // namespace ndfuse::backend::cuda
