// The seed chain x *= 5; x *= x; x += x; x.eval() on the CPU backend: fused (one kernel, in place)
// against eager (three kernels), each reported as a ratio to a memcpy (on all cores) of the same bytes
// measured in the same process. Times are wall-clock medians; nothing here asserts a time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "ndfuse/ndfuse.hpp"
#include "seed_step.hpp"

namespace {

constexpr std::int64_t elements = 50'000'000;  // 400 MB of float64

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// memcpy split over as many threads as the CPU backend runs (NDFUSE_THREADS, else every core): one
// core alone cannot reach a many-core machine's memory bandwidth, which the backend's kernels use.
void parallel_memcpy(char* dst, const char* src, std::size_t bytes) {
  static const unsigned threads = [] {
    if (const char* v = std::getenv("NDFUSE_THREADS"); v && std::atoi(v) > 0) return unsigned(std::atoi(v));
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  std::vector<std::thread> pool;
  const std::size_t chunk = (bytes / threads + 63) / 64 * 64;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(bytes, t * chunk), end = std::min(bytes, begin + chunk);
    if (begin < end) pool.emplace_back([=] { std::memcpy(dst + begin, src + begin, end - begin); });
  }
  for (auto& th : pool) th.join();
}

// Median time of one read + one write of `bytes` with memcpy on all cores: the bandwidth limit for
// a chain that reads its input once and writes its output once.
double memcpy_seconds(std::size_t bytes) {
  static double cached = 0;
  if (cached > 0) return cached;
  std::vector<char> a(bytes, 1), b(bytes, 2);
  std::vector<double> t;
  for (int i = 0; i < 7; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    parallel_memcpy(b.data(), a.data(), bytes);
    benchmark::DoNotOptimize(b.data());
    t.push_back(seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return cached = t[t.size() / 2];
}

void report(benchmark::State& state, double total_seconds, std::int64_t iters) {
  double per_iter = total_seconds / static_cast<double>(iters);
  double bytes = 2.0 * elements * sizeof(double);
  state.counters["GB/s"] = bytes / per_iter / 1e9;
  state.counters["x_memcpy"] = per_iter / memcpy_seconds(static_cast<std::size_t>(elements * sizeof(double)));
}

void seed_chain(benchmark::State& state, bool eager) {
  nf::array x = nf::ones({elements});
  x.eval();
  double total = 0;
  std::int64_t iters = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    bench_seed::seed_step(x, eager);
    double dt = seconds_since(t0);
    state.SetIterationTime(dt);
    total += dt;
    ++iters;
  }
  report(state, total, iters);
  state.SetBytesProcessed(state.iterations() * 2 * elements * static_cast<std::int64_t>(sizeof(double)));
}

void BM_memcpy_same_bytes(benchmark::State& state) {
  std::size_t bytes = elements * sizeof(double);
  std::vector<char> a(bytes, 1), b(bytes, 2);
  double total = 0;
  std::int64_t iters = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    parallel_memcpy(b.data(), a.data(), bytes);
    benchmark::DoNotOptimize(b.data());
    double dt = seconds_since(t0);
    state.SetIterationTime(dt);
    total += dt;
    ++iters;
  }
  report(state, total, iters);
}

void BM_seed_chain_fused(benchmark::State& state) {
  seed_chain(state, false);
}
void BM_seed_chain_eager(benchmark::State& state) {
  seed_chain(state, true);
}

// Host time per seed-chain step on 1,000 elements (below the size that wakes the thread pool): the
// frontend, the fuser, the kernel-cache lookup and a launch, with the interpreter's ~1 us of work.
// The CUDA backend shares everything but the launch, so this is where its host overhead is profiled.
void BM_host_step_small(benchmark::State& state) {
  const bool eager = state.range(0) != 0;
  nf::array x = nf::ones({1000});
  auto step = [&] { bench_seed::seed_step(x, eager, 1.0000001); };
  for (int i = 0; i < 100; ++i) step();
  constexpr int steps = 2000;
  double total = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) step();
    double s = seconds_since(t0) / steps;
    total += s;
    state.SetIterationTime(s);
  }
  state.counters["us_per_step"] = 1e6 * total / static_cast<double>(state.iterations());
}

}  // namespace

BENCHMARK(BM_host_step_small)
    ->ArgName("eager")
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(5)  // each iteration is 2,000 steps, its time per step
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_memcpy_same_bytes)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->MinTime(0.5);
BENCHMARK(BM_seed_chain_fused)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->MinTime(0.5);
BENCHMARK(BM_seed_chain_eager)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->MinTime(0.5);

BENCHMARK_MAIN();
