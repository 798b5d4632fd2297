// Matrix products on the CPU backend: OpenBLAS's cblas_?gemm, one call per batch element, in
// row-major terms (ir/library.hpp's gemm_operand maps onto CblasNoTrans / CblasTrans /
// CblasConjTrans directly). float16 and bfloat16 have no BLAS routine: their matrices are widened to
// float32, and the float32 products rounded once, which is what NumPy's float16 matmul computes.
#include "backend/cpu/blas.hpp"

#include <cblas.h>

#include <complex>
#include <cstring>
#include <vector>

#include "ir/host_types.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

CBLAS_TRANSPOSE op_of(const ir::gemm_operand& g) {
  return !g.transposed ? CblasNoTrans : g.conjugated ? CblasConjTrans : CblasTrans;
}

template <class T, class Gemm, class Alpha>
void batched(const ir::gemm_params& p, const void* a, const void* b, void* out, Gemm&& gemm, Alpha alpha) {
  const T* A = static_cast<const T*>(a);
  const T* B = static_cast<const T*>(b);
  T* C = static_cast<T*>(out);
  for (std::int64_t i = 0; i < p.batch; ++i)
    gemm(op_of(p.a), op_of(p.b), A + i * p.a.batch_stride, B + i * p.b.batch_stride, C + i * p.m * p.n,
         alpha);
}

// The 16-bit float operand's matrix i widened to a C-order float32 rows x cols matrix.
float widen(dtype t, std::uint16_t bits) {
  return t == dtype::float16 ? ir::half_to_float(bits) : ir::bfloat16_to_float(bits);
}
std::vector<float> widened(dtype t, const ir::gemm_operand& g, const void* data, std::int64_t i,
                           std::int64_t rows, std::int64_t cols) {
  const auto* h = static_cast<const std::uint16_t*>(data) + i * g.batch_stride;
  std::vector<float> out(static_cast<std::size_t>(rows * cols));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      out[static_cast<std::size_t>(r * cols + c)] = widen(t, h[g.transposed ? r + c * g.ld : r * g.ld + c]);
  return out;
}

}  // namespace

void gemm(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  const auto& p = c.gemm;
  // beta * C: BLAS updates its output in place, so C is copied there first unless the output is C's
  // buffer already (donated by the fuser).
  if (p.has_c() && in[2] != out)
    std::memcpy(out, in[2], itemsize(c.dt) * static_cast<std::size_t>(p.batch * p.m * p.n));
  const auto m = static_cast<blasint>(p.m), n = static_cast<blasint>(p.n), k = static_cast<blasint>(p.k);
  const auto lda = static_cast<blasint>(p.a.ld), ldb = static_cast<blasint>(p.b.ld);
  switch (c.dt) {
    case dtype::float32:
      batched<float>(
          p, in[0], in[1], out,
          [&](auto ta, auto tb, const float* A, const float* B, float* C, float al) {
            cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, al, A, lda, B, ldb, static_cast<float>(p.beta_re), C,
                        n);
          },
          static_cast<float>(p.alpha_re));
      return;
    case dtype::float64:
      batched<double>(
          p, in[0], in[1], out,
          [&](auto ta, auto tb, const double* A, const double* B, double* C, double al) {
            cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, al, A, lda, B, ldb, p.beta_re, C, n);
          },
          p.alpha_re);
      return;
    case dtype::complex64: {
      using T = std::complex<float>;
      batched<T>(
          p, in[0], in[1], out,
          [&](auto ta, auto tb, const T* A, const T* B, T* C, T al) {
            const T beta(static_cast<float>(p.beta_re), static_cast<float>(p.beta_im));
            cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &al, A, lda, B, ldb, &beta, C, n);
          },
          T(static_cast<float>(p.alpha_re), static_cast<float>(p.alpha_im)));
      return;
    }
    case dtype::complex128: {
      using T = std::complex<double>;
      batched<T>(
          p, in[0], in[1], out,
          [&](auto ta, auto tb, const T* A, const T* B, T* C, T al) {
            const T beta(p.beta_re, p.beta_im);
            cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &al, A, lda, B, ldb, &beta, C, n);
          },
          T(p.alpha_re, p.alpha_im));
      return;
    }
    case dtype::float16:
    case dtype::bfloat16: {
      const dtype t = c.dt;
      std::vector<float> product(static_cast<std::size_t>(p.m * p.n));
      auto* C = static_cast<std::uint16_t*>(out);
      for (std::int64_t i = 0; i < p.batch; ++i) {
        const auto A = widened(t, p.a, in[0], i, p.m, p.k), B = widened(t, p.b, in[1], i, p.k, p.n);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, static_cast<float>(p.alpha_re),
                    A.data(), k, B.data(), n, 0.0f, product.data(), n);
        for (std::size_t e = 0; e < product.size(); ++e) {
          auto& o = C[i * p.m * p.n + std::int64_t(e)];
          const float with_c =
              p.has_c() ? product[e] + static_cast<float>(p.beta_re) * widen(t, o) : product[e];
          o = t == dtype::float16 ? ir::float_to_half(with_c) : ir::float_to_bfloat16(with_c);
        }
      }
      return;
    }
    default:
      throw dtype_error("gemm: no BLAS routine for " + std::string(dtype_name(c.dt)));
  }
}

}  // namespace ndfuse::backend::cpu
