// Library calls: work that is not one pass of per-element code (sorting, compaction, searching,
// scattering to computed addresses). The fuser gives each its own plan step; the backend runs it
// with a routine of its own (CUB on CUDA, std algorithms on the thread pool on the CPU).
//
// Every input is a materialized buffer, in C order unless the call says otherwise (gemm); the fuser
// writes a lazy input first. Pointers passed to the backend already include the input's offset.
// Each call writes one new C-order output.
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
  library_op_sort,
  // inputs[0]: `length` bools. Output: the flat indices (int64, ascending) of the true ones; the
  // caller counted them (`rows` holds the count) to give the output its shape.
  library_op_flatnonzero,
  // inputs[0]: a sorted row of `length` keys; inputs[1]: `rows` needles, both of dtype `dt`.
  // Output: per needle, the int64 index where it would be inserted to keep the order (NumPy's
  // searchsorted; `right` picks side="right").
  library_op_searchsorted,
  // inputs[0]: the `length` elements of dtype `dt` to copy; inputs[1]: `rows` int64 element
  // offsets into it; inputs[2]: `rows` values of dtype `dt`. Output: the copy with element
  // offsets[j] set to values[j]. Where an offset repeats, the last value wins (as NumPy).
  library_op_scatter,
  // inputs[0]: `rows` int64 values in [0, length); with `weighted`, inputs[1]: `rows` float64
  // weights. Output: `length` bins, each the count (int64) or the weight sum (float64) of the
  // values equal to its index. Sums follow a fixed order: the same bits on every run.
  library_op_bincount,
  // Matrix products (BLAS on the CPU, cuBLAS on CUDA): inputs[0] = A, inputs[1] = B, both of
  // dtype `dt` (float16, float32, float64, complex64, complex128), strided as `gemm` says (the
  // pointers need not be C-order: a transposed view of a buffer is read in place). Output: the
  // C-order `gemm.batch` x m x n products alpha * op(A) @ op(B), of dtype `dt`.
  library_op_gemm,
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
};

struct library_call {
  library_op op = library_op::library_op_sort;
  dtype dt = dtype::float64;
  std::int64_t rows = 1;
  std::int64_t length = 0;
  bool indices = false;   // sort: write the permutation rather than the keys
  bool right = false;     // searchsorted: side="right"
  bool weighted = false;  // bincount: inputs[1] holds weights
  gemm_params gemm;       // gemm
};

}  // namespace ndfuse::ir
