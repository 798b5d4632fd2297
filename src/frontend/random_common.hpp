// What the Generator's two translation units share (random.cpp: the bit generators, the uniform
// and closed-form distributions, choice and the legacy functions; random_distributions.cpp: the
// gamma family, counts, rejection samplers and vector distributions): the bit generator's state and
// the helpers that draw and check parameters as NumPy does.
#pragma once
#include <cmath>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "frontend/build.hpp"
#include "frontend/philox_stream.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/random.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::random::detail {
// One bit generator's state. A Generator and the BitGenerator it came from share it; draws from
// several threads take turns on the lock (the values then depend on the order, as in NumPy).
struct engine {
  ir::random_engine kind = ir::random_engine::philox4x32;
  std::mutex m;
  frontend::philox_stream philox{{0, 0}, {0, 0, 0, 0}};  // Philox
  std::uint64_t key32 = 0;                               // Philox4x32: two 32-bit key words
  std::uint64_t ctr_lo = 0, ctr_hi = 0;                  // Philox4x32: the next block

  // The stream of a draw of n elements of `form`, and the state advanced past it.
  ir::random_stream take(ir::random_form form, std::uint64_t n);
};

using ir::random_form;

// NumPy's size argument: no negative dimension (value_error, as NumPy's ValueError), a size that fits.
inline const shape_t& checked(const shape_t& size, const char* op) {
  for (auto d : size)
    if (d < 0) throw value_error(std::string(op) + ": negative dimensions are not allowed");
  ir::checked_size(size, 8, op);
  return size;
}

// The values of an integer (or bool) dtype, in 128 bits.
inline std::pair<__int128, __int128> integer_range(dtype t) {
  if (t == dtype::bool_) return {0, 1};
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (is_unsigned_integer(t)) return {0, (static_cast<__int128>(1) << bits) - 1};
  return {-(static_cast<__int128>(1) << (bits - 1)), (static_cast<__int128>(1) << (bits - 1)) - 1};
}

inline std::uint64_t count(const shape_t& size) {
  return static_cast<std::uint64_t>(ir::shape_size(size));
}

inline array draw(engine& e, random_form form, const shape_t& size) {
  return frontend::random_draw(size, e.take(form, count(size)));
}

// A distribution's parameter as a float64 array (NumPy converts each to a double array).
inline array as_array(const param& p) {
  if (p.arr) return p.arr->dtype() == dtype::float64 ? *p.arr : p.arr->astype(dtype::float64);
  if (p.value.kind == dtype_kind::complex)
    throw dtype_error("nf::random: a complex parameter (NumPy's TypeError: can't convert complex to float)");
  return full({}, p.value, dtype::float64);
}

inline shape_t shape_of(const param& p) {
  return p.arr ? p.arr->shape() : shape_t{};
}

// Whether `bad` (a bool array over a parameter) holds anywhere: NumPy checks array parameters
// before drawing, so this reads them.
inline bool any_of(const array& bad) {
  return any(bad).item<bool>();
}

// Raises value_error "<op>: <name> <rule>" where the parameter breaks the rule (scale < 0, ...).
// A parameter's value as a double: the host form of a scalar parameter.
inline double host_value(const scalar& v) {
  if (v.kind == dtype_kind::bool_) return double(v.b);
  if (v.kind == dtype_kind::int_) return v.is_big_unsigned ? double(v.u) : double(v.i);
  return v.c.real();
}

// The comparisons of a rule on a host double, so that a scalar parameter is checked without
// building or running anything (an array parameter takes ndfuse's ops of the same names).
inline bool less(double a, double b) {
  return a < b;
}
inline bool less_equal(double a, double b) {
  return a <= b;
}
inline bool greater(double a, double b) {
  return a > b;
}
inline bool greater_equal(double a, double b) {
  return a >= b;
}
inline bool logical_and(bool a, bool b) {
  return a && b;
}
inline bool logical_not(bool a) {
  return !a;
}

// Raises value_error "<op>: <message>" where the parameter breaks the rule. `bad` is written once,
// generically: on the host double of a scalar, or on an array (which this reads, as NumPy does).
template <class Bad>
void check(const param& p, const char* op, const char* message, Bad bad) {
  const bool broken = p.arr ? any_of(bad(as_array(p))) : bool(bad(host_value(p.value)));
  if (broken) throw value_error(std::string(op) + ": " + message);
}

// The shape of a draw over broadcast parameters: `size` when given (the parameters must broadcast
// to it), else their broadcast shape.
inline shape_t draw_shape(std::optional<shape_t> size, std::initializer_list<const param*> params,
                          const char* op) {
  shape_t b;
  for (const param* p : params) b = broadcast_shapes(b, shape_of(*p), op);
  if (!size) return b;
  checked(*size, op);
  shape_t both;
  try {
    both = broadcast_shapes(b, *size, op);
  } catch (const shape_error&) {
    both.clear();
    both.push_back(-1);
  }
  if (both != *size)
    throw value_error(std::string(op) + ": shape mismatch: the parameters' shape " + shape_str(b) +
                      " does not broadcast to size " + shape_str(*size));
  return *size;
}

inline void float_dtype(dtype t, const char* op) {
  if (t != dtype::float64 && t != dtype::float32)
    throw dtype_error(std::string(op) + ": unsupported dtype " + std::string(dtype_name(t)) +
                      " (float64 or float32, as NumPy)");
}

// NumPy's rejection of u == 0 where a transform takes its logarithm: the smallest double above 0 of
// the 53-bit grid's halfway, a probability of 2^-53 moved by 2^-54.
inline array nonzero_unit(const array& u) {
  return where(equal(u, 0.0), std::ldexp(1.0, -54), u);
}

// Keys of per-element substreams: 53 random bits each, as exact float64 integers.
inline array substream_keys(engine& e, const shape_t& out) {
  return right_shift(draw(e, random_form::bits64, out), 11).astype(dtype::float64);
}

// Standard gamma variates of `shape` (a float64 array broadcast to `out`): each element's sampler
// rejects on its own substream, keyed by 53 bits it draws from the generator.
inline array gamma_variates(engine& e, const array& shape, const shape_t& out) {
  return frontend::binary(ir::op_code::random_gamma, substream_keys(e, out), shape);
}

inline array poisson_counts(engine& e, const array& lam, const shape_t& out) {
  return frontend::binary(ir::op_code::random_poisson, substream_keys(e, out), lam);
}

// Binomial(n, p) counts as float64 integers; n and p float64, broadcast to `out`.
inline array binomial_counts(engine& e, const array& n, const array& p, const shape_t& out) {
  return array(frontend::make_node(
      ir::op_code::random_binomial, dtype::float64,
      {substream_keys(e, out).node(), broadcast_to(n, out).node(), broadcast_to(p, out).node()}, out));
}

// A count parameter as float64 (NumPy casts n to int64: fractions are dropped).
inline array whole(const param& n) {
  return trunc(as_array(n));
}

}  // namespace ndfuse::random::detail
