// Helpers the composite functions share (composites.cpp, composites_math.cpp, ...): NumPy's axis
// check and the float loop its float-only ufuncs pick.
#pragma once
#include <cstdint>

#include "ndfuse/dtype.hpp"

namespace ndfuse::frontend {

// axis in [-ndim, ndim) made non-negative; shape_error (NumPy's AxisError) otherwise.
int normalized_axis(int axis, std::int64_t ndim, const char* op);

// The float dtype of NumPy's float-only ufunc loops (e, f, d) for t: t itself when floating; for
// bool and integers the smallest of float16, float32, float64 that holds them safely. Complex
// throws dtype_error (NumPy's TypeError).
dtype float_loop(dtype t, const char* op);

}  // namespace ndfuse::frontend
