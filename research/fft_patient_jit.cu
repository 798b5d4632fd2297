// Experiment (not part of the build), session 26: does cuFFT's "patient JIT" plan property
// (NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, set between cufftCreate and cufftMakePlan*) build faster
// kernels for the transforms bench_cuda_fft times? Each problem is planned twice, the way ndfuse
// plans (cufftCreate, no auto-allocation, cufftMakePlanMany64, a work area set once): once
// default, once patient. The plan time is host wall time of cufftMakePlanMany64; the transform is
// timed as bench/README.md times every row (a 512 MiB copy keeps the GPU busy, events around the
// call, median of 21), in rounds that interleave the two plans. Both plans' outputs are compared.
//   nvcc -O3 -std=c++17 -arch=sm_90 research/fft_patient_jit.cu -lcufft -o fft_patient_jit
// H100 80GB HBM3, cuFFT 12000, session 26, three rounds (medians of 21, us; default / patient):
//   fft/complex128_2^24       594.1-594.6 / 593.7-594.3     rfft/float64_2^24   392.7-393.4 / 392.1-392.7
//   fft2/complex64_4096       241.9-242.7 / 241.6-241.7     fft/complex128_10^7 387.4-388.6 / 386.6-387.8
//   fft/complex64_1024x16384   93.8-94.1  /  93.9-94.2      rfft/float32_2^24   191.4-191.6 / 190.5-190.9
//   fft/complex128_3^15       563.2-564.9 / 570.6-571.4
// Every patient plan's output equals the default plan's bit for bit, and its work area is the same
// size: for these transforms the property builds the same kernels (3^15 is 1% slower). Patient
// planning took 827 ms against 118 for fft2 and 357 against 108 for the batch of 1024-point
// transforms (the second plan of a size reuses the first's kernels, so its other times are not a
// fair plan cost). ndfuse keeps the default plan.
#include <cuda_runtime.h>
#include <cufft.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fft_common.cuh"

namespace {

template <class T>
__global__ void fill(T* x, long long count) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < count; i += 256ll * gridDim.x)
    x[i] = T(sin(0.001 * double(i)) + 0.25 * cos(0.37 * double(i % 1000)));
}

struct problem {
  std::string name;
  std::vector<long long> dims;
  long long batch;
  cufftType type;
  std::size_t in_bytes, out_bytes;
};

struct planned {
  cufftHandle plan;
  std::size_t work_bytes;
  double plan_ms;
  void* work;
};

planned make(const problem& p, bool patient) {
  planned r{};
  FFT_CHECK(cufftCreate(&r.plan));
  FFT_CHECK(cufftSetAutoAllocation(r.plan, 0));
  if (patient) FFT_CHECK(cufftSetPlanPropertyInt64(r.plan, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, 1));
  std::vector<long long> dims = p.dims;
  const auto t0 = std::chrono::steady_clock::now();
  FFT_CHECK(cufftMakePlanMany64(r.plan, int(dims.size()), dims.data(), nullptr, 1, 0, nullptr, 1, 0, p.type,
                                p.batch, &r.work_bytes));
  CHECK(cudaDeviceSynchronize());
  r.plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(cudaMalloc(&r.work, r.work_bytes ? r.work_bytes : 1));
  FFT_CHECK(cufftSetWorkArea(r.plan, r.work));
  return r;
}

void exec(const problem& p, cufftHandle plan, void* in, void* out) {
  switch (p.type) {
    case CUFFT_Z2Z:
      FFT_CHECK(cufftExecZ2Z(plan, (cufftDoubleComplex*)in, (cufftDoubleComplex*)out, CUFFT_FORWARD));
      break;
    case CUFFT_C2C:
      FFT_CHECK(cufftExecC2C(plan, (cufftComplex*)in, (cufftComplex*)out, CUFFT_FORWARD));
      break;
    case CUFFT_D2Z:
      FFT_CHECK(cufftExecD2Z(plan, (double*)in, (cufftDoubleComplex*)out));
      break;
    case CUFFT_R2C:
      FFT_CHECK(cufftExecR2C(plan, (float*)in, (cufftComplex*)out));
      break;
    default:
      std::exit(2);
  }
}

// The largest |a - b| over the output, relative to the largest |a|, in the output's precision.
double relative_difference(const problem& p, const void* a, const void* b) {
  const bool single = p.type == CUFFT_C2C || p.type == CUFFT_R2C;
  const std::size_t count = p.out_bytes / (single ? sizeof(float) : sizeof(double));
  std::vector<double> x(count), y(count);
  if (single) {
    std::vector<float> xs(count), ys(count);
    CHECK(cudaMemcpy(xs.data(), a, p.out_bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ys.data(), b, p.out_bytes, cudaMemcpyDeviceToHost));
    x.assign(xs.begin(), xs.end());
    y.assign(ys.begin(), ys.end());
  } else {
    CHECK(cudaMemcpy(x.data(), a, p.out_bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), b, p.out_bytes, cudaMemcpyDeviceToHost));
  }
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < count; ++i) {
    scale = std::max(scale, std::abs(x[i]));
    diff = std::max(diff, std::abs(x[i] - y[i]));
  }
  return diff / scale;
}

}  // namespace

int main() {
  print_gpu_and_cufft();
  const busy_copy busy;

  constexpr long long n24 = 1ll << 24;
  const std::vector<problem> problems = {
      {"fft/complex128_2^24", {n24}, 1, CUFFT_Z2Z, 16 * n24, 16 * n24},
      {"rfft/float64_2^24", {n24}, 1, CUFFT_D2Z, 8 * n24, 16 * (n24 / 2 + 1)},
      {"fft2/complex64_4096", {4096, 4096}, 1, CUFFT_C2C, 8 * n24, 8 * n24},
      {"fft/complex128_10^7", {10000000}, 1, CUFFT_Z2Z, 16 * 10000000ll, 16 * 10000000ll},
      {"fft/complex64_1024x16384", {1024}, 16384, CUFFT_C2C, 8 * n24, 8 * n24},
      {"fft/complex128_3^15", {14348907}, 1, CUFFT_Z2Z, 16 * 14348907ll, 16 * 14348907ll},
      {"rfft/float32_2^24", {n24}, 1, CUFFT_R2C, 4 * n24, 8 * (n24 / 2 + 1)},
  };
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (const problem& p : problems) {
    void *in, *out_default, *out_patient;
    CHECK(cudaMalloc(&in, p.in_bytes));
    CHECK(cudaMalloc(&out_default, p.out_bytes));
    CHECK(cudaMalloc(&out_patient, p.out_bytes));
    if (p.type == CUFFT_C2C || p.type == CUFFT_R2C)
      fill<<<1024, 256>>>((float*)in, (long long)(p.in_bytes / sizeof(float)));
    else
      fill<<<1024, 256>>>((double*)in, (long long)(p.in_bytes / sizeof(double)));
    CHECK(cudaDeviceSynchronize());
    planned d = make(p, false);
    planned j = make(p, true);
    long long flag = -1;
    FFT_CHECK(cufftGetPlanPropertyInt64(j.plan, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT, &flag));
    std::printf("%s: plan default %.1f ms (work %zu B), patient %.1f ms (work %zu B, property %lld)\n",
                p.name.c_str(), d.plan_ms, d.work_bytes, j.plan_ms, j.work_bytes, flag);
    auto run_default = [&] { exec(p, d.plan, in, out_default); };
    auto run_patient = [&] { exec(p, j.plan, in, out_patient); };
    for (int w = 0; w < 3; ++w) timed_once(busy, run_default, a, b), timed_once(busy, run_patient, a, b);
    CHECK(cudaDeviceSynchronize());
    std::printf("  outputs differ by %.3g of the largest\n",
                relative_difference(p, out_default, out_patient));
    constexpr int rounds = 3, reps = 21;
    for (int r = 0; r < rounds; ++r) {
      std::vector<float> td, tj;
      for (int i = 0; i < reps; ++i) {
        td.push_back(timed_once(busy, run_default, a, b));
        tj.push_back(timed_once(busy, run_patient, a, b));
      }
      std::sort(td.begin(), td.end());
      std::sort(tj.begin(), tj.end());
      std::printf("  round %d: default %8.1f us (min %.1f)   patient %8.1f us (min %.1f)\n", r,
                  1e3 * td[reps / 2], 1e3 * td[0], 1e3 * tj[reps / 2], 1e3 * tj[0]);
    }
    for (planned* x : {&d, &j}) {
      FFT_CHECK(cufftDestroy(x->plan));
      CHECK(cudaFree(x->work));
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out_default));
    CHECK(cudaFree(out_patient));
  }
  return 0;
}
