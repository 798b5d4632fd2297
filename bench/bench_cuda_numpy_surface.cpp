// NumPy functions that NumPy writes in Python over ufuncs and sorts, on the cuda backend, as their
// peers run them (bench/peers/*_numpy_surface.py): i0 (a 55-step Chebyshev recurrence, one fused
// kernel here) and histogram (100 bins) over 1e8 float32, quantile (a sort, then one kernel) over
// 1e7, and convolve with 31 taps ("same") over 1e7; i0 and histogram against the copy limit of the
// bytes they read and write. CUDA events around each evaluation, the GPU kept busy while the host
// builds and enqueues; nothing here asserts a time. Each result is checked against the value NumPy
// gives on an equivalent small input (computed on the host). Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <iostream>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "cuda_timing.hpp"

namespace {

using bench_cuda::BM_d2d_copy;
using bench_cuda::copy_seconds;
using bench_cuda::event_pair;
using bench_cuda::keep_gpu_busy;

constexpr std::int64_t elements = 100'000'000;
constexpr std::int64_t quantile_elements = 10'000'000;
constexpr std::int64_t convolve_elements = 10'000'000;
constexpr std::int64_t taps = 31;
constexpr std::int64_t bins = 100;
bool wrong_results = false;

// x[i] = (i % 1000) / 100 - 5, as the peers' spec.
nf::array levels(std::int64_t n) {
  nf::array x = (nf::arange(n) % 1000).astype(nf::float32) / 100.0f - 5.0f;
  x.eval();
  return x;
}

struct inputs {
  nf::array x = levels(elements), xq = levels(quantile_elements), xc = levels(convolve_elements);
  nf::array w = nf::full({taps}, 1.0f / taps, nf::float32);
};

const inputs& data() {
  static const inputs d;
  return d;
}

float level(std::int64_t i) {
  return static_cast<float>(i % 1000) / 100.0f - 5.0f;
}

struct workload {
  std::string name;
  std::size_t moved;  // bytes a copy would move for the copy limit, or 0
  std::function<nf::array(const inputs&)> build;
  std::function<double(const nf::array&)> checked;
  double expected;
};

void BM_workload(benchmark::State& state, const workload& w) {
  const inputs& in = data();
  {
    const nf::array warm = w.build(in);
    const double got = w.checked(warm);
    if (!(std::fabs(got - w.expected) <= 1e-4 * std::max(1.0, std::fabs(w.expected)))) {
      std::cerr << "bench_cuda_numpy_surface: " << w.name << ": got " << got << ", expected " << w.expected
                << "\n";
      wrong_results = true;
    }
  }
  event_pair ev;
  std::vector<double> runs;
  for (auto _ : state) {
    keep_gpu_busy();
    ev.record_start();
    nf::array r = w.build(in);
    r.eval();
    ev.record_stop();
    const double s = ev.seconds();
    runs.push_back(s);
    state.SetIterationTime(s);
  }
  const double ms = 1e3 * bench_cuda::median(runs);
  if (w.moved) state.counters["x_copy"] = ms / (1e3 * copy_seconds(w.moved / 2));
  state.counters["run_median_ms"] = ms;
}

// The values NumPy gives (tests of the functions themselves are in tests/test_*.cpp): i0 at
// element 7 from the modified Bessel function (even: of |x|, as std::cyl_bessel_i takes no x < 0), the
// quantile of the repeated levels, the counts' total, and the 31-point mean around output 5000.
double quantile_expected() {
  std::vector<float> sorted;
  for (std::int64_t i = 0; i < 1000; ++i) sorted.push_back(level(i));
  std::sort(sorted.begin(), sorted.end());
  const double v = 0.3 * static_cast<double>(quantile_elements - 1);
  const auto lo = static_cast<std::int64_t>(std::floor(v));
  const double a = sorted[lo * 1000 / quantile_elements], b = sorted[(lo + 1) * 1000 / quantile_elements];
  return a + (b - a) * (v - static_cast<double>(lo));
}

double convolve_expected() {
  double s = 0;
  for (std::int64_t i = 5000 - taps / 2; i <= 5000 + taps / 2; ++i) s += level(i);
  return s / taps;
}

void register_all() {
  const std::vector<workload> workloads = {
      {"i0/float32_1e8", std::size_t(elements) * 8, [](const inputs& in) { return nf::i0(in.x); },
       [](const nf::array& r) { return static_cast<double>(r(7).item<float>()); },
       std::cyl_bessel_i(0.0, std::fabs(static_cast<double>(level(7))))},
      {"quantile/float32_1e7", 0, [](const inputs& in) { return nf::quantile(in.xq, 0.3); },
       [](const nf::array& r) { return static_cast<double>(r.item<float>()); }, quantile_expected()},
      {"histogram/float32_1e8", std::size_t(elements) * 4,
       [](const inputs& in) { return nf::histogram(in.x, bins).hist; },
       [](const nf::array& r) { return static_cast<double>(nf::sum(r).item<std::int64_t>()); },
       static_cast<double>(elements)},
      {"convolve/float32_1e7_31", 0, [](const inputs& in) { return nf::convolve(in.xc, in.w, "same"); },
       [](const nf::array& r) { return static_cast<double>(r(5000).item<float>()); }, convolve_expected()},
  };
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3);
  };
  reps(benchmark::RegisterBenchmark("d2d_copy/0.4GB", BM_d2d_copy, std::size_t(elements) * 4));
  for (const auto& w : workloads)
    reps(benchmark::RegisterBenchmark((w.name + "/fused").c_str(), BM_workload, w));
}

}  // namespace

int main(int argc, char** argv) {
  return bench_cuda::run_cuda_benchmarks(argc, argv, "bench_cuda_numpy_surface", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_numpy_surface: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
