// Library calls: work that is not one pass of per-element code (sorting, compaction, searching,
// scattering to computed addresses). The fuser gives each its own plan step; the backend runs it
// with a routine of its own (CUB on CUDA, std algorithms on the thread pool on the CPU).
//
// Every input is a materialized buffer, in C order unless the call says otherwise (gemm); the fuser
// writes a lazy input first. Pointers passed to the backend already include the input's offset.
// Inputs are read-only (other arrays may view them): a routine that works in place copies first.
// Each call writes new C-order outputs: one, or the solvers' several.
#pragma once
#include <cstdint>

#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

enum class library_op : std::uint8_t {
  // inputs[0]: `rows` x `length` keys of dtype `dt`. Each row sorted ascending, stably, with NaN
  // last and -0.0 equal to 0.0 (NumPy's order). Complex: values without NaN first (by real, then
  // imaginary part), then NaN imaginary part only (by real), then NaN real part only (by
  // imaginary), then both NaN. Output: the sorted keys (dtype dt), or with
  // `indices` the int64 position within its row of each sorted key (argsort).
  sort,
  // inputs[0]: `length` bools. Output: the flat indices (int64, ascending) of the true ones; the
  // caller counted them (`rows` holds the count) to give the output its shape.
  flatnonzero,
  // inputs[0]: a sorted row of `length` keys; inputs[1]: `rows` needles, both of dtype `dt`.
  // Output: per needle, the int64 index where it would be inserted to keep the order (NumPy's
  // searchsorted; `right` picks side="right").
  searchsorted,
  // inputs[0]: the `length` elements of dtype `dt` to copy; inputs[1]: `rows` int64 element
  // offsets into it; inputs[2]: `rows` values of dtype `dt`. Output: the copy with element
  // offsets[j] set to values[j]. Where an offset repeats, the last value wins (as NumPy).
  scatter,
  // inputs[0]: `rows` int64 values in [0, length); with `weighted`, inputs[1]: `rows` float64
  // weights. Output: `length` bins, each the count (int64) or the weight sum (float64) of the
  // values equal to its index. Sums follow a fixed order: the same bits on every run.
  bincount,
  // Matrix products (BLAS on the CPU, cuBLAS on CUDA): inputs[0] = A, inputs[1] = B, both of
  // dtype `dt` (float16, float32, float64, complex64, complex128), strided as `gemm` says (the
  // pointers need not be C-order: a transposed view of a buffer is read in place). Output: the
  // C-order `gemm.batch` x m x n products alpha * op(A) @ op(B), of dtype `dt`; with beta != 0,
  // plus beta * C, where inputs[2] = C is C-order of the output's shape and dtype. The output may
  // be C's own buffer (the fuser donates a temporary C): then it is updated in place.
  gemm,
  // Dense solvers (LAPACK on the CPU, cuSOLVER on CUDA). `rows` matrices of dtype `dt` (float32,
  // float64, complex64, complex128), C-order, `linalg` giving their sizes. Outputs are C-order too,
  // in the order listed; `info` is one int32 per matrix, LAPACK's code (0: success). They run at
  // the call (the frontend reads info), never inside a plan.
  // inputs A (n x n), B (n x k). Outputs: X (n x k) with A X = B; info (> 0: A singular).
  solve,
  // inputs A (n x n). Outputs: inv(A) (n x n); info (> 0: singular).
  inv,
  // inputs A (n x n). Outputs: the LU factors of A or of A^T, the backend's choice (only the
  // diagonal of U is defined: det(A) = det(A^T)); the int64 pivots (n, 1-based, LAPACK's);
  // info (> 0: U has an exact zero on its diagonal, which the diagonal shows).
  lu,
  // inputs A (n x n, Hermitian: only its lower triangle is read). Outputs: L (n x n) with
  // A = L L^H, its strict upper triangle zero; info (> 0: A is not positive definite).
  cholesky,
  // inputs A (m x n). Outputs: unless `r_only`, Q (m x m when `full_matrices`, else m x min(m,n));
  // then R (m x n when `full_matrices`, else min(m,n) x n), its strict lower triangle unspecified.
  qr,
  // inputs A (n x n, Hermitian: only the triangle `upper` names is read). Outputs: the eigenvalues
  // (n, real, ascending); with `compute_uv`, the eigenvectors as rows (n x n: row k is eigenvalue
  // k's, which is LAPACK's column-major V read in C order; the frontend returns the transposed view,
  // as CuPy does, so no backend transposes it); info.
  eigh,
  // inputs A (m x n). Outputs: the singular values (min(m,n), real, descending); with
  // `compute_uv`, U (m x m when `full_matrices`, else m x min(m,n)) and V^H (n x n, else
  // min(m,n) x n); info (> 0: no convergence).
  svd,
  // inputs A (n x n). Outputs: the eigenvalues (n, complex); with `compute_uv`, the right
  // eigenvectors as columns (n x n): complex for complex A; for real A real, LAPACK's packing (a
  // conjugate pair w[j], w[j+1] with Im w[j] > 0 has vectors V[:, j] +- i V[:, j+1]); info.
  eig,
  // Discrete Fourier transforms (FFTW on the CPU, cuFFT on CUDA), unnormalized: the frontend
  // applies NumPy's norm as a fused elementwise scale. inputs[0]: `fft.batch` C-order arrays of
  // `fft.rank` (1 to 3) trailing dims `fft.dims` (the transformed axes; the frontend moves others
  // there), complex of dtype `dt` (complex64, complex128), or for `fft.kind` r2c its real
  // counterpart; c2r (rank 1 only) reads dims[0]/2+1 complex values per transform, taking the real
  // part of the zero (and even-length Nyquist) frequency, as NumPy's irfft. Output: the C-order
  // transforms: complex (last dim dims/2+1 for r2c), or real for c2r.
  fft,
};
const char* library_op_name(library_op op);

// How a gemm reads one operand's (rows x cols) matrices. Row-major (transposed false): element
// (i, j) of matrix b at b * batch_stride + i * ld + j; transposed: at b * batch_stride + i + j * ld
// (a transposed view of a C-order buffer). conjugated (complex, transposed only: BLAS's 'C') reads
// the complex conjugate. batch_stride 0 broadcasts one matrix over the batch.
struct gemm_operand {
  bool transposed = false;
  bool conjugated = false;
  std::int64_t ld = 0;
  std::int64_t batch_stride = 0;
};

struct gemm_params {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;  // A is m x k, B is k x n
  gemm_operand a, b;
  double alpha_re = 1, alpha_im = 0;
  double beta_re = 0, beta_im = 0;  // nonzero: inputs[2] is C
  bool has_c() const { return beta_re != 0 || beta_im != 0; }
};

// Sizes and options of a solver call (library_op::solve ... library_op::eig).
struct linalg_params {
  std::int64_t m = 0, n = 0;   // each input matrix is m x n (square ones n x n)
  std::int64_t k = 0;          // solve: columns of B
  bool full_matrices = false;  // qr: complete; svd: full U and V^H
  bool compute_uv = true;      // svd: U and V^H; eigh and eig: the eigenvectors
  bool upper = false;          // eigh: read the upper triangle
  bool r_only = false;         // qr: R alone
  // svd: every singular value to LAPACK's absolute accuracy (eps * max(S)), where the backend's
  // fastest routine only reaches it for the large ones (CUDA: gesvd instead of gesvdp).
  bool accurate = false;
};

enum class fft_kind : std::uint8_t {
  forward,  // complex to complex, exp(-2 pi i jk/n)
  inverse,  // complex to complex, exp(+2 pi i jk/n), not divided by n
  r2c,      // real to complex, forward, the non-negative frequencies only
  c2r,      // complex (Hermitian half) to real, inverse
};

// A batched transform over the trailing dims of a C-order array (library_op::fft).
struct fft_params {
  fft_kind kind = fft_kind::forward;
  int rank = 1;                      // transformed trailing dims, 1 to 3
  std::int64_t dims[3] = {1, 1, 1};  // their logical lengths (real lengths for r2c and c2r)
  std::int64_t batch = 1;            // transforms, one after the other in memory
};

struct library_call {
  library_op op = library_op::sort;
  dtype dt = dtype::float64;
  std::int64_t rows = 1;
  std::int64_t length = 0;
  bool indices = false;   // sort: write the permutation rather than the keys
  bool right = false;     // searchsorted: side="right"
  bool weighted = false;  // bincount: inputs[1] holds weights
  gemm_params gemm;       // gemm
  linalg_params linalg;   // solvers
  fft_params fft;         // fft
};

}  // namespace ndfuse::ir
