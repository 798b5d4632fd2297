// cuBLAS calls of the CUDA backend: the twin of src/backend/cpu/blas.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cuda {

// library_op::gemm on this thread's current device and stream; waits for nothing.
void gemm(const ir::library_call& c, const std::vector<const void*>& inputs, void* out);

// out (cols x rows, C order) = the transpose (conjugate transpose when `conjugate`) of `in`, a
// C-order rows x cols matrix whose rows lie `in_ld` elements apart (cublas<t>geam). The solvers'
// layout changes between C order and cuSOLVER's column-major order. dt: float32 ... complex128.
void transpose(dtype dt, std::int64_t rows, std::int64_t cols, const void* in, std::int64_t in_ld, void* out,
               bool conjugate);

// b (n x k, column-major) overwritten by op(T)^-1 b, T the `lower` or upper triangle of the column-
// major n x n `a` (its diagonal taken as ones when `unit_diagonal`), op the transpose when
// `transposed` (cublas<t>trsm): the two halves of an LU solve. dt: float32 ... complex128.
void triangular_solve(dtype dt, bool lower, bool transposed, bool unit_diagonal, std::int64_t n,
                      std::int64_t k, const void* a, void* b);

// cuBLAS's batched LU for stacks of small matrices (one launch for the whole stack rather than one
// cuSOLVER call per matrix). `a`: `count` column-major n x n matrices, factored in place; `info`:
// one device int per matrix (> 0: singular); b[b] (column-major n x k) overwritten by
// op(a[b])^-1 b[b] (getrsBatched, op = T when `transposed`).
void batched_lu_solve(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, void* a, void* b,
                      bool transposed, int* info);

// The factoring half alone, the pivots (n ints per matrix) kept. Unlike cuSOLVER's getrf it carries
// a NaN through as LAPACK does (cusolver_lu.cpp), so non-finite matrices of any size factor here.
void batched_lu_factor(dtype dt, std::int64_t count, std::int64_t n, void* a, int* piv, int* info);

}  // namespace ndfuse::backend::cuda
