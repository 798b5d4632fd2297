// Views, gathers and sorting on the cuda backend against the copy limit measured in the same run:
//   1. the fused stencil (a[:-1] + a[1:]) * 0.5 of 2.5e8 float64 (2 GB), fused and eager: it reads a
//      and writes the result once, so its limit is the time of a device-to-device copy of a
//      (goal: within 1.1x);
//   2. x.T().copy() of a 16384 x 16384 float32 matrix (1 GiB): limit = copy of 1 GiB (goal: >= 80%
//      of the copy bandwidth, copy_bw_frac >= 0.8);
//   3. a gather x(idx) of 2.5e7 float64 at scattered indices (2.5e7 int64 indices);
//   4. sort and argsort of 1e8 float32 keys (compare with bench/peers/cupy_views.py's cupy.sort).
// Counters: bytes (the bytes the work must move), GB/s, x_copy (time over the copy limit),
// copy_bw_frac (its inverse), kernels and library_calls per run, host_us to build and enqueue.
// Each result is checked on the host against closed forms (a wrong one makes the exit status 1);
// nothing asserts a time. Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <vector>

#include "cuda_timing.hpp"

namespace {

using namespace bench_cuda;

constexpr std::int64_t stencil_elements = 250'000'000;  // 2 GB of float64
constexpr std::int64_t square = 16384;                  // 1 GiB of float32
constexpr std::int64_t gather_elements = 25'000'000;
constexpr std::int64_t sort_elements = 100'000'000;

bool wrong_results = false;

struct workload {
  std::function<std::vector<nf::array>()> make_inputs;
  std::size_t limit_bytes;  // bytes of the copy whose time is the limit (it moves twice this)
  std::size_t moved_bytes;  // bytes the work must read and write
  std::function<nf::array(const std::vector<nf::array>&)> compute;
  std::function<std::string(const nf::array&)> check;  // empty when right
};

const std::vector<nf::array>& inputs_of(const std::string& key,
                                        const std::function<std::vector<nf::array>()>& make) {
  static std::string held_key;
  static std::vector<nf::array> held;
  if (held_key != key) {
    held.clear();
    nf::cuda::synchronize();
    held = make();
    for (auto& a : held) a.eval();
    nf::cuda::synchronize();
    held_key = key;
  }
  return held;
}

void BM_run(benchmark::State& state, const std::string& key, const workload& w, bool eager) {
  const double limit = copy_seconds(w.limit_bytes);
  const auto& in = inputs_of(key, w.make_inputs);
  auto run = [&] {
    std::optional<nf::eager_scope> scope;
    if (eager) scope.emplace();
    nf::array r = w.compute(in);
    r.eval();
    return r;
  };
  for (int i = 0; i < 2; ++i) run();  // compiles outside the timed region
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0, host = 0;
  std::uint64_t kernels = 0, calls = 0;
  nf::array result;
  for (auto _ : state) {
    result = nf::array();
    keep_gpu_busy();
    nf::reset_stats();
    ev.record_start();
    auto t0 = std::chrono::steady_clock::now();
    result = run();
    host += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ev.record_stop();
    nf::cuda::synchronize();
    kernels += nf::stats().kernels_launched;
    calls += nf::stats().library_calls;
    const double s = ev.seconds();
    total += s;
    state.SetIterationTime(s);
  }
  const double n = static_cast<double>(state.iterations());
  const double per_iter = total / n;
  state.counters["bytes"] = static_cast<double>(w.moved_bytes);
  state.counters["GB/s"] = static_cast<double>(w.moved_bytes) / per_iter / 1e9;
  state.counters["x_copy"] = per_iter / limit;
  state.counters["copy_bw_frac"] = limit / per_iter;
  state.counters["kernels"] = static_cast<double>(kernels) / n;
  state.counters["library_calls"] = static_cast<double>(calls) / n;
  state.counters["host_us"] = 1e6 * host / n;
  if (std::string msg = w.check(result); !msg.empty()) {
    wrong_results = true;
    state.SkipWithError(("wrong result: " + msg).c_str());
  }
}

double a_value(std::int64_t i) {
  return static_cast<double>(i % 1000) / 1000.0 + 1.0;
}

workload stencil() {
  workload w;
  w.make_inputs = [] { return std::vector<nf::array>{nf::arange(stencil_elements) % 1000 / 1000.0 + 1.0}; };
  w.limit_bytes = stencil_elements * sizeof(double);
  w.moved_bytes = (2 * stencil_elements - 1) * sizeof(double);
  w.compute = [](const std::vector<nf::array>& in) {
    const nf::array& a = in[0];
    return (a(nf::slice(0, stencil_elements - 1)) + a(nf::slice(1, stencil_elements))) * 0.5;
  };
  w.check = [](const nf::array& r) -> std::string {
    for (std::int64_t i : {std::int64_t{0}, std::int64_t{998}, std::int64_t{999}, stencil_elements - 2}) {
      const double got = r(i).item<double>(), want = (a_value(i) + a_value(i + 1)) * 0.5;
      if (got != want) return "stencil[" + std::to_string(i) + "] = " + std::to_string(got);
    }
    return {};
  };
  return w;
}

workload transpose_copy() {
  workload w;
  w.make_inputs = [] {
    return std::vector<nf::array>{
        (nf::arange(square * square) % 1000).astype(nf::float32).reshape({square, square})};
  };
  w.limit_bytes = square * square * sizeof(float);
  w.moved_bytes = 2 * w.limit_bytes;
  w.compute = [](const std::vector<nf::array>& in) { return in[0].T().copy(); };
  w.check = [](const nf::array& r) -> std::string {
    for (auto [i, j] :
         {std::pair<std::int64_t, std::int64_t>{0, 1}, {5, 7}, {square - 1, 3}, {17, square - 2}}) {
      const float got = r(i, j).item<float>(), want = static_cast<float>((j * square + i) % 1000);
      if (got != want)
        return "x.T[" + std::to_string(i) + "," + std::to_string(j) + "] = " + std::to_string(got);
    }
    return {};
  };
  return w;
}

std::int64_t scattered(std::int64_t i, std::int64_t n) {
  return (i * 7919 + 13) % n;
}

workload gather() {
  workload w;
  w.make_inputs = [] {
    return std::vector<nf::array>{nf::arange(gather_elements) % 1000 / 1000.0 + 1.0,
                                  (nf::arange(gather_elements) * 7919 + 13) % gather_elements};
  };
  w.limit_bytes = gather_elements * sizeof(double);
  w.moved_bytes = gather_elements * (2 * sizeof(double) + sizeof(std::int64_t));
  w.compute = [](const std::vector<nf::array>& in) { return nf::array(in[0])(in[1]) * 2.0; };
  w.check = [](const nf::array& r) -> std::string {
    for (std::int64_t i : {std::int64_t{0}, std::int64_t{12345}, gather_elements - 1}) {
      const double got = r(i).item<double>(), want = a_value(scattered(i, gather_elements)) * 2.0;
      if (got != want) return "gather[" + std::to_string(i) + "] = " + std::to_string(got);
    }
    return {};
  };
  return w;
}

// Keys: a multiplicative hash of the index, as float32 in [0, 1).
workload sort(bool indices) {
  workload w;
  w.make_inputs = [] {
    return std::vector<nf::array>{
        ((nf::arange(sort_elements) * 2654435761LL) % 4294967296LL / 4294967296.0).astype(nf::float32)};
  };
  w.limit_bytes = sort_elements * sizeof(float);
  w.moved_bytes = sort_elements * (sizeof(float) + (indices ? sizeof(std::int64_t) : sizeof(float)));
  w.compute = [indices](const std::vector<nf::array>& in) {
    return indices ? nf::argsort(in[0]) : nf::sort(in[0]);
  };
  w.check = [indices](const nf::array& r) -> std::string {
    const auto& keys = inputs_of("sort", {});
    const nf::array sorted = indices ? nf::take(keys[0], r) : r;
    const auto v = sorted.to_vector<float>();
    for (std::size_t i = 1; i < v.size(); ++i)
      if (v[i - 1] > v[i]) return "not sorted at " + std::to_string(i);
    return {};
  };
  return w;
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b, int iterations) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(iterations)->Repetitions(5);
    b->ReportAggregatesOnly(true);
  };
  auto add = [&](const std::string& name, const std::string& key, const workload& w, bool eager,
                 int iterations) {
    reps(benchmark::RegisterBenchmark(name.c_str(), BM_run, key, w, eager), iterations);
  };
  reps(benchmark::RegisterBenchmark("d2d_copy/2GB", BM_d2d_copy, std::size_t(stencil_elements) * 8), 4);
  reps(benchmark::RegisterBenchmark("d2d_copy/1GiB", BM_d2d_copy, std::size_t(square * square) * 4), 10);
  add("stencil/float64_2GB/fused", "stencil", stencil(), false, 4);
  add("stencil/float64_2GB/eager", "stencil", stencil(), true, 4);
  add("transpose_copy/float32_16384x16384/fused", "transpose", transpose_copy(), false, 6);
  add("gather/float64_25M/fused", "gather", gather(), false, 10);
  add("sort/float32_1e8", "sort", sort(false), false, 4);
  add("argsort/float32_1e8", "sort", sort(true), false, 4);
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_views", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_views: built without CUDA; nothing to measure\n";
  return 0;
}

#endif
