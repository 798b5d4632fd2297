// Timing helpers shared by the CUDA benchmarks: CUDA events on ndfuse's stream, the device-to-device
// copy every ratio is taken against (measured once per size, in the same process), and a copy that
// keeps the GPU busy while the host builds and enqueues the timed work (so host latency hidden
// behind it is not timed). Include only where NDFUSE_WITH_CUDA is defined.
#pragma once
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "ndfuse/config.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/error.hpp"

namespace bench_cuda {

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "benchmark: %s failed: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

inline cudaStream_t stream() {
  return static_cast<cudaStream_t>(nf::cuda::stream::null().handle());
}

struct event_pair {
  cudaEvent_t start{}, stop{};
  event_pair() {
    cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
    cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~event_pair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  void record_start() { cuda_ok(cudaEventRecord(start, stream()), "cudaEventRecord"); }
  void record_stop() { cuda_ok(cudaEventRecord(stop, stream()), "cudaEventRecord"); }
  double seconds() {
    cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms / 1e3;
  }
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median time of a D2D copy of `bytes` (reads and writes `bytes` each), measured once per size.
inline double copy_seconds(std::size_t bytes) {
  static std::map<std::size_t, double> measured;
  if (auto it = measured.find(bytes); it != measured.end()) return it->second;
  void *a = nullptr, *b = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cuda_ok(cudaMemset(a, 1, bytes), "cudaMemset");
  event_pair ev;
  std::vector<double> t;
  for (int i = 0; i < 23; ++i) {
    cuda_ok(cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");  // busy
    ev.record_start();
    cuda_ok(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    ev.record_stop();
    if (i >= 3) t.push_back(ev.seconds());
  }
  cudaFree(a);
  cudaFree(b);
  return measured[bytes] = median(t);
}

// A 512 MiB copy (~0.3 ms on an H100) enqueued before each timed run.
inline void keep_gpu_busy() {
  constexpr std::size_t busy_bytes = std::size_t{512} << 20;
  static void* a = nullptr;
  static void* b = nullptr;
  if (!a) {
    cuda_ok(cudaMalloc(&a, busy_bytes), "cudaMalloc");
    cuda_ok(cudaMalloc(&b, busy_bytes), "cudaMalloc");
    cuda_ok(cudaMemset(a, 1, busy_bytes), "cudaMemset");
  }
  cuda_ok(cudaMemcpyAsync(b, a, busy_bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
}

// The timed loop of a direct-call reference (cufft_direct, cublas_direct, cub_direct): per
// iteration, the GPU kept busy while `call` is queued, CUDA events around it. Returns the mean
// seconds per iteration. The caller warms up (plans, handles) before.
template <class Call>
double time_direct_calls(benchmark::State& state, Call&& call) {
  event_pair ev;
  double total = 0;
  std::vector<double> runs;
  for (auto _ : state) {
    keep_gpu_busy();
    ev.record_start();
    call();
    ev.record_stop();
    const double s = ev.seconds();
    total += s;
    runs.push_back(s);
    state.SetIterationTime(s);
  }
  state.counters["run_median_ms"] = 1e3 * median(runs);
  return total / static_cast<double>(state.iterations());
}

// A D2D copy of `bytes` as a benchmark row, timed per iteration: the reference every ratio is
// taken against (x_copy compares it with the shared median of copy_seconds).
inline void BM_d2d_copy(benchmark::State& state, std::size_t bytes) {
  void *a = nullptr, *b = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&b, bytes), "cudaMalloc");
  cuda_ok(cudaMemset(a, 1, bytes), "cudaMemset");
  event_pair ev;
  double total = 0;
  for (auto _ : state) {
    cuda_ok(cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");  // busy
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
  state.counters["x_copy"] = per_iter / copy_seconds(bytes);
}

// The body of a CUDA benchmark's main(): registers and runs the benchmarks when the cuda backend is
// in use, else says so and succeeds (a machine without a GPU has nothing to measure). The exit
// status is 1 when some result was wrong.
template <class Register>
int run_cuda_benchmarks(int argc, char** argv, const char* name, Register&& register_all,
                        const bool& wrong_results) {
  benchmark::Initialize(&argc, argv);
  std::string backend;
  try {
    backend = nf::backend_name();
  } catch (const nf::error& e) {
    backend = e.what();
  }
  if (nf::cuda::device_count() == 0 || backend != "cuda") {
    std::cout << name << ": no CUDA device in use (backend: " << backend << "); nothing to measure\n";
    return 0;
  }
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return wrong_results ? 1 : 0;
}

}  // namespace bench_cuda
