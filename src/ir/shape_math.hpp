// Size arithmetic on user-given shapes that cannot overflow. Every element count and byte count
// ndfuse derives from a shape, a repeat count or a pad width goes through these, so a size past
// what a 64-bit byte offset can address raises nf::value_error at the call, in NumPy's words
// ("array is too big"), where plain arithmetic would wrap to a small or negative size and the
// evaluation would then read or write past a buffer.
#pragma once
#include <cstdint>
#include <string_view>

#include "ndfuse/array.hpp"

namespace ndfuse::ir {

// a + b and a * b of non-negative sizes; value_error naming `op` when the result passes INT64_MAX.
std::int64_t add_sizes(std::int64_t a, std::int64_t b, std::string_view op);
std::int64_t mul_sizes(std::int64_t a, std::int64_t b, std::string_view op);

// The element count of `shape` for elements of `itemsize` bytes: shape_error for a negative
// dimension, value_error when the bytes of its non-zero dimensions pass INT64_MAX (NumPy's rule).
std::int64_t checked_size(const shape_t& shape, std::size_t itemsize, std::string_view op);

// A length computed in floating point (arange's): value_error when it is NaN or does not fit an
// int64 (NumPy's "Maximum allowed size exceeded"); a negative length is 0, an empty array.
std::int64_t size_from_double(double size, std::string_view op);

}  // namespace ndfuse::ir
