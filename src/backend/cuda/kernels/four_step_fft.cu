// The two-pass FFT. With n = L1 * L2, point n1 * L2 + n2 and output k1 + L1 * k2 (Bailey's four
// steps, the transposes folded into the strides):
//   pass 1: the L2 columns x[n1 L2 + n2] are transformed over n1, output k1 of column n2 times
//           W_n^(n2 k1), into column n2 of the work area Y (row-major, L1 x L2);
//   pass 2: the L1 rows of Y are transformed over n2, row k1's output k2 written to X[k1 + L1 k2].
// Each pass reads and writes every point once, where cuFFT's plans for these sizes make three
// passes of radix 256 (ncu: three regular_fft_factor<256> kernels of 193-201 us for 2^24 points on an
// H100). A line of up to 4096 points fits one block (fft_lines.cuh), so the split stops at 2^24.
//
// Twiddles come from tables made on the host in long double and rounded once, so each is the
// correctly rounded value (W_n^m = coarse * fine, two of them); the round trip of 2^24 random points
// came back within 5.6e-16 (relative L2) against cuFFT's 7.5e-16.
//
// Only complex128 of 2^23 and 2^24 points is taken. At 2^22 points cuFFT was as fast (147-151 against
// 151 us), below that faster (it makes two passes too); with 8-byte points a strided row of two
// lines is half a sector, and 2^24 complex64 points took 292 us against cuFFT's 280 with four lines
// a block (research/fft_two_pass.cu).
#include "backend/cuda/kernels/four_step_fft.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/kernels/fft_lines.cuh"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "support/env.hpp"
#include "support/lru_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cuda {

namespace {

using fft_lines::shared_bytes;
using fft_lines::threads;
using fft_lines::transform_lines;
using fft_lines::twiddles;

constexpr int lines_per_block = 2;  // a 32-byte sector of each strided row (fft_lines.cuh)
constexpr int fine_bits = 12;       // W_n^m = coarse[m >> 12] * fine[m & 4095]

bool enabled() {
  return support::env::fft_four_step();
}

// n = l1 * l2; zero when n is not one of the sizes taken.
struct split {
  int l1 = 0, l2 = 0;
};
split split_of(std::int64_t n) {
  switch (n) {
    case std::int64_t{1} << 23:
      return {4096, 2048};  // (2048 x 4096 took 291 us against 282)
    case std::int64_t{1} << 24:
      return {4096, 4096};
    default:
      return {};
  }
}

// W_period^(i * step) for i < count, forward (exp(-2 pi i ...)), correctly rounded to double.
void append_twiddles(std::vector<double2>& out, std::int64_t period, std::int64_t count, std::int64_t step) {
  const long double two_pi = 6.283185307179586476925286766559L;
  for (std::int64_t i = 0; i < count; ++i) {
    const long double a =
        two_pi * static_cast<long double>((i * step) % period) / static_cast<long double>(period);
    out.push_back({static_cast<double>(std::cos(a)), static_cast<double>(-std::sin(a))});
  }
}

// One device's tables for one n: W_l1, W_l2, then coarse and fine W_n, in one allocation.
struct tables {
  double2* device = nullptr;
  twiddles<double2> pass1{}, pass2{};

  tables(std::int64_t n, split s) {
    const std::int64_t fine = std::int64_t{1} << fine_bits;
    std::vector<double2> host;
    append_twiddles(host, s.l1, s.l1, 1);
    append_twiddles(host, s.l2, s.l2, 1);
    append_twiddles(host, n, n / fine, fine);
    append_twiddles(host, n, fine, 1);
    check(cudaMalloc(&device, host.size() * sizeof(double2)), "cudaMalloc");
    check(cudaMemcpy(device, host.data(), host.size() * sizeof(double2), cudaMemcpyHostToDevice),
          "cudaMemcpy");
    pass1 = {device, device + s.l1 + s.l2, device + s.l1 + s.l2 + n / fine, fine_bits};
    pass2 = {device + s.l1, nullptr, nullptr, 0};
  }
  tables(const tables&) = delete;
  tables& operator=(const tables&) = delete;
  ~tables() { cudaFree(device); }  // (a failure means a broken context: nothing to do here)
};

template <int L, bool four_step>
void allow_shared() {
  constexpr int bytes = shared_bytes<double2, L, lines_per_block>;
  check(cudaFuncSetAttribute(transform_lines<double2, L, lines_per_block, false, four_step>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
        "cudaFuncSetAttribute");
  check(cudaFuncSetAttribute(transform_lines<double2, L, lines_per_block, true, four_step>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
        "cudaFuncSetAttribute");
}

const tables& tables_for(std::int64_t n, split s) {
  struct key {
    int device;
    std::int64_t n;
    bool operator==(const key&) const = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const { return std::hash<std::int64_t>{}(k.n * 64 + k.device); }
  };
  // Per thread, as cuFFT's plans are (cufft.cpp); two sizes on a few devices.
  thread_local support::lru_cache<key, std::unique_ptr<tables>, key_hash> cache(8);
  return *cache.get({current_device(), n}, [&] {
    // More than 48 KiB of shared memory a block must be allowed per kernel (and per device).
    allow_shared<4096, true>();
    allow_shared<2048, false>();
    allow_shared<4096, false>();
    auto t = std::make_unique<tables>(n, s);
    ++support::counters_here().fft_plans_created;
    return t;
  });
}

template <int L1, int L2, bool inv>
void two_passes(const double2* x, double2* y, double2* out, std::int64_t batch, const tables& tw,
                cudaStream_t stream) {
  constexpr int B = lines_per_block;
  constexpr long long n = static_cast<long long>(L1) * L2;
  transform_lines<double2, L1, B, inv, true>
      <<<dim3(L2 / B, unsigned(batch)), threads<L1, B>, shared_bytes<double2, L1, B>, stream>>>(
          x, y, L2, 1, L2, 1, n, tw.pass1);
  transform_lines<double2, L2, B, inv, false>
      <<<dim3(L1 / B, unsigned(batch)), threads<L2, B>, shared_bytes<double2, L2, B>, stream>>>(
          y, out, 1, L2, L1, 1, n, tw.pass2);
  check(cudaGetLastError(), "four-step FFT launch");
}

template <int L1, int L2>
void run(const double2* x, double2* y, double2* out, std::int64_t batch, bool inverse, const tables& tw,
         cudaStream_t stream) {
  if (inverse)
    two_passes<L1, L2, true>(x, y, out, batch, tw, stream);
  else
    two_passes<L1, L2, false>(x, y, out, batch, tw, stream);
}

}  // namespace

bool four_step_fits(dtype dt, std::int64_t n, std::int64_t batch) {
  // (a batch beyond a grid's y dimension goes to cuFFT: 65535 transforms of 2^23 points are 8 TiB)
  return dt == dtype::complex128 && split_of(n).l1 != 0 && batch >= 1 && batch <= 65535 && enabled();
}

void four_step_fft(const void* in, void* out, std::int64_t n, std::int64_t batch, bool inverse) {
  const split s = split_of(n);
  const tables& tw = tables_for(n, s);
  const cudaStream_t stream = current_stream();
  const scratch work(static_cast<std::size_t>(n * batch) * sizeof(double2));
  const auto* x = static_cast<const double2*>(in);
  auto* y = work.get<double2>();
  auto* X = static_cast<double2*>(out);
  if (s.l2 == 2048)
    run<4096, 2048>(x, y, X, batch, inverse, tw, stream);
  else
    run<4096, 4096>(x, y, X, batch, inverse, tw, stream);
}

}  // namespace ndfuse::backend::cuda
