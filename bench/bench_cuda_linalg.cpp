// Matrix products on the cuda backend against a direct cuBLAS call on the same sizes, in the same
// run (goal: matmul at 0.98x or better of direct cuBLAS, x_cublas <= 1/0.98):
//   matmul/float64_10000, matmul/float32_10000   nf::matmul(a, b) of 10000 x 10000 matrices
//   matmul_at_b/float64_10000                   nf::matmul(a.T(), b): the transpose is an op flag
//   cublas_direct/...                           cublasDgemm / cublasSgemm on buffers of the same size
//   scaled_matmul/{fused,eager}/float32_1Mx64   2.5 * matmul(x, w) + c, x (2^20 x 64), w (64 x 64), c
//                                               lazy (0.5 * y): fused, the scalar is GEMM's alpha and
//                                               c its beta with c's kernel writing the output buffer;
//                                               eager (nf::eager_scope), a kernel per op. x_eager:
//                                               fused time over the eager one
// Compare with bench/peers/cupy_linalg.py (cupy.dot of the same inputs). Counters: TFLOP/s
// (2 n^3 / time), x_cublas (time over the direct call's), kernels and library_calls per run.
// Inputs are small multiples of 1/4, so every product entry is exact in float32 and float64: four
// entries are checked against a host computation (a wrong one makes the exit status 1). Nothing
// asserts a time. Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cublas_v2.h>

#include <map>
#include <optional>
#include <vector>

#include "cuda_timing.hpp"

namespace {

using namespace bench_cuda;

constexpr std::int64_t n = 10000;
bool wrong_results = false;
std::map<std::string, double> direct_seconds;  // per dtype name

double a_value(std::int64_t i) {
  return double(i % 7 - 3) / 4;
}
double b_value(std::int64_t i) {
  return double(i % 5 - 2) / 4;
}

std::vector<nf::array>& inputs(nf::dtype t) {
  static std::map<nf::dtype, std::vector<nf::array>> held;
  auto& v = held[t];
  if (v.empty()) {
    held.clear();
    nf::array a = ((nf::arange(n * n) % 7 - 3) / 4.0).astype(t).reshape({n, n});
    nf::array b = ((nf::arange(n * n) % 5 - 2) / 4.0).astype(t).reshape({n, n});
    a.eval();
    b.eval();
    nf::cuda::synchronize();
    held[t] = {a, b};
  }
  return held[t];
}

// Entry (i, j) of a @ b (or a.T @ b), computed on the host.
double expected(std::int64_t i, std::int64_t j, bool a_transposed) {
  double s = 0;
  for (std::int64_t k = 0; k < n; ++k)
    s += a_value(a_transposed ? k * n + i : i * n + k) * b_value(k * n + j);
  return s;
}

void BM_matmul(benchmark::State& state, nf::dtype t, bool a_transposed) {
  auto& in = inputs(t);
  auto run = [&] { return nf::matmul(a_transposed ? in[0].T() : in[0], in[1]).eval(); };
  run();
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0;
  std::uint64_t kernels = 0, calls = 0;
  nf::array r;
  for (auto _ : state) {
    r = nf::array();
    keep_gpu_busy();
    nf::reset_stats();
    ev.record_start();
    r = run();
    ev.record_stop();
    kernels += nf::stats().kernels_launched;
    calls += nf::stats().library_calls;
    const double s = ev.seconds();
    total += s;
    state.SetIterationTime(s);
  }
  const double per = total / double(state.iterations());
  state.counters["TFLOP/s"] = 2.0 * double(n) * n * n / per / 1e12;
  const std::string key(nf::dtype_name(t));
  if (direct_seconds.count(key)) state.counters["x_cublas"] = per / direct_seconds[key];
  state.counters["kernels"] = double(kernels) / double(state.iterations());
  state.counters["library_calls"] = double(calls) / double(state.iterations());
  for (auto [i, j] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {1, 7}, {4321, 9876}, {n - 1, n - 1}}) {
    const double got = r(i, j).astype(nf::float64).item<double>(), want = expected(i, j, a_transposed);
    if (got != want) {
      wrong_results = true;
      state.SkipWithError(("wrong result at (" + std::to_string(i) + ", " + std::to_string(j) +
                           "): " + std::to_string(got) + " vs " + std::to_string(want))
                              .c_str());
      return;
    }
  }
}

// The reference: cublas?gemm on raw buffers of the same size, on ndfuse's stream.
void BM_direct(benchmark::State& state, bool f64) {
  const std::size_t bytes = std::size_t(n * n) * (f64 ? 8 : 4);
  void *a, *b, *c;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&c, bytes), "cudaMalloc");
  cuda_ok(cudaMemset(a, 0x3f, bytes), "cudaMemset");  // normal numbers (0.75 as float)
  cuda_ok(cudaMemset(b, 0x3f, bytes), "cudaMemset");
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetStream(h, stream());
  const int m = int(n);
  auto call = [&] {
    if (f64) {
      const double one = 1, zero = 0;
      cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, static_cast<double*>(b), m,
                  static_cast<double*>(a), m, &zero, static_cast<double*>(c), m);
    } else {
      const float one = 1, zero = 0;
      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, static_cast<float*>(b), m,
                  static_cast<float*>(a), m, &zero, static_cast<float*>(c), m);
    }
  };
  call();
  const double per = time_direct_calls(state, call);
  direct_seconds[f64 ? "float64" : "float32"] = per;
  state.counters["TFLOP/s"] = 2.0 * double(n) * n * n / per / 1e12;
  cublasDestroy(h);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
}

// 2.5 * matmul(x, w) + 0.5 * y on a tall-skinny product (memory-bound: every pass over the 256 MiB
// result counts). Entries are exact (multiples of 1/4 and 1/8), checked against the host.
std::map<std::string, double> epilogue_seconds;
void BM_scaled_matmul(benchmark::State& state, bool eager) {
  constexpr std::int64_t rows = std::int64_t(1) << 20, d = 64;
  static const std::vector<nf::array> in = [] {
    nf::array x = ((nf::arange(rows * d) % 7 - 3) / 4.0).astype(nf::float32).reshape({rows, d});
    nf::array w = ((nf::arange(d * d) % 5 - 2) / 4.0).astype(nf::float32).reshape({d, d});
    nf::array y = ((nf::arange(rows * d) % 3 - 1) / 1.0).astype(nf::float32).reshape({rows, d});
    return std::vector<nf::array>{x.eval(), w.eval(), y.eval()};
  }();
  auto run = [&] {
    std::optional<nf::eager_scope> e;
    if (eager) e.emplace();
    // A statement of its own: the temporaries (the product, 2.5 * it) are gone before eval(), so no
    // handle holds them and the fuser may fold them (a temporary alive during eval() is written).
    nf::array r = 2.5 * nf::matmul(in[0], in[1]) + 0.5 * in[2];
    return r.eval();
  };
  run();
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0;
  std::uint64_t kernels = 0, calls = 0;
  nf::array r;
  for (auto _ : state) {
    r = nf::array();
    keep_gpu_busy();
    nf::reset_stats();
    ev.record_start();
    r = run();
    ev.record_stop();
    kernels += nf::stats().kernels_launched;
    calls += nf::stats().library_calls;
    const double sec = ev.seconds();
    total += sec;
    state.SetIterationTime(sec);
  }
  const double per = total / double(state.iterations());
  epilogue_seconds[eager ? "eager" : "fused"] = per;
  if (!eager && epilogue_seconds.count("eager")) state.counters["x_eager"] = per / epilogue_seconds["eager"];
  state.counters["kernels"] = double(kernels) / double(state.iterations());
  state.counters["library_calls"] = double(calls) / double(state.iterations());
  for (std::int64_t i : {std::int64_t(0), std::int64_t(12345), rows - 1})
    for (std::int64_t j : {std::int64_t(0), d - 1}) {
      double want = 0;
      for (std::int64_t k = 0; k < d; ++k)
        want += double((i * d + k) % 7 - 3) / 4 * (double((k * d + j) % 5 - 2) / 4);
      want = 2.5 * want + 0.5 * double((i * d + j) % 3 - 1);
      const double got = r(i, j).astype(nf::float64).item<double>();
      if (got != want) {
        wrong_results = true;
        state.SkipWithError(("wrong result at (" + std::to_string(i) + ", " + std::to_string(j) +
                             "): " + std::to_string(got) + " vs " + std::to_string(want))
                                .c_str());
        return;
      }
    }
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5)->Repetitions(3);
    b->ReportAggregatesOnly(true);
  };
  reps(benchmark::RegisterBenchmark("cublas_direct/float64_10000", BM_direct, true));
  reps(benchmark::RegisterBenchmark("matmul/float64_10000", BM_matmul, nf::float64, false));
  reps(benchmark::RegisterBenchmark("matmul_at_b/float64_10000", BM_matmul, nf::float64, true));
  reps(benchmark::RegisterBenchmark("cublas_direct/float32_10000", BM_direct, false));
  reps(benchmark::RegisterBenchmark("matmul/float32_10000", BM_matmul, nf::float32, false));
  reps(benchmark::RegisterBenchmark("scaled_matmul/eager/float32_1Mx64", BM_scaled_matmul, true));
  reps(benchmark::RegisterBenchmark("scaled_matmul/fused/float32_1Mx64", BM_scaled_matmul, false));
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_linalg", register_all, wrong_results);
}

#else
int main() {
  std::cout << "bench_cuda_linalg: built without CUDA; nothing to measure\n";
  return 0;
}
#endif
