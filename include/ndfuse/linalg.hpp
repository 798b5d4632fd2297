// Matrix products. Floating and complex products go to BLAS (OpenBLAS on the CPU backend, cuBLAS
// on CUDA) as one library call; a transposed view of an evaluated buffer (and its conjugate) is
// read in place through the call's op flags, never copied. Integer and bool products, which BLAS
// has no routine for, are fused multiply-and-sum kernels with NumPy's wrapping integer arithmetic.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"

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
// np.linalg.matrix_power: repeated squaring; n = 0 gives the identity, n < 0 is not supported yet
// (it needs inv) and throws value_error.
array matrix_power(const array& a, std::int64_t n);
// np.linalg.multi_dot: the chain evaluated in the cheapest order (dynamic programming over the
// scalar multiplications, as NumPy), first and last operands may be 1-d.
array multi_dot(const std::vector<array>& arrays);
}  // namespace linalg

namespace config {
// TF32 tensor cores for float32 products on CUDA: off by default (IEEE float32, as NumPy);
// NDFUSE_ALLOW_TF32=1 turns it on for the process, and this call sets it from then on.
void allow_tf32(bool on);
bool allow_tf32();
}  // namespace config

}  // namespace ndfuse
