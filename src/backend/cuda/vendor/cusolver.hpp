// cuSOLVER calls of the CUDA backend: the twin of src/backend/cpu/lapack.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/cuda/runtime/memory.hpp"
#include "ir/library.hpp"

namespace ndfuse::backend::cuda {

// library_op::solve ... library_op::eig (ir/library.hpp) on this thread's current device and stream,
// every matrix of the batch, info codes written to their output; waits for nothing.
void run_solver(const ir::library_call& c, const std::vector<const void*>& inputs,
                const std::vector<void*>& outputs);

// LU's row interchanges, from the n 1-based pivots of getrf (row i swapped with row ipiv[i] - 1, in
// turn) on the device; small kernels of solver_kernels.cu (nvcc), on the current stream:
//   permuted_identity: P^T I, column-major, of dtype dt (float32 ... complex128) into `out`: the
//                      right-hand side of an inverse, the swaps already made (I itself for a null
//                      ipiv);
//   pivot_destinations: dest[r] = the row where row r of a matrix lands when the swaps are made
//                      in reverse order (i = n-1 .. 0, P X rather than P^T X) when `backward`.
void permuted_identity(dtype dt, std::int64_t n, const int* ipiv, void* out);
void pivot_destinations(const int* ipiv, std::int64_t n, bool backward, int* dest);

// The inverses of `count` C-order n x n matrices (n <= 32; dt float32 ... complex128) into `out`,
// with getrf's info code for each (> 0: singular), in one kernel of solver_kernels.cu.
void invert_small_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, void* out, int* info);
// X = A^-1 B for `count` C-order n x n matrices at `a` and n x k right-hand sides at `b` (C order),
// into `x`, with getrf's info code each, in one kernel of solver_kernels.cu, where solve_small_fits
// (n <= 32, and a matrix with its right-hand sides fits a share of shared memory).
bool solve_small_fits(dtype dt, std::int64_t n, std::int64_t k);
void solve_small_stack(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, const void* a,
                       const void* b, void* x, int* info);

// The sweeps ndfuse's Jacobi kernels (eigh and svd of small stacks, below) make before a matrix counts
// as not converged (info 1; they take 5 to 10 on random matrices of n <= 32): 40, or
// NDFUSE_JACOBI_MAX_SWEEPS (read once), which tests lower to reach that path.
int jacobi_sweep_limit();

// The eigenvalues (ascending, n per matrix) of `count` C-order n x n Hermitian matrices (n <= 32;
// dt float32 ... complex128) read from their lower (or upper) triangle, into w, and with `vectors`
// non-null their eigenvectors as C-order columns, with an info code each (> 0: no convergence), in
// one Jacobi kernel of small_eigh.cu.
void eigh_small_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, bool lower, void* w,
                      void* vectors, int* info);
// The same for real stacks where register_kernel_eigh(dt, n) says so, in the register-resident
// Jacobi kernel of register_eigh.cu (faster there than small_eigh.cu's and than syevjBatched).
bool register_kernel_eigh(dtype dt, std::int64_t n);
void eigh_register_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, bool lower, void* w,
                         void* vectors, int* info);

// The singular values (descending, min(m, n) per matrix) of `count` C-order m x n matrices (m, n <= 32;
// dt float32 ... complex128) into s, and with u and vh non-null the factors U (m x m, or m x min(m, n)
// unless `full`) and Vh (n x n, or min(m, n) x n) in C order, with an info code each (> 0: a NaN, or no
// convergence), in one one-sided Jacobi kernel of small_svd.cu.
void svd_small_stack(dtype dt, std::int64_t count, std::int64_t m, std::int64_t n, const void* a, bool full,
                     void* s, void* u, void* vh, int* info);

// Which of the `count` matrices of `per` elements each at `a` (dt float32 ... complex128) hold a NaN
// or an infinity. The constructor queues one scan kernel (solver_kernels.cu) and the copy of its
// flags into the thread's pinned buffer; read() waits for that copy only, so the callers queue their
// usual work first and then redo the few matrices it names. One scan at a time per thread.
// cuSOLVER's getrf turns a NaN into a finite number, and its geev fails on one (cusolver_lu.cpp).
class non_finite_scan {
 public:
  non_finite_scan(dtype dt, std::int64_t count, std::int64_t per, const void* a);
  std::vector<std::int64_t> read() const;  // the indices of those matrices, in order
  // The finite ones holding a nonzero entry below LAPACK's safe range (2^-484 in float64, 2^-51 in
  // float32), in order: cusolver_lu.cpp redoes them on the host.
  std::vector<std::int64_t> read_subnormal_scale() const;

 private:
  std::vector<std::int64_t> matrices_with(int bits, int without) const;
  std::int64_t count_;
  scratch flags_;
  bool scanned_ = false;
};

// Around cuSOLVER's SVD and QR, which do not scale into range as LAPACK does (range_scale.cu): the
// `count` elements at `a` (dt float32 ... complex128), when their largest real or imaginary part lies
// outside LAPACK's safe range, multiplied in place by the power of two 2^-e that puts it in [1/2, 1),
// that part kept in `largest` (8 bytes of device memory); then scale_back multiplies `reals` real
// numbers of dt's precision (two per complex element) by the same 2^e. Both on the current stream;
// a matrix inside the range, or with a zero, infinite or NaN largest part, scales by 1.
void scale_into_range(dtype dt, std::int64_t count, void* a, void* largest);
void scale_back(dtype dt, std::int64_t reals, void* values, const void* largest);
// For a stack of `count` small systems (n <= 32) A_m X_m = B_m: the n x n matrices at `a` copied to
// `out`, each one outside the safe range times its own 2^-e, and its n x k B_m at `b` times the same
// in place (X does not change), in one kernel of range_scale.cu.
void copy_systems_into_range(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, const void* a,
                             void* out, void* b);

// out[i] = in[i] for i < n, on the device: getrf's 32-bit pivots as the lu call's 64-bit ones.
void widen_pivots(const int* in, std::int64_t* out, std::int64_t n);

// Which triangle of a transpose's output is written as it is (the other is zeroed): all of it, the
// lower one (tril) or the upper one (triu), diagonals included.
enum class triangle { all, lower, upper };

// Each of `count` C-order rows x cols matrices at `in` transposed (conjugated when asked) into the
// cols x rows matrices at `out`: one kernel of solver_kernels.cu for the whole stack (32 x 32
// shared-memory tiles for large matrices). With `row_map` (cols ints per matrix), output row p of
// matrix b is written at row row_map[b * cols + p] instead.
void transpose_stack(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                     void* out, bool conjugate, triangle keep = triangle::all, const int* row_map = nullptr);
// The general form: the rows x cols block at the start of each input matrix, whose rows are `in_ld`
// elements apart and whose matrices `in_stride` elements apart, transposed into C-order cols x rows.
void transpose_blocks(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                      std::int64_t in_ld, std::int64_t in_stride, void* out, bool conjugate,
                      triangle keep = triangle::all, const int* row_map = nullptr);

// out[b] = base + b * stride_bytes for b < count, written on the device (the batched routines' arrays
// of matrix addresses, without a host-to-device copy that would stall the host). With a second
// stack, its addresses follow at out + count, from the same launch.
void matrix_pointers(void** out, std::int64_t count, void* base, std::int64_t stride_bytes,
                     void* base2 = nullptr, std::int64_t stride2_bytes = 0);

}  // namespace ndfuse::backend::cuda
