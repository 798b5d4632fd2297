// Experiment (not part of the build), session 29: can a 1-d FFT of 2^24 complex128 beat cuFFT's
// three passes (ncu, session 26: three regular_fft_factor<256> kernels, 201 + 193 + 193 us, each
// reading and writing the whole 256 MiB) with two? The four-step split N = N1 x N2 (N1, N2 <= 4096)
// of src/backend/cuda/kernels/four_step_fft.cu, with its kernel (src/backend/cuda/kernels/fft_lines.cuh),
// here with B lines a block as a parameter, timed against cufftExecZ2Z / C2C as bench/README.md times every
// row (a 512 MiB copy keeps the GPU busy, events around the call, median of 21) and compared with cuFFT's
// output and with the input after a round trip.
//   nvcc -O3 -std=c++20 -arch=sm_90 -I src -I include research/fft_two_pass.cu -lcufft -o
//   fft_two_pass
//
// H100 80GB HBM3, cuFFT 12000, session 29 (us; "pass 1 / pass 2" timed alone; a copy of the same
// bytes 181 for 2^24 complex128):
//   complex128 2^24, B = 2: 559-566 against cuFFT's 593-594 (pass 1, strided in and out, 340-347;
//     pass 2, contiguous in, 221-225). Relative L2 difference from cuFFT 6.1e-16; round trip 5.6e-16
//     (cuFFT's own 7.5e-16).
//   B = 1 (16-byte rows, half a sector): 1542-1583, each pass about 800: a partly written sector
//     costs L2 a read from memory, and half-sector reads waste half of what comes in.
//   Loads without the L2::128B hint: 616 (pass 1 377); with L2::256B: 558 (no better than 128B).
//   Padding the work area's rows (8, 32 or 256 points): no change (564-569).
//   Thread-block clusters of 2, 4 or 8 blocks, reading (and writing) rows of 4-16 lines through
//     distributed shared memory: 621 (gather only) to 1038; the extra barriers cost more than the
//     wider rows win. A persistent grid prefetching the next lines into L2: 840-858.
//   complex128 2^23: 282 (4096 x 2048) and 291 (2048 x 4096) against 298-299.
//   complex128 2^22 (2048 x 2048): 147-149 against 151.
//   complex128 2^21: 82-83 against 77; 2^20: 44.7 against 38.7; 2^17: 17.9 against 16.0.
//   complex64 2^24: B = 2 647-665, B = 4 292, against 280.
// So four_step_fft.cu takes complex128 at 2^22, 2^23 and 2^24 points and leaves the rest to cuFFT.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "backend/cuda/kernels/fft_lines.cuh"
#include "fft_common.cuh"

namespace {

using namespace ndfuse::backend::cuda::fft_lines;

template <class V>
std::vector<V> host_table(long long n, long long count, long long step) {
  std::vector<V> t(count);
  using R = ndfuse::backend::cuda::real_t<V>;
  const long double two_pi = 6.283185307179586476925286766559L;
  for (long long i = 0; i < count; ++i) {
    const long double a = two_pi * (long double)((i * step) % n) / (long double)n;
    t[i] = {R(std::cos(a)), R(-std::sin(a))};
  }
  return t;
}

template <class V>
V* upload(const std::vector<V>& h) {
  V* d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(V)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(V), cudaMemcpyHostToDevice));
  return d;
}

template <class V, int L1, int L2, int B>
struct two_pass {
  static constexpr long long n = (long long)L1 * L2;
  twiddles<V> t1{}, t2{};
  V* work = nullptr;

  two_pass() {
    const int F = 4096;
    t1 = {upload(host_table<V>(L1, L1, 1)), upload(host_table<V>(n, n / F, F)),
          upload(host_table<V>(n, F, 1)), log2i(F)};
    t2 = {upload(host_table<V>(L2, L2, 1)), nullptr, nullptr, 0};
    CHECK(cudaMalloc(&work, n * sizeof(V)));
    set_shared(transform_lines<V, L1, B, false, true>, L1);
    set_shared(transform_lines<V, L1, B, true, true>, L1);
    set_shared(transform_lines<V, L2, B, false, false>, L2);
    set_shared(transform_lines<V, L2, B, true, false>, L2);
  }
  template <class K>
  static void set_shared(K k, int L) {
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, shared(L)));
  }
  static int shared(int L) { return B * (L + L / 16 + 4) * int(sizeof(V)); }
  template <bool inv>
  void pass1(const V* x) {
    transform_lines<V, L1, B, inv, true>
        <<<dim3(L2 / B), threads<L1, B>, shared(L1)>>>(x, work, L2, 1, L2, 1, n, t1);
  }
  template <bool inv>
  void pass2(V* X) {
    transform_lines<V, L2, B, inv, false>
        <<<dim3(L1 / B), threads<L2, B>, shared(L2)>>>(work, X, 1, L2, L1, 1, n, t2);
  }
  template <bool inv>
  void run(const V* x, V* X) {
    pass1<inv>(x);
    pass2<inv>(X);
  }
};

template <class V>
double rel_error(const std::vector<V>& a, const std::vector<V>& b) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const long double dx = a[i].x - b[i].x, dy = a[i].y - b[i].y;
    num += dx * dx + dy * dy;
    den += (long double)b[i].x * b[i].x + (long double)b[i].y * b[i].y;
  }
  return double(std::sqrt(num / den));
}

template <class V, int L1, int L2, int B>
void compare(const busy_copy& busy, const char* name) {
  constexpr long long n = (long long)L1 * L2;
  const bool dbl = sizeof(V) == 16;
  std::vector<V> h(n);
  std::mt19937_64 g(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& z : h) z = {decltype(z.x)(u(g)), decltype(z.y)(u(g))};
  V *x, *X, *Y;
  CHECK(cudaMalloc(&x, n * sizeof(V)));
  CHECK(cudaMalloc(&X, n * sizeof(V)));
  CHECK(cudaMalloc(&Y, n * sizeof(V)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(V), cudaMemcpyHostToDevice));
  cufftHandle plan;
  FFT_CHECK(cufftPlan1d(&plan, int(n), dbl ? CUFFT_Z2Z : CUFFT_C2C, 1));
  auto cufft = [&](const V* i, V* o, int dir) {
    if constexpr (sizeof(V) == 16)
      FFT_CHECK(cufftExecZ2Z(plan, (cufftDoubleComplex*)i, (cufftDoubleComplex*)o, dir));
    else
      FFT_CHECK(cufftExecC2C(plan, (cufftComplex*)i, (cufftComplex*)o, dir));
  };
  two_pass<V, L1, L2, B> tp;
  std::vector<V> a(n), c(n);
  for (int inv = 0; inv < 2; ++inv) {
    cufft(x, Y, inv ? CUFFT_INVERSE : CUFFT_FORWARD);
    if (inv)
      tp.template run<true>(x, X);
    else
      tp.template run<false>(x, X);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(a.data(), X, n * sizeof(V), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(c.data(), Y, n * sizeof(V), cudaMemcpyDeviceToHost));
    std::printf("%s %s: relative L2 difference from cuFFT %.3g\n", name, inv ? "inverse" : "forward",
                rel_error(a, c));
  }
  // Round trip of ours against the input (scaled by n).
  tp.template run<false>(x, Y);
  tp.template run<true>(Y, X);
  CHECK(cudaMemcpy(a.data(), X, n * sizeof(V), cudaMemcpyDeviceToHost));
  for (auto& z : a) z = {decltype(z.x)(z.x / n), decltype(z.y)(z.y / n)};
  std::printf("%s round trip: relative L2 error %.3g\n", name, rel_error(a, h));
  cufft(x, Y, CUFFT_FORWARD);
  cufft(Y, X, CUFFT_INVERSE);
  CHECK(cudaMemcpy(a.data(), X, n * sizeof(V), cudaMemcpyDeviceToHost));
  for (auto& z : a) z = {decltype(z.x)(z.x / n), decltype(z.y)(z.y / n)};
  std::printf("%s cuFFT round trip: relative L2 error %.3g\n", name, rel_error(a, h));

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto med = [&](const std::function<void()>& f) {
    for (int w = 0; w < 3; ++w) timed_once(busy, f, e0, e1);
    std::vector<float> t;
    for (int i = 0; i < 21; ++i) t.push_back(timed_once(busy, f, e0, e1));
    std::sort(t.begin(), t.end());
    return 1e3 * t[10];
  };
  for (int round = 0; round < 2; ++round) {
    const float tc = med([&] { cufft(x, X, CUFFT_FORWARD); });
    const float tt = med([&] { tp.template run<false>(x, X); });
    const float p1 = med([&] { tp.template pass1<false>(x); });
    const float p2 = med([&] { tp.template pass2<false>(X); });
    const float copy = med([&] { CHECK(cudaMemcpyAsync(X, x, n * sizeof(V), cudaMemcpyDeviceToDevice)); });
    std::printf("%s round %d (us): cuFFT %.1f, two-pass %.1f (pass 1 %.1f, pass 2 %.1f), copy %.1f\n", name,
                round, tc, tt, p1, p2, copy);
  }
  cufftDestroy(plan);
  CHECK(cudaFree(x));
  CHECK(cudaFree(X));
  CHECK(cudaFree(Y));
}

}  // namespace

int main() {
  print_gpu_and_cufft();
  const busy_copy busy;
  compare<double2, 4096, 4096, 2>(busy, "complex128 2^24 B2");
  compare<double2, 4096, 4096, 1>(busy, "complex128 2^24 B1");
  compare<double2, 4096, 2048, 2>(busy, "complex128 2^23 (4096 x 2048) B2");
  compare<double2, 2048, 4096, 2>(busy, "complex128 2^23 (2048 x 4096) B2");
  compare<double2, 2048, 2048, 2>(busy, "complex128 2^22 B2");
  compare<double2, 2048, 1024, 2>(busy, "complex128 2^21 B2");
  compare<double2, 1024, 1024, 2>(busy, "complex128 2^20 B2");
  compare<float2, 4096, 4096, 4>(busy, "complex64 2^24 B4");
  return 0;
}
