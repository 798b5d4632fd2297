#include "backend/cuda/runtime/transfer.hpp"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "support/env.hpp"
#include "support/log.hpp"

namespace ndfuse::backend::cuda {

namespace {

// 4 x 32 MiB: a slot is refilled while the other three are in flight, and a chunk is large enough
// that per-chunk overheads (event, DMA setup, waking the copy team) stay below 1%.
constexpr std::size_t slot_count = 4;
constexpr std::size_t slot_bytes = std::size_t{32} << 20;
// Below this a host memcpy is done by the calling thread alone: waking helpers costs more.
constexpr std::size_t split_threshold = std::size_t{2} << 20;
// Up to this many bytes a device-to-host copy goes through a pinned buffer of the calling thread's
// own and waits on the stream: no staging lock and no slot events. Such a readback (info codes, a
// scalar) is the DMA's round trip, to which the ring's bookkeeping (lock, slot event, event record
// and wait) added about 2.3 us on an H100; this path reads 8 bytes in 8.3 us against 8.0 for a bare
// DMA and stream wait (bench_cuda_seed's readback rows).
constexpr std::size_t small_readback = std::size_t{256} << 10;

// Threads for the pageable <-> pinned memcpy: one core copies ~10 GB/s, far short of the link
// (55 GB/s pinned on an H200 host, where 4 threads moved 2 GB to the GPU at 20 GB/s, 8 at 40 and
// 16 at 47). Half the cores, at most 16, unless NDFUSE_COPY_THREADS says.
unsigned copy_team_size() {
  if (const int n = support::env::copy_threads(); n > 0) return static_cast<unsigned>(std::min(n, 64));
  return std::clamp(std::thread::hardware_concurrency() / 2, 1u, 16u);
}

class copy_team {
 public:
  static copy_team& get() {
    // Leaked on purpose: joining workers from a static destructor races process teardown.
    static copy_team* team = new copy_team(copy_team_size());
    return *team;
  }

  void copy(void* dst, const void* src, std::size_t n) {
    if (n < split_threshold || workers_.empty()) {
      std::memcpy(dst, src, n);
      return;
    }
    std::lock_guard call(call_mutex_);
    const std::size_t parts = workers_.size() + 1;
    // Cache-line aligned pieces, so no two threads write the same line.
    const std::size_t piece = (n / parts + 63) & ~std::size_t{63};
    {
      std::lock_guard lock(mutex_);
      for (std::size_t w = 0; w < workers_.size(); ++w) {
        std::size_t begin = std::min(n, (w + 1) * piece), end = std::min(n, (w + 2) * piece);
        if (w + 1 == workers_.size()) end = n;
        jobs_[w] = {static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, end - begin};
      }
      pending_ = workers_.size();
      ++generation_;
    }
    start_.notify_all();
    std::memcpy(dst, src, std::min(n, piece));
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  struct job {
    char* dst = nullptr;
    const char* src = nullptr;
    std::size_t n = 0;
  };

  explicit copy_team(unsigned threads) : jobs_(threads - 1) {
    for (unsigned w = 0; w + 1 < threads; ++w) workers_.emplace_back([this, w] { work(w); });
  }

  void work(std::size_t w) {
    std::uint64_t seen = 0;
    for (;;) {
      job j;
      {
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        j = jobs_[w];
      }
      if (j.n) std::memcpy(j.dst, j.src, j.n);
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::mutex call_mutex_, mutex_;
  std::condition_variable start_, done_;
  std::vector<job> jobs_;
  std::vector<std::thread> workers_;
  std::uint64_t generation_ = 0;
  std::size_t pending_ = 0;
};

struct staging {
  std::mutex mutex;
  bool tried = false;
  char* pinned = nullptr;                      // slot_count slots of slot_bytes; nullptr when pinning failed
  std::array<cudaEvent_t, slot_count> free{};  // recorded after the last DMA touching each slot
  std::size_t next = 0;  // round robin, so back-to-back small copies do not wait on one slot
  char* slot(std::size_t k) { return pinned + k * slot_bytes; }
};

// Under st.mutex. False when pinned memory is unavailable (then copies go direct and synchronous).
bool ready(staging& st) {
  if (st.tried) return st.pinned != nullptr;
  st.tried = true;
  void* p = nullptr;
  if (cudaMallocHost(&p, slot_count * slot_bytes) != cudaSuccess) {
    cudaGetLastError();
    support::log_line("warning: cannot pin " + std::to_string(slot_count * slot_bytes >> 20) +
                      " MiB for transfer staging; host<->device copies will be slower");
    return false;
  }
  st.pinned = static_cast<char*>(p);
  for (auto& e : st.free)
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  return true;
}

staging& staging_of(int device) {
  // Leaked: pinned memory and events must not be released after the runtime shut down at exit.
  static std::array<staging*, max_devices> all{};
  static std::mutex all_mutex;
  std::lock_guard lock(all_mutex);
  if (!all[device]) all[device] = new staging;
  return *all[device];
}

// The calling thread's pinned buffer for small readbacks (small_readback bytes, portable: pinned for
// every device); nullptr when pinning failed, and the ring is used instead.
char* thread_small_buffer() {
  struct buffer {
    char* p = nullptr;
    bool tried = false;
    ~buffer() {
      if (p) cudaFreeHost(p);  // an error here (the runtime already torn down at exit) changes nothing
    }
  };
  thread_local buffer b;
  if (!b.tried) {
    b.tried = true;
    void* p = nullptr;
    if (cudaHostAlloc(&p, small_readback, cudaHostAllocPortable) == cudaSuccess)
      b.p = static_cast<char*>(p);
    else
      cudaGetLastError();
  }
  return b.p;
}

}  // namespace

void copy_host_to_device(void* dst, const void* src, std::size_t nbytes) {
  if (nbytes == 0) return;
  staging& st = staging_of(current_device());
  cudaStream_t stream = current_stream();
  std::lock_guard lock(st.mutex);
  if (!ready(st)) {
    check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync(host to device)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  for (std::size_t off = 0; off < nbytes; off += slot_bytes) {
    const std::size_t len = std::min(slot_bytes, nbytes - off);
    const std::size_t k = st.next++ % slot_count;
    check(cudaEventSynchronize(st.free[k]), "cudaEventSynchronize");  // the slot's last DMA is done
    copy_team::get().copy(st.slot(k), static_cast<const char*>(src) + off, len);
    check(cudaMemcpyAsync(static_cast<char*>(dst) + off, st.slot(k), len, cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync(host to device)");
    check(cudaEventRecord(st.free[k], stream), "cudaEventRecord");
  }
}

void copy_device_to_host(void* dst, const void* src, std::size_t nbytes) {
  if (nbytes == 0) return;
  if (nbytes <= small_readback) {
    if (char* buffer = thread_small_buffer()) {
      cudaStream_t stream = current_stream();
      check(cudaMemcpyAsync(buffer, src, nbytes, cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync(device to host)");
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      std::memcpy(dst, buffer, nbytes);
      return;
    }
  }
  staging& st = staging_of(current_device());
  cudaStream_t stream = current_stream();
  std::lock_guard lock(st.mutex);
  if (!ready(st)) {
    check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync(device to host)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  const std::size_t chunks = (nbytes + slot_bytes - 1) / slot_bytes;
  const std::size_t base = st.next;
  st.next += chunks;
  auto length = [&](std::size_t i) { return std::min(slot_bytes, nbytes - i * slot_bytes); };
  auto enqueue = [&](std::size_t i) {
    const std::size_t k = (base + i) % slot_count;
    check(cudaEventSynchronize(st.free[k]), "cudaEventSynchronize");  // e.g. an earlier upload reading it
    check(cudaMemcpyAsync(st.slot(k), static_cast<const char*>(src) + i * slot_bytes, length(i),
                          cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync(device to host)");
    check(cudaEventRecord(st.free[k], stream), "cudaEventRecord");
  };
  for (std::size_t i = 0; i < std::min(chunks, slot_count); ++i) enqueue(i);
  for (std::size_t i = 0; i < chunks; ++i) {
    const std::size_t k = (base + i) % slot_count;
    check(cudaEventSynchronize(st.free[k]), "cudaEventSynchronize");
    copy_team::get().copy(static_cast<char*>(dst) + i * slot_bytes, st.slot(k), length(i));
    if (i + slot_count < chunks) enqueue(i + slot_count);
  }
}

}  // namespace ndfuse::backend::cuda
