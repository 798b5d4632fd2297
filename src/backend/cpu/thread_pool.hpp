// A fixed pool of worker threads for the CPU backend. parallel_for hands each thread one contiguous
// range, so each core streams through its own part of memory.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ndfuse::backend::cpu {

class thread_pool {
 public:
  // Starts threads - 1 workers (the caller is the last); nf::device_error when the system refuses one.
  explicit thread_pool(unsigned threads);
  ~thread_pool();
  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Calls fn(thread_index, begin, end) over a split of [0, n); returns when all are done.
  void parallel_for(std::int64_t n, const std::function<void(unsigned, std::int64_t, std::int64_t)>& fn);

 private:
  void work(unsigned index);
  void stop_and_join();
  std::vector<std::thread> workers_;
  std::mutex call_mutex_;  // one parallel_for at a time, whichever thread calls
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned, std::int64_t, std::int64_t)>* job_ = nullptr;
  std::int64_t job_size_ = 0;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

// The pool's size for an NDFUSE_THREADS of `setting` (null: unset) on `hardware` threads: the hardware
// concurrency unless set, at most 4 x it (more only contend for the cores, and a runaway value
// would start tens of thousands of threads), with a warning on stderr for a value it does not take.
unsigned pool_size(const char* setting, unsigned hardware);

// The process's pool, of pool_size(NDFUSE_THREADS, hardware) threads.
thread_pool& global_pool();

}  // namespace ndfuse::backend::cpu
