// Library calls on the CPU backend. Keys compare in NumPy's sort order: NaN after everything else,
// -0.0 equal to 0.0, complex numbers by real part and then imaginary part (NaNs as numpy_less says).
#include "backend/cpu/library.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <utility>

#include "backend/cpu/blas.hpp"
#include "backend/cpu/fft.hpp"
#include "backend/cpu/lapack.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ir/host_types.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

template <class F>
void with_dtype(dtype t, F&& f) {
  switch (t) {
#define NDFUSE_CASE(D)                            \
  case dtype::D:                                  \
    f(std::integral_constant<dtype, dtype::D>{}); \
    return;
    NDFUSE_CASE(bool_)
    NDFUSE_CASE(int8)
    NDFUSE_CASE(int16)
    NDFUSE_CASE(int32)
    NDFUSE_CASE(int64)
    NDFUSE_CASE(uint8)
    NDFUSE_CASE(uint16)
    NDFUSE_CASE(uint32)
    NDFUSE_CASE(uint64)
    NDFUSE_CASE(float16)
    NDFUSE_CASE(float32)
    NDFUSE_CASE(float64)
    NDFUSE_CASE(complex64)
    NDFUSE_CASE(complex128)
    NDFUSE_CASE(bfloat16)
#undef NDFUSE_CASE
  }
}

template <class T>
bool float_less(T a, T b) {
  return a < b || (std::isnan(b) && !std::isnan(a));
}

// NumPy's sort order on the type computations happen in (float16 compares as float32).
template <class T>
bool numpy_less(const T& a, const T& b) {
  if constexpr (ir::is_complex_v<T>) {
    // NumPy's CLT: values without NaN first (by real, then imaginary part), then those with a NaN
    // imaginary part (by real part), then a NaN real part (by imaginary part), then both NaN.
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (std::is_floating_point_v<T>) {
    return float_less(a, b);
  } else {
    return a < b;
  }
}

template <dtype D>
struct order {
  using T = ir::storage_t<D>;
  bool operator()(const T& a, const T& b) const {
    return numpy_less(ir::to_compute<D>(a), ir::to_compute<D>(b));
  }
};

template <dtype D>
void sort_rows(const ir::library_call& c, const void* in, void* out) {
  using T = ir::storage_t<D>;
  const T* keys = static_cast<const T*>(in);
  const std::int64_t n = c.length;
  global_pool().parallel_for(c.rows, [&](unsigned, std::int64_t r0, std::int64_t r1) {
    for (std::int64_t r = r0; r < r1; ++r) {
      const T* row = keys + r * n;
      if (c.indices) {
        auto* idx = static_cast<std::int64_t*>(out) + r * n;
        std::iota(idx, idx + n, std::int64_t(0));
        std::stable_sort(idx, idx + n,
                         [&](std::int64_t a, std::int64_t b) { return order<D>{}(row[a], row[b]); });
      } else {
        T* dst = static_cast<T*>(out) + r * n;
        std::copy(row, row + n, dst);
        std::stable_sort(dst, dst + n, order<D>{});
      }
    }
  });
}

void flatnonzero(const ir::library_call& c, const void* in, void* out) {
  const bool* flags = static_cast<const bool*>(in);
  auto* idx = static_cast<std::int64_t*>(out);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < c.length; ++i)
    if (flags[i]) {
      if (at == c.rows) throw error("flatnonzero: internal error, more true elements than counted");
      idx[at++] = i;
    }
}

template <dtype D>
void searchsorted(const ir::library_call& c, const void* haystack, const void* needles, void* out) {
  using T = ir::storage_t<D>;
  const T* a = static_cast<const T*>(haystack);
  const T* v = static_cast<const T*>(needles);
  auto* idx = static_cast<std::int64_t*>(out);
  global_pool().parallel_for(c.rows, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      const T* at = c.right ? std::upper_bound(a, a + c.length, v[i], order<D>{})
                            : std::lower_bound(a, a + c.length, v[i], order<D>{});
      idx[i] = at - a;
    }
  });
}

void scatter(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  const std::size_t bytes = itemsize(c.dt);
  std::memcpy(out, in[0], bytes * static_cast<std::size_t>(c.length));
  const auto* offsets = static_cast<const std::int64_t*>(in[1]);
  const char* values = static_cast<const char*>(in[2]);
  // In order, so the last of repeated offsets wins.
  for (std::int64_t j = 0; j < c.rows; ++j)
    std::memcpy(static_cast<char*>(out) + offsets[j] * static_cast<std::int64_t>(bytes), values + j * bytes,
                bytes);
}

void bincount(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  const auto* x = static_cast<const std::int64_t*>(in[0]);
  if (c.weighted) {
    const auto* w = static_cast<const double*>(in[1]);
    auto* bins = static_cast<double*>(out);
    std::fill(bins, bins + c.length, 0.0);
    for (std::int64_t i = 0; i < c.rows; ++i) bins[x[i]] += w[i];
  } else {
    auto* bins = static_cast<std::int64_t*>(out);
    std::fill(bins, bins + c.length, 0);
    for (std::int64_t i = 0; i < c.rows; ++i) ++bins[x[i]];
  }
}

}  // namespace

void run_library(const ir::library_call& c, const std::vector<const void*>& in,
                 const std::vector<void*>& outs) {
  void* out = outs.empty() ? nullptr : outs[0];
  switch (c.op) {
    case ir::library_op::sort:
      with_dtype(c.dt, [&](auto d) { sort_rows<decltype(d)::value>(c, in[0], out); });
      return;
    case ir::library_op::flatnonzero:
      flatnonzero(c, in[0], out);
      return;
    case ir::library_op::searchsorted:
      with_dtype(c.dt, [&](auto d) { searchsorted<decltype(d)::value>(c, in[0], in[1], out); });
      return;
    case ir::library_op::scatter:
      scatter(c, in, out);
      return;
    case ir::library_op::bincount:
      bincount(c, in, out);
      return;
    case ir::library_op::gemm:
      gemm(c, in, out);
      return;
    case ir::library_op::solve:
    case ir::library_op::inv:
    case ir::library_op::lu:
    case ir::library_op::cholesky:
    case ir::library_op::qr:
    case ir::library_op::eigh:
    case ir::library_op::svd:
    case ir::library_op::eig:
      run_solver(c, in, outs);
      return;
    case ir::library_op::fft:
      fft(c, in, out);  // fftw.cpp, or fft_builtin.cpp without FFTW
      return;
  }
  throw error("cpu backend: unknown library call");
}

}  // namespace ndfuse::backend::cpu
