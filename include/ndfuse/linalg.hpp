// Matrix products. Floating and complex products go to BLAS (OpenBLAS on the CPU backend, cuBLAS
// on CUDA) as one library call; a transposed view of an evaluated buffer (and its conjugate) is
// read in place through the call's op flags, never copied. Integer and bool products, which BLAS
// has no routine for, are fused multiply-and-sum kernels with NumPy's wrapping integer arithmetic.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

// np.matmul: 1-d operands are promoted to matrices and the added axis removed; leading (batch)
// axes broadcast. Throws shape_error on 0-d operands or mismatched inner dimensions.
array matmul(const array& a, const array& b);
// np.dot: matmul for 1-d and 2-d operands, a scalar product for 0-d, and for n-d the sum over a's
// last axis and b's second-to-last.
array dot(const array& a, const array& b);
// np.vdot: the flattened operands, a conjugated: sum(conj(a) * b) as a 0-d array.
array vdot(const array& a, const array& b);
// np.inner: the sum over the last axes of both.
array inner(const array& a, const array& b);
// np.outer: the flattened operands, out[i, j] = a[i] * b[j] (a fused elementwise kernel).
array outer(const array& a, const array& b);
// np.tensordot: the sum over a's last `axes` axes and b's first `axes` axes, or over the listed pairs.
array tensordot(const array& a, const array& b, int axes = 2);
array tensordot(const array& a, const array& b, const std::vector<int>& a_axes,
                const std::vector<int>& b_axes);
// np.einsum with explicit or implicit output ("ij,jk->ik", "ij,jk", "ii->i", "...ij,...jk->...ik"):
// contractions of two operands go to a (batched) matrix product; traces, diagonals, sums and
// transposes of one operand are views and reductions.
array einsum(const std::string& subscripts, const std::vector<array>& operands);
// np.kron: the Kronecker product (a fused elementwise kernel).
array kron(const array& a, const array& b);

namespace linalg {
// np.linalg.matrix_power: repeated squaring; n = 0 gives the identity, n < 0 powers inv(a).
array matrix_power(const array& a, std::int64_t n);
// np.linalg.multi_dot: the chain evaluated in the cheapest order (dynamic programming over the
// scalar multiplications, as NumPy), first and last operands may be 1-d.
array multi_dot(const std::vector<array>& arrays);

// ---- Solvers and factorizations (LAPACK on the CPU backend, cuSOLVER on CUDA) ---------------------
// Each takes stacks of matrices (..., M, N). float32 and complex64 stay single precision; integers
// and bool compute in float64; float16 throws dtype_error (as NumPy). A solver runs at the call:
// its inputs are evaluated, and LAPACK's info codes are read back (the call waits for the device),
// so a singular matrix in solve or inv, or a matrix cholesky finds not positive definite, throws
// linalg_error naming the failing matrix of the stack, at the line that asked for it. Results are
// evaluated arrays (or lazy views of them).

// The results NumPy returns as named tuples; `auto [u, s, vh] = nf::linalg::svd(a);` works.
struct svd_result {
  array U, S, Vh;  // U and Vh are empty handles when compute_uv is false
};
struct eigh_result {
  array eigenvalues, eigenvectors;
};
struct eig_result {
  array eigenvalues, eigenvectors;
};
struct qr_result {
  array Q, R;  // Q is an empty handle for mode "r"
};
struct slogdet_result {
  array sign, logabsdet;
};
struct lstsq_result {
  array x, residuals;
  std::int64_t rank = 0;
  array s;
};

// A X = B. b of shape (..., M) is one vector per matrix; (..., M, K) a stack of K columns.
array solve(const array& a, const array& b);
array inv(const array& a);
// The determinant through an LU factorization: the product of U's diagonal and the pivots' sign.
array det(const array& a);
slogdet_result slogdet(const array& a);
// The lower factor L with A = L L^H (upper: the upper factor U = L^H). Reads A's lower triangle.
array cholesky(const array& a, bool upper = false);
// mode "reduced" (Q: M x K, R: K x N, K = min(M, N)), "complete" (M x M, M x N) or "r" (R only).
qr_result qr(const array& a, std::string_view mode = "reduced");
// Hermitian eigenproblems: ascending real eigenvalues; UPLO "L" or "U" names the triangle read.
eigh_result eigh(const array& a, std::string_view UPLO = "L");
array eigvalsh(const array& a, std::string_view UPLO = "L");
// General eigenproblems. The results are complex, also for a real input whose eigenvalues are all
// real: NumPy 2.5's rule (earlier NumPy returned real arrays then, a dtype that depended on the data).
eig_result eig(const array& a);
array eigvals(const array& a);
// U, the descending singular values S, and V^H (full_matrices: U is M x M and Vh N x N).
// hermitian: A is taken as Hermitian (its lower triangle is read, as eigh's UPLO "L") and the SVD
// comes from eigh, as NumPy's: S = |w| sorted descending, U the matching eigenvectors, Vh their
// conjugate transpose with each row negated where w < 0 (w = -0.0 counts as negative, NumPy's
// copysign); full_matrices is then ignored (U and Vh are N x N) and a non-square A throws shape_error.
svd_result svd(const array& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false);
array svdvals(const array& a);
// The pseudo-inverse from the SVD: singular values at most rcond * max(S) count as zero; rcond
// defaults to NumPy's 1e-15. rtol is NumPy 2's (and the Array API's) name for the same cut-off:
// giving both throws value_error, as NumPy. (NumPy's rtol=None, max(M, N) * eps, is that value
// passed as rtol.) hermitian: the SVD is svd's hermitian one (A's lower triangle read, square A only).
array pinv(const array& a, std::optional<double> rcond = std::nullopt, bool hermitian = false,
           std::optional<double> rtol = std::nullopt);
// Least squares through the SVD (as LAPACK's gelsd): rcond < 0 means eps * max(M, N).
lstsq_result lstsq(const array& a, const array& b, double rcond = -1);
// The number of singular values above tol, per matrix; without tol, above rtol * max(S) (rtol
// defaults to max(M, N) * eps). Giving both tol and rtol throws value_error, as NumPy.
// hermitian: the singular values are |eigvalsh(a)| (square A only).
array matrix_rank(const array& a, std::optional<double> tol = std::nullopt, bool hermitian = false,
                  std::optional<double> rtol = std::nullopt);
// np.linalg.tensorsolve: x of shape Q with tensordot(a, x, x.ndim) = b. Once the listed `axes` of a
// have moved to its end (in that order), a's shape is L + Q with b.ndim axes in L (L is b.shape in
// the usual case), and prod(L) = prod(Q) = b's size. One solve of a reshaped to a (prod(Q), prod(Q))
// matrix. Axes are non-negative positions (NumPy's rule). Throws shape_error when a is not "square"
// in that sense, b's size is not prod(Q) or an axis is not in a; linalg_error for a singular a.
array tensorsolve(const array& a, const array& b, const std::optional<std::vector<int>>& axes = std::nullopt);
// np.linalg.tensorinv: the inverse of a for tensordot over its first `ind` axes, of shape
// a.shape[ind:] + a.shape[:ind]: one inv of a reshaped to a square matrix. Throws value_error for
// ind <= 0, shape_error when prod(a.shape[:ind]) != prod(a.shape[ind:]) (or either is 0), linalg_error
// for a singular a.
array tensorinv(const array& a, int ind = 2);
// The condition number in norm p: NumPy's None / 2 / -2 from the singular values, the others as
// norm(a, p) * norm(inv(a), p).
array cond(const array& a, norm_order p = {});
}  // namespace linalg

namespace config {
// TF32 tensor cores for float32 products on CUDA: off by default (IEEE float32, as NumPy);
// NDFUSE_ALLOW_TF32=1 turns it on for the process, and this call sets it from then on.
void allow_tf32(bool on);
bool allow_tf32();
}  // namespace config

}  // namespace ndfuse
