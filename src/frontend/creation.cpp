// Creation ops. They build constant (scalar) or iota nodes, which fuse into their consumers and are
// written to memory only when evaluated themselves.
#include "ndfuse/creation.hpp"

#include <cmath>
#include <cstring>

#include "frontend/build.hpp"
#include "ir/host_types.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse {

namespace frontend {

dtype default_dtype(const scalar& v) {
  switch (v.kind) {
    case dtype_kind::bool_:
      return dtype::bool_;
    case dtype_kind::int_:
      return v.is_big_unsigned ? dtype::uint64 : dtype::int64;
    case dtype_kind::float_:
      return dtype::float64;
    default:
      return dtype::complex128;
  }
}

}  // namespace frontend

namespace {

double as_double(const scalar& v) {
  switch (v.kind) {
    case dtype_kind::bool_:
      return v.b;
    case dtype_kind::int_:
      return v.is_big_unsigned ? double(v.u) : double(v.i);
    default:
      return v.c.real();
  }
}

// A double rounded to the precision of float dtype t (NumPy fills arange in the target dtype).
double round_to(dtype t, double x) {
  if (t == dtype::float32 || t == dtype::complex64) return static_cast<float>(x);
  if (t == dtype::float16 || t == dtype::bfloat16) {
    auto bits = frontend::scalar_to_bits(scalar(x), t, "arange");
    std::uint16_t h = 0;
    std::memcpy(&h, bits.bytes, 2);
    return t == dtype::float16 ? ir::half_to_float(h) : ir::bfloat16_to_float(h);
  }
  return x;
}

}  // namespace

namespace frontend {
array iota(dtype t, const shape_t& shape, std::complex<double> start, std::complex<double> step,
           std::vector<std::int64_t> coeffs, std::int64_t offset, bool equals) {
  auto n = ir::new_node();
  n->op = ir::op_code::iota;
  n->dt = t;
  n->shape = shape;
  n->params().iota = {start, step, std::move(coeffs), offset, equals};
  return finish(std::move(n));
}

array random_draw(const shape_t& shape, const ir::random_stream& stream) {
  static constexpr dtype dtypes[] = {dtype::uint64,  dtype::uint32,  dtype::float64,
                                     dtype::float32, dtype::float64, dtype::float32};
  auto n = ir::new_node();
  n->op = ir::op_code::random;
  n->dt = dtypes[static_cast<int>(stream.form)];
  n->shape = shape;
  n->params().iota.coeffs = ir::contiguous_strides(shape);
  n->params().random = stream;
  return finish(std::move(n));
}
}  // namespace frontend

using frontend::iota;

array full(const shape_t& shape, scalar value, dtype t) {
  ir::checked_size(shape, itemsize(t), "full");  // named here: finish would name the scalar node
  return frontend::finish(frontend::scalar_node(value, t, shape, "full"));
}
array full(const shape_t& shape, scalar value) {
  return full(shape, value, frontend::default_dtype(value));
}
array empty(const shape_t& shape, dtype t) {
  return full(shape, scalar(0), t);
}
array zeros(const shape_t& shape, dtype t) {
  return full(shape, scalar(0), t);
}
array ones(const shape_t& shape, dtype t) {
  return full(shape, scalar(1), t);
}
array empty_like(const array& a) {
  return empty(a.shape(), a.dtype());
}
array zeros_like(const array& a) {
  return zeros(a.shape(), a.dtype());
}
array ones_like(const array& a) {
  return ones(a.shape(), a.dtype());
}
array full_like(const array& a, scalar value) {
  return full(a.shape(), value, a.dtype());
}
array empty_like(const array& a, dtype t) {
  return empty(a.shape(), t);
}
array zeros_like(const array& a, dtype t) {
  return zeros(a.shape(), t);
}
array ones_like(const array& a, dtype t) {
  return ones(a.shape(), t);
}
array full_like(const array& a, scalar value, dtype t) {
  return full(a.shape(), value, t);
}

array arange(scalar stop) {
  return arange(scalar(0), stop, scalar(1));
}

array arange(scalar start, scalar stop, scalar step) {
  bool all_int =
      start.kind <= dtype_kind::int_ && stop.kind <= dtype_kind::int_ && step.kind <= dtype_kind::int_;
  return arange(start, stop, step, all_int ? dtype::int64 : dtype::float64);
}

array arange(scalar start, scalar stop, scalar step, dtype t) {
  double s0 = as_double(start), s1 = as_double(stop), st = as_double(step);
  if (st == 0) throw value_error("arange: division by zero (the step is 0)");
  bool all_int =
      start.kind <= dtype_kind::int_ && stop.kind <= dtype_kind::int_ && step.kind <= dtype_kind::int_;
  std::int64_t len;
  if (all_int) {
    // In 128 bits: stop - start of two int64 values (or of uint64 ones) can pass 2^63.
    const auto wide = [](const scalar& v) -> __int128 {
      return v.kind == dtype_kind::bool_ ? v.b : v.is_big_unsigned ? __int128(v.u) : __int128(v.i);
    };
    const __int128 a = wide(start), b = wide(stop), s = wide(step);
    const __int128 n = s > 0 ? (b - a + s - 1) / s : (b - a + s + 1) / s;
    if (n > __int128(INT64_MAX)) throw value_error("arange: Maximum allowed size exceeded");
    len = n < 0 ? 0 : static_cast<std::int64_t>(n);
    ir::checked_size({len}, itemsize(t), "arange");
    // An iota computes in float64, exact to 2^53; past that, start + i * step in int64 arithmetic
    // (fused elementwise ops), as NumPy fills an integer arange.
    constexpr __int128 exact = __int128(1) << 53;
    const auto beyond = [&](__int128 v) { return v > exact || v < -exact; };
    if (is_integer(t) && !start.is_big_unsigned && !step.is_big_unsigned &&
        (beyond(a) || beyond(b) || beyond(s) || beyond(a + s * n)))
      return (iota(dtype::int64, {len}, 0.0, 1.0, {1}) * scalar(std::int64_t(s)) + scalar(std::int64_t(a)))
          .astype(t);
  } else {
    len = ir::size_from_double(std::ceil((s1 - s0) / st), "arange");
    ir::checked_size({len}, itemsize(t), "arange");
  }
  if (is_inexact(t)) {
    // NumPy writes start and start+step in the target dtype, then fills with their difference.
    double first = round_to(t, s0);
    double delta = round_to(t, round_to(t, s0 + st) - first);
    return iota(t, {len}, first, delta, {1});
  }
  return iota(t, {len}, s0, st, {1});
}

array linspace(double start, double stop, std::int64_t num, bool endpoint, dtype t) {
  if (num < 0)
    throw value_error("linspace: Number of samples, " + std::to_string(num) + ", must be non-negative.");
  ir::checked_size({num}, itemsize(dtype::float64), "linspace");
  std::int64_t div = endpoint ? num - 1 : num;
  double delta = stop - start;
  // NumPy computes i * step + start in float64 (i * delta / div when the step underflows to 0).
  double step = div > 0 ? delta / div : 0.0;
  array y = iota(dtype::float64, {num}, start, step, {1});
  if (div > 0 && step == 0)
    y = arange(scalar(0), scalar(num)).astype(dtype::float64) / double(div) * delta + start;
  if (endpoint && num > 1) y = where(arange(scalar(num)) == (num - 1), stop, y);
  if (is_integer(t)) y = floor(y);
  return y.astype(t);
}

array eye(std::int64_t n, std::int64_t m, std::int64_t k, dtype t) {
  if (m < 0) m = n;
  ir::checked_size({n, m}, itemsize(t), "eye");
  // value = (column - row - k == 0)
  return iota(t, {n, m}, 0.0, 0.0, {-1, 1}, -k, true);
}

array identity(std::int64_t n, dtype t) {
  return eye(n, n, 0, t);
}

}  // namespace ndfuse
