// cuSOLVER calls of the CUDA backend: the twin of src/backend/cpu/lapack.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cuda {

// library_op_solve ... library_op_eig (ir/library.hpp) on this thread's current device and stream,
// every matrix of the batch, info codes written to their output; waits for nothing.
void run_solver(const ir::library_call& c, const std::vector<const void*>& inputs,
                const std::vector<void*>& outputs);

// An n x n identity of dtype dt (float32 ... complex128) written to `out`, on the current stream:
// a small kernel of solver_kernels.cu (nvcc), the right-hand side of an inverse.
void identity_matrix(dtype dt, std::int64_t n, void* out);

// Which triangle of a transpose's output is written as it is (the other is zeroed): all of it, the
// lower one (tril) or the upper one (triu), diagonals included.
enum class triangle { all, lower, upper };

// Each of `count` C-order rows x cols matrices at `in` transposed (conjugated when asked) into the
// cols x rows matrices at `out`: one kernel of solver_kernels.cu for the whole stack (32 x 32
// shared-memory tiles for large matrices).
void transpose_stack(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                     void* out, bool conjugate, triangle keep = triangle::all);
// The general form: the rows x cols block at the start of each input matrix, whose rows are `in_ld`
// elements apart and whose matrices `in_stride` elements apart, transposed into C-order cols x rows.
void transpose_blocks(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                      std::int64_t in_ld, std::int64_t in_stride, void* out, bool conjugate,
                      triangle keep = triangle::all);

// out[b] = base + b * stride_bytes for b < count, written on the device (the batched routines' arrays
// of matrix addresses, without a host-to-device copy that would stall the host). With a second
// stack, its addresses follow at out + count, from the same launch.
void matrix_pointers(void** out, std::int64_t count, void* base, std::int64_t stride_bytes,
                     void* base2 = nullptr, std::int64_t stride2_bytes = 0);

}  // namespace ndfuse::backend::cuda
