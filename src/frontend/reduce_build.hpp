// Builders shared by the reduction frontends (reduce.cpp, statistics.cpp, norm.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "frontend/build.hpp"
#include "ir/reduction.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::frontend {

// Normalized axes: bit d set when input axis d is reduced. Throws shape_error for an axis out of
// range or repeated, naming the op and the shape.
std::uint64_t axis_mask(const axes& a, std::int64_t ndim, const char* op);
std::int64_t reduced_count(const shape_t& shape, std::uint64_t mask);  // elements per output
shape_t reduced_shape(const shape_t& shape, std::uint64_t mask, bool keepdims);

// The value a fold with `combine` starts from, as bits of `t` (+inf for minimum, NaN for fmin, ...).
ir::scalar_bits identity_bits(ir::op_code combine, dtype t);

// A reduce node over `mask` of x: x is cast to acc (in the fused prologue), folded with `combine`,
// and the result cast to `result`. Throws shape_error when an empty slice has no identity.
// `initial` (NumPy's initial=) starts the fold instead of the op's identity, which also makes an
// empty max well defined.
array reduce_value(const array& x, ir::op_code combine, dtype acc, dtype result, std::uint64_t mask,
                   bool keepdims, const char* op,
                   const std::optional<ir::scalar_bits>& initial = std::nullopt);
array reduce_arg(const array& x, ir::reduce_kind kind, std::uint64_t mask, bool keepdims, const char* op);
// A reduce node over `mask` of x (already of dtype acc) whose combine is a user kernel's reduce
// expression (nf::reduction_kernel), starting from `identity`.
array reduce_user(const array& x, std::shared_ptr<const ir::user_kernel> combine, std::uint64_t mask,
                  bool keepdims, const ir::scalar_bits& identity, const char* op);

// NumPy's accumulator dtype for sum/prod/cumsum: small ints widen to int64 / uint64, bool to int64.
dtype sum_dtype(dtype t);

// The dtype a fold of `result` accumulates in: float16 and bfloat16 sum in float32 and round once
// at the end, as NumPy's half loops do; every other dtype accumulates in itself.
inline dtype accumulator_for(dtype result) {
  return result == dtype::float16 || result == dtype::bfloat16 ? dtype::float32 : result;
}

// x as an inexact dtype, as numpy.linalg and mean see it: ints and bool become float64.
array as_inexact(const array& x);

// out= forms of reductions: NumPy requires the exact result shape and casts with same_kind.
array& assign_reduction(out o, const array& result, const char* op);

}  // namespace ndfuse::frontend
