// Dense solvers through cuSOLVER: the twin of src/backend/cpu/lapack.cpp. One call per matrix of
// the batch through the 64-bit generic API (one code path for the four dtypes), or one batched call
// for a stack of small matrices (below). solve and inv factor with the legacy typed getrf (32-bit
// pivots) and apply the pivots themselves around cuBLAS's triangular solves (cusolver_lu.cpp says
// why). The LU family (solve, inv, lu) lives in cusolver_lu.cpp, the helpers both files use in
// cusolver_common.hpp.
//
// Layout. cuSOLVER is column-major and the contract (ir/library.hpp) is C order. A C-order m x n
// buffer already is the column-major A^T, and most routines are used on it as it stands:
//   - inv:      inv(A^T) in column-major order is inv(A) in C order;
//   - lu (det): det(A^T) = det(A);
//   - cholesky: A^T = conj(A) for a Hermitian A, and its column-major upper factor is, in C order,
//               A's lower factor L (read from A's lower triangle, as NumPy);
//   - eigh:     conj(A)'s eigenvalues are A's; its eigenvectors, conjugated, are A's;
//   - svd:      A^T = V S U^T (A wide or square: A^T is tall, as gesvd and gesvdp want), so the
//               column-major U of A^T is A's V^H in C order; for a tall A, conj(A) is transposed in.
// Where a factor is needed the other way round, cublas<t>geam transposes it (cublas.cpp).
//
// Stacks of small matrices (n <= 32) solve through cuBLAS's batched LU (one launch per step for the
// whole stack), invert in one Gauss-Jordan kernel of solver_kernels.cu (cuBLAS's getrf + getri and
// the copy took 37 us on 10000 8 x 8 float64 matrices on an H100, its one-kernel matinvBatched 45),
// and factor through cuSOLVER's potrfBatched (cholesky), ndfuse's Jacobi kernels of small_eigh.cu and
// register_eigh.cu (eigh, in place of syevjBatched), or ndfuse's one-sided Jacobi kernel of
// small_svd.cu (svd: 0.12 ms for 10000 8 x 8 float64 matrices on an H100, where
// gesvdjBatched took 8.3; faster at every size measured, research/svd_batched.cu). Larger
// ones, and qr (cuSOLVER has no batched orgqr), loop over the 64-bit calls, which are then the bigger
// cost.
//
// SVD routine: gesvdp (polar decomposition) where the economy factors are wanted (and for square
// matrices), gesvd for full_matrices of non-square ones (gesvdp has no full form) and where the
// frontend asks for `accurate` small singular values: gesvdp's smallest ones carry an absolute error
// well above LAPACK's eps * max(S), which a rank decision (matrix_rank, pinv, lstsq) cannot take. On an H100
// at 1000 x 1000 float64, gesvdp took 32 ms against gesvd's 135 ms and gesvdj's 89 ms, with the same 1e-14
// reconstruction error (a scratch measurement; bench/bench_cuda_solvers.cpp times the choice).
#include "backend/cuda/vendor/cusolver.hpp"

#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "backend/cuda/vendor/cublas.hpp"
#include "backend/cuda/vendor/cusolver_batched.hpp"
#include "backend/cuda/vendor/cusolver_common.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"
#include "support/lru_cache.hpp"

namespace ndfuse::backend::cuda {

int jacobi_sweep_limit() {
  return support::env::jacobi_max_sweeps();
}

void check_solver(cusolverStatus_t s, const char* call) {
  if (s == CUSOLVER_STATUS_SUCCESS) return;
  throw_if_unusable();  // a failure after a sticky error is its consequence
  if (s == CUSOLVER_STATUS_ALLOC_FAILED)
    throw out_of_memory(std::string("cuSOLVER: ") + call + " could not allocate");
  throw device_error(std::string("cuSOLVER: ") + call + " failed with status " +
                     std::to_string(static_cast<int>(s)));
}

namespace solver_detail {

const solver_handle& handle_here() {
  thread_local support::lru_cache<int, solver_handle> handles(max_devices);
  const solver_handle& h = handles.get(current_device(), [] {
    solver_handle s;
    check_solver(cusolverDnCreate(&s.handle), "cusolverDnCreate");
    check_solver(cusolverDnCreateParams(&s.params), "cusolverDnCreateParams");
    return s;
  });
  check_solver(cusolverDnSetStream(h.handle, current_stream()), "cusolverDnSetStream");
  return h;
}

cudaDataType type_of(dtype t) {
  switch (t) {
    case dtype::float32:
      return CUDA_R_32F;
    case dtype::float64:
      return CUDA_R_64F;
    case dtype::complex64:
      return CUDA_C_32F;
    case dtype::complex128:
      return CUDA_C_64F;
    default:
      throw error(std::string("cuda backend: no cuSOLVER type for ") + std::string(dtype_name(t)));
  }
}
cudaDataType real_type_of(dtype t) {
  return t == dtype::complex64 ? CUDA_R_32F : t == dtype::complex128 ? CUDA_R_64F : type_of(t);
}
cudaDataType complex_type_of(dtype t) {
  return t == dtype::float32 || t == dtype::complex64 ? CUDA_C_32F : CUDA_C_64F;
}

void copy(void* dst, const void* src, std::size_t nbytes) {
  if (nbytes)
    check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, current_stream()), "cudaMemcpyAsync");
}

}  // namespace solver_detail

namespace {

using namespace solver_detail;

// --- the typed batched routines (no generic 64-bit forms exist) ----------------------------------

// Stacks of matrices up to this size factor in one batched call or kernel (the Jacobi kernels keep a
// matrix in a warp's shared memory or registers); larger ones loop over the 64-bit API, where each
// call is the bigger cost.
constexpr std::int64_t batched_max_n = 32;

bool batched(const ir::library_call& c) {
  return c.rows > 1 && std::max(c.linalg.m, c.linalg.n) <= batched_max_n;
}

// --- cholesky, qr -------------------------------------------------------------------------------

// cuSOLVER's lower-triangle Cholesky is its fast one. On an H100 (scripts/ncu-reasons cholesky)
// the upper form of a 1000 x 1000 Xpotrf ran a column-at-a-time path of about a hundred small
// kernels (1.08 ms; JAX, 0.47 ms), and potrfBatched's upper form transposed each matrix to lower and
// back inside, 96 of its 134 us on 10000 8 x 8 matrices. So each C-order matrix is transposed into
// column-major A, factored as A = L L^H in its lower triangle, and L transposed back to C order
// with its strict upper triangle zeroed on the way (NumPy's result, with no tril pass after it).
void cholesky(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& h = handle_here();
  const std::int64_t n = c.linalg.n;
  const std::size_t sz = itemsize(c.dt);
  const cudaDataType t = type_of(c.dt);
  const auto lower = CUBLAS_FILL_MODE_LOWER;
  if (batched(c)) {
    scratch a(sz * n * n * c.rows), ptrs(sizeof(void*) * c.rows);
    transpose_stack(c.dt, c.rows, n, n, in[0], a.get(), false);
    matrix_pointers(ptrs.get<void*>(), c.rows, a.get(), static_cast<std::int64_t>(sz) * n * n);
    potrf_batched(h.handle, c.dt, lower, static_cast<int>(n), ptrs.get<void*>(), static_cast<int*>(out[1]),
                  static_cast<int>(c.rows));
    transpose_stack(c.dt, c.rows, n, n, a.get(), out[0], false, triangle::lower);
    return;
  }
  scratch a(sz * n * n);  // one matrix at a time: the stack's extra memory is one matrix
  workspace w;
  std::size_t d = 0, hb = 0;
  check_solver(cusolverDnXpotrf_bufferSize(h.handle, h.params, lower, n, t, a.get(), n, t, &d, &hb),
               "Xpotrf_bufferSize");
  w.size(d, hb);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    transpose_stack(c.dt, 1, n, n, at(in[0], b * n * n, sz), a.get(), false);
    check_solver(
        cusolverDnXpotrf(h.handle, h.params, lower, n, t, a.get(), n, t, w.device->get(), w.device_bytes,
                         w.host.data(), w.host.size(), at<int>(out[1], b, sizeof(int))),
        "Xpotrf");
    transpose_stack(c.dt, 1, n, n, a.get(), at<void>(out[0], b * n * n, sz), false, triangle::lower);
  }
}

// orgqr / ungqr have no generic form: the typed routines, picked by dtype.
int orgqr_size(cusolverDnHandle_t h, dtype dt, int m, int n, int k, void* a, void* tau) {
  int lw = 0;
  switch (dt) {
    case dtype::float32:
      check_solver(
          cusolverDnSorgqr_bufferSize(h, m, n, k, static_cast<float*>(a), m, static_cast<float*>(tau), &lw),
          "Sorgqr_bufferSize");
      break;
    case dtype::float64:
      check_solver(
          cusolverDnDorgqr_bufferSize(h, m, n, k, static_cast<double*>(a), m, static_cast<double*>(tau), &lw),
          "Dorgqr_bufferSize");
      break;
    case dtype::complex64:
      check_solver(cusolverDnCungqr_bufferSize(h, m, n, k, static_cast<cuComplex*>(a), m,
                                               static_cast<cuComplex*>(tau), &lw),
                   "Cungqr_bufferSize");
      break;
    default:
      check_solver(cusolverDnZungqr_bufferSize(h, m, n, k, static_cast<cuDoubleComplex*>(a), m,
                                               static_cast<cuDoubleComplex*>(tau), &lw),
                   "Zungqr_bufferSize");
      break;
  }
  return lw;
}

void orgqr(cusolverDnHandle_t h, dtype dt, int m, int n, int k, void* a, void* tau, void* work, int lw,
           int* info) {
  switch (dt) {
    case dtype::float32:
      check_solver(cusolverDnSorgqr(h, m, n, k, static_cast<float*>(a), m, static_cast<float*>(tau),
                                    static_cast<float*>(work), lw, info),
                   "Sorgqr");
      return;
    case dtype::float64:
      check_solver(cusolverDnDorgqr(h, m, n, k, static_cast<double*>(a), m, static_cast<double*>(tau),
                                    static_cast<double*>(work), lw, info),
                   "Dorgqr");
      return;
    case dtype::complex64:
      check_solver(cusolverDnCungqr(h, m, n, k, static_cast<cuComplex*>(a), m, static_cast<cuComplex*>(tau),
                                    static_cast<cuComplex*>(work), lw, info),
                   "Cungqr");
      return;
    default:
      check_solver(
          cusolverDnZungqr(h, m, n, k, static_cast<cuDoubleComplex*>(a), m,
                           static_cast<cuDoubleComplex*>(tau), static_cast<cuDoubleComplex*>(work), lw, info),
          "Zungqr");
      return;
  }
}

void qr(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& h = handle_here();
  const auto& p = c.linalg;
  const std::int64_t m = p.m, n = p.n, k = std::min(m, n);
  const std::int64_t q_cols = p.full_matrices ? m : k, r_rows = p.full_matrices ? m : k;
  const std::size_t sz = itemsize(c.dt);
  const cudaDataType t = type_of(c.dt);
  scratch x(sz * m * n), tau(sz * std::max<std::int64_t>(k, 1)), q(p.r_only ? 0 : sz * m * q_cols),
      dummy(sizeof(int)), largest(8);
  workspace w;
  std::size_t d = 0, hb = 0;
  check_solver(cusolverDnXgeqrf_bufferSize(h.handle, h.params, m, n, t, x.get(), m, t, tau.get(), t, &d, &hb),
               "Xgeqrf_bufferSize");
  const int lw = p.r_only ? 0
                          : orgqr_size(h.handle, c.dt, static_cast<int>(m), static_cast<int>(q_cols),
                                       static_cast<int>(k), q.get(), tau.get());
  w.size(std::max(d, static_cast<std::size_t>(lw) * sz), hb);
  void* r_out = out[p.r_only ? 0 : 1];
  for (std::int64_t b = 0; b < c.rows; ++b) {
    // Column-major A: the C-order buffer transposed.
    transpose(c.dt, m, n, at(in[0], b * m * n, sz), n, x.get(), false);
    scale_into_range(c.dt, m * n, x.get(), largest.get());  // as the CPU twin (range_scale.cu)
    check_solver(cusolverDnXgeqrf(h.handle, h.params, m, n, t, x.get(), m, t, tau.get(), t, w.device->get(),
                                  w.device_bytes, w.host.data(), w.host.size(), dummy.get<int>()),
                 "Xgeqrf");
    // R: the first r_rows rows of the column-major result, back to C order.
    transpose(c.dt, n, r_rows, x.get(), m, at<void>(r_out, b * r_rows * n, sz), false);
    scale_back(c.dt, r_rows * n * (is_complex(c.dt) ? 2 : 1), at<void>(r_out, b * r_rows * n, sz),
               largest.get());
    if (p.r_only) continue;
    // Q: the reflectors (the first min(n, q_cols) columns) expanded by orgqr, back to C order.
    check(cudaMemsetAsync(q.get(), 0, sz * m * q_cols, current_stream()), "cudaMemsetAsync");
    copy(q.get(), x.get(), sz * m * std::min(n, q_cols));
    orgqr(h.handle, c.dt, static_cast<int>(m), static_cast<int>(q_cols), static_cast<int>(k), q.get(),
          tau.get(), w.device->get(), lw, dummy.get<int>());
    transpose(c.dt, q_cols, m, q.get(), m, at<void>(out[0], b * m * q_cols, sz), false);
  }
}

// --- eigh, eig ----------------------------------------------------------------------------------

// Stacks of n <= 32 take ndfuse's own Jacobi kernels (small_eigh.cu, and register_eigh.cu for real
// n from 21 in float64 and 17 in float32): on an H100 they beat syevjBatched, timed with the copy of
// the stack it overwrites, at every size and dtype measured but float64 16 x 16, where the two are
// within noise of each other (research/eigh_batched.cu and eigh_registers.cu). That size stays here
// too, because small_eigh.cu gives NaNs for a matrix holding a NaN where syevjBatched converged
// around it to finite values with info 0.

// cuSOLVER's eigenvectors come out column-major, which is the contract's layout (ir/library.hpp:
// eigenvector k in row k), so the factorization runs in place in the output and nothing is
// transposed after it. What goes in must be A column-major: for a real symmetric A its C-order
// buffer already is (A^T = A, with the named triangle flipped); a complex Hermitian one is
// transposed in, since read as it lies it would be conj(A), whose eigenvectors are conj(V).
void eigh(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  const std::int64_t n = p.n;
  int* info = static_cast<int*>(out[p.compute_uv ? 2 : 1]);
  if (batched(c)) {  // ndfuse's kernels: no cuSOLVER handle, stream or workspace
    void* vectors = p.compute_uv ? out[1] : nullptr;
    if (register_kernel_eigh(c.dt, n))
      eigh_register_stack(c.dt, c.rows, n, in[0], !p.upper, out[0], vectors, info);
    else
      eigh_small_stack(c.dt, c.rows, n, in[0], !p.upper, out[0], vectors, info);
    return;
  }
  const auto& h = handle_here();
  const std::size_t sz = itemsize(c.dt),
                    rsz = itemsize(real_type_of(c.dt) == CUDA_R_32F ? dtype::float32 : dtype::float64);
  const cudaDataType t = type_of(c.dt), rt = real_type_of(c.dt);
  const bool transposed_in = is_complex(c.dt);
  // The triangle UPLO names, where cuSOLVER finds it: a copied buffer is A^T, its upper half lower.
  const bool upper_there = transposed_in ? p.upper : !p.upper;
  const auto fill = upper_there ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const auto job = p.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  // A column-major copy of matrix b in v (the output's vectors, or scratch).
  auto column_major = [&](std::int64_t b, void* v) {
    const void* a = at(in[0], b * n * n, sz);
    if (transposed_in)
      transpose_stack(c.dt, 1, n, n, a, v, false);
    else
      copy(v, a, sz * n * n);
  };
  scratch vs(p.compute_uv ? 0 : sz * n * n);
  workspace w;
  std::size_t d = 0, hb = 0;
  check_solver(cusolverDnXsyevd_bufferSize(h.handle, h.params, job, fill, n, t,
                                           p.compute_uv ? out[1] : vs.get(), n, rt, out[0], t, &d, &hb),
               "Xsyevd_bufferSize");
  w.size(d, hb);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    void* v = p.compute_uv ? at<void>(out[1], b * n * n, sz) : vs.get();
    column_major(b, v);
    check_solver(cusolverDnXsyevd(h.handle, h.params, job, fill, n, t, v, n, rt, at<void>(out[0], b * n, rsz),
                                  t, w.device->get(), w.device_bytes, w.host.data(), w.host.size(), info + b),
                 "Xsyevd");
  }
}

void eig(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& h = handle_here();
  const auto& p = c.linalg;
  const std::int64_t n = p.n;
  const std::size_t sz = itemsize(c.dt), csz = complex_type_of(c.dt) == CUDA_C_32F ? 8 : 16;
  const cudaDataType t = type_of(c.dt), ct = complex_type_of(c.dt);
  const auto job = p.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  scratch x(sz * n * n), vr(p.compute_uv ? sz * n * n : sz);
  workspace w;
  std::size_t d = 0, hb = 0;
  // Eigenvalues as complex numbers even for a real A (cuSOLVER's second form of W).
  check_solver(cusolverDnXgeev_bufferSize(h.handle, h.params, CUSOLVER_EIG_MODE_NOVECTOR, job, n, t, x.get(),
                                          n, ct, out[0], t, nullptr, 1, t, vr.get(), n, t, &d, &hb),
               "Xgeev_bufferSize");
  w.size(d, hb);
  int* info = static_cast<int*>(out[p.compute_uv ? 2 : 1]);
  // Xgeev fails (status 7) on a NaN and returns NaNs for an infinity; NumPy's eig refuses both
  // (LinAlgError), as the CPU backend does: info 1 and no call.
  static const int refused = 1;
  // (Xgeev waits for the device anyway, so reading the scan first costs nothing.)
  const auto non_finite = non_finite_scan(c.dt, c.rows, n * n, in[0]).read();
  auto next_bad = non_finite.begin();
  for (std::int64_t b = 0; b < c.rows; ++b) {
    if (next_bad != non_finite.end() && *next_bad == b) {
      ++next_bad;
      check(cudaMemcpyAsync(info + b, &refused, sizeof refused, cudaMemcpyHostToDevice, current_stream()),
            "cudaMemcpyAsync");
      continue;
    }
    transpose(c.dt, n, n, at(in[0], b * n * n, sz), n, x.get(), false);
    check_solver(cusolverDnXgeev(h.handle, h.params, CUSOLVER_EIG_MODE_NOVECTOR, job, n, t, x.get(), n, ct,
                                 at<void>(out[0], b * n, csz), t, nullptr, 1, t, vr.get(), n, t,
                                 w.device->get(), w.device_bytes, w.host.data(), w.host.size(), info + b),
                 "Xgeev");
    if (p.compute_uv) transpose(c.dt, n, n, vr.get(), n, at<void>(out[1], b * n * n, sz), false);
  }
}

// --- svd ----------------------------------------------------------------------------------------

void svd(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const auto& p = c.linalg;
  if (batched(c)) {  // one-sided Jacobi: accurate small values too
    svd_small_stack(c.dt, c.rows, p.m, p.n, in[0], p.full_matrices, out[0], p.compute_uv ? out[1] : nullptr,
                    p.compute_uv ? out[2] : nullptr, static_cast<int*>(out[p.compute_uv ? 3 : 1]));
    return;
  }
  const auto& h = handle_here();
  const std::int64_t m = p.m, n = p.n, k = std::min(m, n);
  const std::int64_t u_cols = p.full_matrices ? m : k, v_rows = p.full_matrices ? n : k;
  const std::size_t sz = itemsize(c.dt), rsz = real_type_of(c.dt) == CUDA_R_32F ? 4 : 8;
  const cudaDataType t = type_of(c.dt), rt = real_type_of(c.dt);
  // X is column-major and tall (rows >= cols): A^T itself when A is wide or square, else conj(A).
  const bool wide = m <= n;
  const std::int64_t rows = wide ? n : m, cols = wide ? m : n;
  // gesvdp (economy factors only) unless full factors of a non-square matrix are wanted, or small
  // singular values to full accuracy (the frontend asks again when gesvdp's spread is too wide).
  const bool full = p.compute_uv && p.full_matrices && m != n;
  const bool gesvd = full || p.accurate;
  const signed char job = !p.compute_uv ? 'N' : full ? 'A' : 'S';
  const std::int64_t left_cols = full ? rows : k, right_rows = full ? cols : k;  // gesvd's U and V^H
  void* s_out = out[0];
  int* info = static_cast<int*>(out[p.compute_uv ? 3 : 1]);
  scratch x(sz * m * n), largest(8);
  // Left factor of X (rows x left_cols) and right factor (gesvdp: V, cols x k; gesvd: V^H, right_rows x
  // cols).
  scratch left(sz * rows * left_cols), right(sz * cols * cols);
  workspace w;
  std::size_t d = 0, hb = 0;
  const auto eig_job = p.compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  if (gesvd)
    check_solver(
        cusolverDnXgesvd_bufferSize(h.handle, h.params, job, job, rows, cols, t, x.get(), rows, rt, s_out, t,
                                    left.get(), rows, t, right.get(), right_rows, t, &d, &hb),
        "Xgesvd_bufferSize");
  else
    check_solver(
        cusolverDnXgesvdp_bufferSize(h.handle, h.params, eig_job, 1, rows, cols, t, x.get(), rows, rt, s_out,
                                     t, left.get(), rows, t, right.get(), cols, t, &d, &hb),
        "Xgesvdp_bufferSize");
  w.size(d, hb);
  for (std::int64_t b = 0; b < c.rows; ++b) {
    if (wide)
      copy(x.get(), at(in[0], b * m * n, sz), sz * m * n);
    else
      transpose(c.dt, m, n, at(in[0], b * m * n, sz), n, x.get(), true);
    scale_into_range(c.dt, m * n, x.get(), largest.get());  // cuSOLVER does not (range_scale.cu)
    void* s = at<void>(s_out, b * k, rsz);
    if (gesvd) {
      check_solver(cusolverDnXgesvd(h.handle, h.params, job, job, rows, cols, t, x.get(), rows, rt, s, t,
                                    left.get(), rows, t, right.get(), right_rows, t, w.device->get(),
                                    w.device_bytes, w.host.data(), w.host.size(), info + b),
                   "Xgesvd");
    } else {
      double err_sigma = 0;
      check_solver(cusolverDnXgesvdp(h.handle, h.params, eig_job, 1, rows, cols, t, x.get(), rows, rt, s, t,
                                     left.get(), rows, t, right.get(), cols, t, w.device->get(),
                                     w.device_bytes, w.host.data(), w.host.size(), info + b, &err_sigma),
                   "Xgesvdp");
    }
    scale_back(c.dt, k, s, largest.get());
    if (!p.compute_uv) continue;
    void* u = at<void>(out[1], b * m * u_cols, sz);
    void* vh = at<void>(out[2], b * v_rows * n, sz);
    if (wide) {
      // A = conj(V_X) S U_X^T: V^H is U_X as it lies; U is conj(V_X), which is gesvd's V_X^H as it
      // lies, or gesvdp's V_X conjugate-transposed.
      copy(vh, left.get(), sz * rows * left_cols);
      if (gesvd)
        copy(u, right.get(), sz * right_rows * cols);
      else
        transpose(c.dt, k, cols, right.get(), cols, u, true);
    } else {
      // X = conj(A) = U' S V'^H, so A = conj(U') S V'^T: U is conj(U'); V^H is V'^T, which is
      // gesvdp's V' as it lies, or gesvd's V'^H conjugate-transposed.
      transpose(c.dt, left_cols, rows, left.get(), rows, u, true);
      if (gesvd)
        transpose(c.dt, cols, right_rows, right.get(), right_rows, vh, true);
      else
        copy(vh, right.get(), sz * cols * k);
    }
  }
}

}  // namespace

void run_solver(const ir::library_call& c, const std::vector<const void*>& in,
                const std::vector<void*>& out) {
  switch (c.op) {
    case ir::library_op::solve:
      return lu_solve(c, in, out);
    case ir::library_op::inv:
      return lu_inverse(c, in, out);
    case ir::library_op::lu:
      return lu_factor(c, in, out);
    case ir::library_op::cholesky:
      return cholesky(c, in, out);
    case ir::library_op::qr:
      return qr(c, in, out);
    case ir::library_op::eigh:
      return eigh(c, in, out);
    case ir::library_op::svd:
      return svd(c, in, out);
    case ir::library_op::eig:
      return eig(c, in, out);
    default:
      throw error("cuda backend: run_solver called with a non-solver library call");
  }
}

}  // namespace ndfuse::backend::cuda
