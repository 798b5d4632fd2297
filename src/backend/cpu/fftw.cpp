// Fourier transforms on the CPU backend through FFTW (fftw3 for complex128, fftw3f for complex64).
//
// Plans: one per transform shape (precision, kind, dims) and alignment class, made with
// FFTW_ESTIMATE (which never touches the arrays, so planning on the call's own, read-only input is
// safe, and costs microseconds where FFTW_MEASURE would cost seconds for large sizes) and kept in an
// LRU cache. A plan transforms one batch item; the thread pool runs the items in parallel through
// FFTW's new-array execute functions, the only FFTW calls that are thread-safe. The planner is not:
// making and destroying plans happen under one lock. FFTW requires a new array to have the
// alignment the plan was made for, so the key holds the items' alignment (when every item shares
// it), and FFTW_UNALIGNED plans serve layouts whose items differ.
#include <fftw3.h>

#include <complex>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <tuple>

#include "backend/cpu/fft.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ndfuse/error.hpp"
#include "support/lru_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cpu {

namespace {

using ir::fft_kind;

// The planner lock. Recursive: an LRU eviction inside a locked lookup destroys a plan, which locks.
std::recursive_mutex& planner_mutex() {
  static std::recursive_mutex m;
  return m;
}

// fftw_* and fftwf_* behind one name per precision.
template <class Real>
struct api;
template <>
struct api<double> {
  using plan = fftw_plan;
  using complex = fftw_complex;
  static constexpr auto guru_dft = fftw_plan_guru64_dft;
  static constexpr auto guru_r2c = fftw_plan_guru64_dft_r2c;
  static constexpr auto guru_c2r = fftw_plan_guru64_dft_c2r;
  static constexpr auto execute_dft = fftw_execute_dft;
  static constexpr auto execute_r2c = fftw_execute_dft_r2c;
  static constexpr auto execute_c2r = fftw_execute_dft_c2r;
  static constexpr auto destroy = fftw_destroy_plan;
  static constexpr auto alignment_of = fftw_alignment_of;
  static constexpr auto malloc = fftw_malloc;
  static constexpr auto free = fftw_free;
};
template <>
struct api<float> {
  using plan = fftwf_plan;
  using complex = fftwf_complex;
  static constexpr auto guru_dft = fftwf_plan_guru64_dft;
  static constexpr auto guru_r2c = fftwf_plan_guru64_dft_r2c;
  static constexpr auto guru_c2r = fftwf_plan_guru64_dft_c2r;
  static constexpr auto execute_dft = fftwf_execute_dft;
  static constexpr auto execute_r2c = fftwf_execute_dft_r2c;
  static constexpr auto execute_c2r = fftwf_execute_dft_c2r;
  static constexpr auto destroy = fftwf_destroy_plan;
  static constexpr auto alignment_of = fftwf_alignment_of;
  static constexpr auto malloc = fftwf_malloc;
  static constexpr auto free = fftwf_free;
};

// Everything a plan depends on. Alignments are fftw_alignment_of of the first item's input and
// output, or -1 for an FFTW_UNALIGNED plan.
struct plan_key {
  bool single = false;
  fft_kind kind = fft_kind::forward;
  int rank = 1;
  std::int64_t dims[3] = {1, 1, 1};
  int in_alignment = 0, out_alignment = 0;
  auto tie() const {
    return std::tie(single, kind, rank, dims[0], dims[1], dims[2], in_alignment, out_alignment);
  }
  bool operator==(const plan_key& o) const { return tie() == o.tie(); }
};
struct plan_key_hash {
  std::size_t operator()(const plan_key& k) const {
    std::size_t h = std::hash<int>{}(int(k.kind) * 2 + k.single) ^ std::hash<int>{}(k.rank) * 31;
    for (auto d : k.dims) h = h * 1000003 ^ std::hash<std::int64_t>{}(d);
    return h * 131 ^ std::hash<int>{}(k.in_alignment * 64 + k.out_alignment);
  }
};

// A plan of either precision, destroyed under the planner lock.
struct owned_plan {
  void* plan = nullptr;
  void (*destroy)(void*) = nullptr;
  ~owned_plan() {
    std::lock_guard lock(planner_mutex());
    destroy(plan);
  }
};
using plan_cache = support::lru_cache<plan_key, std::shared_ptr<owned_plan>, plan_key_hash>;

plan_cache& plans() {
  static plan_cache cache(64);
  return cache;
}

// Elements per item in the input and output, and the C-order strides of the transformed dims.
struct layout {
  std::int64_t in_items = 1, out_items = 1;
  std::vector<std::int64_t> in_dims, out_dims;  // the stored extents
};
layout layout_of(const ir::fft_params& p) {
  layout l;
  for (int k = 0; k < p.rank; ++k) {
    std::int64_t n = p.dims[k],
                 stored = k + 1 == p.rank && p.kind != fft_kind::forward && p.kind != fft_kind::inverse
                              ? n / 2 + 1
                              : n;
    l.in_dims.push_back(p.kind == fft_kind::c2r ? stored : n);
    l.out_dims.push_back(p.kind == fft_kind::r2c ? stored : n);
  }
  for (int k = 0; k < p.rank; ++k) {
    l.in_items *= l.in_dims[k];
    l.out_items *= l.out_dims[k];
  }
  return l;
}

// The guru dims of one item: logical length n, with the strides of the stored input and output.
std::vector<fftw_iodim64> guru_dims(const ir::fft_params& p, const layout& l) {
  std::vector<fftw_iodim64> d(static_cast<std::size_t>(p.rank));
  std::int64_t is = 1, os = 1;
  for (int k = p.rank - 1; k >= 0; --k) {
    d[k].n = p.dims[k];
    d[k].is = is;
    d[k].os = os;
    is *= l.in_dims[k];
    os *= l.out_dims[k];
  }
  return d;
}

template <class Real>
std::shared_ptr<owned_plan> plan_for(const ir::fft_params& p, const layout& l, const void* in, void* out,
                                     bool uniform) {
  using A = api<Real>;
  plan_key key;
  key.single = std::is_same_v<Real, float>;
  key.kind = p.kind;
  key.rank = p.rank;
  for (int k = 0; k < p.rank; ++k) key.dims[k] = p.dims[k];
  auto* in_mut = const_cast<void*>(in);  // FFTW_ESTIMATE planning reads and writes neither array
  key.in_alignment = uniform ? A::alignment_of(static_cast<Real*>(in_mut)) : -1;
  key.out_alignment = uniform ? A::alignment_of(static_cast<Real*>(out)) : -1;
  std::lock_guard lock(planner_mutex());
  return plans().get(key, [&] {
    const auto dims = guru_dims(p, l);
    const unsigned flags = FFTW_ESTIMATE | (uniform ? 0u : FFTW_UNALIGNED) |
                           (p.kind == fft_kind::c2r ? FFTW_DESTROY_INPUT : FFTW_PRESERVE_INPUT);
    auto* cin = static_cast<typename A::complex*>(in_mut);
    auto* cout = static_cast<typename A::complex*>(out);
    typename A::plan made = nullptr;
    switch (p.kind) {
      case fft_kind::forward:
      case fft_kind::inverse:
        made = A::guru_dft(p.rank, dims.data(), 0, nullptr, cin, cout,
                           p.kind == fft_kind::forward ? FFTW_FORWARD : FFTW_BACKWARD, flags);
        break;
      case fft_kind::r2c:
        made = A::guru_r2c(p.rank, dims.data(), 0, nullptr, static_cast<Real*>(in_mut), cout, flags);
        break;
      case fft_kind::c2r:
        made = A::guru_c2r(p.rank, dims.data(), 0, nullptr, cin, static_cast<Real*>(out), flags);
        break;
    }
    if (!made) throw error("fft: FFTW could not plan a transform of this shape");
    ++support::counters_here().fft_plans_created;
    auto owned = std::make_shared<owned_plan>();
    owned->plan = made;
    owned->destroy = [](void* q) { A::destroy(static_cast<typename A::plan>(q)); };
    return owned;
  });
}

// fftw_malloc'd scratch (the SIMD alignment FFTW prefers), freed at scope exit.
template <class Real>
struct fftw_buffer {
  std::complex<Real>* p;
  explicit fftw_buffer(std::int64_t n)
      : p(static_cast<std::complex<Real>*>(api<Real>::malloc(sizeof(std::complex<Real>) * std::size_t(n)))) {
    if (!p && n)
      throw out_of_memory("fft: could not allocate " + std::to_string(n) + " complex scratch values");
  }
  ~fftw_buffer() { api<Real>::free(p); }
  fftw_buffer(const fftw_buffer&) = delete;
  fftw_buffer& operator=(const fftw_buffer&) = delete;
};

template <class Real>
void run(const ir::fft_params& p, const void* input, void* out) {
  using A = api<Real>;
  const layout l = layout_of(p);
  const bool real_in = p.kind == fft_kind::r2c, real_out = p.kind == fft_kind::c2r;
  const std::size_t in_bytes = (real_in ? sizeof(Real) : 2 * sizeof(Real)) * std::size_t(l.in_items);
  const std::size_t out_bytes = (real_out ? sizeof(Real) : 2 * sizeof(Real)) * std::size_t(l.out_items);
  std::unique_ptr<fftw_buffer<Real>> scratch;
  if (p.kind == fft_kind::c2r) {
    scratch = std::make_unique<fftw_buffer<Real>>(p.batch * l.in_items);
    hermitian_copy(static_cast<const std::complex<Real>*>(input), scratch->p, p.batch, p.dims[0]);
    input = scratch->p;
  }
  const char* in = static_cast<const char*>(input);
  char* o = static_cast<char*>(out);
  // Every item shares the first one's alignment when the item sizes are multiples of it.
  const bool uniform =
      p.batch == 1 || (A::alignment_of(reinterpret_cast<Real*>(const_cast<char*>(in))) ==
                           A::alignment_of(reinterpret_cast<Real*>(const_cast<char*>(in + in_bytes))) &&
                       A::alignment_of(reinterpret_cast<Real*>(o)) ==
                           A::alignment_of(reinterpret_cast<Real*>(o + out_bytes)));
  const auto owned = plan_for<Real>(p, l, in, o, uniform);
  const auto plan = static_cast<typename A::plan>(owned->plan);
  global_pool().parallel_for(p.batch, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      auto* src = const_cast<char*>(in + i * std::int64_t(in_bytes));
      char* dst = o + i * std::int64_t(out_bytes);
      if (real_in)
        A::execute_r2c(plan, reinterpret_cast<Real*>(src), reinterpret_cast<typename A::complex*>(dst));
      else if (real_out)
        A::execute_c2r(plan, reinterpret_cast<typename A::complex*>(src), reinterpret_cast<Real*>(dst));
      else
        A::execute_dft(plan, reinterpret_cast<typename A::complex*>(src),
                       reinterpret_cast<typename A::complex*>(dst));
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
    throw dtype_error("fft: no FFTW routine for " + std::string(dtype_name(c.dt)));
}

}  // namespace ndfuse::backend::cpu
