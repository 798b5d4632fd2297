// What every solver frontend (solve.cpp, factorize.cpp, spectral.cpp) shares: checking and casting
// the operand stack, running the library call at once, and turning info codes into linalg_error.
#pragma once
#include <utility>
#include <vector>

#include "ir/library.hpp"
#include "ndfuse/array.hpp"

namespace ndfuse::frontend {

// A stack of matrices ready for a solver: cast to the solver's dtype, leading axes the batch.
struct matrix_stack {
  array a;                               // (batch..., m, n), dtype dt
  shape_t batch;                         // the leading axes
  std::int64_t m = 0, n = 0, count = 1;  // count: the number of matrices
  dtype dt = dtype::float64;
};

// NumPy's solver dtypes: float32/float64/complex64/complex128 stay, bool and integers become
// float64, float16 throws dtype_error.
dtype solver_dtype(dtype t, const char* op);
// a as a stack of (square, when asked) matrices of dtype `dt` (default: solver_dtype of a's).
// Throws shape_error (fewer than 2 dims; not square) or dtype_error.
matrix_stack as_matrix_stack(const array& a, const char* op, bool square, std::optional<dtype> dt = {});

// Runs the call at once (runtime::run_library_now): `rows` is set from the stack's count. Each
// output is (dtype, shape) with the batch axes included.
std::vector<array> run_solver(ir::library_call c, std::int64_t count, const std::vector<array>& inputs,
                              const std::vector<std::pair<dtype, shape_t>>& outputs);

// Reads the info codes (waits for the device) and throws linalg_error "<op>: <what>" naming the
// first matrix of the stack whose code is positive.
void check_info(const array& info, const shape_t& batch, const char* op, const char* what);

// The real dtype of a complex one (itself otherwise).
dtype real_dtype(dtype t);
// Concatenation of shapes.
shape_t concat(const shape_t& a, const shape_t& b);

}  // namespace ndfuse::frontend
