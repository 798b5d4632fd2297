// Creation ops. They build nodes; a creation op consumed inside a kernel is never written to memory.
#pragma once
#include "ndfuse/array.hpp"

namespace ndfuse {

array empty(const shape_t& shape, dtype t = dtype::float64);
array zeros(const shape_t& shape, dtype t = dtype::float64);
array ones(const shape_t& shape, dtype t = dtype::float64);
// full's default dtype follows the value, as np.full does: int -> int64, double -> float64.
array full(const shape_t& shape, scalar value);
array full(const shape_t& shape, scalar value, dtype t);
array empty_like(const array& a);
array zeros_like(const array& a);
array ones_like(const array& a);
array full_like(const array& a, scalar value);
array empty_like(const array& a, dtype t);
array zeros_like(const array& a, dtype t);
array ones_like(const array& a, dtype t);
array full_like(const array& a, scalar value, dtype t);

// np.arange: the dtype follows the arguments (all ints -> int64, else float64) unless given.
array arange(scalar stop);
array arange(scalar start, scalar stop, scalar step = 1);
array arange(scalar start, scalar stop, scalar step, dtype t);
array linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
               dtype t = dtype::float64);
array eye(std::int64_t n, std::int64_t m = -1, std::int64_t k = 0, dtype t = dtype::float64);
array identity(std::int64_t n, dtype t = dtype::float64);

}  // namespace ndfuse
