// User kernels on the cuda backend: seed 003's ElementwiseKernel (z = x * y where x - 2 > y, else
// x + y) over 1e8 float32, as nf::elementwise_kernel, against the copy limit (a device-to-device copy
// of the 1.2 GB it must move: x and y read, z written) and the same expression from built-in ops
// (nf::where); and the kernel inside a chain, k(x, y) * 2 + 1, which fuses into one kernel (CuPy
// runs its ElementwiseKernel as a barrier, then two kernels). CUDA events around each evaluation,
// the GPU kept busy while the host builds and enqueues; nothing here asserts a time. Element 7 of
// each result is checked. Without a GPU it says so and exits 0.
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

constexpr std::int64_t elements = 100'000'000;  // 0.4 GB of float32 per array
constexpr std::int64_t check_index = 7;
bool wrong_results = false;

const nf::elementwise_kernel& seed003() {
  static const nf::elementwise_kernel k("float32 x, float32 y", "float32 z",
                                        "if (x - 2 > y) { z = x * y; } else { z = x + y; }", "my_kernel");
  return k;
}

// x[i] = (i % 1000) / 100 and y[i] = 3.5: both branches taken.
struct inputs {
  nf::array x, y;
  inputs() {
    x = (nf::arange(elements) % 1000).astype(nf::float32) / 100.0f;
    y = nf::full({elements}, 3.5f, nf::float32);
    x.eval();
    y.eval();
  }
};

const inputs& data() {
  static const inputs d;
  return d;
}

float expected(bool chained) {
  const float x = static_cast<float>(check_index % 1000) / 100.0f, y = 3.5f;
  const float z = x - 2 > y ? x * y : x + y;
  return chained ? z * 2 + 1 : z;
}

struct workload {
  std::string name;
  bool chained;
  std::function<nf::array(const inputs&)> build;
};

void BM_workload(benchmark::State& state, const workload& w) {
  const inputs& in = data();
  {
    nf::array warm = w.build(in);  // compiles the kernel
    warm.eval();
    const float got = warm(check_index).item<float>();
    if (got != expected(w.chained)) {
      std::cerr << "bench_cuda_user_kernels: " << w.name << ": element " << check_index << " is " << got
                << ", expected " << expected(w.chained) << "\n";
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
  // Two arrays read and one written: a copy of 1.5 arrays moves the same bytes.
  const std::size_t moved = static_cast<std::size_t>(elements) * 4 * 3 / 2;
  state.counters["x_copy"] = ms / (1e3 * copy_seconds(moved));
  state.counters["GB/s"] = 3.0 * static_cast<double>(elements) * 4 / ms / 1e6;
  state.counters["run_median_ms"] = ms;
}

void register_all() {
  const std::vector<workload> workloads = {
      {"seed003/float32_1e8", false, [](const inputs& in) { return seed003()(in.x, in.y); }},
      {"seed003_builtin/float32_1e8", false,
       [](const inputs& in) { return nf::where(in.x - 2.0f > in.y, in.x * in.y, in.x + in.y); }},
      {"seed003_chained/float32_1e8", true,
       [](const inputs& in) { return seed003()(in.x, in.y) * 2.0f + 1.0f; }},
  };
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3);
  };
  reps(benchmark::RegisterBenchmark("d2d_copy/0.6GB", BM_d2d_copy, std::size_t(elements) * 6));
  for (const auto& w : workloads)
    reps(benchmark::RegisterBenchmark((w.name + "/fused").c_str(), BM_workload, w));
}

}  // namespace

int main(int argc, char** argv) {
  return bench_cuda::run_cuda_benchmarks(argc, argv, "bench_cuda_user_kernels", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_user_kernels: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
