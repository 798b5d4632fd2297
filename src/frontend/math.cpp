// The public elementwise API: thin wrappers from NumPy's names to registry ops, plus the few
// composite ops NumPy defines in Python (round, angle, clip), built from registry ops so they fuse.
#include "ndfuse/math.hpp"

#include <cmath>
#include <utility>

#include "frontend/build.hpp"

namespace ndfuse {

using ir::op_code;

#define NDFUSE_UNARY_IMPL(name, code)         \
  array name(const array& x) {                \
    return frontend::unary(op_code::code, x); \
  }                                           \
  array name(array&& x) {                     \
    return frontend::consume(x, name(x));     \
  }                                           \
  array& name(const array& x, out o) {        \
    o.target.assign(name(x));                 \
    return o.target;                          \
  }
#define NDFUSE_BINARY_IMPL(name, code)                     \
  array name(const operand& a, const operand& b) {         \
    return frontend::binary(op_code::code, a, b);          \
  }                                                        \
  array& name(const operand& a, const operand& b, out o) { \
    o.target.assign(name(a, b));                           \
    return o.target;                                       \
  }

// Every op of the table under its own name (NumPy's), then NumPy's other names for some of them.
#define NDFUSE_OP_IMPL_1 NDFUSE_UNARY_IMPL
#define NDFUSE_OP_IMPL_2 NDFUSE_BINARY_IMPL
#define NDFUSE_OP_IMPL(name, arity) NDFUSE_OP_IMPL_##arity(name, name)
NDFUSE_ELEMENTWISE_OPS(NDFUSE_OP_IMPL)
#undef NDFUSE_OP_IMPL
#undef NDFUSE_OP_IMPL_1
#undef NDFUSE_OP_IMPL_2
NDFUSE_BINARY_IMPL(divide, true_divide)
NDFUSE_BINARY_IMPL(mod, remainder)
NDFUSE_UNARY_IMPL(abs, absolute)
NDFUSE_UNARY_IMPL(bitwise_not, invert)
NDFUSE_UNARY_IMPL(conj, conjugate)
NDFUSE_UNARY_IMPL(acos, arccos)
NDFUSE_UNARY_IMPL(asin, arcsin)
NDFUSE_UNARY_IMPL(atan, arctan)
NDFUSE_UNARY_IMPL(acosh, arccosh)
NDFUSE_UNARY_IMPL(asinh, arcsinh)
NDFUSE_UNARY_IMPL(atanh, arctanh)
NDFUSE_BINARY_IMPL(atan2, arctan2)
NDFUSE_BINARY_IMPL(pow, power)
NDFUSE_UNARY_IMPL(bitwise_invert, invert)
NDFUSE_BINARY_IMPL(bitwise_left_shift, left_shift)
NDFUSE_BINARY_IMPL(bitwise_right_shift, right_shift)
#undef NDFUSE_UNARY_IMPL
#undef NDFUSE_BINARY_IMPL

namespace {
// NumPy's power_of_ten in PyArray_Round: exact by repeated squaring for the usual range.
double power_of_ten(int n) {
  static const double p10[] = {1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256};
  double ret = 1.0;
  int bit = 0;
  while (n && bit < 9) {
    if (n & 1) ret *= p10[bit];
    n >>= 1;
    ++bit;
  }
  return ret;
}
}  // namespace

// np.round follows PyArray_Round: scale by 10**decimals, rint, scale back; ints go through float64.
array round(const array& x, int decimals) {
  dtype t = frontend::checked(x, "round")->dt;
  bool integer = is_integer(t);
  if (integer && decimals >= 0) return x;
  // NumPy computes into a bool output there, which same_kind casting refuses.
  if (t == dtype::bool_ && decimals != 0)
    throw dtype_error(
        "round: cannot cast ufunc 'multiply' output from dtype float64 to dtype bool with casting rule "
        "'same_kind'");
  if (decimals == 0) return rint(x);
  double f = power_of_ten(decimals >= 0 ? decimals : -decimals);
  array base = integer ? x.astype(dtype::float64) : x;
  array y = decimals > 0 ? multiply(base, f) : true_divide(base, f);
  y = rint(y);
  y = decimals > 0 ? true_divide(y, f) : multiply(y, f);
  return integer ? y.astype(t) : y;
}
array& round(const array& x, int decimals, out o) {
  o.target.assign(round(x, decimals));
  return o.target;
}
array around(const array& x, int decimals) {
  return round(x, decimals);
}

array angle(const array& z, bool deg) {
  array a = is_complex(frontend::checked(z, "angle")->dt) ? arctan2(imag(z), real(z)) : arctan2(0, z);
  if (deg) a = multiply(a, 180.0 / 3.14159265358979323846);
  return a;
}

namespace {
// NumPy's _clip drops a Python-int bound that lies beyond an integer dtype's range, instead of
// raising OverflowError for it (NEP 50 without value-based promotion).
bool bound_is_void(const array& x, const operand& bound, bool lower) {
  if (bound.arr || bound.value.kind != dtype_kind::int_) return false;
  dtype t = x.dtype();
  if (!is_integer(t)) return false;
  const scalar& s = bound.value;
  if (s.is_big_unsigned) return !lower;  // above every int64; uint64's max is 2**64-1, above that too
  if (lower) {
    if (is_unsigned_integer(t)) return s.i <= 0;
    std::int64_t min = t == dtype::int8    ? INT8_MIN
                       : t == dtype::int16 ? INT16_MIN
                       : t == dtype::int32 ? INT32_MIN
                                           : INT64_MIN;
    return s.i <= min;
  }
  std::int64_t max = t == dtype::int8     ? INT8_MAX
                     : t == dtype::int16  ? INT16_MAX
                     : t == dtype::int32  ? INT32_MAX
                     : t == dtype::uint8  ? UINT8_MAX
                     : t == dtype::uint16 ? UINT16_MAX
                     : t == dtype::uint32 ? UINT32_MAX
                                          : INT64_MAX;
  return t != dtype::uint64 && s.i >= max;
}
}  // namespace

array clip(const array& x, const operand& lo, const operand& hi) {
  frontend::checked(x, "clip");
  bool no_lo = bound_is_void(x, lo, true), no_hi = bound_is_void(x, hi, false);
  if (no_lo && no_hi) return positive(x);
  if (no_lo) return minimum(x, hi);
  if (no_hi) return maximum(x, lo);
  // NumPy 2's clip ufunc resolves one dtype for all three operands (weak scalars by kind).
  dtype t = frontend::promote_with(frontend::promote_with(x.dtype(), lo, "clip"), hi, "clip");
  return minimum(maximum(x.astype(t), lo), hi);
}
array& clip(const array& x, const operand& lo, const operand& hi, out o) {
  o.target.assign(clip(x, lo, hi));
  return o.target;
}

array where(const array& cond, const operand& a, const operand& b) {
  const auto& cn = frontend::checked(cond, "where");
  dtype t = frontend::common_dtype(a, b, "where");
  shape_t shape = cn->shape;
  if (a.arr) shape = broadcast_shapes(shape, a.arr->shape(), "where");
  if (b.arr) shape = broadcast_shapes(shape, b.arr->shape(), "where");
  auto side = [&](const operand& o) {
    return o.arr ? frontend::cast_node(frontend::checked(*o.arr, "where"), t)
                 : frontend::operand_node(o.value, t, "where");
  };
  frontend::node_ptr n = frontend::make_node(
      ir::op_code::where, t, {frontend::cast_node(cn, dtype::bool_), side(a), side(b)}, shape);
  frontend::consume(a, b);
  return frontend::finish(std::move(n));
}
array where(array&& cond, const operand& a, const operand& b) {
  return frontend::consume(cond, where(cond, a, b));
}

array operator+(const array& a) {
  return positive(a);
}
array operator-(const array& a) {
  return negative(a);
}
array operator~(const array& a) {
  return invert(a);
}
array operator!(const array& a) {
  return logical_not(a);
}
array operator+(array&& a) {
  return positive(std::move(a));
}
array operator-(array&& a) {
  return negative(std::move(a));
}
array operator~(array&& a) {
  return invert(std::move(a));
}
array operator!(array&& a) {
  return logical_not(std::move(a));
}

dtype result_type(const operand& a, const operand& b) {
  return frontend::common_dtype(a, b, "result_type");
}

shape_t broadcast_shapes(const shape_t& a, const shape_t& b, const char* op) {
  std::size_t n = std::max(a.size(), b.size());
  shape_t out(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    std::int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw shape_error(std::string(op) + ": operands could not be broadcast together with shapes " +
                        shape_str(a) + " " + shape_str(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace ndfuse
