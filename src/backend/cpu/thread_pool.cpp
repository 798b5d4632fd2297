#include "backend/cpu/thread_pool.hpp"

#include <algorithm>
#include <cstdlib>

namespace ndfuse::backend::cpu {

namespace {
std::pair<std::int64_t, std::int64_t> share(std::int64_t n, unsigned parts, unsigned i) {
  std::int64_t base = n / parts, extra = n % parts;
  std::int64_t begin = i * base + std::min<std::int64_t>(i, extra);
  return {begin, begin + base + (static_cast<std::int64_t>(i) < extra ? 1 : 0)};
}
}  // namespace

thread_pool::thread_pool(unsigned threads) {
  for (unsigned i = 1; i < std::max(1u, threads); ++i) workers_.emplace_back([this, i] { work(i); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void thread_pool::work(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned, std::int64_t, std::int64_t)>* job;
    std::int64_t n;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
      n = job_size_;
    }
    auto [b, e] = share(n, size(), index);
    if (b < e) (*job)(index, b, e);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void thread_pool::parallel_for(std::int64_t n,
                               const std::function<void(unsigned, std::int64_t, std::int64_t)>& fn) {
  if (workers_.empty() || n <= 1) {
    if (n > 0) fn(0, 0, n);
    return;
  }
  std::lock_guard call(call_mutex_);
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    job_size_ = n;
    pending_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  auto [b, e] = share(n, size(), 0);
  if (b < e) fn(0, b, e);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

thread_pool& global_pool() {
  static thread_pool pool([] {
    if (const char* v = std::getenv("NDFUSE_THREADS"); v && std::atoi(v) > 0)
      return static_cast<unsigned>(std::atoi(v));
    return std::max(1u, std::thread::hardware_concurrency());
  }());
  return pool;
}

}  // namespace ndfuse::backend::cpu
