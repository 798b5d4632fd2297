// Raw modules on CUDA: compile through jit/raw_compile (disk cache), load with cuModuleLoadData per
// GPU, look functions up by their lowered names, launch with cuLaunchKernel on the current stream.
#include <cuda.h>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/raw_program.hpp"
#include "jit/raw_compile.hpp"
#include "ndfuse/error.hpp"
#include "support/disk_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::detail {

namespace cu = backend::cuda;

namespace {

// Under p.mutex.
const std::string& cubin_locked(raw_program& p, int sm) {
  if (auto it = p.cubins.find(sm); it != p.cubins.end()) return it->second;
  jit::raw_request r{p.source, p.name, p.options, p.name_expressions, ""};
  jit::raw_binary b = jit::compile_raw(r, sm, support::disk_cache::global());
  ++(b.from_disk ? support::counters_here().cache_hits_disk : support::counters_here().kernels_compiled);
  p.lowered[sm] = std::move(b.lowered_names);
  return p.cubins[sm] = std::move(b.cubin);
}

int sm_of(int device) {
  const cu::device_info& i = cu::info(device);
  return i.major * 10 + i.minor;
}

bool is_expression(const raw_program& p, const std::string& name) {
  for (const auto& e : p.name_expressions)
    if (e == name) return true;
  return false;
}

std::string lowered_locked(raw_program& p, const std::string& name, int sm) {
  if (!p.from_source() || !is_expression(p, name)) return name;
  cubin_locked(p, sm);
  for (const auto& [e, l] : p.lowered[sm])
    if (e == name) return l;
  return name;
}

}  // namespace

raw_program::~raw_program() {
  for (auto [device, module] : modules) {
    try {
      cu::device_guard g(device);
      cu::driver().module_unload(static_cast<CUmodule>(module));  // at exit the driver may be gone: ignored
    } catch (...) {
    }
  }
}

int current_sm() {
  std::string why;
  if (cu::probe_device_count(&why) == 0)
    throw device_error("raw kernels need a GPU, and none is usable: " + why);
  return sm_of(cu::current_device());
}

void compile(raw_program& p, int sm) {
  if (!p.from_source()) return;
  if (sm == 0) sm = current_sm();
  std::lock_guard lock(p.mutex);
  cubin_locked(p, sm);
}

std::string lowered_name(raw_program& p, const std::string& name, int sm) {
  if (sm == 0) sm = cu::probe_device_count() > 0 ? sm_of(cu::current_device()) : 90;
  std::lock_guard lock(p.mutex);
  return lowered_locked(p, name, sm);
}

void launch(raw_program& p, const std::string& name, int device, const raw_launch& l, void** params) {
  CUfunction fn = nullptr;
  {
    std::lock_guard lock(p.mutex);
    const int sm = sm_of(device);
    const std::string symbol = lowered_locked(p, name, sm);
    if (auto it = p.functions.find({device, symbol}); it != p.functions.end()) {
      fn = static_cast<CUfunction>(it->second);
    } else {
      auto m = p.modules.find(device);
      if (m == p.modules.end()) {
        const std::string& image = p.from_source() ? cubin_locked(p, sm) : p.image;
        CUmodule module = nullptr;
        cu::check(cu::driver().module_load_data(&module, image.data()), "cuModuleLoadData (raw module)");
        m = p.modules.emplace(device, module).first;
      }
      const CUresult r =
          cu::driver().module_get_function(&fn, static_cast<CUmodule>(m->second), symbol.c_str());
      if (r == CUDA_ERROR_NOT_FOUND)
        throw value_error("raw kernel: the module has no __global__ function '" + symbol +
                          "' (give an extern \"C\" name, a mangled name, or a template instance such as "
                          "\"f<float>\", which raw_kernel and raw_module's name_expressions look up)");
      cu::check(r, "cuModuleGetFunction (raw module)");
      p.functions.emplace(std::pair{device, symbol}, fn);
    }
    // Past 48 KiB of dynamic shared memory a kernel must be allowed it first.
    if (l.shared_mem > (std::size_t{48} << 10) && p.shared_allowed[fn] < l.shared_mem) {
      cu::check(cu::driver().func_set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                static_cast<int>(l.shared_mem)),
                "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
      p.shared_allowed[fn] = l.shared_mem;
    }
  }
  cu::throw_if_unusable();
  cu::check(
      cu::driver().launch_kernel(fn, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                                 static_cast<unsigned>(l.shared_mem), cu::current_stream(), params, nullptr),
      "cuLaunchKernel (raw kernel)");
  ++support::counters_here().kernels_launched;
}

}  // namespace ndfuse::detail
