// solve, inv and lu through cuSOLVER (the LU family of cusolver.cpp's run_solver): one factorization
// per matrix and cuBLAS's triangular solves; for a stack of small matrices, one kernel of
// solver_kernels.cu (solve, inv), or cuBLAS's batched LU where a matrix and its right-hand sides
// would not fit that kernel's shared memory.
//
// Non-finite matrices. cuSOLVER's getrf (legacy and 64-bit, all four dtypes) returns factors with
// no NaN for a matrix that holds one (every such matrix tried up to n = 256, most at n = 513), and a
// finite number where an infinity makes a NaN (inf - inf): det([[2, 1], [1, nan]]) came out -1,
// where LAPACK's U has the NaN and NumPy answers NaN. cuBLAS's batched getrf kept every NaN and
// matched a host getf2 on 62 of 64 such matrices of n <= 32 (research/getrf_non_finite.cu,
// on an H100). So each call scans its stack, and each matrix that holds a NaN or an infinity is
// redone after the usual work, as NumPy's LAPACK does it: A itself factored (transposed into
// column-major, where the usual path factors A^T as it lies) and solved by cuBLAS's batched getrf
// and getrs, gesv's steps. Which triangle is solved first decides where an infinity's NaNs land
// (solve([[1, 2], [2, inf]], [1, 1]) is [nan, -0] in NumPy).
//
// Subnormal scales. cuSOLVER's getrf and cuBLAS's batched one multiply by the reciprocal of a pivot,
// which is infinite for a subnormal one: det([[1, 2], [3, 4]] * 1e-310) came out +inf and
// det(diag(1e-310, 1)) NaN (NumPy: -0.0 and 1e-310). The small-matrix kernels scale such columns
// themselves; on the other paths the same scan names the finite matrices holding an entry below the
// safe range, and each (rare) is redone on the host by the CPU backend's LAPACK, which scales its
// small columns into range (backend/cpu/lapack.cpp), so both backends give one answer.
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <string>
#include <vector>

#include "backend/cpu/lapack.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/vendor/cublas.hpp"
#include "backend/cuda/vendor/cusolver.hpp"
#include "backend/cuda/vendor/cusolver_batched.hpp"
#include "backend/cuda/vendor/cusolver_common.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda::solver_detail {

namespace {

// Xgetrf of n x n column-major matrices, its workspace sized once for the whole stack: the lu
// library call (det, slogdet), whose pivots the contract gives as int64.
class lu_factorizer {
 public:
  // `sample`: one of the matrices (the size query takes a pointer, as the factorization does).
  lu_factorizer(dtype dt, std::int64_t n, void* sample) : h_(handle_here()), t_(type_of(dt)), n_(n) {
    std::size_t d = 0, hb = 0;
    check_solver(cusolverDnXgetrf_bufferSize(h_.handle, h_.params, n, n, t_, sample, n, t_, &d, &hb),
                 "Xgetrf_bufferSize");
    w_.size(d, hb);
  }
  void factor(void* a, std::int64_t* piv, int* info) {
    check_solver(cusolverDnXgetrf(h_.handle, h_.params, n_, n_, t_, a, n_, piv, t_, w_.device->get(),
                                  w_.device_bytes, w_.host.data(), w_.host.size(), info),
                 "Xgetrf");
  }

 private:
  const solver_handle& h_;
  cudaDataType t_;
  std::int64_t n_;
  workspace w_;
};

// Calls f(element, getrf_bufferSize, getrf) with the legacy typed routines of dt.
template <class F>
void with_legacy_lu(dtype dt, F&& f) {
  switch (dt) {
    case dtype::float32:
      return f(float{}, cusolverDnSgetrf_bufferSize, cusolverDnSgetrf);
    case dtype::float64:
      return f(double{}, cusolverDnDgetrf_bufferSize, cusolverDnDgetrf);
    case dtype::complex64:
      return f(cuComplex{}, cusolverDnCgetrf_bufferSize, cusolverDnCgetrf);
    case dtype::complex128:
      return f(cuDoubleComplex{}, cusolverDnZgetrf_bufferSize, cusolverDnZgetrf);
    default:
      throw error(std::string("cuda backend: no cuSOLVER LU for ") + std::string(dtype_name(dt)));
  }
}

// getrf with 32-bit pivots, through the legacy typed API (the kernels are Xgetrf's, ALG_0; ALG_1 took
// 6.9 ms on 1000 x 1000 against 2.36 ms): solve and inv apply the pivots themselves, around two
// triangular solves, rather than through getrs (see solver_kernels.cu). Any matrix that fits in
// memory has n < 2^31.
class lu_factorizer32 {
 public:
  lu_factorizer32(dtype dt, std::int64_t n, void* sample)
      : h_(handle_here()), dt_(dt), n_(static_cast<int>(n)), work_(work_bytes(h_, dt, n_, sample)) {}
  void factor(void* a, int* piv, int* info) {
    with_legacy_lu(dt_, [&](auto t, auto, auto getrf) {
      using T = decltype(t);
      check_solver(getrf(h_.handle, n_, n_, static_cast<T*>(a), n_, work_.get<T>(), piv, info), "getrf");
    });
  }

 private:
  static std::size_t work_bytes(const solver_handle& h, dtype dt, int n, void* sample) {
    int lwork = 0;
    with_legacy_lu(dt, [&](auto t, auto buffer_size, auto) {
      using T = decltype(t);
      check_solver(buffer_size(h.handle, n, n, static_cast<T*>(sample), n, &lwork), "getrf_bufferSize");
    });
    return static_cast<std::size_t>(std::max(lwork, 1)) * itemsize(dt);
  }
  const solver_handle& h_;
  dtype dt_;
  int n_;
  scratch work_;
};

// A stack of matrices this small solves in one kernel (solve_small, or one batched cuBLAS LU for many
// right-hand sides) rather than one cuSOLVER call each, and inverts (one matrix or a stack) in one
// Gauss-Jordan kernel (solver_kernels.cu).
constexpr std::int64_t small_n = 32;
bool batched_lu(const ir::library_call& c) {
  return c.rows > 1 && c.linalg.n <= small_n;
}

// The redo of one non-finite matrix (see the top): X = A^-1 B for the C-order n x n `a` and the
// column-major n x k `x`, which it overwrites, with gesv's info code.
void gesv_as_lapack(dtype dt, std::int64_t n, std::int64_t k, const void* a, void* x, int* info) {
  scratch lu(itemsize(dt) * static_cast<std::size_t>(n * n));
  transpose_stack(dt, 1, n, n, a, lu.get(), false);
  batched_lu_solve(dt, 1, n, k, lu.get(), x, false, info);
}

// Matrix b of the call, redone on the host (see the top): its operands copied there, the CPU
// backend's routine run on that one matrix, and its outputs copied back into place.
void redo_on_host(const ir::library_call& c, std::int64_t b, const std::vector<const void*>& in,
                  const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n, k = c.linalg.k;
  const std::size_t sz = itemsize(c.dt), matrix = sz * n * n;
  std::vector<std::size_t> in_bytes = {matrix}, out_bytes;
  switch (c.op) {
    case ir::library_op::solve:
      in_bytes.push_back(sz * n * k);
      out_bytes = {sz * n * k, sizeof(int)};
      break;
    case ir::library_op::inv:
      out_bytes = {matrix, sizeof(int)};
      break;
    default:  // lu
      out_bytes = {matrix, sizeof(std::int64_t) * n, sizeof(int)};
  }
  std::vector<std::vector<unsigned char>> host_in, host_out;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (std::size_t i = 0; i < in_bytes.size(); ++i) {
    host_in.emplace_back(in_bytes[i]);
    check(cudaMemcpyAsync(host_in.back().data(), at(in[i], b * in_bytes[i], 1), in_bytes[i],
                          cudaMemcpyDeviceToHost, current_stream()),
          "cudaMemcpyAsync");
    in_ptrs.push_back(host_in.back().data());
  }
  check(cudaStreamSynchronize(current_stream()), "cudaStreamSynchronize");
  for (const std::size_t bytes : out_bytes) {
    host_out.emplace_back(bytes);
    out_ptrs.push_back(host_out.back().data());
  }
  ir::library_call one = c;
  one.rows = 1;
  backend::cpu::run_solver(one, in_ptrs, out_ptrs);
  for (std::size_t i = 0; i < out_bytes.size(); ++i)
    check(cudaMemcpyAsync(at<void>(out[i], b * out_bytes[i], 1), host_out[i].data(), out_bytes[i],
                          cudaMemcpyHostToDevice, current_stream()),
          "cudaMemcpyAsync");
  check(cudaStreamSynchronize(current_stream()), "cudaStreamSynchronize");  // the host copies go
}

}  // namespace

void lu_solve(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n, k = c.linalg.k;
  const std::size_t sz = itemsize(c.dt);
  int* info = static_cast<int*>(out[1]);
  if (batched_lu(c) && solve_small_fits(c.dt, n, k)) {  // one kernel, A and B as they lie
    solve_small_stack(c.dt, c.rows, n, k, in[0], in[1], out[0], info);
    return;
  }
  // The LU factors are A^T's (the C-order buffer as it lies). B and X are wanted column-major: the
  // whole stack transposed at once (one column needs no transpose).
  const bool batched = batched_lu(c);
  scratch x(batched && k == 1 ? 0 : sz * n * k * c.rows);
  void* col = x.get() ? x.get() : out[0];
  if (k > 1)
    transpose_stack(c.dt, c.rows, n, k, in[1], col, false);
  else
    copy(col, in[1], sz * n * c.rows);
  const non_finite_scan scan(c.dt, c.rows, n * n, in[0]);
  if (batched) {
    scratch lu(sz * n * n * c.rows);
    // (cuBLAS's batched getrf called complex matrices of entries near 2^-1000 singular: range_scale.cu.)
    copy_systems_into_range(c.dt, c.rows, n, k, in[0], lu.get(), col);
    batched_lu_solve(c.dt, c.rows, n, k, lu.get(), col, true, info);  // op T: A X = B
    if (k > 1) transpose_stack(c.dt, c.rows, k, n, col, out[0], false);
  } else {
    scratch lu(sz * n * n), piv(sizeof(int) * n), dest(sizeof(int) * n * c.rows);
    lu_factorizer32 f(c.dt, n, lu.get());
    for (std::int64_t b = 0; b < c.rows; ++b) {
      copy(lu.get(), at(in[0], b * n * n, sz), sz * n * n);
      f.factor(lu.get(), piv.get<int>(), info + b);
      // A^T = P L U, so A = U^T L^T P^T: A X = B is U^T L^T Z = B with Z = P^T X, and X = P Z (the
      // swaps made in reverse order), which the transpose into C order below writes row by row.
      void* zb = at<void>(col, b * n * k, sz);
      triangular_solve(c.dt, false, true, false, n, k, lu.get(), zb);
      triangular_solve(c.dt, true, true, true, n, k, lu.get(), zb);
      pivot_destinations(piv.get<int>(), n, true, dest.get<int>() + b * n);
    }
    transpose_stack(c.dt, c.rows, k, n, col, out[0], false, triangle::all, dest.get<int>());
  }
  for (const std::int64_t b : scan.read()) {
    scratch xb(sz * n * k);
    transpose_stack(c.dt, 1, n, k, at(in[1], b * n * k, sz), xb.get(), false);
    gesv_as_lapack(c.dt, n, k, at(in[0], b * n * n, sz), xb.get(), info + b);
    transpose_stack(c.dt, 1, k, n, xb.get(), at<void>(out[0], b * n * k, sz), false);
  }
  for (const std::int64_t b : scan.read_subnormal_scale()) redo_on_host(c, b, in, out);
}

void lu_inverse(const ir::library_call& c, const std::vector<const void*>& in,
                const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n;
  const std::size_t sz = itemsize(c.dt);
  int* info = static_cast<int*>(out[1]);
  if (n <= small_n) {
    invert_small_stack(c.dt, c.rows, n, in[0], out[0], info);
    return;
  }
  const non_finite_scan scan(c.dt, c.rows, n * n, in[0]);
  scratch lu(sz * n * n), piv(sizeof(int) * n);
  lu_factorizer32 f(c.dt, n, lu.get());
  for (std::int64_t b = 0; b < c.rows; ++b) {
    copy(lu.get(), at(in[0], b * n * n, sz), sz * n * n);
    f.factor(lu.get(), piv.get<int>(), info + b);
    // inv(A^T), column-major, is inv(A) in C order; with A^T = P L U it is U^-1 L^-1 (P^T I).
    void* xb = at<void>(out[0], b * n * n, sz);
    permuted_identity(c.dt, n, piv.get<int>(), xb);
    triangular_solve(c.dt, true, false, true, n, n, lu.get(), xb);
    triangular_solve(c.dt, false, false, false, n, n, lu.get(), xb);
  }
  for (const std::int64_t b : scan.read()) {
    scratch xb(sz * n * n);
    permuted_identity(c.dt, n, nullptr, xb.get());
    gesv_as_lapack(c.dt, n, n, at(in[0], b * n * n, sz), xb.get(), info + b);
    transpose_stack(c.dt, 1, n, n, xb.get(), at<void>(out[0], b * n * n, sz), false);
  }
  for (const std::int64_t b : scan.read_subnormal_scale()) redo_on_host(c, b, in, out);
}

void lu_factor(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n;
  const std::size_t sz = itemsize(c.dt);
  const non_finite_scan scan(c.dt, c.rows, n * n, in[0]);
  copy(out[0], in[0], sz * n * n * c.rows);
  lu_factorizer f(c.dt, n, out[0]);
  for (std::int64_t b = 0; b < c.rows; ++b)
    f.factor(at<void>(out[0], b * n * n, sz), at<std::int64_t>(out[1], b * n, sizeof(std::int64_t)),
             at<int>(out[2], b, sizeof(int)));
  // The redo (see the top): A's factors rather than A^T's, which have the same determinant.
  for (const std::int64_t b : scan.read()) {
    scratch piv32(sizeof(int) * n);
    void* a = at<void>(out[0], b * n * n, sz);
    transpose_stack(c.dt, 1, n, n, at(in[0], b * n * n, sz), a, false);
    batched_lu_factor(c.dt, 1, n, a, piv32.get<int>(), at<int>(out[2], b, sizeof(int)));
    widen_pivots(piv32.get<int>(), at<std::int64_t>(out[1], b * n, sizeof(std::int64_t)), n);
  }
  for (const std::int64_t b : scan.read_subnormal_scale()) redo_on_host(c, b, in, out);
}

}  // namespace ndfuse::backend::cuda::solver_detail
