// Moves between devices: a 2 GB float64 array from the CPU device to GPU 0, back, and
// from GPU 0 to GPU 1 where there are two (a peer copy), each against the CUDA runtime's own copy of
// the same bytes in the same process: cudaMemcpy from the same pageable host buffer, cudaMemcpy
// from pinned memory (the link's limit), cudaMemcpyPeer with peer access. Wall clock around the move's
// evaluation and a synchronize, median of the repetitions; nothing here asserts a time. Also the seed chain's
// host step on 1000 elements of GPU 0 while the CPU is the current device.
// Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <iostream>

#include "ndfuse/device.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <utility>

#include "cuda_timing.hpp"
#include "ir/node.hpp"
#include "seed_step.hpp"

namespace {

using namespace bench_cuda;

constexpr std::int64_t elements = 250'000'000;  // 2 GB of float64
constexpr std::size_t bytes = elements * sizeof(double);
bool wrong_results = false;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void* data_of(const nf::array& a) {
  return static_cast<char*>(a.node()->storage->data) + a.node()->offset * sizeof(double);
}

// The CPU array every move starts from: values 0 .. n-1 (checked at both ends of each move).
const nf::array& host_array() {
  static const nf::array x = [] {
    nf::device_scope on(nf::device::cpu());
    nf::array a = nf::arange(static_cast<double>(elements));
    a.eval();
    return a;
  }();
  return x;
}

void check(const nf::array& a, const char* what) {
  const nf::array probe = a(nf::slice(elements - 3, nf::none)).get();
  const auto v = probe.to_vector<double>();
  if (v != std::vector<double>{elements - 3.0, elements - 2.0, elements - 1.0}) {
    std::cerr << what << ": wrong result\n";
    wrong_results = true;
  }
}

void counters(benchmark::State& state, double total) {
  state.counters["GB/s"] = static_cast<double>(bytes) * static_cast<double>(state.iterations()) / total / 1e9;
}

// The source on `from`, evaluated; then per iteration the move to `to`, evaluated and waited for
// (a move is a lazy node: building it alone copies nothing).
void time_move(benchmark::State& state, nf::device from, nf::device to, const char* what) {
  nf::array source = host_array().to(from);
  source.eval();
  nf::array moved;
  double total = 0;
  for (auto _ : state) {
    moved = nf::array();
    nf::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    moved = source.to(to);
    moved.eval();
    nf::synchronize();
    const double s = seconds_since(t0);
    total += s;
    state.SetIterationTime(s);
  }
  check(moved, what);
  counters(state, total);
}

// The CUDA runtime's copies of the same bytes: from the same pageable buffer, from pinned memory,
// and between GPUs.
enum class reference { pageable_to_gpu, pinned_to_gpu, gpu_to_pageable, gpu_to_pinned, peer };

void BM_reference(benchmark::State& state, reference r) {
  void* dev = nullptr;
  void* pinned = nullptr;
  void* peer = nullptr;
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cuda_ok(cudaMalloc(&dev, bytes), "cudaMalloc");
  if (r == reference::pinned_to_gpu || r == reference::gpu_to_pinned) {
    cuda_ok(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
    std::memset(pinned, 1, bytes);
  }
  if (r == reference::peer) {
    // Peer access both ways, as ndfuse's move enables it (without it the copy stages through the
    // host); already enabled when a move ran first in this process.
    for (const auto [from, to] : {std::pair{0, 1}, std::pair{1, 0}}) {
      cuda_ok(cudaSetDevice(from), "cudaSetDevice");
      if (cudaDeviceEnablePeerAccess(to, 0) != cudaSuccess) (void)cudaGetLastError();
    }
    cuda_ok(cudaSetDevice(1), "cudaSetDevice");
    cuda_ok(cudaMalloc(&peer, bytes), "cudaMalloc");
    cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  }
  // Reads come from the CPU array's own buffer; writes go to a pageable buffer of their own, its
  // pages touched first, so that the CPU array stays intact for the moves' checks.
  std::unique_ptr<char[]> scratch;
  void* host = data_of(host_array());
  if (r == reference::gpu_to_pageable) {
    scratch.reset(new char[bytes]);
    std::memset(scratch.get(), 1, bytes);
    host = scratch.get();
  }
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    switch (r) {
      case reference::pageable_to_gpu:
        cuda_ok(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
        break;
      case reference::pinned_to_gpu:
        cuda_ok(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
        break;
      case reference::gpu_to_pageable:
        cuda_ok(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        break;
      case reference::gpu_to_pinned:
        cuda_ok(cudaMemcpy(pinned, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        break;
      case reference::peer:
        cuda_ok(cudaMemcpyPeer(peer, 1, dev, 0, bytes), "cudaMemcpyPeer");
        cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        break;
    }
    const double s = seconds_since(t0);
    total += s;
    state.SetIterationTime(s);
  }
  counters(state, total);
  cudaFree(dev);
  if (pinned) cudaFreeHost(pinned);
  if (peer) {
    cudaSetDevice(1);
    cudaFree(peer);
    cudaSetDevice(0);
  }
}

// The seed chain's host step on 1000 elements of GPU 0 while the CPU is the current device: what
// a plan run under the device guard costs on the host.
void BM_host_step_across(benchmark::State& state) {
  nf::array x;
  {
    nf::device_scope on(nf::device::cuda(0));
    x = nf::ones({1000});
  }
  nf::device_scope cpu(nf::device::cpu());
  for (int i = 0; i < 100; ++i) bench_seed::seed_step(x, false, 1.0000001);
  nf::synchronize();
  constexpr int steps = 2000;
  double total = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) bench_seed::seed_step(x, false, 1.0000001);
    nf::synchronize();
    const double s = seconds_since(t0) / steps;
    total += s;
    state.SetIterationTime(s);
  }
  state.counters["us_per_step"] = 1e6 * total / static_cast<double>(state.iterations());
}

void reps(benchmark::internal::Benchmark* b, int iterations, int repetitions) {
  b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(iterations)->Repetitions(repetitions);
  b->ReportAggregatesOnly(true);
}

void register_all() {
  const nf::device cpu = nf::device::cpu(), gpu0 = nf::device::cuda(0), gpu1 = nf::device::cuda(1);
  reps(benchmark::RegisterBenchmark("move/cpu_to_cuda0/2GB", time_move, cpu, gpu0, "cpu_to_cuda0"), 3, 3);
  reps(benchmark::RegisterBenchmark("memcpy_pageable/move/cpu_to_cuda0/2GB", BM_reference,
                                    reference::pageable_to_gpu),
       3, 3);
  reps(benchmark::RegisterBenchmark("memcpy_pinned/move/cpu_to_cuda0/2GB", BM_reference,
                                    reference::pinned_to_gpu),
       3, 3);
  reps(benchmark::RegisterBenchmark("move/cuda0_to_cpu/2GB", time_move, gpu0, cpu, "cuda0_to_cpu"), 3, 3);
  reps(benchmark::RegisterBenchmark("memcpy_pageable/move/cuda0_to_cpu/2GB", BM_reference,
                                    reference::gpu_to_pageable),
       3, 3);
  reps(benchmark::RegisterBenchmark("memcpy_pinned/move/cuda0_to_cpu/2GB", BM_reference,
                                    reference::gpu_to_pinned),
       3, 3);
  if (nf::cuda::device_count() >= 2) {
    reps(benchmark::RegisterBenchmark("move/cuda0_to_cuda1/2GB", time_move, gpu0, gpu1, "cuda0_to_cuda1"), 3,
         3);
    reps(benchmark::RegisterBenchmark("memcpy_peer/move/cuda0_to_cuda1/2GB", BM_reference, reference::peer),
         3, 3);
  }
  auto* b = benchmark::RegisterBenchmark("host_step_1000/gpu_array_cpu_current", BM_host_step_across);
  reps(b, 5, 5);
  b->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_devices", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_devices: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
