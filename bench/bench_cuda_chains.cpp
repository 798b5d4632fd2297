// Elementwise chains on the cuda backend against the bandwidth limit, fused and eager:
//   chain/{fused,eager}/<dtype>/len<L>/n<N>   y = step_{L-1}(... step_0(x)), then y.eval()
// for L in 1, 2, 4, 8, 16, N in 10^3 ... 10^8 and 2.5e8, dtype float32 and float64. The steps cycle
// through y * 1.5, y + 0.25, sin(y), y - 0.5: one input read and one output written whatever L is, so
// the limit of the fused chain is a device-to-device copy of the array (x_copy: time over that copy);
// eager (nf::eager_scope) runs one kernel per step. x_eager (fused rows): fused time over eager time.
//   d2d_copy/<dtype>/n<N>                     the copy itself, timed the same way (the limit)
// Protocol (bench/README.md): each timed run enqueues device copies that keep the GPU busy while the
// host builds and enqueues the chain (so host latency hidden behind them is not timed); those copies
// move 1 GiB each, which also evicts the array from L2, so small arrays start cold like large ones and
// need no rotation. CUDA events around build + .eval(); the result of the previous run is freed
// outside the timed region. The copy reference is timed with the same busy copies before it (so it
// is cold in L2 too), which is why this file does not use cuda_timing.hpp's copy_seconds.
// Counters: bytes (array read + written), GB/s, x_copy, x_eager, kernels per run, host_us (host time
// to build and enqueue; when it exceeds the busy copies' time the GPU waited on the host).
// Four entries of each result are checked against the chain computed on the host in the same dtype
// (a wrong one makes the exit status 1). Nothing asserts a time. Without a GPU it says so and exits
// 0. bench/peers/{cupy,torch,jax}_chains.py time the same chains (workload names without the
// fused/eager part).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "cuda_timing.hpp"

namespace {

using namespace bench_cuda;

constexpr std::int64_t sizes[] = {1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000, 250'000'000};
constexpr int lengths[] = {1, 2, 4, 8, 16};

bool wrong_results = false;

// ---- the chain, on the device and on the host ----

nf::array step(const nf::array& y, int k) {
  switch (k % 4) {
    case 0:
      return y * 1.5;
    case 1:
      return y + 0.25;
    case 2:
      return nf::sin(y);
    default:
      return y - 0.5;
  }
}

template <class T>
T host_step(T y, int k) {
  switch (k % 4) {
    case 0:
      return y * T(1.5);
    case 1:
      return y + T(0.25);
    case 2:
      return std::sin(y);
    default:
      return y - T(0.5);
  }
}

// x[i] = (i % 1000) / 1000 + 1, rounded to the dtype: in [1, 2), never zero.
template <class T>
double host_chain(std::int64_t i, int length) {
  T y = static_cast<T>(static_cast<double>(i % 1000) / 1000.0 + 1.0);
  for (int k = 0; k < length; ++k) y = host_step(y, k);
  return static_cast<double>(y);
}

// One input at a time on the device (the largest is 2 GB), kept across the rows that share it.
const nf::array& input(std::int64_t n, nf::dtype t) {
  static std::optional<std::pair<std::int64_t, nf::dtype>> held_key;
  static nf::array held;
  if (!held_key || *held_key != std::pair{n, t}) {
    held = nf::array();
    nf::cuda::synchronize();
    held = (nf::arange(n) % 1000 / 1000.0 + 1.0).astype(t);
    held.eval();
    nf::cuda::synchronize();
    held_key = std::pair{n, t};
  }
  return held;
}

// ---- timing ----

// Busy copies enqueued before a timed run: one (~0.35 ms on an H100) plus one per four steps, so an
// eager chain of 16 steps (16 ops built and launched from the host) is still enqueued in time.
void keep_busy(int length) {
  for (int i = 0; i < 1 + length / 4; ++i) keep_gpu_busy();
}

std::map<std::size_t, double> copy_time;                                // per byte count
std::map<std::tuple<std::int64_t, nf::dtype, int>, double> eager_time;  // per (n, dtype, length)

double cold_copy_seconds(std::size_t bytes) {
  if (auto it = copy_time.find(bytes); it != copy_time.end()) return it->second;
  void *a = nullptr, *b = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cuda_ok(cudaMemset(a, 1, bytes), "cudaMemset");
  event_pair ev;
  std::vector<double> t;
  for (int i = 0; i < 13; ++i) {
    keep_busy(0);
    ev.record_start();
    cuda_ok(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    ev.record_stop();
    if (i >= 3) t.push_back(ev.seconds());
  }
  cudaFree(a);
  cudaFree(b);
  return copy_time[bytes] = median(t);
}

void BM_copy(benchmark::State& state, std::size_t bytes) {
  const double limit = cold_copy_seconds(bytes);
  void *a = nullptr, *b = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cuda_ok(cudaMemset(a, 1, bytes), "cudaMemset");
  event_pair ev;
  double total = 0;
  for (auto _ : state) {
    keep_busy(0);
    ev.record_start();
    cuda_ok(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    ev.record_stop();
    const double s = ev.seconds();
    total += s;
    state.SetIterationTime(s);
  }
  cudaFree(a);
  cudaFree(b);
  const double per_iter = total / static_cast<double>(state.iterations());
  state.counters["bytes"] = 2.0 * static_cast<double>(bytes);
  state.counters["GB/s"] = 2.0 * static_cast<double>(bytes) / per_iter / 1e9;
  state.counters["x_copy"] = per_iter / limit;
}

void BM_chain(benchmark::State& state, nf::dtype t, std::int64_t n, int length, bool eager) {
  const nf::array& x = input(n, t);
  const std::size_t bytes = x.nbytes();
  const double limit = cold_copy_seconds(bytes);
  auto run = [&] {
    std::optional<nf::eager_scope> scope;
    if (eager) scope.emplace();
    nf::array y = x;
    for (int k = 0; k < length; ++k) y = step(y, k);
    y.eval();
    return y;
  };
  // Warm-up outside the timed region: the first run compiles (or loads) the kernels.
  for (int i = 0; i < 2; ++i) run();
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0, host = 0;
  std::uint64_t kernels = 0;
  nf::array result;
  for (auto _ : state) {
    result = nf::array();  // the previous result is freed outside the timed region
    keep_busy(length);
    nf::reset_stats();
    ev.record_start();
    const auto t0 = std::chrono::steady_clock::now();
    result = run();
    host += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ev.record_stop();
    const double s = ev.seconds();
    kernels += nf::stats().kernels_launched;
    total += s;
    state.SetIterationTime(s);
  }
  const double iterations = static_cast<double>(state.iterations());
  const double per_iter = total / iterations;
  state.counters["bytes"] = 2.0 * static_cast<double>(bytes);
  state.counters["GB/s"] = 2.0 * static_cast<double>(bytes) / per_iter / 1e9;
  state.counters["x_copy"] = per_iter / limit;
  state.counters["kernels"] = static_cast<double>(kernels) / iterations;
  state.counters["host_us"] = 1e6 * host / iterations;
  const auto key = std::tuple{n, t, length};
  if (eager) {
    eager_time[key] = per_iter;
  } else if (auto it = eager_time.find(key); it != eager_time.end()) {
    state.counters["x_eager"] = per_iter / it->second;
  }
  const double tolerance = t == nf::float32 ? 2e-5 : 1e-12;
  for (std::int64_t i : {std::int64_t{0}, std::int64_t{7}, n / 2 + 3, n - 1}) {
    const double got = result(i).astype(nf::float64).item<double>();
    const double want = t == nf::float32 ? host_chain<float>(i, length) : host_chain<double>(i, length);
    if (!(std::abs(got - want) <= tolerance * (1.0 + std::abs(want)))) {
      wrong_results = true;
      state.SkipWithError(("wrong result at " + std::to_string(i) + ": " + std::to_string(got) + " vs " +
                           std::to_string(want))
                              .c_str());
      return;
    }
  }
}

// Enough runs for a stable median at the small sizes, few at the large ones (a 2 GB eager chain of
// 16 steps takes ~25 ms a run).
int iterations_for(std::int64_t n) {
  return n <= 1'000'000 ? 20 : n <= 10'000'000 ? 10 : 4;
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b, int iterations) {
    b->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(iterations)->Repetitions(3);
    b->ReportAggregatesOnly(true);
  };
  for (auto [t, type] : {std::pair{nf::float32, "float32"}, std::pair{nf::float64, "float64"}}) {
    for (std::int64_t n : sizes) {
      const std::string suffix = std::string(type) + "/n" + std::to_string(n);
      const int iterations = iterations_for(n);
      reps(benchmark::RegisterBenchmark(("d2d_copy/" + suffix).c_str(), BM_copy,
                                        static_cast<std::size_t>(n) * nf::itemsize(t)),
           iterations);
      for (int length : lengths) {
        const std::string tail =
            std::string(type) + "/len" + std::to_string(length) + "/n" + std::to_string(n);
        // Eager first: the fused row reports its ratio to it.
        reps(benchmark::RegisterBenchmark(("chain/eager/" + tail).c_str(), BM_chain, t, n, length, true),
             iterations);
        reps(benchmark::RegisterBenchmark(("chain/fused/" + tail).c_str(), BM_chain, t, n, length, false),
             iterations);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_chains", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_chains: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
