// Dense solvers on the CPU backend: LAPACKE in row-major layout, one call per matrix of the batch
// (OpenBLAS threads each call). The twin of src/backend/cuda/vendor/cusolver.cpp. LAPACKE's row-major
// layout reads and writes C-order matrices as ir/library.hpp's contract wants them, so nothing here
// transposes (eigh, whose contract is LAPACK's own column-major V, runs column-major); each routine
// works in place on a copy, as a call's inputs are read-only.
#include "backend/cpu/lapack.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

// LAPACKE's complex types as C++'s (lapacke.h honours these when they are defined first).
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include "ir/host_types.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;
constexpr int row = LAPACK_ROW_MAJOR;
constexpr int col = LAPACK_COL_MAJOR;  // heevd: its V is the contract's layout (ir/library.hpp)

// One name per LAPACK routine, overloaded on the element type.
// clang-format off
lapack_int gesv(lapack_int n, lapack_int k, float* a, lapack_int* p, float* b) { return LAPACKE_sgesv(row, n, k, a, n, p, b, k); }
lapack_int gesv(lapack_int n, lapack_int k, double* a, lapack_int* p, double* b) { return LAPACKE_dgesv(row, n, k, a, n, p, b, k); }
lapack_int gesv(lapack_int n, lapack_int k, c64* a, lapack_int* p, c64* b) { return LAPACKE_cgesv(row, n, k, a, n, p, b, k); }
lapack_int gesv(lapack_int n, lapack_int k, c128* a, lapack_int* p, c128* b) { return LAPACKE_zgesv(row, n, k, a, n, p, b, k); }
lapack_int getrf(lapack_int n, float* a, lapack_int* p) { return LAPACKE_sgetrf(row, n, n, a, n, p); }
lapack_int getrf(lapack_int n, double* a, lapack_int* p) { return LAPACKE_dgetrf(row, n, n, a, n, p); }
lapack_int getrf(lapack_int n, c64* a, lapack_int* p) { return LAPACKE_cgetrf(row, n, n, a, n, p); }
lapack_int getrf(lapack_int n, c128* a, lapack_int* p) { return LAPACKE_zgetrf(row, n, n, a, n, p); }
lapack_int potrf(lapack_int n, float* a) { return LAPACKE_spotrf(row, 'L', n, a, n); }
lapack_int potrf(lapack_int n, double* a) { return LAPACKE_dpotrf(row, 'L', n, a, n); }
lapack_int potrf(lapack_int n, c64* a) { return LAPACKE_cpotrf(row, 'L', n, a, n); }
lapack_int potrf(lapack_int n, c128* a) { return LAPACKE_zpotrf(row, 'L', n, a, n); }
lapack_int geqrf(lapack_int m, lapack_int n, float* a, float* t) { return LAPACKE_sgeqrf(row, m, n, a, n, t); }
lapack_int geqrf(lapack_int m, lapack_int n, double* a, double* t) { return LAPACKE_dgeqrf(row, m, n, a, n, t); }
lapack_int geqrf(lapack_int m, lapack_int n, c64* a, c64* t) { return LAPACKE_cgeqrf(row, m, n, a, n, t); }
lapack_int geqrf(lapack_int m, lapack_int n, c128* a, c128* t) { return LAPACKE_zgeqrf(row, m, n, a, n, t); }
lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, float* a, const float* t) { return LAPACKE_sorgqr(row, m, n, k, a, n, t); }
lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, double* a, const double* t) { return LAPACKE_dorgqr(row, m, n, k, a, n, t); }
lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, c64* a, const c64* t) { return LAPACKE_cungqr(row, m, n, k, a, n, t); }
lapack_int orgqr(lapack_int m, lapack_int n, lapack_int k, c128* a, const c128* t) { return LAPACKE_zungqr(row, m, n, k, a, n, t); }
lapack_int heevd(char j, char u, lapack_int n, float* a, float* w) { return LAPACKE_ssyevd(col, j, u, n, a, n, w); }
lapack_int heevd(char j, char u, lapack_int n, double* a, double* w) { return LAPACKE_dsyevd(col, j, u, n, a, n, w); }
lapack_int heevd(char j, char u, lapack_int n, c64* a, float* w) { return LAPACKE_cheevd(col, j, u, n, a, n, w); }
lapack_int heevd(char j, char u, lapack_int n, c128* a, double* w) { return LAPACKE_zheevd(col, j, u, n, a, n, w); }
lapack_int gesdd(char j, lapack_int m, lapack_int n, float* a, float* s, float* u, lapack_int lu, float* v, lapack_int lv) { return LAPACKE_sgesdd(col, j, m, n, a, m, s, u, lu, v, lv); }
lapack_int gesdd(char j, lapack_int m, lapack_int n, double* a, double* s, double* u, lapack_int lu, double* v, lapack_int lv) { return LAPACKE_dgesdd(col, j, m, n, a, m, s, u, lu, v, lv); }
lapack_int gesdd(char j, lapack_int m, lapack_int n, c64* a, float* s, c64* u, lapack_int lu, c64* v, lapack_int lv) { return LAPACKE_cgesdd(col, j, m, n, a, m, s, u, lu, v, lv); }
lapack_int gesdd(char j, lapack_int m, lapack_int n, c128* a, double* s, c128* u, lapack_int lu, c128* v, lapack_int lv) { return LAPACKE_zgesdd(col, j, m, n, a, m, s, u, lu, v, lv); }
// Real geev returns real and imaginary parts apart; complex geev the eigenvalues themselves.
lapack_int geev(char j, lapack_int n, float* a, float* wr, float* wi, float* v) { return LAPACKE_sgeev(row, 'N', j, n, a, n, wr, wi, nullptr, 1, v, n); }
lapack_int geev(char j, lapack_int n, double* a, double* wr, double* wi, double* v) { return LAPACKE_dgeev(row, 'N', j, n, a, n, wr, wi, nullptr, 1, v, n); }
lapack_int geev(char j, lapack_int n, c64* a, c64* w, c64* v) { return LAPACKE_cgeev(row, 'N', j, n, a, n, w, nullptr, 1, v, n); }
lapack_int geev(char j, lapack_int n, c128* a, c128* w, c128* v) { return LAPACKE_zgeev(row, 'N', j, n, a, n, w, nullptr, 1, v, n); }
// clang-format on

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

lapack_int dim(std::int64_t n, const ir::library_call& c) {
  if (n > std::numeric_limits<lapack_int>::max())
    throw linalg_error(std::string("linalg ") + ir::library_op_name(c.op) + ": a dimension of " +
                       std::to_string(n) + " exceeds LAPACK's 32-bit sizes");
  return static_cast<lapack_int>(n);
}

// LAPACKE's high-level routines scan their inputs for NaN first and return an argument error when
// they find one (-4 for inv's matrix). NumPy calls LAPACK itself, where NaN simply flows through
// (np.linalg.inv of a matrix holding NaN gives NaN, or LinAlgError where a pivot ends up zero), so
// the scan is turned off, once, before the first call. It is LAPACKE's process-wide setting.
const bool lapacke_nan_scan_off = [] {
  LAPACKE_set_nancheck(0);
  return true;
}();

// LAPACKE's negative codes are argument errors: a bug here, never the user's input.
lapack_int checked(lapack_int info, const ir::library_call& c) {
  if (info < 0)
    throw error(std::string("cpu backend: LAPACK ") + ir::library_op_name(c.op) + " rejected argument " +
                std::to_string(-info));
  return info;
}

// v[i] *= 2^e for the n elements at v (exact, unless a result leaves the normal range).
template <class T>
void times_power_of_two(T* v, std::size_t n, int e) {
  if (e == 0) return;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, real_t<T>>)
      v[i] = std::ldexp(v[i], e);
    else
      v[i] = T(std::ldexp(v[i].real(), e), std::ldexp(v[i].imag(), e));
  }
}

// When the largest real or imaginary part of the n elements at a lies outside LAPACK's safe range
// ([2^-484, 2^484] in float64, [2^-51, 2^51] in float32: sqrt of safmin / eps and its inverse), the e
// that puts it in [1/2, 1) as a 2^-e, with a scaled by it; else 0, and a as it was (cuSOLVER's twin,
// range_scale.cu, decides alike).
template <class T>
int scale_into_range(T* a, std::size_t n) {
  constexpr int safe = sizeof(real_t<T>) == 4 ? 51 : 484;
  real_t<T> big = 0;
  const auto* r = reinterpret_cast<const real_t<T>*>(a);  // std::complex is an array of two reals
  const std::size_t reals = n * (std::is_same_v<T, real_t<T>> ? 1 : 2);
  for (std::size_t i = 0; i < reals; ++i) {
    if (std::isnan(r[i])) return 0;
    big = std::max(big, std::abs(r[i]));
  }
  int e = 0;
  if (big > 0 && std::isfinite(big)) std::frexp(big, &e);
  if (e <= safe && e > -safe) return 0;
  times_power_of_two(a, n, -e);
  return e;
}

// The columns of the row-major n x n matrix at a whose largest real or imaginary part lies below the
// safe range are scaled up by a power of two, putting it in [1/2, 1); the exponents come back (0 for
// a column left alone). Debian 12's OpenBLAS (0.3.21) multiplies by the reciprocal of each pivot, which
// is infinite for a subnormal one: det([[1, 2], [3, 4]] * 1e-310) came out +inf and det(diag(1e-310,
// 1)) NaN, where NumPy's OpenBLAS divides. Scaling a column scales the same elements of every step's
// pivot column alike, so partial pivoting picks the same rows and the factors are exact powers of two
// of the unscaled ones: U's column j carries column j's factor, L none.
// Made once per call and reused for each matrix of the stack.
template <class T>
class column_scaling {
 public:
  void scale(T* a, lapack_int n) {
    constexpr int safe = sizeof(real_t<T>) == 4 ? 51 : 484;
    const std::size_t cols = static_cast<std::size_t>(n);
    big_.assign(cols, 0);                   // NaN once a column holds one (max keeps a NaN it starts from)
    for (std::size_t i = 0; i < cols; ++i)  // row by row, as the matrix lies
      for (std::size_t j = 0; j < cols; ++j) {
        const T v = a[i * cols + j];
        for (const real_t<T> part : {std::real(v), std::imag(v)})
          big_[j] = std::isnan(part) ? part : std::max(big_[j], std::abs(part));
      }
    e_.assign(cols, 0);
    any_ = false;
    for (std::size_t j = 0; j < cols; ++j) {
      if (!(big_[j] > 0)) continue;  // zero or NaN
      int exponent = 0;
      std::frexp(big_[j], &exponent);
      if (exponent <= -safe) e_[j] = exponent, any_ = true;
    }
    if (any_)
      for (std::size_t i = 0; i < cols; ++i)
        for (std::size_t j = 0; j < cols; ++j) times_power_of_two(a + i * cols + j, 1, -e_[j]);
  }
  // Row j of the row-major n x k matrix at x times 2^-e[j]: A' = A 2^-E, so A x = b gives x = 2^-E x'
  // for A' x' = b.
  void rows_back(T* x, lapack_int k) const {
    if (!any_) return;
    for (std::size_t j = 0; j < e_.size(); ++j)
      times_power_of_two(x + j * k, static_cast<std::size_t>(k), -e_[j]);
  }
  // U's column j (its rows 0..j) of the row-major n x n LU at a times 2^e[j]: L carries no factor.
  void u_columns_back(T* a, lapack_int n) const {
    if (!any_) return;
    for (lapack_int j = 0; j < n; ++j)
      for (lapack_int i = 0; i <= j; ++i)
        times_power_of_two(a + static_cast<std::size_t>(i) * n + j, 1, e_[j]);
  }

 private:
  std::vector<real_t<T>> big_;
  std::vector<int> e_;
  bool any_ = false;
};

template <class T>
void solve(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const lapack_int n = dim(p.n, c), k = dim(p.k, c);
  std::vector<T> a(static_cast<std::size_t>(n) * n);
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  auto* info = static_cast<std::int32_t*>(out[1]);
  column_scaling<T> scaling;
  for (std::int64_t b = 0; b < c.rows; ++b) {
    std::memcpy(a.data(), static_cast<const T*>(in[0]) + b * n * n, a.size() * sizeof(T));
    T* x = static_cast<T*>(out[0]) + b * n * k;
    std::memcpy(x, static_cast<const T*>(in[1]) + b * n * k, sizeof(T) * n * k);
    scaling.scale(a.data(), n);
    info[b] = checked(gesv(n, k, a.data(), piv.data(), x), c);
    scaling.rows_back(x, k);
  }
}

// gesv on an identity, as NumPy's inv calls it, rather than getrf + getri: the two order their
// arithmetic differently, which moves the NaNs an infinity makes (inv([[1, 2], [2, inf]]) is
// [[nan, nan], [-0, 0]] in NumPy, and its first row came out [0, 0.5] through getri).
template <class T>
void inv(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const lapack_int n = dim(c.linalg.n, c);
  std::vector<T> a(static_cast<std::size_t>(n) * n);
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  auto* info = static_cast<std::int32_t*>(out[1]);
  column_scaling<T> scaling;
  for (std::int64_t b = 0; b < c.rows; ++b) {
    std::memcpy(a.data(), static_cast<const T*>(in[0]) + b * n * n, a.size() * sizeof(T));
    T* x = static_cast<T*>(out[0]) + b * n * n;
    std::fill_n(x, a.size(), T(0));
    for (lapack_int i = 0; i < n; ++i) x[i * n + i] = T(1);
    scaling.scale(a.data(), n);
    info[b] = checked(gesv(n, n, a.data(), piv.data(), x), c);
    scaling.rows_back(x, n);
  }
}

template <class T>
void lu(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const lapack_int n = dim(c.linalg.n, c);
  std::vector<lapack_int> piv(static_cast<std::size_t>(n));
  auto* info = static_cast<std::int32_t*>(out[2]);
  column_scaling<T> scaling;
  for (std::int64_t b = 0; b < c.rows; ++b) {
    T* a = static_cast<T*>(out[0]) + b * n * n;
    std::memcpy(a, static_cast<const T*>(in[0]) + b * n * n, sizeof(T) * n * n);
    scaling.scale(a, n);
    info[b] = checked(getrf(n, a, piv.data()), c);
    scaling.u_columns_back(a, n);
    std::copy(piv.begin(), piv.end(), static_cast<std::int64_t*>(out[1]) + b * n);
  }
}

template <class T>
void cholesky(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const lapack_int n = dim(c.linalg.n, c);
  auto* info = static_cast<std::int32_t*>(out[1]);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    T* a = static_cast<T*>(out[0]) + b * n * n;
    std::memcpy(a, static_cast<const T*>(in[0]) + b * n * n, sizeof(T) * n * n);
    info[b] = checked(potrf(n, a), c);
    // potrf leaves A's strict upper triangle in place; the factor has zeros there.
    for (lapack_int i = 0; i + 1 < n; ++i) std::fill(a + i * n + i + 1, a + (i + 1) * n, T(0));
  }
}

// Each matrix is scaled by a power of two into range first, and R back (Q does not change): Debian
// 12's OpenBLAS (0.3.21) squares without scaling in its norms, and its geqrf gave infinities in R for
// a float32 matrix of largest entry 2^127 and NaNs in Q for float64 at 2^1023, where NumPy's own
// OpenBLAS did not (tests/oracle/gen_solvers.py's range cases). cuSOLVER's twin scales the same way.
template <class T>
void qr(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const lapack_int m = dim(p.m, c), n = dim(p.n, c), k = std::min(m, n);
  const lapack_int q_cols = p.full_matrices ? m : k, r_rows = p.full_matrices ? m : k;
  std::vector<T> a(static_cast<std::size_t>(m) * n), tau(static_cast<std::size_t>(std::max(k, 1)));
  T* q_out = p.r_only ? nullptr : static_cast<T*>(out[0]);
  T* r_out = static_cast<T*>(out[p.r_only ? 0 : 1]);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    std::memcpy(a.data(), static_cast<const T*>(in[0]) + b * m * n, a.size() * sizeof(T));
    const int e = scale_into_range(a.data(), a.size());
    checked(geqrf(m, n, a.data(), tau.data()), c);
    // R: the first r_rows rows (rows past min(m, n) hold only reflectors: unspecified, see the contract).
    std::memcpy(r_out + b * r_rows * n, a.data(), sizeof(T) * r_rows * n);
    times_power_of_two(r_out + b * r_rows * n, std::size_t(r_rows) * n, e);
    if (!q_out) continue;
    // Q: the reflectors in the first min(n, q_cols) columns, expanded in place by orgqr.
    T* q = q_out + b * m * q_cols;
    std::fill(q, q + static_cast<std::ptrdiff_t>(m) * q_cols, T(0));
    for (lapack_int i = 0; i < m; ++i)
      std::copy_n(a.data() + static_cast<std::ptrdiff_t>(i) * n, std::min(n, q_cols),
                  q + static_cast<std::ptrdiff_t>(i) * q_cols);
    if (m) checked(orgqr(m, q_cols, k, q, tau.data()), c);
  }
}

// Column-major, as cuSOLVER's twin runs it: LAPACK's V, eigenvector k in column k, is the contract's
// layout read in C order (eigenvector k in row k), so nothing transposes it (LAPACKE's row-major form
// would transpose A in and V out). A real symmetric A is its own transpose: the C-order copy is A
// column-major, with the named triangle flipped. A complex Hermitian one read that way would be
// conj(A), whose eigenvectors are conj(V), so it is transposed in.
template <class T>
void eigh(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const lapack_int n = dim(p.n, c);
  constexpr bool transposed_in = !std::is_same_v<T, real_t<T>>;
  const bool upper_there = transposed_in ? p.upper : !p.upper;  // UPLO's triangle, as LAPACK sees it
  const char uplo = upper_there ? 'U' : 'L';
  std::vector<T> scratch(p.compute_uv ? 0 : static_cast<std::size_t>(n) * n);
  auto* info = static_cast<std::int32_t*>(out[p.compute_uv ? 2 : 1]);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    T* a = p.compute_uv ? static_cast<T*>(out[1]) + b * n * n : scratch.data();
    const T* src = static_cast<const T*>(in[0]) + b * n * n;
    if constexpr (transposed_in) {
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) a[j * n + i] = src[i * n + j];
    } else {
      std::memcpy(a, src, sizeof(T) * n * n);
    }
    info[b] =
        checked(heevd(p.compute_uv ? 'V' : 'N', uplo, n, a, static_cast<real_t<T>*>(out[0]) + b * n), c);
  }
}

// Whether a holds a NaN (`or_inf`: or an infinity). gesdd answers a NaN with an argument error, and
// geev a non-finite matrix with argument errors that xerbla prints. NumPy raises LinAlgError for
// both (its SVD does not converge; eig checks for infs and NaNs first; an infinity alone gives the
// SVD NaNs), so here such a matrix gets info 1 and no call.
template <class T>
bool has_non_finite(const std::vector<T>& a, bool or_inf) {
  auto bad = [or_inf](auto v) { return or_inf ? !std::isfinite(v) : std::isnan(v); };
  return std::any_of(a.begin(), a.end(), [&](const T& x) {
    if constexpr (std::is_same_v<T, real_t<T>>)
      return bad(x);
    else
      return bad(x.real()) || bad(x.imag());
  });
}

template <class T>
void svd(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const lapack_int m = dim(p.m, c), n = dim(p.n, c), k = std::min(m, n);
  const lapack_int u_cols = p.full_matrices ? m : k, v_rows = p.full_matrices ? n : k;
  const char job = !p.compute_uv ? 'N' : p.full_matrices ? 'A' : 'S';
  // Column-major, as LAPACK runs it, so LAPACKE copies nothing: the C-order m x n matrix is the
  // column-major n x m A^T, and A^T = U' S V'^H gives A = conj(V') S U'^T, whose U (conj(V')) and Vh
  // (U'^T) are V'^H and U' read in C order. The copy of A has room past its end: OpenBLAS's zgemv
  // kernels read up to a vector past a matrix (under AddressSanitizer, gesdd of a complex128 26 x 24
  // matrix in LAPACKE's own unpadded copy faulted there, at the end of a heap region).
  const std::size_t elements = static_cast<std::size_t>(m) * n;
  std::vector<T> a(elements + 8);
  auto* info = static_cast<std::int32_t*>(out[p.compute_uv ? 3 : 1]);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    std::memcpy(a.data(), static_cast<const T*>(in[0]) + b * m * n, elements * sizeof(T));
    T* u = p.compute_uv ? static_cast<T*>(out[1]) + b * m * u_cols : nullptr;
    T* vt = p.compute_uv ? static_cast<T*>(out[2]) + b * v_rows * n : nullptr;
    if (has_non_finite(a, true)) {  // one scan of a finite matrix; a second only for a bad one
      if (has_non_finite(a, false)) {
        info[b] = 1;
        continue;
      }
      // An infinity: gesdd's bdsqr can loop forever on it (Reference-LAPACK's GitHub #1409; NumPy's
      // svd hangs there too). Where NumPy returns, its answer is NaN: so is this one.
      const T nan_t = T(std::numeric_limits<real_t<T>>::quiet_NaN());
      std::fill_n(static_cast<real_t<T>*>(out[0]) + b * k, k, std::numeric_limits<real_t<T>>::quiet_NaN());
      if (p.compute_uv) {
        std::fill_n(u, std::size_t(m) * u_cols, nan_t);
        std::fill_n(vt, std::size_t(v_rows) * n, nan_t);
      }
      info[b] = 0;
      continue;
    }
    info[b] = checked(gesdd(job, n, m, a.data(), static_cast<real_t<T>*>(out[0]) + b * k, vt,
                            std::max<lapack_int>(n, 1), u, std::max<lapack_int>(u_cols, 1)),
                      c);
  }
}

template <class T>
void eig(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const lapack_int n = dim(p.n, c);
  std::vector<T> a(static_cast<std::size_t>(n) * n),
      v(static_cast<std::size_t>(std::max(n, 1)) * (p.compute_uv ? n : 1));
  auto* w = static_cast<std::complex<real_t<T>>*>(out[0]);
  auto* info = static_cast<std::int32_t*>(out[p.compute_uv ? 2 : 1]);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    std::memcpy(a.data(), static_cast<const T*>(in[0]) + b * n * n, a.size() * sizeof(T));
    T* vb = p.compute_uv ? static_cast<T*>(out[1]) + b * n * n : v.data();
    const char job = p.compute_uv ? 'V' : 'N';
    if (has_non_finite(a, true)) {
      info[b] = 1;
      continue;
    }
    if constexpr (std::is_same_v<T, real_t<T>>) {
      std::vector<T> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
      info[b] = checked(geev(job, n, a.data(), wr.data(), wi.data(), vb), c);
      for (lapack_int i = 0; i < n; ++i) w[b * n + i] = {wr[i], wi[i]};
    } else {
      info[b] = checked(geev(job, n, a.data(), w + b * n, vb), c);
    }
  }
}

template <class F>
void with_solver_dtype(const ir::library_call& c, F&& f) {
  switch (c.dt) {
    case dtype::float32:
      return f(float{});
    case dtype::float64:
      return f(double{});
    case dtype::complex64:
      return f(c64{});
    case dtype::complex128:
      return f(c128{});
    default:
      throw error(std::string("cpu backend: linalg ") + ir::library_op_name(c.op) + " called with " +
                  std::string(dtype_name(c.dt)));
  }
}

}  // namespace

void run_solver(const ir::library_call& c, const std::vector<const void*>& in,
                const std::vector<void*>& out) {
  with_solver_dtype(c, [&](auto t) {
    using T = decltype(t);
    switch (c.op) {
      case ir::library_op::solve:
        return solve<T>(c, in, out);
      case ir::library_op::inv:
        return inv<T>(c, in, out);
      case ir::library_op::lu:
        return lu<T>(c, in, out);
      case ir::library_op::cholesky:
        return cholesky<T>(c, in, out);
      case ir::library_op::qr:
        return qr<T>(c, in, out);
      case ir::library_op::eigh:
        return eigh<T>(c, in, out);
      case ir::library_op::svd:
        return svd<T>(c, in, out);
      case ir::library_op::eig:
        return eig<T>(c, in, out);
      default:
        throw error("cpu backend: run_solver called with a non-solver library call");
    }
  });
}

}  // namespace ndfuse::backend::cpu
