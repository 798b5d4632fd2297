// Fourier transforms on the cuda backend against direct cuFFT calls on the same sizes, in the same
// run (goal: fft of 2^24 complex128 no slower than CuPy, which makes one cuFFT call):
//   fft/complex128_2^24     nf::fft::fft of 2^24 complex128 values (ndfuse's two-pass kernel,
//                           src/backend/cuda/kernels/four_step_fft.cu; NDFUSE_FFT_FOUR_STEP=0: Z2Z)
//   rfft/float64_2^24       nf::fft::rfft of 2^24 float64 values (D2Z)
//   fft2/complex64_4096     nf::fft::fft2 of a 4096 x 4096 complex64 array (2-d C2C)
//   cufft_direct/...        cufftExec* of a plan made once, on buffers of the same size
// Plans are made by the warm-up call (stats().fft_plans_created is checked to stay unchanged while
// timing), so the times are transforms only. Compare with bench/peers/cupy_fft.py (the same
// workloads in CuPy). Counters: bytes (the input read plus the output written once), GB/s, x_copy
// (time over a device-to-device copy of the same bytes), x_cufft (time over the direct call's),
// kernels and library_calls per run, run_median_ms and run_max_ms (the median and the slowest of the
// repetition's runs: the peers report medians of runs), host_us (building and enqueueing the call).
// Inputs are pure tones, exp(2 pi i k0 j / n), whose transform is n at k0 and 0 elsewhere: a few
// entries are checked (a wrong one makes the exit status 1); the direct calls read the same tones.
// Nothing asserts a time. Without a GPU it says so and exits 0.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <map>
#include <numbers>
#include <vector>

#include "cuda_timing.hpp"

namespace {

using namespace bench_cuda;

constexpr std::int64_t n1 = std::int64_t{1} << 24;  // the 1-d transforms
constexpr std::int64_t side = 4096;                 // the 2-d transform
constexpr std::int64_t k0 = 5, k1 = 3;              // the tones' frequencies
bool wrong_results = false;
std::map<std::string, double> direct_seconds;  // per workload

enum class workload { fft_z2z, rfft_d2z, fft2_c2c };

const char* name_of(workload w) {
  switch (w) {
    case workload::fft_z2z:
      return "fft/complex128_2^24";
    case workload::rfft_d2z:
      return "rfft/float64_2^24";
    case workload::fft2_c2c:
      return "fft2/complex64_4096";
  }
  return "?";
}

// Bytes a transform must move: its input read once and its output written once.
double bytes_of(workload w) {
  switch (w) {
    case workload::fft_z2z:
      return 2.0 * 16 * double(n1);
    case workload::rfft_d2z:
      return 8.0 * double(n1) + 16.0 * double(n1 / 2 + 1);
    case workload::fft2_c2c:
      return 2.0 * 8 * double(side * side);
  }
  return 0;
}

// exp(2 pi i k j / n) over j (the real part only for `real`), evaluated once and kept.
nf::array tone(std::int64_t n, std::int64_t k, bool real) {
  const nf::array phase = nf::arange(n).astype(nf::float64) * (2 * std::numbers::pi * double(k) / double(n));
  if (real) return nf::cos(phase);
  return nf::cos(phase) + nf::sin(phase) * std::complex<double>(0, 1);
}

const nf::array& input(workload w) {
  static std::map<workload, nf::array> held;
  auto it = held.find(w);
  if (it != held.end()) return it->second;
  held.clear();  // one workload's input at a time
  nf::array x;
  if (w == workload::fft_z2z) x = tone(n1, k0, false);
  if (w == workload::rfft_d2z) x = tone(n1, k0, true);
  if (w == workload::fft2_c2c) {
    // exp(2 pi i (k0 r + k1 c) / side): the outer product of two tones
    const nf::array rows = tone(side, k0, false).reshape({side, 1}),
                    cols = tone(side, k1, false).reshape({1, side});
    x = (rows * cols).astype(nf::complex64);
  }
  x.eval();
  nf::cuda::synchronize();
  return held[w] = x;
}

nf::array transform(workload w, const nf::array& x) {
  switch (w) {
    case workload::fft_z2z:
      return nf::fft::fft(x);
    case workload::rfft_d2z:
      return nf::fft::rfft(x);
    case workload::fft2_c2c:
      return nf::fft::fft2(x);
  }
  return x;
}

// Entries of the result against the tone's transform: the peak and some zeros.
void check(benchmark::State& state, workload w, const nf::array& r) {
  const bool single = w == workload::fft2_c2c;
  std::complex<double> peak;
  std::complex<double> zeros[3];
  double expected_peak = 0;
  if (w == workload::fft2_c2c) {
    peak = r(k0, k1).astype(nf::complex128).item<std::complex<double>>();
    zeros[0] = r(0, 0).astype(nf::complex128).item<std::complex<double>>();
    zeros[1] = r(k0, k1 + 1).astype(nf::complex128).item<std::complex<double>>();
    zeros[2] = r(side - 1, 17).astype(nf::complex128).item<std::complex<double>>();
    expected_peak = double(side * side);
  } else {
    peak = r(k0).item<std::complex<double>>();
    zeros[0] = r(0).item<std::complex<double>>();
    zeros[1] = r(k0 + 1).item<std::complex<double>>();
    zeros[2] = r(12345).item<std::complex<double>>();
    expected_peak = w == workload::rfft_d2z ? double(n1) / 2 : double(n1);
  }
  const double tol = (single ? 1e-4 : 1e-9) * expected_peak;
  bool ok = std::abs(peak - expected_peak) <= tol;
  for (const auto& z : zeros) ok = ok && std::abs(z) <= tol;
  if (!ok) {
    wrong_results = true;
    state.SkipWithError(("wrong result: peak " + std::to_string(peak.real()) + " vs " +
                         std::to_string(expected_peak) + ", or a nonzero off-peak entry")
                            .c_str());
  }
}

void BM_fft(benchmark::State& state, workload w) {
  const nf::array& x = input(w);
  transform(w, x).eval();  // makes the plan
  nf::cuda::synchronize();
  event_pair ev;
  double total = 0, host = 0;
  std::vector<double> runs;
  std::uint64_t kernels = 0, calls = 0, plans = 0;
  nf::array r;
  for (auto _ : state) {
    r = nf::array();
    keep_gpu_busy();
    nf::reset_stats();
    ev.record_start();
    const auto t0 = std::chrono::steady_clock::now();
    r = transform(w, x).eval();
    host += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ev.record_stop();
    kernels += nf::stats().kernels_launched;
    calls += nf::stats().library_calls;
    plans += nf::stats().fft_plans_created;
    const double s = ev.seconds();
    total += s;
    runs.push_back(s);
    state.SetIterationTime(s);
  }
  const double per = total / double(state.iterations());
  const double bytes = bytes_of(w);
  state.counters["run_median_ms"] = 1e3 * median(runs);
  state.counters["run_max_ms"] = 1e3 * *std::max_element(runs.begin(), runs.end());
  state.counters["host_us"] = 1e6 * host / double(state.iterations());
  state.counters["bytes"] = bytes;
  state.counters["GB/s"] = bytes / per / 1e9;
  state.counters["x_copy"] = per / copy_seconds(static_cast<std::size_t>(bytes / 2));
  if (direct_seconds.count(name_of(w))) state.counters["x_cufft"] = per / direct_seconds[name_of(w)];
  state.counters["kernels"] = double(kernels) / double(state.iterations());
  state.counters["library_calls"] = double(calls) / double(state.iterations());
  state.counters["plans_made"] = double(plans);  // 0: the plan cache served every timed call
  check(state, w, r);
}

// The reference: one cuFFT plan made outside the timing, executed on raw buffers of the same size
// and values on ndfuse's stream (cuFFT's own work area, allocated with the plan).
void BM_direct(benchmark::State& state, workload w) {
  const std::size_t elems = w == workload::fft2_c2c ? std::size_t(side * side) : std::size_t(n1);
  const std::size_t in_bytes =
      (w == workload::fft_z2z ? 16 : 8) * elems;  // Z2Z: complex128; D2Z, C2C: 8 bytes
  const std::size_t out_bytes = w == workload::rfft_d2z ? 16 * (elems / 2 + 1) : in_bytes;
  // The tone ndfuse's row transforms: a memset input read about 1 us slower on the H100
  // (research/fft_exec_calls.cu), so the reference differs from ndfuse's row only in the call.
  const nf::host_array tone_values = input(w).to_host();
  if (tone_values.bytes.size() != in_bytes) {
    state.SkipWithError("the direct call's input size differs from ndfuse's");
    return;
  }
  void *in = nullptr, *out = nullptr;
  cuda_ok(cudaMalloc(&in, in_bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&out, out_bytes), "cudaMalloc");
  cuda_ok(cudaMemcpy(in, tone_values.bytes.data(), in_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cufftHandle plan;
  cufftResult made = w == workload::fft2_c2c  ? cufftPlan2d(&plan, int(side), int(side), CUFFT_C2C)
                     : w == workload::fft_z2z ? cufftPlan1d(&plan, int(n1), CUFFT_Z2Z, 1)
                                              : cufftPlan1d(&plan, int(n1), CUFFT_D2Z, 1);
  if (made != CUFFT_SUCCESS) {
    state.SkipWithError("cufftPlan failed");
    return;
  }
  cufftSetStream(plan, stream());
  auto call = [&] {
    if (w == workload::fft_z2z)
      cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out),
                   CUFFT_FORWARD);
    else if (w == workload::rfft_d2z)
      cufftExecD2Z(plan, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out));
    else
      cufftExecC2C(plan, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), CUFFT_FORWARD);
  };
  call();
  const double per = time_direct_calls(state, call);
  direct_seconds[name_of(w)] = per;
  state.counters["GB/s"] = bytes_of(w) / per / 1e9;
  cufftDestroy(plan);
  cudaFree(in);
  cudaFree(out);
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20)->Repetitions(3);
    b->ReportAggregatesOnly(true);
  };
  for (workload w : {workload::fft_z2z, workload::rfft_d2z, workload::fft2_c2c}) {
    reps(benchmark::RegisterBenchmark((std::string("cufft_direct/") + name_of(w)).c_str(), BM_direct, w));
    reps(benchmark::RegisterBenchmark(name_of(w), BM_fft, w));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_fft", register_all, wrong_results);
}

#else
int main() {
  std::cout << "bench_cuda_fft: built without CUDA; nothing to measure\n";
  return 0;
}
#endif
