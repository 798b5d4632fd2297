// Elementwise ops (NumPy's ufuncs). Each builds one node; broadcasting and promotion follow NumPy 2.
// Every function also has an out= form, f(args..., nf::out(y)), which rebinds y to the result.
#pragma once
#include "ndfuse/array.hpp"

namespace ndfuse {

// An operand of a binary op: an array, or a weak C++ scalar (NEP 50).
// A temporary array operand (the `a * b` of `nf::sum(a * b)`, or a std::move'd handle) is expiring:
// once the op's node holds it, the op drops the temporary's handle, so the fuser does not write it
// to memory as a result someone still holds (docs/numpy-differences.md, "Temporaries").
struct operand {
  operand(const array& a) : arr(&a) {}
  operand(array&& a) : arr(&a), expiring(&a) {}
  template <scalar_type T>
  operand(T v) : value(v) {}
  operand(scalar v) : value(v) {}
  const array* arr = nullptr;
  array* expiring = nullptr;
  scalar value;
};

#define NDFUSE_UNARY(name)    \
  array name(const array& x); \
  array name(array&& x);      \
  array& name(const array& x, out o);
#define NDFUSE_BINARY(name)                       \
  array name(const operand& a, const operand& b); \
  array& name(const operand& a, const operand& b, out o);

// arithmetic
NDFUSE_BINARY(add)
NDFUSE_BINARY(subtract)
NDFUSE_BINARY(multiply)
NDFUSE_BINARY(divide)  // true division
NDFUSE_BINARY(true_divide)
NDFUSE_BINARY(floor_divide)
NDFUSE_BINARY(remainder)
NDFUSE_BINARY(mod)
NDFUSE_BINARY(fmod)
NDFUSE_BINARY(power)
NDFUSE_UNARY(negative)
NDFUSE_UNARY(positive)
NDFUSE_UNARY(absolute)
NDFUSE_UNARY(abs)
NDFUSE_UNARY(sign)
// comparisons (bool results)
NDFUSE_BINARY(equal)
NDFUSE_BINARY(not_equal)
NDFUSE_BINARY(less)
NDFUSE_BINARY(less_equal)
NDFUSE_BINARY(greater)
NDFUSE_BINARY(greater_equal)
// logical
NDFUSE_BINARY(logical_and)
NDFUSE_BINARY(logical_or)
NDFUSE_BINARY(logical_xor)
NDFUSE_UNARY(logical_not)
// bitwise
NDFUSE_BINARY(bitwise_and)
NDFUSE_BINARY(bitwise_or)
NDFUSE_BINARY(bitwise_xor)
NDFUSE_UNARY(invert)
NDFUSE_UNARY(bitwise_not)
NDFUSE_BINARY(left_shift)
NDFUSE_BINARY(right_shift)
// exponents and logarithms
NDFUSE_UNARY(exp)
NDFUSE_UNARY(exp2)
NDFUSE_UNARY(expm1)
NDFUSE_UNARY(log)
NDFUSE_UNARY(log2)
NDFUSE_UNARY(log10)
NDFUSE_UNARY(log1p)
NDFUSE_UNARY(sqrt)
NDFUSE_UNARY(cbrt)
NDFUSE_UNARY(square)
NDFUSE_UNARY(reciprocal)
// trigonometric and hyperbolic
NDFUSE_UNARY(sin)
NDFUSE_UNARY(cos)
NDFUSE_UNARY(tan)
NDFUSE_UNARY(arcsin)
NDFUSE_UNARY(arccos)
NDFUSE_UNARY(arctan)
NDFUSE_UNARY(sinh)
NDFUSE_UNARY(cosh)
NDFUSE_UNARY(tanh)
NDFUSE_UNARY(arcsinh)
NDFUSE_UNARY(arccosh)
NDFUSE_UNARY(arctanh)
NDFUSE_BINARY(arctan2)
NDFUSE_BINARY(hypot)
NDFUSE_BINARY(logaddexp)   // log(exp(a) + exp(b)), without overflow
NDFUSE_BINARY(logaddexp2)  // log2(2**a + 2**b)
// rounding
NDFUSE_UNARY(floor)
NDFUSE_UNARY(ceil)
NDFUSE_UNARY(trunc)
NDFUSE_UNARY(rint)
// extrema
NDFUSE_BINARY(maximum)
NDFUSE_BINARY(minimum)
NDFUSE_BINARY(fmax)
NDFUSE_BINARY(fmin)
// floating-point classification
NDFUSE_UNARY(isnan)
NDFUSE_UNARY(isinf)
NDFUSE_UNARY(isfinite)
// complex parts
NDFUSE_UNARY(real)
NDFUSE_UNARY(imag)
NDFUSE_UNARY(conj)
NDFUSE_UNARY(conjugate)
// NumPy 2's array-API names for the same ufuncs (np.acos is np.arccos, ...)
NDFUSE_UNARY(acos)
NDFUSE_UNARY(asin)
NDFUSE_UNARY(atan)
NDFUSE_UNARY(acosh)
NDFUSE_UNARY(asinh)
NDFUSE_UNARY(atanh)
NDFUSE_BINARY(atan2)
NDFUSE_BINARY(pow)
NDFUSE_UNARY(bitwise_invert)
NDFUSE_BINARY(bitwise_left_shift)
NDFUSE_BINARY(bitwise_right_shift)
// floating-point bits (real floats only)
NDFUSE_UNARY(signbit)     // the sign bit is set (-0.0 and negative NaNs too)
NDFUSE_BINARY(copysign)   // |a| with b's sign
NDFUSE_BINARY(nextafter)  // the next representable value after a toward b
// integer number theory (integers only)
NDFUSE_BINARY(gcd)           // of |a| and |b|, 0 for gcd(0, 0)
NDFUSE_BINARY(lcm)           // of |a| and |b|, 0 where either is 0
NDFUSE_UNARY(bitwise_count)  // the 1 bits of |x|, as uint8
#undef NDFUSE_UNARY
#undef NDFUSE_BINARY

// np.round(x, decimals): half to even, as NumPy does. decimals=0 is rint.
array round(const array& x, int decimals = 0);
array& round(const array& x, int decimals, out o);
array around(const array& x, int decimals = 0);
// np.angle(z, deg)
array angle(const array& z, bool deg = false);
// np.clip(x, lo, hi): maximum(minimum(x, hi), lo) with NumPy 2's promotion of all three.
array clip(const array& x, const operand& lo, const operand& hi);
array& clip(const array& x, const operand& lo, const operand& hi, out o);
// np.where(cond, a, b). Temporary operands, the condition too, give up their handles as in the
// binary ops (see operand), so nf::sum(nf::where(x > 0, x, 0)).item() stays one kernel.
array where(const array& cond, const operand& a, const operand& b);
array where(array&& cond, const operand& a, const operand& b);

// Operators. Arrays combine with arrays and with weak C++ scalars on either side.
array operator+(const array& a);
array operator-(const array& a);
array operator~(const array& a);
array operator!(const array& a);
array operator+(array&& a);
array operator-(array&& a);
array operator~(array&& a);
array operator!(array&& a);
// One template per operator: any mix of arrays (lvalues, or temporaries whose handles the op
// drops), operands and weak scalars, with at least one array.
namespace detail {
template <class T>
inline constexpr bool is_array_arg = std::is_base_of_v<array, std::remove_cvref_t<T>>;
template <class T>
inline constexpr bool is_operand_arg =
    is_array_arg<T> || scalar_type<std::remove_cvref_t<T>> ||
    std::is_same_v<std::remove_cvref_t<T>, operand> || std::is_same_v<std::remove_cvref_t<T>, scalar>;
template <class A, class B>
concept operator_args = (is_array_arg<A> || is_array_arg<B>)&&is_operand_arg<A>&& is_operand_arg<B>;
}  // namespace detail
#define NDFUSE_OPERATOR(op, fn)                                          \
  template <class A, class B>                                            \
  requires detail::operator_args<A, B> array operator op(A&& a, B&& b) { \
    return fn(operand(std::forward<A>(a)), operand(std::forward<B>(b))); \
  }
NDFUSE_OPERATOR(+, add)
NDFUSE_OPERATOR(-, subtract)
NDFUSE_OPERATOR(*, multiply)
NDFUSE_OPERATOR(/, true_divide)
NDFUSE_OPERATOR(%, remainder)
NDFUSE_OPERATOR(&, bitwise_and)
NDFUSE_OPERATOR(|, bitwise_or)
NDFUSE_OPERATOR(^, bitwise_xor)
NDFUSE_OPERATOR(<<, left_shift)
NDFUSE_OPERATOR(>>, right_shift)
NDFUSE_OPERATOR(==, equal)
NDFUSE_OPERATOR(!=, not_equal)
NDFUSE_OPERATOR(<, less)
NDFUSE_OPERATOR(<=, less_equal)
NDFUSE_OPERATOR(>, greater)
NDFUSE_OPERATOR(>=, greater_equal)
#undef NDFUSE_OPERATOR

// np.result_type for two operands (weak scalars count by kind only).
dtype result_type(const operand& a, const operand& b);
// np.broadcast_shapes; throws shape_error naming `op` when the shapes do not broadcast.
shape_t broadcast_shapes(const shape_t& a, const shape_t& b, const char* op = "broadcast_shapes");

}  // namespace ndfuse
