#include "backend/cuda/memory.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backend/cuda/cuda_api.hpp"
#include "ndfuse/error.hpp"
#include "runtime/stats.hpp"

namespace ndfuse::backend::cuda {

namespace {

cudaMemPool_t pool_of(int device) {
  static std::array<std::once_flag, max_devices> once;
  static std::array<cudaMemPool_t, max_devices> pools{};
  std::call_once(once[device], [device] {
    cudaMemPool_t pool = nullptr;
    check(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool");
    // The default threshold (0) hands freed memory back to the driver at every sync, so a loop
    // that frees and reallocates the same sizes would pay cudaMalloc each time.
    std::uint64_t keep_everything = std::numeric_limits<std::uint64_t>::max();
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything),
          "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
    pools[device] = pool;
  });
  return pools[device];
}

// Which device owns each pointer, kept only with several devices: a buffer may be dropped while
// another device is current, and must then be freed on its own device.
std::mutex owners_mutex;
std::unordered_map<void*, int> owners;
bool several_devices() {
  static const bool several = probe_device_count() > 1;
  return several;
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
                      bytes_text(runtime::memory_counters().bytes_in_use.load()));
}

}  // namespace

void* device_allocate(std::size_t nbytes) {
  const int device = current_device();
  cudaMemPool_t pool = pool_of(device);
  cudaStream_t stream = current_stream();
  void* p = nullptr;
  cudaError_t status = cudaMallocAsync(&p, nbytes, stream);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    // Frees queued on other streams may not have run yet, and the pool may hold blocks it cannot
    // split for this size: let everything finish, give cached blocks back, and try once more.
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    check(cudaMemPoolTrimTo(pool, 0), "cudaMemPoolTrimTo");
    status = cudaMallocAsync(&p, nbytes, stream);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw_out_of_memory(nbytes, device);
    }
  }
  check(status, "cudaMallocAsync");
  if (several_devices()) {
    std::lock_guard lock(owners_mutex);
    owners[p] = device;
  }
  return p;
}

void device_free(void* p) {
  if (!p) return;
  int device = current_device();
  if (several_devices()) {
    std::lock_guard lock(owners_mutex);
    auto it = owners.find(p);
    if (it != owners.end()) {
      device = it->second;
      owners.erase(it);
    }
  }
  device_guard on(device);
  check(cudaFreeAsync(p, current_stream()), "cudaFreeAsync");
}

}  // namespace ndfuse::backend::cuda
