// Reductions on the cuda backend against the bandwidth limit: a device-to-device copy of the input
// bytes measured in the same run. A copy of N bytes reads N and writes N, so the copy bandwidth is
// 2N / t_copy, and the limit for a reduction is the time to move its bytes (inputs read, result
// written) at that bandwidth; for a full reduction that is t_copy / 2.
//   1. full reductions of 2.5e8 float64 (2 GB): linalg::norm(x), sum(x), sum(a * b) (4 GB read);
//   2. row (axis 1) and column (axis 0) sums of 1 GiB float32 in three shapes: square, tall with an
//      inner extent of 4, wide with an outer extent of 4; both of the same values in 1 GiB of float64,
//      and column sums of them in 1 GiB of float16 and of complex64;
//   3. mean(y * 2 + 1, axis 1) of an evaluated y: the elementwise producer runs inside the reduction;
//   and cub_direct/sum/float64_2GB: CUB's DeviceReduce::Sum of the same values (cub_reference.cu),
//   what CuPy's sum runs, timed in the same process; and two views whose start is 8 bytes past a
//   16-byte boundary (ndfuse only): sum_unaligned/float64_2GB, the sum of x[1:], whose odd length
//   folds element by element (8-byte units, so 8 KB chunks), and sum_shifted/float64_2GB, the sum of
//   x[1:-1], whose even length folds 16-byte units, bulk-copied around the shift (nf_stage_shift).
// Fused against eager where eager launches more kernels. Each timed run: a device copy keeps the GPU
// busy while the host builds and enqueues the work (so host latency hidden behind it is not timed),
// then CUDA events around build + .eval(), then nf::cuda::synchronize(). Counters: bytes moved, GB/s,
// x_read_limit (time over the limit; goal <= 1.15), copy_bw_frac (its inverse; goal >= 0.85),
// kernels launched per run (nf::stats), host_us to build and enqueue. The Time column and counters are
// per repetition; the _median aggregate is the median over repetitions. Every result is checked
// against closed-form sums computed on the host (a wrong one makes the exit status 1). Nothing here
// asserts a time. Without a GPU it says so and exits 0. bench/peers/cupy_reduce.py times the same
// workloads (same names) in CuPy.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "ndfuse/device.hpp"
#include "ndfuse/ndfuse.hpp"
#include "ndfuse/reduce.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cuda_runtime_api.h>

#include "cub_reference.hpp"
#include "cuda_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr std::int64_t full_elements = 250'000'000;          // 2 GB of float64
constexpr std::int64_t square_extent = 16384;                // 16384 x 16384 float32: 1 GiB
constexpr std::int64_t long_extent = std::int64_t{1} << 26;  // 2^26 x 4 float32: 1 GiB
constexpr std::int64_t short_extent = 4;
constexpr std::int64_t wide_extent = 8192;  // 16384 x 8192 float64: 1 GiB, folded two columns a lane

using bench_cuda::BM_d2d_copy;
using bench_cuda::copy_seconds;
using bench_cuda::cuda_ok;
using bench_cuda::event_pair;
using bench_cuda::keep_gpu_busy;
using bench_cuda::stream;
using bench_cuda::time_direct_calls;

// ---- inputs and their values on the host (closed forms; never computed with ndfuse) ----

// sum over k < n of term(k % period), without n terms of work.
template <class Term>
double periodic_sum(std::int64_t n, std::int64_t period, Term term) {
  double full = 0, partial = 0;
  for (std::int64_t k = 0; k < period; ++k) {
    double t = term(k);
    full += t;
    if (k < n % period) partial += t;
  }
  return static_cast<double>(n / period) * full + partial;
}

// a[i] = (i % 1000) / 1000 + 1 and b[i] = 2 - (i % 1000) / 1000: in [1, 2], never zero.
double a_value(std::int64_t k) {
  return static_cast<double>(k) / 1000.0 + 1.0;
}
double b_value(std::int64_t k) {
  return 2.0 - static_cast<double>(k) / 1000.0;
}

// The float32 matrix x[i, j] = row[j] + col[i], row[j] = float32((j % 1000) / 1000 + 1) and
// col[i] = (i % 7) / 8: rows and columns differ, and no element is zero.
float row_value(std::int64_t j) {
  return static_cast<float>(static_cast<double>(j % 1000) / 1000.0 + 1.0);
}
float col_value(std::int64_t i) {
  return static_cast<float>(i % 7) * 0.125f;
}
float x_value(std::int64_t i, std::int64_t j) {
  return row_value(j) + col_value(i);
}

nf::array make_matrix(std::int64_t rows, std::int64_t cols) {
  std::vector<float> col(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) col[static_cast<std::size_t>(i)] = col_value(i);
  nf::array row = (nf::arange(cols) % 1000 / 1000.0 + 1.0).astype(nf::float32);
  nf::array x = nf::asarray(col, {rows, 1}) + row;  // broadcast to (rows, cols), float32
  x.eval();
  return x;
}

// Inputs of the workload being run, kept across its repetitions and dropped when another needs
// different ones, so at most one set of inputs is on the device.
const std::vector<nf::array>& inputs(const std::string& key,
                                     const std::function<std::vector<nf::array>()>& make) {
  static std::string held_key;
  static std::vector<nf::array> held;
  if (held_key != key) {
    held.clear();
    held_key.clear();
    nf::cuda::synchronize();
    held = make();
    nf::cuda::synchronize();
    held_key = key;
  }
  return held;
}

std::vector<nf::array> full_inputs() {
  nf::array a = nf::arange(full_elements) % 1000 / 1000.0 + 1.0;
  nf::array b = 2.0 - nf::arange(full_elements) % 1000 / 1000.0;
  nf::eval(a, b);
  return {a, b};
}

std::string relative_error_message(const char* what, double got, double expected, double tolerance) {
  double err = std::abs(got - expected) / std::abs(expected);
  if (err <= tolerance) return {};
  return std::string(what) + ": got " + std::to_string(got) + ", expected " + std::to_string(expected);
}

// Checks entries 0, n/2 and n-1 of a float32 (or float64) result of length n against expected(index).
std::string check_vector(const nf::array& r, std::int64_t n,
                         const std::function<double(std::int64_t)>& expected) {
  if (r.ndim() != 1 || r.size() != n) return "result has shape " + nf::shape_str(r.shape());
  std::vector<double> v = r.astype(nf::float64).to_vector<double>();
  for (std::int64_t i : {std::int64_t{0}, n / 2, n - 1}) {
    // float32 accumulation over up to 2^26 terms: a loose bound that still catches a wrong kernel.
    auto msg = relative_error_message("entry", v[static_cast<std::size_t>(i)], expected(i), 1e-3);
    if (!msg.empty()) return msg + " at index " + std::to_string(i);
  }
  return {};
}

// ---- the timed loop ----

// Set when a result fails its check: main then exits 1 (SkipWithError alone leaves the status 0).
bool wrong_results = false;

struct workload {
  std::string input_key;
  std::function<std::vector<nf::array>()> make_inputs;
  std::size_t input_bytes;  // bytes of input the reduction must read
  std::function<nf::array(const std::vector<nf::array>&)> compute;
  std::function<std::string(const nf::array&)> check;  // empty when the result is right
};

void BM_reduce(benchmark::State& state, const workload& w, bool eager) {
  const double copy = copy_seconds(w.input_bytes);
  const double copy_bandwidth = 2.0 * static_cast<double>(w.input_bytes) / copy;
  const std::vector<nf::array>& in = inputs(w.input_key, w.make_inputs);
  auto run = [&] {
    std::optional<nf::eager_scope> scope;
    if (eager) scope.emplace();
    nf::array r = w.compute(in);
    r.eval();
    return r;
  };
  // Warm-up outside the timed region: the first run compiles (or loads) the kernels, and host time
  // spent compiling between the two events would be counted as GPU time.
  for (int i = 0; i < 2; ++i) run();
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0, host = 0;
  std::uint64_t kernels = 0;
  nf::array result;
  for (auto _ : state) {
    result = nf::array();  // the previous result is freed outside the timed region
    keep_gpu_busy();
    nf::reset_stats();
    cuda_ok(cudaEventRecord(ev.start, stream()), "cudaEventRecord");
    auto t0 = std::chrono::steady_clock::now();
    result = run();
    host += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cuda_ok(cudaEventRecord(ev.stop, stream()), "cudaEventRecord");
    nf::cuda::synchronize();
    kernels += nf::stats().kernels_launched;
    double s = ev.seconds();
    total += s;
    state.SetIterationTime(s);
  }
  const double iterations = static_cast<double>(state.iterations());
  const double per_iter = total / iterations;
  const double bytes = static_cast<double>(w.input_bytes + result.nbytes());
  const double limit = bytes / copy_bandwidth;
  state.counters["bytes"] = bytes;
  state.counters["GB/s"] = bytes / per_iter / 1e9;
  state.counters["x_read_limit"] = per_iter / limit;
  state.counters["copy_bw_frac"] = limit / per_iter;
  state.counters["kernels"] = static_cast<double>(kernels) / iterations;
  state.counters["host_us"] = 1e6 * host / iterations;
  if (std::string msg = w.check(result); !msg.empty()) {
    wrong_results = true;
    state.SkipWithError(("wrong result: " + msg).c_str());
  }
}

// The same-run reference for the full sum: CUB's DeviceReduce::Sum (what CuPy's sum runs) over a raw
// buffer holding the values of sum/float64_2GB, timed as BM_reduce times ndfuse, checked likewise.
void BM_cub_sum(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(full_elements) * sizeof(double);
  static double* in = nullptr;  // made once, kept for the repetitions (and until exit)
  static double* out = nullptr;
  static void* temp = nullptr;
  static std::size_t temp_bytes = 0;
  if (!in) {
    cuda_ok(bench_cuda::cub_sum(nullptr, temp_bytes, nullptr, nullptr, full_elements, stream()),
            "cub::DeviceReduce::Sum (temporary bytes)");
    std::vector<double> host(static_cast<std::size_t>(full_elements));
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = a_value(static_cast<std::int64_t>(i % 1000));
    cuda_ok(cudaMalloc(reinterpret_cast<void**>(&in), bytes), "cudaMalloc");
    cuda_ok(cudaMalloc(reinterpret_cast<void**>(&out), sizeof(double)), "cudaMalloc");
    cuda_ok(cudaMalloc(&temp, std::max<std::size_t>(temp_bytes, 1)), "cudaMalloc");
    cuda_ok(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  auto call = [&] {
    cuda_ok(bench_cuda::cub_sum(temp, temp_bytes, in, out, full_elements, stream()),
            "cub::DeviceReduce::Sum");
  };
  call();
  nf::cuda::synchronize();
  const double per_iter = time_direct_calls(state, call);
  const double limit = copy_seconds(bytes) / 2;  // reading the bytes at the copy bandwidth
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["GB/s"] = static_cast<double>(bytes) / per_iter / 1e9;
  state.counters["x_read_limit"] = per_iter / limit;
  state.counters["copy_bw_frac"] = limit / per_iter;
  double got = 0;
  cuda_ok(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost), "cudaMemcpy");
  if (std::string msg =
          relative_error_message("cub sum", got, periodic_sum(full_elements, 1000, a_value), 1e-8);
      !msg.empty()) {
    wrong_results = true;
    state.SkipWithError(("wrong result: " + msg).c_str());
  }
}

// ---- the workloads ----

workload full_reduction(std::string which) {
  workload w;
  w.input_key = "full_float64";
  w.make_inputs = full_inputs;
  const std::size_t input = static_cast<std::size_t>(full_elements) * sizeof(double);
  if (which == "norm") {
    w.input_bytes = input;
    w.compute = [](const std::vector<nf::array>& in) { return nf::linalg::norm(in[0]); };
    w.check = [](const nf::array& r) {
      double expected = std::sqrt(
          periodic_sum(full_elements, 1000, [](std::int64_t k) { return a_value(k) * a_value(k); }));
      return relative_error_message("norm", r.item<double>(), expected, 1e-8);
    };
  } else if (which == "sum") {
    w.input_bytes = input;
    w.compute = [](const std::vector<nf::array>& in) { return nf::sum(in[0]); };
    w.check = [](const nf::array& r) {
      return relative_error_message("sum", r.item<double>(), periodic_sum(full_elements, 1000, a_value),
                                    1e-8);
    };
  } else if (which == "sum_unaligned") {  // x[1:]: every element but the first
    w.input_bytes = input - sizeof(double);
    w.compute = [](const std::vector<nf::array>& in) { return nf::sum(in[0](nf::slice(1, nf::none))); };
    w.check = [](const nf::array& r) {
      return relative_error_message("sum(x[1:])", r.item<double>(),
                                    periodic_sum(full_elements, 1000, a_value) - a_value(0), 1e-8);
    };
  } else if (which == "sum_shifted") {  // x[1:-1]: every element but the first and the last
    w.input_bytes = input - 2 * sizeof(double);
    w.compute = [](const std::vector<nf::array>& in) { return nf::sum(in[0](nf::slice(1, -1))); };
    w.check = [](const nf::array& r) {
      return relative_error_message(
          "sum(x[1:-1])", r.item<double>(),
          periodic_sum(full_elements, 1000, a_value) - a_value(0) - a_value((full_elements - 1) % 1000),
          1e-8);
    };
  } else {  // sum(a * b)
    w.input_bytes = 2 * input;
    w.compute = [](const std::vector<nf::array>& in) { return nf::sum(in[0] * in[1]); };
    w.check = [](const nf::array& r) {
      double expected =
          periodic_sum(full_elements, 1000, [](std::int64_t k) { return a_value(k) * b_value(k); });
      return relative_error_message("sum(a*b)", r.item<double>(), expected, 1e-8);
    };
  }
  return w;
}

// The matrix in float32, or its exact float64 copy (every float32 value is a float64 one, so the
// expected sums are the same).
workload axis_sum(std::int64_t rows, std::int64_t cols, int axis, nf::dtype dt = nf::float32) {
  workload w;
  w.input_key = std::string(nf::dtype_name(dt)) + "_" + std::to_string(rows) + "x" + std::to_string(cols);
  w.make_inputs = [rows, cols, dt] {
    nf::array x = make_matrix(rows, cols);
    if (dt != nf::float32) {
      x = x.astype(dt);
      x.eval();
    }
    return std::vector<nf::array>{x};
  };
  w.input_bytes = static_cast<std::size_t>(rows * cols) * nf::itemsize(dt);
  w.compute = [axis](const std::vector<nf::array>& in) { return nf::sum(in[0], axis); };
  if (axis == 1) {
    w.check = [rows, cols](const nf::array& r) {
      return check_vector(r, rows, [cols](std::int64_t i) {
        return periodic_sum(cols, 1000, [i](std::int64_t k) { return double(x_value(i, k)); });
      });
    };
  } else {
    w.check = [rows, cols](const nf::array& r) {
      return check_vector(r, cols, [rows](std::int64_t j) {
        return periodic_sum(rows, 7, [j](std::int64_t k) { return double(x_value(k, j)); });
      });
    };
  }
  return w;
}

// v rounded to the nearest float16 (ties to even; v a normal float16 magnitude, as x's entries are).
double float16_value(double v) {
  int e = 0;
  std::frexp(v, &e);
  const double ulp = std::ldexp(1.0, e - 11);  // float16 keeps 11 significant bits
  return std::nearbyint(v / ulp) * ulp;
}

// Column sums of x's values at the column kernel's other element sizes: 1 GiB of float16 (twice the
// columns; a column sums to at most 16384 x 2.75, inside float16's range) and of complex64 (x times
// 1 + 2i, exact; half the columns).
workload column_sum_as(nf::dtype dt, std::int64_t cols) {
  workload w;
  const std::int64_t rows = square_extent;
  w.input_key = std::string(nf::dtype_name(dt)) + "_" + std::to_string(rows) + "x" + std::to_string(cols);
  w.make_inputs = [rows, cols, dt] {
    nf::array x = make_matrix(rows, cols).astype(dt);
    if (dt == nf::complex64) x = x * std::complex<double>(1, 2);
    x.eval();
    return std::vector<nf::array>{x};
  };
  w.input_bytes = static_cast<std::size_t>(rows * cols) * nf::itemsize(dt);
  w.compute = [](const std::vector<nf::array>& in) { return nf::sum(in[0], 0); };
  const bool half = dt == nf::float16;
  auto column = [rows, half](std::int64_t j) {
    return periodic_sum(rows, 7, [j, half](std::int64_t k) {
      const double v = x_value(k, j);
      return half ? float16_value(v) : v;
    });
  };
  if (half) {
    w.check = [cols, column](const nf::array& r) { return check_vector(r, cols, column); };
  } else {  // the real parts, then the imaginary ones (twice the real)
    w.check = [cols, column](const nf::array& r) {
      std::string msg = check_vector(nf::real(r), cols, column);
      if (msg.empty()) msg = check_vector(nf::imag(r), cols, [&](std::int64_t j) { return 2 * column(j); });
      return msg;
    };
  }
  return w;
}

// mean(y * 2 + 1, axis=1) with y evaluated: one pass over y, the producer fused into the reduction.
workload lazy_mean() {
  workload w = axis_sum(square_extent, square_extent, 1);
  w.compute = [](const std::vector<nf::array>& in) { return nf::mean(in[0] * 2 + 1, 1); };
  w.check = [](const nf::array& r) {
    return check_vector(r, square_extent, [](std::int64_t i) {
      double total = periodic_sum(square_extent, 1000, [i](std::int64_t k) {
        float twice = x_value(i, k) * 2.0f;
        return double(twice + 1.0f);
      });
      return total / static_cast<double>(square_extent);
    });
  };
  return w;
}

std::string shape_name(std::int64_t rows, std::int64_t cols, nf::dtype dt = nf::float32) {
  return std::string(nf::dtype_name(dt)) + "_" + std::to_string(rows) + "x" + std::to_string(cols);
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b, int iterations, int repetitions) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(iterations)->Repetitions(repetitions);
    b->ReportAggregatesOnly(repetitions > 1);
  };
  auto add = [&](const std::string& name, const workload& w, bool eager, int iterations) {
    reps(benchmark::RegisterBenchmark(name.c_str(), BM_reduce, w, eager), iterations, 5);
  };
  const std::size_t full_bytes = static_cast<std::size_t>(full_elements) * sizeof(double);
  const std::size_t matrix_bytes = static_cast<std::size_t>(square_extent * square_extent) * sizeof(float);
  reps(benchmark::RegisterBenchmark("d2d_copy/2GB", BM_d2d_copy, full_bytes), 4, 5);
  reps(benchmark::RegisterBenchmark("d2d_copy/4GB", BM_d2d_copy, 2 * full_bytes), 4, 5);
  reps(benchmark::RegisterBenchmark("d2d_copy/1GiB", BM_d2d_copy, matrix_bytes), 10, 5);

  // 1. Full reductions of 2 GB float64 (4 runs x 5 repetitions each).
  add("norm/float64_2GB/fused", full_reduction("norm"), false, 4);
  add("norm/float64_2GB/eager", full_reduction("norm"), true, 4);
  add("sum/float64_2GB/fused", full_reduction("sum"), false, 4);
  reps(benchmark::RegisterBenchmark("cub_direct/sum/float64_2GB", BM_cub_sum), 4, 5);
  add("sum_unaligned/float64_2GB/fused", full_reduction("sum_unaligned"), false, 4);
  add("sum_shifted/float64_2GB/fused", full_reduction("sum_shifted"), false, 4);
  add("sum_a_times_b/float64_2x2GB/fused", full_reduction("sum_a_times_b"), false, 4);
  add("sum_a_times_b/float64_2x2GB/eager", full_reduction("sum_a_times_b"), true, 4);

  // 2. Row and column sums of 1 GiB float32: square, inner extent 4, outer extent 4.
  for (auto [rows, cols] : {std::pair{square_extent, square_extent}, std::pair{long_extent, short_extent},
                            std::pair{short_extent, long_extent}}) {
    for (int axis : {1, 0}) {
      add("sum_axis" + std::to_string(axis) + "/" + shape_name(rows, cols) + "/fused",
          axis_sum(rows, cols, axis), false, 10);
    }
  }
  // And 1 GiB of float64 (16 bytes of accumulators a lane: two columns where float32 folds four).
  for (int axis : {1, 0}) {
    add("sum_axis" + std::to_string(axis) + "/" + shape_name(square_extent, wide_extent, nf::float64) +
            "/fused",
        axis_sum(square_extent, wide_extent, axis, nf::float64), false, 10);
  }

  // And the column sums of the same values in 1 GiB of float16 and of complex64.
  add("sum_axis0/" + shape_name(square_extent, 2 * square_extent, nf::float16) + "/fused",
      column_sum_as(nf::float16, 2 * square_extent), false, 10);
  add("sum_axis0/" + shape_name(square_extent, wide_extent, nf::complex64) + "/fused",
      column_sum_as(nf::complex64, wide_extent), false, 10);

  // 3. mean(y * 2 + 1, axis 1) of an evaluated y.
  const std::string mean_name = "mean_axis1_lazy/" + shape_name(square_extent, square_extent);
  add(mean_name + "/fused", lazy_mean(), false, 10);
  add(mean_name + "/eager", lazy_mean(), true, 10);
}

}  // namespace

int main(int argc, char** argv) {
  return bench_cuda::run_cuda_benchmarks(argc, argv, "bench_cuda_reduce", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_reduce: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
