// The CUDA backend: compile = render (jit/render) -> disk cache or NVRTC (jit/nvrtc_compiler) ->
// cuModuleLoadData; launch = jit::build_params + cuLaunchKernel on the current stream, a
// grid-stride kernel sized from the SM count. Memory and transfers live in memory.cpp and
// transfer.cpp, library calls (CUB) in library.cu. Nothing here waits for the device except
// copy_to_host and synchronize.
#include "backend/cuda/cuda_backend.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "backend/cuda/library.hpp"
#include "backend/cuda/runtime/arrival_counters.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/kernel_binary.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "backend/cuda/runtime/transfer.hpp"
#include "jit/cuda_tuning.hpp"
#include "jit/kernel_abi.hpp"
#include "ndfuse/error.hpp"
#include "support/disk_cache.hpp"
#include "support/env.hpp"
#include "support/log.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cuda {

namespace {

// Lets GPU `from` reach GPU `to`'s memory, once per ordered pair, where the hardware can. Without
// it cudaMemcpyPeerAsync stages through host memory: 37 GB/s between two NVLink-connected H200s,
// against about 390 with it. Enabled at the first move between the two, as CuPy enables it.
void enable_peer_access(int from, int to) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> tried;
  const std::lock_guard lock(mutex);
  if (!tried.insert({from, to}).second) return;
  int can = 0;
  check(cudaDeviceCanAccessPeer(&can, from, to), "cudaDeviceCanAccessPeer");
  if (!can) return;
  // Arrays live in `to`'s stream-ordered pool, whose access cudaDeviceEnablePeerAccess does not
  // change: the pool grants it itself (to its present and future blocks).
  cudaMemPool_t pool = nullptr;
  check(cudaDeviceGetDefaultMemPool(&pool, to), "cudaDeviceGetDefaultMemPool");
  cudaMemAccessDesc access{};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = from;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  check(cudaMemPoolSetAccess(pool, &access, 1), "cudaMemPoolSetAccess");
  // Memory from cudaMalloc (a DLPack tensor another library lent) needs the device-wide switch.
  const device_guard on(from);
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();  // another library in the process enabled it: not an error here
    return;
  }
  check(e, "cudaDeviceEnablePeerAccess");
}

using support::env::debug_level;

struct loaded_module {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

// One tuning of a kernel (jit/cuda_tuning.hpp): its CUBIN and its module on each device it ran on.
// The device it was compiled on is stored inline, so the common single-device launch takes no lock.
struct kernel_variant {
  jit::tuned_ir ir;  // the kernel IR and its tuning
  std::string name;
  jit::param_plan params;  // the parameter layout, computed once rather than per launch
  std::string arch;
  std::string cubin;
  int home_device = -1;
  loaded_module home;
  std::mutex others_mutex;
  std::map<int, loaded_module> others;  // other devices (same CUBIN, or recompiled for their arch)

  ~kernel_variant() {
    // Unloading a module with a launch still queued is undefined: let the devices finish first.
    // Errors are ignored: at exit the runtime may already be shutting down.
    auto unload = [](int device, const loaded_module& m) {
      if (!m.module || cudaSetDevice(device) != cudaSuccess) return;
      cudaDeviceSynchronize();
      driver().module_unload(m.module);
    };
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
    unload(home_device, home);
    for (const auto& [device, m] : others) unload(device, m);
    if (previous >= 0) cudaSetDevice(previous);
    cudaGetLastError();
  }
};

// A kernel IR as the runtime's cache holds it: compiled per tuning, each at its first launch (the
// tuning follows the launch's sizes). Variants are never removed while the kernel lives, so the one
// launched last is read without the lock.
struct cuda_kernel final : compiled_kernel {
  cuda_kernel() { compiled_at_launch = true; }
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<kernel_variant>> variants;
  std::atomic<kernel_variant*> last{nullptr};
};

int sm_of(const device_info& d) {
  return d.major * 10 + d.minor;
}

// A staged reduction (jit::fold_layout::staged) takes its ring of chunk buffers as dynamic shared
// memory, which a launch may size past 48 KB only once the function allows it: up to the device's
// per-block limit, less the function's static shared memory.
void allow_staging(CUfunction f, int device) {
  const driver_api& d = driver();
  int static_bytes = 0;
  check(d.func_get_attribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f), "cuFuncGetAttribute");
  check(d.func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(info(device).shared_per_block) - static_bytes),
        "cuFuncSetAttribute");
}

bool staged(const jit::tuned_ir& k) {
  return k.reduction && k.fold.staged;
}

// Loads `cubin` into the current device's context. Returns false when the driver rejects the
// image itself (so a cached entry can be replaced by a fresh compile); throws on anything else.
bool try_load(const std::string& cubin, const std::string& name, loaded_module& out) {
  const driver_api& d = driver();
  CUresult r = d.module_load_data(&out.module, cubin.data());
  if (r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_PTX ||
      r == CUDA_ERROR_INVALID_SOURCE) {
    out.module = nullptr;
    return false;
  }
  check(r, "cuModuleLoadData");
  r = d.module_get_function(&out.function, out.module, name.c_str());
  if (r != CUDA_SUCCESS) {
    d.module_unload(out.module);
    out.module = nullptr;
    check(r, ("cuModuleGetFunction(" + name + ")").c_str());
  }
  return true;
}

class cuda_backend final : public device_backend {
 public:
  std::string_view name() const override { return "cuda"; }

  void* allocate(std::size_t nbytes) override { return device_allocate(nbytes); }

  void deallocate(void* p, std::size_t) override {
    // Called from buffer destructors, which must not throw. A failure here means the context is
    // already broken (a sticky error), which the next checked call reports.
    try {
      device_free(p);
    } catch (const std::exception& e) {
      if (debug_level() >= 1)
        support::log_line(std::string("warning: freeing device memory failed: ") + e.what());
    }
  }

  void copy_from_host(void* dst, const void* src, std::size_t nbytes) override {
    copy_host_to_device(dst, src, nbytes);
  }
  void copy_to_host(void* dst, const void* src, std::size_t nbytes) override {
    copy_device_to_host(dst, src, nbytes);
  }

  std::unique_ptr<compiled_kernel> compile(const ir::kernel_ir&) override {
    return std::make_unique<cuda_kernel>();
  }

  void launch(const compiled_kernel& ck, const ir::kernel_ir& neutral, const ir::kernel_args& a) override {
    // The kernel cache hands out const references; adding a variant or loading on another device
    // mutates only mutex-guarded maps, so the cast is confined to those paths.
    auto& kernel = const_cast<cuda_kernel&>(static_cast<const cuda_kernel&>(ck));
    const int device = current_device();
    throw_if_unusable();
    kernel_variant& k = variant_for(kernel, neutral, a, device);
    const jit::tuned_ir& ir = k.ir;
    const CUfunction fn = device == k.home_device ? k.home.function : function_on(k, device);
    if (ir.reduction) {
      launch_reduction(fn, k, a, device);
      return;
    }
    const jit::launch_config dims = jit::launch_dims(ir, a.shape, info(device).sm_count);
    jit::kernel_params params = jit::build_params(ir, k.params, a);
    check(driver().launch_kernel(fn, dims.grid, 1, 1, dims.block, 1, 1, 0, current_stream(), params.data(),
                                 nullptr),
          "cuLaunchKernel");
  }

  // A reduction's launch shape follows its sizes; when blocks share outputs, their partial results
  // live in stream-ordered scratch, freed (stream-ordered) right after, and their arrival counters
  // in the stream's zeroed buffer (arrival_counters.hpp).
  void launch_reduction(CUfunction fn, const kernel_variant& k, const ir::kernel_args& a, int device) {
    const jit::tuned_ir& ir = k.ir;
    const int kept = ir.reduction->kept_ndim;
    std::int64_t n_out = 1, n_red = 1;
    for (int d = 0; d < ir.ndim; ++d) (d < kept ? n_out : n_red) *= a.shape[d];
    jit::reduce_scratch scratch;
    // The kernel folds units of `width` elements when the launch's sizes allowed it (the fold order
    // then depends on sizes alone, jit::fold_layout::units), with a tail only if it renders one.
    const int width = k.params.fold_width;
    if (n_red % width != 0 && !ir.fold.tail)
      throw error("cuda: reduction kernel " + k.name + " folds units of " + std::to_string(width) +
                  " elements, launched over rows of " + std::to_string(n_red));
    // One pass over the inputs the fold reads (the epilogue's are read element by element): wide
    // loads need each one aligned for a unit, and units of outputs (jit::fold_layout::output_units)
    // need neighbouring outputs' elements to be neighbours, on every row; a staged fold's bulk copies
    // (sm_90 on) need each output's units to start at the same address mod 16 (its shift,
    // nf_stage_shift), else it loads its chunks, in the same order.
    const device_info& d = info(device);
    bool wide = k.params.wide_loads;
    bool bulk = k.params.stage_bytes > 0 && d.major >= 9;
    unsigned q = 0;  // the input's place in the stage
    for (int slot : k.params.prologue_inputs) {
      const std::size_t item = itemsize(ir.inputs[slot].dt);
      const auto address =
          reinterpret_cast<std::uintptr_t>(static_cast<const char*>(a.inputs[slot].data) +
                                           a.inputs[slot].offset * static_cast<std::int64_t>(item));
      wide = wide && address % (item * width) == 0;
      if (const int lanes = k.params.lane_outputs; lanes > 1) {
        const auto& strides = a.inputs[slot].strides;
        wide = wide && strides.size() == static_cast<std::size_t>(ir.ndim);
        for (int d = 0; wide && d < ir.ndim; ++d)
          wide = wide && (d == kept - 1 ? strides[d] == 1 : strides[d] % lanes == 0);
        wide = wide && address % (item * lanes) == 0;
      }
      const unsigned shift = static_cast<unsigned>(address % 16);
      bulk = bulk && (n_out == 1 || static_cast<std::size_t>(n_red) * item % 16 == 0) &&
             (shift == 0 || q < jit::reduce_shifted_inputs_max);
      if (bulk && shift) scratch.shifts |= shift << (4 * q);
      ++q;
    }
    scratch.wide = wide;
    if (!bulk) scratch.shifts = 0;
    if (bulk) scratch.stages = jit::reduce_stages(k.params.stage_bytes, d.shared_per_sm, d.shared_per_block);
    const std::size_t shared = scratch.stages * k.params.stage_bytes;
    const jit::reduce_config c = jit::reduce_dims(ir, n_out, n_red / width, d.sm_count);
    void* block = nullptr;
    if (c.arrival_count) {
      block = device_allocate(c.partial_bytes);
      scratch.partials = block;
      scratch.arrivals = arrival_counters(c.arrival_count);
    }
    jit::kernel_params params = jit::build_params(ir, k.params, a, scratch);
    const CUresult r =
        driver().launch_kernel(fn, c.grid_x, c.grid_y, 1, c.block_x, c.block_y, 1,
                               static_cast<unsigned>(shared), current_stream(), params.data(), nullptr);
    if (block) device_free(block);
    check(r, "cuLaunchKernel");
  }

  void run_library(const ir::library_call& c, const std::vector<const void*>& inputs,
                   const std::vector<void*>& outputs) override {
    current_device();  // binds the device's context to this thread, as the CUB calls need it
    throw_if_unusable();
    cuda::run_library(c, inputs, outputs);
  }

  void synchronize() override {
    current_device();
    check(cudaStreamSynchronize(current_stream()), "cudaStreamSynchronize");
  }

  int activate(int index) override {
    const int previous = current_device();
    if (index != previous) set_current_device(index);
    return previous;
  }

  // Ordered after the source GPU's current stream (its producer) and on the destination's current
  // stream (its consumers), without blocking the host.
  void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::size_t nbytes) override {
    enable_peer_access(dst_device, src_device);
    enable_peer_access(src_device, dst_device);
    cudaEvent_t ready = nullptr;
    {
      const device_guard on_source(src_device);
      check(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreateWithFlags");
      check(cudaEventRecord(ready, stream_of(src_device)), "cudaEventRecord");
    }
    const device_guard on_destination(dst_device);
    check(cudaStreamWaitEvent(stream_of(dst_device), ready, 0), "cudaStreamWaitEvent");
    check(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, stream_of(dst_device)),
          "cudaMemcpyPeerAsync");
    check(cudaEventDestroy(ready), "cudaEventDestroy");  // released once the wait is done
  }

 private:
  // The variant of `kernel` that the launch's sizes choose, compiled (or loaded from the disk cache)
  // and loaded on `device` the first time that tuning is launched.
  kernel_variant& variant_for(cuda_kernel& kernel, const ir::kernel_ir& neutral, const ir::kernel_args& a,
                              int device) {
    jit::cuda_tuning tuning = jit::choose_tuning(neutral, a);
    // The common case, the tuning of the last launch, is a comparison of a few fields: no key.
    if (kernel_variant* v = kernel.last.load(std::memory_order_acquire);
        v && static_cast<const jit::cuda_tuning&>(v->ir) == tuning)
      return *v;
    std::string key = tuning.key();
    std::lock_guard lock(kernel.mutex);
    auto it = kernel.variants.find(key);
    if (it == kernel.variants.end()) {
      auto v = make_variant(jit::tuned_ir(neutral, std::move(tuning)), device);
      it = kernel.variants.emplace(std::move(key), std::move(v)).first;
    }
    kernel.last.store(it->second.get(), std::memory_order_release);
    return *it->second;
  }

  std::unique_ptr<kernel_variant> make_variant(jit::tuned_ir k, int device) {
    const device_info& d = info(device);
    kernel_binary bin = cubin_for(k, sm_of(d), support::disk_cache::global());
    auto v = std::make_unique<kernel_variant>();
    v->name = bin.name;
    v->arch = d.arch;
    v->home_device = device;
    if (!try_load(bin.cubin, bin.name, v->home)) {
      if (!bin.from_disk)
        throw device_error("cuda: the driver rejected NVRTC's CUBIN for " + bin.name + " on " + d.arch);
      // A disk entry that passed its checksum but not the driver: compile afresh (overwriting it).
      bin = cubin_for(k, sm_of(d), support::disk_cache::global(), /*allow_disk_loads=*/false);
      if (!try_load(bin.cubin, bin.name, v->home))
        throw device_error("cuda: the driver rejected NVRTC's CUBIN for " + bin.name + " on " + d.arch);
    }
    if (staged(k)) allow_staging(v->home.function, device);
    ++(bin.from_disk ? support::counters_here().cache_hits_disk : support::counters_here().kernels_compiled);
    v->cubin = std::move(bin.cubin);
    v->params = jit::plan_params(k);
    v->ir = std::move(k);
    return v;
  }

  // The variant's function on a device other than the one it was compiled on, loaded at first use
  // (recompiled when that device has another architecture).
  CUfunction function_on(kernel_variant& k, int device) {
    std::lock_guard lock(k.others_mutex);
    auto it = k.others.find(device);
    if (it != k.others.end()) return it->second.function;
    const device_info& d = info(device);
    loaded_module m;
    bool loaded = d.arch == k.arch && try_load(k.cubin, k.name, m);
    if (!loaded) loaded = try_load(cubin_for(k.ir, sm_of(d), support::disk_cache::global()).cubin, k.name, m);
    if (!loaded)
      throw device_error("cuda: the driver rejected the CUBIN for " + k.name + " on device " +
                         std::to_string(device));
    if (staged(k.ir)) allow_staging(m.function, device);
    k.others.emplace(device, m);
    return m.function;
  }
};

}  // namespace

std::unique_ptr<device_backend> make_backend() {
  current_device();  // binds device 0's primary context now, so a driver problem shows up here
  driver();
  return std::make_unique<cuda_backend>();
}

}  // namespace ndfuse::backend::cuda
