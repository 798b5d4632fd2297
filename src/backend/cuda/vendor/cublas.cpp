// Matrix products through cuBLAS. cuBLAS is column-major: the C-order product C = op(A) op(B) is
// computed as its transpose, C^T = op(B)^T op(A)^T, which reads each C-order operand as the
// column-major transpose it already is. A row-major operand is then CUBLAS_OP_N, a transposed one
// CUBLAS_OP_T (CUBLAS_OP_C when conjugated), with the same leading dimension: no copies.
// float16 and bfloat16 run on tensor cores with float32 accumulation (cublasGemmStridedBatchedEx); float32
// stays IEEE unless TF32 is allowed (nf::config::allow_tf32, NDFUSE_ALLOW_TF32).
#include "backend/cuda/vendor/cublas.hpp"

#include <cublas_v2.h>

#include <memory>
#include <string>
#include <type_traits>

#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "backend/cuda/vendor/cusolver.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/linalg.hpp"
#include "support/lru_cache.hpp"

namespace ndfuse::backend::cuda {

namespace {

void check_blas(cublasStatus_t s, const char* call) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  throw_if_unusable();  // a failure after a sticky error is its consequence
  if (s == CUBLAS_STATUS_ALLOC_FAILED)
    throw out_of_memory(std::string("cuBLAS: ") + call + " could not allocate");
  throw device_error(std::string("cuBLAS: ") + call + " failed: " + cublasGetStatusName(s) + " (" +
                     cublasGetStatusString(s) + ")");
}

struct handle_deleter {
  void operator()(cublasContext* h) const { cublasDestroy(h); }
};
using handle_ptr = std::unique_ptr<cublasContext, handle_deleter>;

// A handle per thread and device (cuBLAS handles are not to be shared between host threads).
cublasHandle_t handle_for(int device) {
  thread_local support::lru_cache<int, handle_ptr> handles(max_devices);
  return handles
      .get(device,
           [] {
             cublasHandle_t h = nullptr;
             check_blas(cublasCreate(&h), "cublasCreate");
             return handle_ptr(h);
           })
      .get();
}

cublasOperation_t op_of(const ir::gemm_operand& g) {
  return !g.transposed ? CUBLAS_OP_N : g.conjugated ? CUBLAS_OP_C : CUBLAS_OP_T;
}

}  // namespace

void gemm(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  const auto& p = c.gemm;
  cublasHandle_t h = handle_for(current_device());
  check_blas(cublasSetStream(h, current_stream()), "cublasSetStream");
  const bool tf32 = c.dt == dtype::float32 && config::allow_tf32();
  check_blas(cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
             "cublasSetMathMode");
  // The transposed problem: (n x k) op(B)^T times (k x m) op(A)^T gives the n x m column-major C^T.
  const auto ta = op_of(p.b), tb = op_of(p.a);
  const auto* A = in[1];
  const auto* B = in[0];
  const long long lda = p.b.ld, ldb = p.a.ld, sa = p.b.batch_stride, sb = p.a.batch_stride;
  const int m = static_cast<int>(p.n), n = static_cast<int>(p.m), k = static_cast<int>(p.k);
  const long long ldc = p.n, sc = p.m * p.n;
  const int batch = static_cast<int>(p.batch);
  // beta * C: GEMM updates its output in place, so C is copied there first unless the output is
  // C's buffer already (donated by the fuser).
  if (p.has_c() && in[2] != out)
    check(cudaMemcpyAsync(out, in[2], itemsize(c.dt) * std::size_t(p.batch * p.m * p.n),
                          cudaMemcpyDeviceToDevice, current_stream()),
          "cudaMemcpyAsync");
  switch (c.dt) {
    case dtype::float32: {
      const float alpha = static_cast<float>(p.alpha_re), beta = static_cast<float>(p.beta_re);
      check_blas(cublasSgemmStridedBatched(h, ta, tb, m, n, k, &alpha, static_cast<const float*>(A), lda, sa,
                                           static_cast<const float*>(B), ldb, sb, &beta,
                                           static_cast<float*>(out), ldc, sc, batch),
                 "cublasSgemmStridedBatched");
      return;
    }
    case dtype::float64: {
      const double alpha = p.alpha_re, beta = p.beta_re;
      check_blas(cublasDgemmStridedBatched(h, ta, tb, m, n, k, &alpha, static_cast<const double*>(A), lda, sa,
                                           static_cast<const double*>(B), ldb, sb, &beta,
                                           static_cast<double*>(out), ldc, sc, batch),
                 "cublasDgemmStridedBatched");
      return;
    }
    case dtype::complex64: {
      const cuComplex alpha{static_cast<float>(p.alpha_re), static_cast<float>(p.alpha_im)},
          beta{static_cast<float>(p.beta_re), static_cast<float>(p.beta_im)};
      check_blas(cublasCgemmStridedBatched(h, ta, tb, m, n, k, &alpha, static_cast<const cuComplex*>(A), lda,
                                           sa, static_cast<const cuComplex*>(B), ldb, sb, &beta,
                                           static_cast<cuComplex*>(out), ldc, sc, batch),
                 "cublasCgemmStridedBatched");
      return;
    }
    case dtype::complex128: {
      const cuDoubleComplex alpha{p.alpha_re, p.alpha_im}, beta{p.beta_re, p.beta_im};
      check_blas(cublasZgemmStridedBatched(h, ta, tb, m, n, k, &alpha, static_cast<const cuDoubleComplex*>(A),
                                           lda, sa, static_cast<const cuDoubleComplex*>(B), ldb, sb, &beta,
                                           static_cast<cuDoubleComplex*>(out), ldc, sc, batch),
                 "cublasZgemmStridedBatched");
      return;
    }
    case dtype::float16:
    case dtype::bfloat16: {
      // Tensor cores, float32 accumulation, one rounding to 16 bits.
      const cudaDataType t = c.dt == dtype::float16 ? CUDA_R_16F : CUDA_R_16BF;
      const float alpha = static_cast<float>(p.alpha_re), beta = static_cast<float>(p.beta_re);
      check_blas(cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, &alpha, A, t, lda, sa, B, t, ldb, sb, &beta,
                                            out, t, ldc, sc, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmStridedBatchedEx");
      return;
    }
    default:
      throw dtype_error("gemm: no cuBLAS routine for " + std::string(dtype_name(c.dt)));
  }
}

void transpose(dtype dt, std::int64_t rows, std::int64_t cols, const void* in, std::int64_t in_ld, void* out,
               bool conjugate) {
  if (rows == 0 || cols == 0) return;
  cublasHandle_t h = handle_for(current_device());
  check_blas(cublasSetStream(h, current_stream()), "cublasSetStream");
  // Column-major terms: `in` is the cols x rows matrix X (leading dimension in_ld); out = op(X) is
  // rows x cols with leading dimension rows. beta = 0 and B = C: geam's in-place form, B unread.
  const auto op = conjugate && is_complex(dt) ? CUBLAS_OP_C : CUBLAS_OP_T;
  const int m = static_cast<int>(rows), n = static_cast<int>(cols), lda = static_cast<int>(in_ld);
  switch (dt) {
    case dtype::float32: {
      const float one = 1, zero = 0;
      auto* o = static_cast<float*>(out);
      check_blas(
          cublasSgeam(h, op, CUBLAS_OP_N, m, n, &one, static_cast<const float*>(in), lda, &zero, o, m, o, m),
          "cublasSgeam");
      return;
    }
    case dtype::float64: {
      const double one = 1, zero = 0;
      auto* o = static_cast<double*>(out);
      check_blas(
          cublasDgeam(h, op, CUBLAS_OP_N, m, n, &one, static_cast<const double*>(in), lda, &zero, o, m, o, m),
          "cublasDgeam");
      return;
    }
    case dtype::complex64: {
      const cuComplex one{1, 0}, zero{0, 0};
      auto* o = static_cast<cuComplex*>(out);
      check_blas(cublasCgeam(h, op, CUBLAS_OP_N, m, n, &one, static_cast<const cuComplex*>(in), lda, &zero, o,
                             m, o, m),
                 "cublasCgeam");
      return;
    }
    case dtype::complex128: {
      const cuDoubleComplex one{1, 0}, zero{0, 0};
      auto* o = static_cast<cuDoubleComplex*>(out);
      check_blas(cublasZgeam(h, op, CUBLAS_OP_N, m, n, &one, static_cast<const cuDoubleComplex*>(in), lda,
                             &zero, o, m, o, m),
                 "cublasZgeam");
      return;
    }
    default:
      throw dtype_error("transpose: no cuBLAS routine for " + std::string(dtype_name(dt)));
  }
}

void triangular_solve(dtype dt, bool lower, bool transposed, bool unit_diagonal, std::int64_t n,
                      std::int64_t k, const void* a, void* b) {
  if (n == 0 || k == 0) return;
  cublasHandle_t h = handle_for(current_device());
  check_blas(cublasSetStream(h, current_stream()), "cublasSetStream");
  // A float32 solve stays IEEE whatever a TF32 gemm left on this handle.
  check_blas(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  const auto side = CUBLAS_SIDE_LEFT;
  const auto fill = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const auto op = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const auto diag = unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  // One call shape for the four typed routines: `one` is alpha, and its type picks the pointers'.
  auto solve = [&](const auto one, auto trsm) {
    using T = std::remove_const_t<decltype(one)>;
    check_blas(trsm(h, side, fill, op, diag, n, k, &one, static_cast<const T*>(a), n, static_cast<T*>(b), n),
               "cublas<t>trsm");
  };
  switch (dt) {
    case dtype::float32:
      return solve(float{1}, cublasStrsm_64);
    case dtype::float64:
      return solve(double{1}, cublasDtrsm_64);
    case dtype::complex64:
      return solve(cuComplex{1, 0}, cublasCtrsm_64);
    case dtype::complex128:
      return solve(cuDoubleComplex{1, 0}, cublasZtrsm_64);
    default:
      throw dtype_error("triangular_solve: no cuBLAS routine for " + std::string(dtype_name(dt)));
  }
}

namespace {

// Device arrays of the addresses of two stacks' matrices (the LU factors and the right-hand sides
// or inverses), as the batched routines take them: both written by one kernel launch.
class pointer_arrays {
 public:
  pointer_arrays(std::int64_t count, void* a, std::size_t a_stride_bytes, void* b, std::size_t b_stride_bytes)
      : count_(count), p_(2 * sizeof(void*) * std::size_t(count)) {
    matrix_pointers(p_.get<void*>(), count, a, std::int64_t(a_stride_bytes), b,
                    std::int64_t(b_stride_bytes));  // solver_kernels.cu
  }
  template <class T>
  T* const* a() const {
    return p_.get<T*>();
  }
  template <class T>
  T* const* b() const {
    return p_.get<T*>() + count_;
  }

 private:
  std::int64_t count_;
  scratch p_;
};

template <class T, class Getrf>
void getrf_batched(cublasHandle_t h, Getrf getrf, std::int64_t count, std::int64_t n, const pointer_arrays& p,
                   int* piv, int* info) {
  check_blas(getrf(h, int(n), p.a<T>(), int(n), piv, info, int(count)), "cublas<t>getrfBatched");
}

template <class F>
void with_blas_type(dtype dt, F&& f) {
  switch (dt) {
    case dtype::float32:
      return f(float{}, cublasSgetrfBatched, cublasSgetrsBatched);
    case dtype::float64:
      return f(double{}, cublasDgetrfBatched, cublasDgetrsBatched);
    case dtype::complex64:
      return f(cuComplex{}, cublasCgetrfBatched, cublasCgetrsBatched);
    case dtype::complex128:
      return f(cuDoubleComplex{}, cublasZgetrfBatched, cublasZgetrsBatched);
    default:
      throw dtype_error("batched LU: no cuBLAS routine for " + std::string(dtype_name(dt)));
  }
}

}  // namespace

void batched_lu_factor(dtype dt, std::int64_t count, std::int64_t n, void* a, int* piv, int* info) {
  cublasHandle_t h = handle_for(current_device());
  check_blas(cublasSetStream(h, current_stream()), "cublasSetStream");
  const pointer_arrays p(count, a, itemsize(dt) * std::size_t(n * n), nullptr, 0);
  with_blas_type(
      dt, [&](auto t, auto getrf, auto) { getrf_batched<decltype(t)>(h, getrf, count, n, p, piv, info); });
}

void batched_lu_solve(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, void* a, void* b,
                      bool transposed, int* info) {
  cublasHandle_t h = handle_for(current_device());
  check_blas(cublasSetStream(h, current_stream()), "cublasSetStream");
  const pointer_arrays p(count, a, itemsize(dt) * std::size_t(n * n), b, itemsize(dt) * std::size_t(n * k));
  scratch piv(sizeof(int) * std::size_t(count * n));
  with_blas_type(dt, [&](auto t, auto getrf, auto getrs) {
    using T = decltype(t);
    getrf_batched<T>(h, getrf, count, n, p, piv.get<int>(), info);
    int arg_info = 0;  // getrsBatched's is a host int: argument errors only
    check_blas(getrs(h, transposed ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(k), p.a<const T>(), int(n),
                     piv.get<int>(), p.b<T>(), int(n), &arg_info, int(count)),
               "cublas<t>getrsBatched");
  });
}

}  // namespace ndfuse::backend::cuda
