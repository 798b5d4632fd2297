// The op codes of DAG nodes and kernel-IR instructions. Each elementwise op's NumPy metadata is in
// op_table.hpp and its body is the prelude's nf_<name> (jit/prelude/*.cuh); this list only names them.
#pragma once
#include <cstdint>

namespace ndfuse::ir {

// X(name, arity): the elementwise ops with a registry entry (NumPy ufuncs).
// One op per line; clang-format would reflow the list.
// clang-format off
#define NDFUSE_ELEMENTWISE_OPS(X) \
  X(add, 2)                       \
  X(subtract, 2)                  \
  X(multiply, 2)                  \
  X(true_divide, 2)               \
  X(floor_divide, 2)              \
  X(remainder, 2)                 \
  X(fmod, 2)                      \
  X(power, 2)                     \
  X(negative, 1)                  \
  X(positive, 1)                  \
  X(absolute, 1)                  \
  X(sign, 1)                      \
  X(equal, 2)                     \
  X(not_equal, 2)                 \
  X(less, 2)                      \
  X(less_equal, 2)                \
  X(greater, 2)                   \
  X(greater_equal, 2)             \
  X(logical_and, 2)               \
  X(logical_or, 2)                \
  X(logical_xor, 2)               \
  X(logical_not, 1)               \
  X(bitwise_and, 2)               \
  X(bitwise_or, 2)                \
  X(bitwise_xor, 2)               \
  X(invert, 1)                    \
  X(left_shift, 2)                \
  X(right_shift, 2)               \
  X(exp, 1)                       \
  X(exp2, 1)                      \
  X(expm1, 1)                     \
  X(log, 1)                       \
  X(log2, 1)                      \
  X(log10, 1)                     \
  X(log1p, 1)                     \
  X(sqrt, 1)                      \
  X(cbrt, 1)                      \
  X(square, 1)                    \
  X(reciprocal, 1)                \
  X(sin, 1)                       \
  X(cos, 1)                       \
  X(tan, 1)                       \
  X(arcsin, 1)                    \
  X(arccos, 1)                    \
  X(arctan, 1)                    \
  X(sinh, 1)                      \
  X(cosh, 1)                      \
  X(tanh, 1)                      \
  X(arcsinh, 1)                   \
  X(arccosh, 1)                   \
  X(arctanh, 1)                   \
  X(arctan2, 2)                   \
  X(hypot, 2)                     \
  X(logaddexp, 2)                 \
  X(logaddexp2, 2)                \
  X(floor, 1)                     \
  X(ceil, 1)                      \
  X(trunc, 1)                     \
  X(rint, 1)                      \
  X(maximum, 2)                   \
  X(minimum, 2)                   \
  X(fmax, 2)                      \
  X(fmin, 2)                      \
  X(isnan, 1)                     \
  X(isinf, 1)                     \
  X(isfinite, 1)                  \
  X(real, 1)                      \
  X(imag, 1)                      \
  X(conjugate, 1)                 \
  X(signbit, 1)                   \
  X(copysign, 2)                  \
  X(nextafter, 2)                 \
  X(gcd, 2)                       \
  X(lcm, 2)                       \
  X(bitwise_count, 1)

// X(name, arity): elementwise ops that are no NumPy function but parts of the library's own
// composites (nf::random's samplers that reject; ldexp and frexp, whose NumPy loops mix dtypes):
// registry ops like the rest, with no public name.
#define NDFUSE_INTERNAL_OPS(X) \
  X(random_gamma, 2)             \
  X(random_poisson, 2)           \
  X(random_binomial, 3)          \
  X(random_logseries, 2)         \
  X(random_zipf, 2)              \
  X(random_vonmises, 3)          \
  X(ldexp_float, 2)              \
  X(frexp_mantissa, 1)           \
  X(frexp_exponent, 1)

#define NDFUSE_ALL_OPS(X) NDFUSE_ELEMENTWISE_OPS(X) NDFUSE_INTERNAL_OPS(X)
// clang-format on

enum class op_code : std::uint16_t {
  // Leaves and structural ops, handled by the fuser rather than the registry.
  buffer,   // a materialized buffer (strided view of device or host memory)
  scalar,   // a runtime scalar parameter, broadcast everywhere
  iota,     // start + step * (affine index of the element): arange, linspace, eye
  random,   // a counter-based random draw: the generator's value at the element's affine index
  cast,     // dtype conversion with NumPy's unsafe-cast semantics
  where,    // select(cond, a, b)
  reduce,   // a reduction over some axes of its input (node::reduction says how)
  scan,     // a cumulative reduction along one axis (cumsum, cumprod)
  view,     // its input's elements at remapped indices (node::view says how)
  guard,    // inputs[1] where the bool inputs[0] holds, unspecified (and never loaded) elsewhere
  gather,   // inputs[0]'s elements at data-dependent indices (node::gather_axes says how)
  library,  // a library call on materialized inputs (node::library says which)
  move,     // inputs[0] copied to this node's device (x.to): made by the runtime before planning
  user,     // output node::params().user_output of a user kernel (node::params().user) of its inputs
  reduced,  // kernel IR only: the reduction's result, read by the kernel's epilogue
#define NDFUSE_OP_CODE(name, arity) name,
  NDFUSE_ALL_OPS(NDFUSE_OP_CODE)
#undef NDFUSE_OP_CODE
      count
};

const char* op_name(op_code op);

}  // namespace ndfuse::ir
