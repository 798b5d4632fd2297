// solve, inv and lu through cuSOLVER (the LU family of cusolver.cpp's run_solver): one factorization
// per matrix, or cuBLAS's batched LU for a stack of small matrices (cusolver_batched.hpp).
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "backend/cuda/cublas.hpp"
#include "backend/cuda/cusolver.hpp"
#include "backend/cuda/cusolver_batched.hpp"
#include "backend/cuda/cusolver_common.hpp"
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

// Calls f(element, getrf_bufferSize, getrf, getrs) with the legacy typed routines of dt.
template <class F>
void with_legacy_lu(dtype dt, F&& f) {
  switch (dt) {
    case dtype::float32:
      return f(float{}, cusolverDnSgetrf_bufferSize, cusolverDnSgetrf, cusolverDnSgetrs);
    case dtype::float64:
      return f(double{}, cusolverDnDgetrf_bufferSize, cusolverDnDgetrf, cusolverDnDgetrs);
    case dtype::complex64:
      return f(cuComplex{}, cusolverDnCgetrf_bufferSize, cusolverDnCgetrf, cusolverDnCgetrs);
    case dtype::complex128:
      return f(cuDoubleComplex{}, cusolverDnZgetrf_bufferSize, cusolverDnZgetrf, cusolverDnZgetrs);
    default:
      throw error(std::string("cuda backend: no cuSOLVER LU for ") + std::string(dtype_name(dt)));
  }
}

// getrf + getrs with 32-bit pivots, through the legacy typed API: solve and inv use it rather than
// lu_factorizer's 64-bit Xgetrs, whose row interchanges of the right-hand side (laswp with 64-bit
// pivots) took 171 us on a 1000 x 1000 inverse on an H100, against 143 us with 32-bit pivots, the
// form CuPy calls (scripts/ncu-reasons inv_1000). The factorization kernels are the same. Any matrix
// that fits in memory has n < 2^31.
class lu_factorizer32 {
 public:
  lu_factorizer32(dtype dt, std::int64_t n, void* sample)
      : h_(handle_here()), dt_(dt), n_(static_cast<int>(n)), work_(work_bytes(h_, dt, n_, sample)) {}
  void factor(void* a, int* piv, int* info) {
    with_legacy_lu(dt_, [&](auto t, auto, auto getrf, auto) {
      using T = decltype(t);
      check_solver(getrf(h_.handle, n_, n_, static_cast<T*>(a), n_, work_.get<T>(), piv, info), "getrf");
    });
  }
  // op(A) X = B for the factors in `a`, B (n x k column-major) overwritten by X; in blocks of
  // columns that the 32-bit count can hold (one block for any but the widest B).
  void solve(cublasOperation_t op, const void* a, const int* piv, std::int64_t k, void* b) {
    constexpr std::int64_t max_columns = std::numeric_limits<int>::max();
    with_legacy_lu(dt_, [&](auto t, auto, auto, auto getrs) {
      using T = decltype(t);
      for (std::int64_t j = 0; j < k; j += max_columns)
        check_solver(
            getrs(h_.handle, op, n_, static_cast<int>(std::min(max_columns, k - j)), static_cast<const T*>(a),
                  n_, piv, static_cast<T*>(b) + j * n_, n_, dummy_.get<int>()),
            "getrs");
    });
  }

 private:
  static std::size_t work_bytes(const solver_handle& h, dtype dt, int n, void* sample) {
    int lwork = 0;
    with_legacy_lu(dt, [&](auto t, auto buffer_size, auto, auto) {
      using T = decltype(t);
      check_solver(buffer_size(h.handle, n, n, static_cast<T*>(sample), n, &lwork), "getrf_bufferSize");
    });
    return static_cast<std::size_t>(std::max(lwork, 1)) * itemsize(dt);
  }
  const solver_handle& h_;
  dtype dt_;
  int n_;
  scratch work_;
  scratch dummy_{sizeof(int)};  // getrs's info: argument errors only, never getrf's code
};

// A stack of matrices this small runs as one batched cuBLAS LU rather than one cuSOLVER call each.
bool batched_lu(const ir::library_call& c) {
  return c.rows > 1 && c.linalg.n <= 32;
}

}  // namespace

void lu_solve(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n, k = c.linalg.k;
  const std::size_t sz = itemsize(c.dt);
  // The LU factors are A^T's (the C-order buffer as it lies): op T solves A X = B. B and X are
  // wanted column-major, the whole stack transposed at once (one column needs no transpose).
  scratch x(k > 1 ? sz * n * k * c.rows : 0);
  void* col = k > 1 ? x.get() : out[0];
  if (k > 1)
    transpose_stack(c.dt, c.rows, n, k, in[1], col, false);
  else
    copy(col, in[1], sz * n * c.rows);
  int* info = static_cast<int*>(out[1]);
  if (batched_lu(c)) {
    scratch lu(sz * n * n * c.rows);
    copy(lu.get(), in[0], sz * n * n * c.rows);
    batched_lu_solve(c.dt, c.rows, n, k, lu.get(), col, true, info);
  } else {
    scratch lu(sz * n * n), piv(sizeof(int) * n);
    lu_factorizer32 f(c.dt, n, lu.get());
    for (std::int64_t b = 0; b < c.rows; ++b) {
      copy(lu.get(), at(in[0], b * n * n, sz), sz * n * n);
      f.factor(lu.get(), piv.get<int>(), info + b);
      f.solve(CUBLAS_OP_T, lu.get(), piv.get<int>(), k, at<void>(col, b * n * k, sz));
    }
  }
  if (k > 1) transpose_stack(c.dt, c.rows, k, n, col, out[0], false);
}

void lu_inverse(const ir::library_call& c, const std::vector<const void*>& in,
                const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n;
  const std::size_t sz = itemsize(c.dt);
  int* info = static_cast<int*>(out[1]);
  if (batched_lu(c)) {
    scratch lu(sz * n * n * c.rows);
    copy(lu.get(), in[0], sz * n * n * c.rows);
    batched_lu_inverse(c.dt, c.rows, n, lu.get(), out[0], info);
    return;
  }
  scratch lu(sz * n * n), piv(sizeof(int) * n);
  lu_factorizer32 f(c.dt, n, lu.get());
  for (std::int64_t b = 0; b < c.rows; ++b) {
    copy(lu.get(), at(in[0], b * n * n, sz), sz * n * n);
    f.factor(lu.get(), piv.get<int>(), info + b);
    // inv(A^T), column-major, is inv(A) in C order.
    void* xb = at<void>(out[0], b * n * n, sz);
    identity_matrix(c.dt, n, xb);
    f.solve(CUBLAS_OP_N, lu.get(), piv.get<int>(), n, xb);
  }
}

void lu_factor(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out) {
  const std::int64_t n = c.linalg.n;
  const std::size_t sz = itemsize(c.dt);
  copy(out[0], in[0], sz * n * n * c.rows);
  lu_factorizer f(c.dt, n, out[0]);
  for (std::int64_t b = 0; b < c.rows; ++b)
    f.factor(at<void>(out[0], b * n * n, sz), at<std::int64_t>(out[1], b * n, sizeof(std::int64_t)),
             at<int>(out[2], b, sizeof(int)));
}

}  // namespace ndfuse::backend::cuda::solver_detail
