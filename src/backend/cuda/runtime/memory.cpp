#include "backend/cuda/runtime/memory.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cuda {

namespace {

// Block sizes are rounded up to this, so that sizes a few bytes apart share one list of freed
// blocks (the pool rounds further itself).
constexpr std::size_t block_granule = 512;

struct device_pool {
  cudaMemPool_t pool = nullptr;
  std::size_t keep_limit = 0;  // the most bytes of freed blocks kept on the host: a quarter of memory
};

// NDFUSE_KEEP_FREED=0: nothing is kept, every free is a cudaFreeAsync (for memory checkers, which
// cannot see a kept block's reuse, and for timing with and without).
bool keep_freed_blocks() {
  return support::env::keep_freed();
}

const device_pool& pool_of(int device) {
  static std::array<std::once_flag, max_devices> once;
  static std::array<device_pool, max_devices> pools{};
  std::call_once(once[device], [device] {
    device_pool& d = pools[device];
    check(cudaDeviceGetDefaultMemPool(&d.pool, device), "cudaDeviceGetDefaultMemPool");
    // The default threshold (0) hands freed memory back to the driver at every sync, so a loop
    // that frees and reallocates the same sizes would pay cudaMalloc each time.
    std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
    check(cudaMemPoolSetAttribute(d.pool, cudaMemPoolAttrReleaseThreshold, &keep_everything),
          "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    d.keep_limit = keep_freed_blocks() ? total_bytes / 4 : 0;
  });
  return pools[device];
}

// The blocks handed out, and the freed ones kept for reuse. Freed blocks wait on the host, per
// device, stream and size, for that stream's next allocation of the same size: cudaFreeAsync costs
// the GPU about 0.7 us each time the stream reaches it (cudaMallocAsync costs it nothing), so in an
// eager chain of small ops one free per op took a tenth to a quarter of the GPU's time
// (research/stream_alloc_cost.cu). A block freed on a stream is ordered after every use
// queued on it before the free, and only work queued on that stream later gets it back, which is
// the order the pool's own reuse keeps. What is kept never leaves the process anyway: the pool's
// release threshold keeps every freed byte. It is given back to the pool when an allocation fails,
// when its stream is destroyed, and beyond keep_limit bytes a device.
struct kept_key {
  int device;
  cudaStream_t stream;
  std::size_t bytes;
  bool operator==(const kept_key&) const = default;
};
struct kept_key_hash {
  std::size_t operator()(const kept_key& k) const {
    return std::hash<const void*>{}(k.stream) ^ (k.bytes * 131 + std::size_t(k.device));
  }
};
struct live_block {
  std::size_t bytes;
  int device;
};
struct block_registry {
  std::mutex mutex;
  std::unordered_map<void*, live_block> live;
  std::unordered_map<kept_key, std::vector<void*>, kept_key_hash> kept;
  std::array<std::size_t, max_devices> kept_bytes{};
};
// Never destroyed: buffers held in static storage elsewhere may be freed after this file's statics.
block_registry& registry() {
  static block_registry* r = new block_registry;
  return *r;
}

std::string bytes_text(std::uint64_t n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu bytes (%.2f GiB)", static_cast<unsigned long long>(n),
                static_cast<double>(n) / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

[[noreturn]] void throw_out_of_memory(std::size_t nbytes, int device) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) cudaGetLastError();
  throw out_of_memory("cuda: out of memory allocating " + bytes_text(nbytes) + " on device " +
                      std::to_string(device) + ": " + bytes_text(free_bytes) + " free of " +
                      bytes_text(total_bytes) + "; ndfuse arrays hold " +
                      bytes_text(support::memory_counters().bytes_in_use.load()));
}

// Gives the kept blocks of `device` (of one stream, or of all with all_streams) back to the pool,
// each freed on the stream it was kept for.
void release_kept(int device, cudaStream_t stream, bool all_streams) {
  std::vector<std::pair<cudaStream_t, void*>> released;
  {
    block_registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (auto it = r.kept.begin(); it != r.kept.end();) {
      if (it->first.device != device || (!all_streams && it->first.stream != stream)) {
        ++it;
        continue;
      }
      for (void* p : it->second) released.emplace_back(it->first.stream, p);
      r.kept_bytes[device] -= it->first.bytes * it->second.size();
      it = r.kept.erase(it);
    }
  }
  if (released.empty()) return;
  device_guard on(device);
  for (auto [s, p] : released) check(cudaFreeAsync(p, s), "cudaFreeAsync");
}

// `bytes` rounded up from the `requested` the error message names. Every block comes from here
// first, so the device's pool (and the keep_limit device_free reads) is set up by then.
void* allocate_from_pool(std::size_t bytes, std::size_t requested, int device, cudaStream_t stream) {
  pool_of(device);
  void* p = nullptr;
  cudaError_t status = cudaMallocAsync(&p, bytes, stream);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    // Blocks kept on the host, frees queued on other streams that have not run yet, blocks the pool
    // cannot split for this size: give back the kept ones, let everything finish, return cached
    // memory to the driver, and try once more.
    release_cached_memory(device);
    status = cudaMallocAsync(&p, bytes, stream);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw_out_of_memory(requested, device);
    }
  }
  check(status, "cudaMallocAsync");
  return p;
}

}  // namespace

void* device_allocate(std::size_t nbytes) {
  const int device = current_device();
  const cudaStream_t stream = current_stream();
  const std::size_t bytes =
      (std::max<std::size_t>(nbytes, 1) + block_granule - 1) / block_granule * block_granule;
  block_registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    auto it = r.kept.find({device, stream, bytes});
    if (it != r.kept.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      r.kept_bytes[device] -= bytes;
      r.live[p] = {bytes, device};
      ++support::counters_here().blocks_reused;
      return p;
    }
  }
  void* p = allocate_from_pool(bytes, nbytes, device, stream);
  std::lock_guard lock(r.mutex);
  r.live[p] = {bytes, device};
  return p;
}

void device_free(void* p) {
  if (!p) return;
  block_registry& r = registry();
  int device = -1;  // a pointer device_allocate never handed out: the current device's
  {
    std::lock_guard lock(r.mutex);
    auto it = r.live.find(p);
    if (it != r.live.end()) {
      const live_block b = it->second;
      r.live.erase(it);
      device = b.device;
      // On the block's device, this thread's current stream there: the stream that last used it.
      if (r.kept_bytes[b.device] + b.bytes <= pool_of(b.device).keep_limit) {
        r.kept[{b.device, stream_of(b.device), b.bytes}].push_back(p);
        r.kept_bytes[b.device] += b.bytes;
        return;
      }
    }
  }
  device_guard on(device < 0 ? current_device() : device);
  check(cudaFreeAsync(p, current_stream()), "cudaFreeAsync");
}

void release_kept_blocks(int device, cudaStream_t stream) {
  release_kept(device, stream, false);
}

void release_cached_memory(int device) {
  release_kept(device, nullptr, true);
  device_guard on(device);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaMemPoolTrimTo(pool_of(device).pool, 0), "cudaMemPoolTrimTo");
}

}  // namespace ndfuse::backend::cuda
