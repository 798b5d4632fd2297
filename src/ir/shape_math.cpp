#include "ir/shape_math.hpp"

#include <cmath>
#include <string>

namespace ndfuse::ir {

namespace {

[[noreturn]] void too_big(std::string_view op) {
  throw value_error(
      std::string(op) +
      ": array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
}

}  // namespace

std::int64_t add_sizes(std::int64_t a, std::int64_t b, std::string_view op) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) too_big(op);
  return r;
}

std::int64_t mul_sizes(std::int64_t a, std::int64_t b, std::string_view op) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) too_big(op);
  return r;
}

std::int64_t checked_size(const shape_t& shape, std::size_t itemsize, std::string_view op) {
  for (const std::int64_t d : shape)
    if (d < 0)
      throw shape_error(std::string(op) + ": negative dimensions are not allowed, got shape " +
                        shape_str(shape));
  // NumPy's rule: the bytes of the non-zero dimensions must fit, even when a zero makes the array
  // empty (np.empty((2**62, 4, 0)) raises too).
  std::int64_t bytes = static_cast<std::int64_t>(itemsize), n = 1;
  bool empty = false;
  for (const std::int64_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(bytes, d, &bytes)) too_big(op);
    n *= d;  // cannot overflow: n * itemsize did not
  }
  return empty ? 0 : n;
}

std::int64_t size_from_double(double size, std::string_view op) {
  if (std::isnan(size)) throw value_error(std::string(op) + ": arange: cannot compute length");
  if (size <= 0) return 0;
  // 2^63 is the first double past INT64_MAX.
  if (!(size < 9223372036854775808.0)) throw value_error(std::string(op) + ": Maximum allowed size exceeded");
  return static_cast<std::int64_t>(size);
}

}  // namespace ndfuse::ir
