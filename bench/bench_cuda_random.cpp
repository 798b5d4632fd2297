// nf::random on the cuda backend: draws materialized (2 GB of float64 uniforms or normals, 1 GB of
// float32 uniforms) against the write limit (half a device-to-device copy of the same bytes, measured
// in the same run), on default_rng's Philox4x32 and on NumPy's Philox4x64; and a draw consumed by a
// reduction, nf::sum(rng.standard_normal(n)), which never writes the draw. CUDA events around each
// call, the GPU kept busy while the host builds and enqueues; nothing here asserts a time. Also the
// samplers that loop per element (standard_gamma, poisson) on 1e8 values. A result
// whose mean or standard deviation is off fails the run. Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <iostream>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
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

constexpr std::int64_t elements = 250'000'000;  // 2 GB of float64, 1 GB of float32
constexpr std::int64_t counts = 100'000'000;    // gamma and Poisson variates
bool wrong_results = false;

struct workload {
  std::string name;
  std::int64_t written_bytes;  // 0: nothing written but a scalar (the fused sum)
  std::function<nf::array(nf::random::Generator&)> draw;
  double mean, sd;  // the values' expected moments (the sum: its own)
};

// Checks the moments of a result: a few elements' worth of device-side reductions.
void check(const workload& w, const nf::array& r) {
  double mean = 0, sd = 0;
  if (r.ndim() == 0) {
    mean = r.item<double>();
    sd = 0;
  } else {
    const nf::array x = r.astype(nf::float64);
    mean = nf::mean(x).item<double>();
    sd = std::sqrt(nf::var(x).item<double>());
  }
  const double tol = w.written_bytes ? 1e-3 : 6 * w.sd;
  if (std::abs(mean - w.mean) > tol || (w.written_bytes && std::abs(sd - w.sd) > 1e-3)) {
    std::cerr << "bench_cuda_random: " << w.name << ": mean " << mean << " sd " << sd << ", expected "
              << w.mean << " and " << w.sd << "\n";
    wrong_results = true;
  }
}

void BM_draw(benchmark::State& state, const workload& w, bool philox64) {
  nf::random::Generator g =
      philox64 ? nf::random::Generator(nf::random::Philox(1)) : nf::random::default_rng(1);
  {
    nf::array warm = w.draw(g);  // compiles the kernel
    warm.eval();
    check(w, warm);
  }
  event_pair ev;
  std::vector<double> runs;
  for (auto _ : state) {
    keep_gpu_busy();
    ev.record_start();
    nf::array r = w.draw(g);
    r.eval();
    ev.record_stop();
    const double s = ev.seconds();
    runs.push_back(s);
    state.SetIterationTime(s);
  }
  const double ms = 1e3 * bench_cuda::median(runs);
  if (w.written_bytes) {
    // Writing N bytes at the bandwidth of a copy (which moves 2N) takes half the copy's time.
    const double write_ms = 1e3 * copy_seconds(static_cast<std::size_t>(w.written_bytes)) / 2;
    state.counters["x_write_limit"] = ms / write_ms;
    state.counters["GB/s"] = static_cast<double>(w.written_bytes) / ms / 1e6;
  }
  state.counters["run_median_ms"] = ms;
}

void register_all() {
  const nf::shape_t cube{1000, 500, 500};
  const std::vector<workload> workloads = {
      {"random/float64_2GB", elements * 8, [=](auto& g) { return g.random(cube); }, 0.5, std::sqrt(1.0 / 12)},
      {"random/float32_1GB", elements * 4, [](auto& g) { return g.random({elements}, nf::float32); }, 0.5,
       std::sqrt(1.0 / 12)},
      {"standard_normal/float64_2GB", elements * 8, [](auto& g) { return g.standard_normal({elements}); }, 0,
       1},
      {"sum_standard_normal/float64_2.5e8", 0, [](auto& g) { return nf::sum(g.standard_normal({elements})); },
       0, std::sqrt(double(elements))},
      // The samplers that loop per element (a substream each): 1e8 values.
      {"standard_gamma/float64_0.8GB", counts * 8,
       [](auto& g) { return g.standard_gamma(2.0, nf::shape_t{counts}); }, 2.0, std::sqrt(2.0)},
      {"poisson/int64_0.8GB", counts * 8, [](auto& g) { return g.poisson(10.0, nf::shape_t{counts}); }, 10.0,
       std::sqrt(10.0)},
  };
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3);
  };
  reps(benchmark::RegisterBenchmark("d2d_copy/2GB", BM_d2d_copy, std::size_t(elements * 8)));
  for (const auto& w : workloads) {
    reps(benchmark::RegisterBenchmark((w.name + "/fused").c_str(), BM_draw, w, false));
    reps(benchmark::RegisterBenchmark(("philox4x64_" + w.name + "/fused").c_str(), BM_draw, w, true));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return bench_cuda::run_cuda_benchmarks(argc, argv, "bench_cuda_random", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_random: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
