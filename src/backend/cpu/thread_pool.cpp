#include "backend/cpu/thread_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

#include "ndfuse/error.hpp"
#include "support/env.hpp"

namespace ndfuse::backend::cpu {

namespace {
std::pair<std::int64_t, std::int64_t> share(std::int64_t n, unsigned parts, unsigned i) {
  std::int64_t base = n / parts, extra = n % parts;
  std::int64_t begin = i * base + std::min<std::int64_t>(i, extra);
  return {begin, begin + base + (static_cast<std::int64_t>(i) < extra ? 1 : 0)};
}
}  // namespace

thread_pool::thread_pool(unsigned threads) {
  try {
    for (unsigned i = 1; i < std::max(1u, threads); ++i) workers_.emplace_back([this, i] { work(i); });
  } catch (const std::system_error& e) {
    // The threads already started wait for work: stop and join them, or their std::thread objects
    // would end the process as the vector unwinds.
    const std::size_t started = workers_.size() + 1;
    stop_and_join();
    throw device_error("cpu backend: could not start thread " + std::to_string(started) + " of " +
                       std::to_string(threads) + " (" + e.what() + "); set NDFUSE_THREADS lower");
  }
}

thread_pool::~thread_pool() {
  stop_and_join();
}

void thread_pool::stop_and_join() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
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

unsigned pool_size(const char* setting, unsigned hardware) {
  hardware = std::max(1u, hardware);
  const unsigned most = 4 * hardware;
  if (!setting || !*setting) return hardware;
  char* end = nullptr;
  errno = 0;
  const long long asked = std::strtoll(setting, &end, 10);
  if (end == setting || *end != '\0' || asked <= 0) {
    std::fprintf(stderr, "ndfuse: NDFUSE_THREADS=%s is not a positive integer; using %u threads\n", setting,
                 hardware);
    return hardware;
  }
  if (errno == ERANGE || asked > most) {
    std::fprintf(stderr, "ndfuse: NDFUSE_THREADS=%s is more than 4 x the %u hardware threads; using %u\n",
                 setting, hardware, most);
    return most;
  }
  return static_cast<unsigned>(asked);
}

thread_pool& global_pool() {
  const auto& setting = support::env::raw(support::env::var::threads);
  static thread_pool pool(
      pool_size(setting ? setting->c_str() : nullptr, std::thread::hardware_concurrency()));
  return pool;
}

}  // namespace ndfuse::backend::cpu
