// The seed chain x *= 5; x *= x; x += x; x.eval() on the cuda backend, against a device-to-device
// copy of the same bytes measured in the same run (the bandwidth limit: one read, one write), and
// fused against eager. Also: host time per step on a small array, cold NVRTC compile and disk-cache
// hit, 2 GB host<->device transfers, small readbacks (8 B to 4 MiB), and peak memory of the in-place
// chain. Device times come from CUDA events (median over repetitions); nothing here asserts a time.
// Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "ndfuse/device.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "cuda_timing.hpp"
#include "ir/node.hpp"
#include "seed_step.hpp"

namespace {

using namespace bench_cuda;
using bench_seed::seed_step;

constexpr std::int64_t seed_elements = 250'000'000;  // 2 GB of float64, 1 GB of float32
constexpr std::int64_t small_elements = 1000;
constexpr std::size_t transfer_bytes = 2'000'000'000;

void* device_ptr(const nf::array& a) {
  return a.node()->storage->data;
}

// A device array of n values in [1, 2): never zero, and the chain keeps them finite (50x^2 <= 200).
nf::array seed_input(std::int64_t n, nf::dtype t) {
  nf::array x = (nf::arange(n) % 1000 / 1000.0 + 1.0).astype(t);
  x.eval();
  return x;
}

// A pristine copy of the input to restore before each timed run. The restore also keeps the GPU
// busy while the host builds and launches the timed work, so launch latency is not timed.
struct pristine {
  void* data = nullptr;
  std::size_t bytes = 0;
  explicit pristine(const nf::array& x) : bytes(x.nbytes()) {
    cuda_ok(cudaMalloc(&data, bytes), "cudaMalloc");
    cuda_ok(cudaMemcpy(data, device_ptr(x), bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
  }
  ~pristine() { cudaFree(data); }
  void restore_into(void* dst) const {
    cuda_ok(cudaMemcpyAsync(dst, data, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
  }
};

// One element read straight from device memory (float32 or float64).
double element(const nf::array& x, std::size_t i) {
  nf::cuda::synchronize();
  double d = 0;
  float f = 0;
  const char* p = static_cast<const char*>(device_ptr(x)) + i * x.itemsize();
  if (x.dtype() == nf::float64) {
    cuda_ok(cudaMemcpy(&d, p, sizeof d, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return d;
  }
  cuda_ok(cudaMemcpy(&f, p, sizeof f, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return f;
}

void BM_seed_chain(benchmark::State& state, nf::dtype t, bool eager) {
  const std::size_t bytes = static_cast<std::size_t>(seed_elements) * nf::itemsize(t);
  const double copy = copy_seconds(bytes);
  nf::array x = seed_input(seed_elements, t);
  pristine original(x);
  event_pair ev;
  double total = 0;
  auto chain = [&] { seed_step(x, eager); };
  // Warm-up outside the timed region: the first run compiles (or loads) the kernels, and host time
  // spent compiling between the two events would be counted as GPU time.
  original.restore_into(device_ptr(x));
  chain();
  cuda_ok(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  for (auto _ : state) {
    original.restore_into(device_ptr(x));
    cuda_ok(cudaEventRecord(ev.start, stream()), "cudaEventRecord");
    chain();
    cuda_ok(cudaEventRecord(ev.stop, stream()), "cudaEventRecord");
    double s = ev.seconds();
    total += s;
    state.SetIterationTime(s);
  }
  const double per_iter = total / static_cast<double>(state.iterations());
  state.counters["GB/s"] = 2.0 * static_cast<double>(bytes) / per_iter / 1e9;
  state.counters["x_copy"] = per_iter / copy;
  // NumPy: x = (np.arange(n) % 1000 / 1000 + 1); x *= 5; x *= x; x += x  ->  x[7] == 50 * 1.007**2
  if (std::abs(element(x, 7) - 50.0 * 1.007 * 1.007) > 1e-4)
    state.SkipWithError("seed chain gave a wrong value");
}

// Times `step` on the host: 100 warm-up steps (compile, caches), then per iteration 2,000 steps and
// one sync. us_per_step (the row's time) counts until the sync returned; enqueue_us_per_step until
// the last step returned. Neither is the host's time alone when the GPU cannot keep up: once the
// launch queue is full, the host waits inside the launch. host_us_per_step is: the same steps in
// batches of 100, each timed from its first step until its last returned, then a sync outside the
// timing, so the queue never holds more than 100 launches and never makes the host wait.
template <class Step>
void time_host_steps(benchmark::State& state, Step&& step) {
  for (int i = 0; i < 100; ++i) step();
  nf::cuda::synchronize();
  constexpr int steps = 2000, batch = 100;
  double total = 0, enqueue = 0, host = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) step();
    auto t1 = std::chrono::steady_clock::now();
    nf::cuda::synchronize();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / steps;
    total += s;
    enqueue += std::chrono::duration<double>(t1 - t0).count() / steps;
    state.SetIterationTime(s);
    state.PauseTiming();
    double batches = 0;
    for (int b = 0; b < steps / batch; ++b) {
      auto b0 = std::chrono::steady_clock::now();
      for (int i = 0; i < batch; ++i) step();
      batches += std::chrono::duration<double>(std::chrono::steady_clock::now() - b0).count();
      nf::cuda::synchronize();
    }
    host += batches / steps;
    state.ResumeTiming();
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["us_per_step"] = 1e6 * total / iterations;
  state.counters["enqueue_us_per_step"] = 1e6 * enqueue / iterations;
  state.counters["host_us_per_step"] = 1e6 * host / iterations;
}

// Host time per seed-chain step on a small array with the kernel cached.
void BM_host_step_small(benchmark::State& state, bool eager) {
  nf::array x = seed_input(small_elements, nf::float64);
  time_host_steps(state, [&] { seed_step(x, eager); });
}

// The same on a stream of the user's (nf::cuda::stream, blocking with respect to the legacy one).
void BM_host_step_small_on_stream(benchmark::State& state) {
  nf::cuda::stream s;
  nf::cuda::stream_scope scope(s);
  nf::array x = seed_input(small_elements, nf::float64);
  time_host_steps(state, [&] { seed_step(x, false); });
}

// The floor under a step's host time: one cuLaunchKernel per step, through the same driver entry
// point and stream ndfuse uses, of an empty kernel taking as many parameters as the seed chain's
// fused kernel (n, out, in, scalar). What a step costs above this is ndfuse's own work. The other
// floors say what the driver charges elsewhere: on a stream created non-blocking, on the per-thread
// default stream, and with the parameters packed in one buffer (cuLaunchKernel's `extra`).
enum class floor_launch { current_stream, nonblocking_stream, per_thread_stream, packed_params };

void BM_host_step_driver_floor(benchmark::State& state, floor_launch how) {
  namespace cu = nf::backend::cuda;
  static const char* ptx =
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry nf_empty(.param .u32 n, .param .u64 out, .param .u64 in, .param .f64 s) { ret; }\n";
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  nf::array x = seed_input(small_elements, nf::float64);  // makes the context current
  if (cu::driver().module_load_data(&module, ptx) != CUDA_SUCCESS ||
      cu::driver().module_get_function(&fn, module, "nf_empty") != CUDA_SUCCESS) {
    state.SkipWithError("the driver did not load the empty kernel's PTX");
    return;
  }
  unsigned n = small_elements;
  void* out = device_ptr(x);
  void* in = device_ptr(x);
  double s = 5;
  void* params[] = {&n, &out, &in, &s};
  // The packed form: each parameter at its PTX alignment (u32 at 0, then 8-byte ones from 8).
  struct {
    unsigned n;
    void* out;
    void* in;
    double s;
  } packed{n, out, in, s};
  std::size_t packed_size = sizeof(packed);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   CU_LAUNCH_PARAM_END};
  cudaStream_t created = nullptr;
  if (how == floor_launch::nonblocking_stream)
    cuda_ok(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  CUstream st = how == floor_launch::nonblocking_stream  ? CUstream(created)
                : how == floor_launch::per_thread_stream ? CU_STREAM_PER_THREAD
                                                         : CUstream(cu::current_stream());
  time_host_steps(state, [&] {
    if (how == floor_launch::packed_params)
      cu::driver().launch_kernel(fn, 1, 1, 1, 256, 1, 1, 0, st, nullptr, extra);
    else
      cu::driver().launch_kernel(fn, 1, 1, 1, 256, 1, 1, 0, st, params, nullptr);
  });
  if (created) cudaStreamDestroy(created);
  cu::driver().module_unload(module);
}

std::filesystem::path cache_dir() {
  static const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ndfuse-bench-cache-" + std::to_string(::getpid()));
  return dir;
}

// Cold: no kernel in memory or on disk (NVRTC runs). Disk hit: only the in-memory cache cleared.
void BM_compile(benchmark::State& state, bool cold) {
  nf::array x = seed_input(small_elements, nf::float64);
  auto chain = [&] {
    seed_step(x, false);
    nf::cuda::synchronize();
  };
  chain();  // NVRTC and module loading initialized outside the timing
  double total = 0;
  for (auto _ : state) {
    if (cold) std::filesystem::remove_all(cache_dir());
    nf::clear_kernel_cache();
    nf::reset_stats();
    auto t0 = std::chrono::steady_clock::now();
    chain();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += seconds;
    state.SetIterationTime(seconds);
    auto s = nf::stats();
    if (cold ? s.kernels_compiled != 1 : (s.kernels_compiled != 0 || s.cache_hits_disk != 1)) {
      state.SkipWithError(cold ? "expected one NVRTC compile" : "expected one disk-cache hit and no compile");
      break;
    }
  }
  state.counters["ms"] =
      1e3 * total / static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
}

void BM_transfer(benchmark::State& state, bool to_device) {
  auto& b = ndfuse::backend::current();
  std::vector<unsigned char> host(transfer_bytes);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i * 7 + 1);
  void* dev = b.allocate(transfer_bytes);
  b.copy_from_host(dev, host.data(), transfer_bytes);  // warm: staging buffers pinned here
  b.synchronize();
  double total = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    if (to_device) {
      b.copy_from_host(dev, host.data(), transfer_bytes);
      b.synchronize();
    } else {
      b.copy_to_host(host.data(), dev, transfer_bytes);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += seconds;
    state.SetIterationTime(seconds);
  }
  if (host[12345] != static_cast<unsigned char>(12345 * 7 + 1))
    state.SkipWithError("transfer corrupted data");
  b.deallocate(dev, transfer_bytes);
  state.counters["GB/s"] =
      static_cast<double>(transfer_bytes) * static_cast<double>(state.iterations()) / total / 1e9;
}

// Reading a few bytes back (info codes, a scalar): the backend's copy_to_host against its floor, a
// DMA into pinned memory, a wait for the stream and the memcpy out. The time is per readback (wall
// clock), over 200 in a row. (A kernel storing into pinned memory, in place of the DMA, was slower
// at every size measured.)
enum class readback { backend, copy_engine };

void BM_readback(benchmark::State& state, std::size_t bytes, readback how) {
  auto& b = ndfuse::backend::current();
  void* dev = b.allocate(bytes);
  std::vector<unsigned char> host(bytes, 0), expected(bytes);
  for (std::size_t i = 0; i < bytes; ++i) expected[i] = static_cast<unsigned char>(i * 7 + 1);
  b.copy_from_host(dev, expected.data(), bytes);
  b.synchronize();
  void* pinned = nullptr;
  cuda_ok(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
  constexpr int per_iteration = 200;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < per_iteration; ++r) {
      if (how == readback::backend) {
        b.copy_to_host(host.data(), dev, bytes);
        continue;
      }
      cuda_ok(cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, stream()), "cudaMemcpyAsync");
      cuda_ok(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
      std::memcpy(host.data(), pinned, bytes);
    }
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                           per_iteration);
  }
  if (host != expected) state.SkipWithError("readback corrupted data");
  cudaFreeHost(pinned);
  b.deallocate(dev, bytes);
}

// Peak bytes held by arrays during the in-place chain, over the array's own size (donation: ~1).
void BM_peak_memory(benchmark::State& state) {
  nf::array x = seed_input(seed_elements, nf::float64);
  for (auto _ : state) {
    nf::reset_stats();
    seed_step(x, false);
    nf::cuda::synchronize();
    state.SetIterationTime(1e-3);  // not a timing benchmark
  }
  state.counters["peak_over_array"] =
      static_cast<double>(nf::stats().peak_bytes) / static_cast<double>(x.nbytes());
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b, int iterations, int repetitions) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(iterations)->Repetitions(repetitions);
    b->ReportAggregatesOnly(repetitions > 1);
  };
  for (auto [t, name] : {std::pair{nf::float64, "float64_2GB"}, std::pair{nf::float32, "float32_1GB"}}) {
    reps(benchmark::RegisterBenchmark((std::string("d2d_copy/") + name).c_str(), BM_d2d_copy,
                                      static_cast<std::size_t>(seed_elements) * nf::itemsize(t)),
         10, 5);
    reps(benchmark::RegisterBenchmark((std::string("seed_fused/") + name).c_str(), BM_seed_chain, t, false),
         10, 5);
    reps(benchmark::RegisterBenchmark((std::string("seed_eager/") + name).c_str(), BM_seed_chain, t, true),
         10, 5);
  }
  reps(benchmark::RegisterBenchmark("host_step_1000/fused", BM_host_step_small, false), 5, 5);
  reps(benchmark::RegisterBenchmark("host_step_1000/eager", BM_host_step_small, true), 5, 5);
  reps(benchmark::RegisterBenchmark("host_step_1000/fused_on_stream", BM_host_step_small_on_stream), 5, 5);
  reps(benchmark::RegisterBenchmark("driver_launch/host_step_1000", BM_host_step_driver_floor,
                                    floor_launch::current_stream),
       5, 5);
  reps(benchmark::RegisterBenchmark("driver_launch/host_step_1000/nonblocking_stream",
                                    BM_host_step_driver_floor, floor_launch::nonblocking_stream),
       5, 5);
  reps(benchmark::RegisterBenchmark("driver_launch/host_step_1000/per_thread_stream",
                                    BM_host_step_driver_floor, floor_launch::per_thread_stream),
       5, 5);
  reps(benchmark::RegisterBenchmark("driver_launch/host_step_1000/packed_params", BM_host_step_driver_floor,
                                    floor_launch::packed_params),
       5, 5);
  reps(benchmark::RegisterBenchmark("compile/cold_nvrtc", BM_compile, true), 10, 1);
  reps(benchmark::RegisterBenchmark("compile/disk_hit", BM_compile, false), 20, 1);
  reps(benchmark::RegisterBenchmark("transfer_2GB/host_to_device", BM_transfer, true), 3, 3);
  reps(benchmark::RegisterBenchmark("transfer_2GB/device_to_host", BM_transfer, false), 3, 3);
  reps(benchmark::RegisterBenchmark("peak_memory/seed_fused_float64_2GB", BM_peak_memory), 1, 1);
  for (std::size_t bytes : {std::size_t{8}, std::size_t{40'000}, std::size_t{256} << 10, std::size_t{1} << 20,
                            std::size_t{4} << 20})
    for (auto [how, name] :
         {std::pair{readback::backend, "backend"}, std::pair{readback::copy_engine, "copy_engine"}}) {
      auto* b = benchmark::RegisterBenchmark(("readback/" + std::to_string(bytes) + "B/" + name).c_str(),
                                             BM_readback, bytes, how);
      reps(b, 5, 3);
      b->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  // Before any ndfuse call: the disk cache reads its directory once.
  setenv("NDFUSE_CACHE_DIR", cache_dir().c_str(), 1);
  const bool no_wrong_results = false;  // these benchmarks time; the seed's values are tested elsewhere
  const int status = run_cuda_benchmarks(argc, argv, "bench_cuda_seed", register_all, no_wrong_results);
  std::filesystem::remove_all(cache_dir());
  return status;
}

#else

int main() {
  std::cout << "bench_cuda_seed: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
