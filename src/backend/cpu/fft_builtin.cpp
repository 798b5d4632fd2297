// Fourier transforms on the CPU backend without FFTW (NDFUSE_WITH_FFTW=OFF keeps the build free of
// GPL code): an iterative radix-2 FFT for power-of-two lengths and Bluestein's algorithm (a
// convolution done with radix-2 FFTs of a power-of-two length >= 2n - 1) for every other length.
// Both precisions compute in double and round once, so complex64 results are at least as accurate
// as NumPy's. Slower than FFTW (no SIMD codelets, no mixed radices), but O(n log n) for every n.
//
// Tables (twiddles, chirps) are made once per transform shape and kept in an LRU cache, the
// built-in counterpart of FFTW's plans (stats().fft_plans_created counts them the same way).
#include <cmath>
#include <complex>
#include <memory>
#include <mutex>
#include <numbers>
#include <tuple>
#include <vector>

#include "backend/cpu/fft.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ndfuse/error.hpp"
#include "support/lru_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cpu {

namespace {

using ir::fft_kind;
using cd = std::complex<double>;

// exp(-2 pi i k / n) for k < n/2; a power-of-two n.
class radix2 {
 public:
  radix2() = default;
  explicit radix2(std::int64_t n) : n_(n), roots_(static_cast<std::size_t>(n / 2)) {
    for (std::int64_t k = 0; k < n / 2; ++k)
      roots_[std::size_t(k)] = std::polar(1.0, -2 * std::numbers::pi * double(k) / double(n));
  }

  // In place; `inverse` uses the conjugate roots (no division by n).
  void run(cd* a, bool inverse) const {
    for (std::int64_t i = 1, j = 0; i < n_; ++i) {
      std::int64_t bit = n_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    for (std::int64_t len = 2; len <= n_; len <<= 1) {
      const std::int64_t half = len / 2, step = n_ / len;
      for (std::int64_t i = 0; i < n_; i += len)
        for (std::int64_t k = 0; k < half; ++k) {
          const cd w = inverse ? std::conj(roots_[std::size_t(k * step)]) : roots_[std::size_t(k * step)];
          const cd u = a[i + k], v = a[i + k + half] * w;
          a[i + k] = u + v;
          a[i + k + half] = u - v;
        }
    }
  }

 private:
  std::int64_t n_ = 1;
  std::vector<cd> roots_;
};

bool power_of_two(std::int64_t n) {
  return (n & (n - 1)) == 0;
}

// The DFT of one length: radix-2 directly, or Bluestein: X[k] = c[k] sum_j (x[j] c[j]) conj(c[k-j])
// with the chirp c[k] = exp(-pi i k^2 / n), the sum a circular convolution of length m.
class line_plan {
 public:
  explicit line_plan(std::int64_t n) : n_(n) {
    if (power_of_two(n)) {
      fft_ = radix2(n);
      return;
    }
    m_ = 1;
    while (m_ < 2 * n - 1) m_ <<= 1;
    fft_ = radix2(m_);
    chirp_.resize(std::size_t(n));
    for (std::int64_t k = 0; k < n; ++k)  // k^2 mod 2n keeps the angle exact for large k
      chirp_[std::size_t(k)] = std::polar(1.0, -std::numbers::pi * double((k * k) % (2 * n)) / double(n));
    kernel_.assign(std::size_t(m_), cd(0));
    for (std::int64_t k = 0; k < n; ++k) {
      kernel_[std::size_t(k)] = std::conj(chirp_[std::size_t(k)]);
      if (k) kernel_[std::size_t(m_ - k)] = std::conj(chirp_[std::size_t(k)]);
    }
    fft_.run(kernel_.data(), false);
  }

  std::int64_t work_size() const { return m_; }

  // In place on n values; `work` holds work_size() values. The inverse is conj(F(conj(x))).
  void run(cd* a, bool inverse, cd* work) const {
    if (!m_) return fft_.run(a, inverse);
    for (std::int64_t k = 0; k < n_; ++k)
      work[k] = (inverse ? std::conj(a[k]) : a[k]) * chirp_[std::size_t(k)];
    std::fill(work + n_, work + m_, cd(0));
    fft_.run(work, false);
    for (std::int64_t k = 0; k < m_; ++k) work[k] *= kernel_[std::size_t(k)];
    fft_.run(work, true);
    const double scale = 1.0 / double(m_);
    for (std::int64_t k = 0; k < n_; ++k) {
      const cd v = work[k] * scale * chirp_[std::size_t(k)];
      a[k] = inverse ? std::conj(v) : v;
    }
  }

 private:
  std::int64_t n_, m_ = 0;
  radix2 fft_;
  std::vector<cd> chirp_, kernel_;
};

using dims_key = std::tuple<int, std::int64_t, std::int64_t, std::int64_t>;  // rank, dims
struct dims_key_hash {
  std::size_t operator()(const dims_key& k) const {
    return std::hash<std::int64_t>{}(std::get<1>(k) * 1000003 + std::get<2>(k) * 10007 + std::get<3>(k)) ^
           std::size_t(std::get<0>(k));
  }
};
using plan_set = std::vector<line_plan>;  // one per transformed dim

std::shared_ptr<const plan_set> plans_for(const ir::fft_params& p) {
  static std::mutex m;
  static support::lru_cache<dims_key, std::shared_ptr<const plan_set>, dims_key_hash> cache(64);
  std::lock_guard lock(m);
  return cache.get({p.rank, p.dims[0], p.dims[1], p.dims[2]}, [&] {
    auto set = std::make_shared<plan_set>();
    for (int k = 0; k < p.rank; ++k) set->emplace_back(p.dims[k]);
    ++support::counters_here().fft_plans_created;
    return std::shared_ptr<const plan_set>(std::move(set));
  });
}

// The complex DFT over every dim of a C-order grid of `dims`, in place.
void transform_grid(cd* grid, const ir::fft_params& p, const plan_set& plans, bool inverse,
                    std::vector<cd>& line, std::vector<cd>& work) {
  std::int64_t total = 1;
  for (int k = 0; k < p.rank; ++k) total *= p.dims[k];
  std::int64_t inner = 1;
  for (int k = p.rank - 1; k >= 0; --k) {
    const std::int64_t n = p.dims[k], outer = total / (n * inner);
    line.resize(std::size_t(n));
    work.resize(std::size_t(plans[std::size_t(k)].work_size()));
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        cd* base = grid + o * n * inner + i;
        for (std::int64_t j = 0; j < n; ++j) line[std::size_t(j)] = base[j * inner];
        plans[std::size_t(k)].run(line.data(), inverse, work.data());
        for (std::int64_t j = 0; j < n; ++j) base[j * inner] = line[std::size_t(j)];
      }
    inner *= n;
  }
}

template <class Real>
void run(const ir::fft_params& p, const void* input, void* output) {
  const auto plans = plans_for(p);
  std::int64_t total = 1;
  for (int k = 0; k < p.rank; ++k) total *= p.dims[k];
  const std::int64_t last = p.dims[p.rank - 1], half = last / 2 + 1, rows = total / last;
  using cr = std::complex<Real>;
  global_pool().parallel_for(p.batch, [&](unsigned, std::int64_t b, std::int64_t e) {
    std::vector<cd> grid(static_cast<std::size_t>(total)), line, work;
    for (std::int64_t item = b; item < e; ++item) {
      switch (p.kind) {
        case fft_kind::forward:
        case fft_kind::inverse: {
          const cr* in = static_cast<const cr*>(input) + item * total;
          cr* out = static_cast<cr*>(output) + item * total;
          for (std::int64_t i = 0; i < total; ++i) grid[std::size_t(i)] = cd(in[i]);
          transform_grid(grid.data(), p, *plans, p.kind == fft_kind::inverse, line, work);
          for (std::int64_t i = 0; i < total; ++i) out[i] = cr(grid[std::size_t(i)]);
          break;
        }
        case fft_kind::r2c: {
          const Real* in = static_cast<const Real*>(input) + item * total;
          cr* out = static_cast<cr*>(output) + item * rows * half;
          for (std::int64_t i = 0; i < total; ++i) grid[std::size_t(i)] = cd(double(in[i]), 0.0);
          transform_grid(grid.data(), p, *plans, false, line, work);
          for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t j = 0; j < half; ++j) out[r * half + j] = cr(grid[std::size_t(r * last + j)]);
          break;
        }
        case fft_kind::c2r: {
          // The full spectrum from its Hermitian half, reading only the real part of the zero and
          // (even n) Nyquist frequencies, as NumPy's irfft.
          const cr* in = static_cast<const cr*>(input) + item * half;
          Real* out = static_cast<Real*>(output) + item * last;
          grid[0] = cd(double(in[0].real()), 0.0);
          for (std::int64_t k = 1; k < half; ++k) {
            const cd v(in[k]);
            grid[std::size_t(k)] = 2 * k == last ? cd(v.real(), 0.0) : v;
            if (2 * k != last) grid[std::size_t(last - k)] = std::conj(v);
          }
          transform_grid(grid.data(), p, *plans, true, line, work);
          for (std::int64_t i = 0; i < last; ++i) out[i] = Real(grid[std::size_t(i)].real());
          break;
        }
      }
    }
  });
}

}  // namespace

void fft(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  if (c.fft.kind == fft_kind::c2r && c.fft.rank != 1)
    throw error("fft: internal error, a complex-to-real call transforms one axis");
  if (c.fft.batch == 0) return;
  if (c.dt == dtype::complex64)
    run<float>(c.fft, in[0], out);
  else if (c.dt == dtype::complex128)
    run<double>(c.fft, in[0], out);
  else
    throw dtype_error("fft: no built-in FFT for " + std::string(dtype_name(c.dt)));
}

}  // namespace ndfuse::backend::cpu
