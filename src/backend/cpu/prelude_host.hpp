// The device prelude (jit/prelude/*.cuh) compiled as host C++: each elementwise op's only body,
// nf_<op>, is what the CPU backend's loops call, so both backends run the same function and agree
// bit for bit (but for real transcendental functions, where the GPU has libdevice and the host
// glibc). The prelude's CUDA spellings get host meanings here, for the prelude alone. Heavy: include
// only from the loop TUs (loops_*.cpp, reduce_loops.cpp).
#pragma once
#include <math.h>  // the prelude calls exp, fma, ... unqualified, with their float overloads

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ir/host_types.hpp"
#include "ir/op_code.hpp"

#define __device__
#define __forceinline__ inline
struct uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
inline float __uint_as_float(unsigned u) {
  return std::bit_cast<float>(u);
}
inline unsigned __float_as_uint(float f) {
  return std::bit_cast<unsigned>(f);
}
inline long long __double_as_longlong(double d) {
  return std::bit_cast<long long>(d);
}
inline double __longlong_as_double(long long u) {
  return std::bit_cast<double>(u);
}
#include "jit/prelude/nf_prelude.cuh"
#undef __device__
#undef __forceinline__

// The conversions the prelude leaves to its host includer (PTX's cvt on the GPU): NumPy's npy_half
// rounding, to nearest even straight from the source precision. Inline, so that a float16 loop pays
// one call per conversion, as ir::to_compute does.
inline float nf_half_to_float(nf_float16 h) {
  return ndfuse::ir::half_to_float(h.bits);
}
inline nf_float16 nf_half_from(float f) {
  return {ndfuse::ir::float_to_half(f)};
}
inline nf_float16 nf_half_from(double d) {
  return {ndfuse::ir::double_to_half(d)};
}

namespace ndfuse::backend::cpu {

// The prelude's storage type of each dtype: what generated kernels declare, and what the host loops
// reinterpret their buffers as (each has the layout of ir::storage_t<D>).
template <dtype D>
struct prelude_of {
  using type = ir::storage_t<D>;  // bool, the integers, float and double are the same types
};
template <>
struct prelude_of<dtype::int64> {
  using type = nf_int64;  // long long, where std::int64_t is long
};
template <>
struct prelude_of<dtype::uint64> {
  using type = nf_uint64;
};
template <>
struct prelude_of<dtype::float16> {
  using type = nf_float16;
};
template <>
struct prelude_of<dtype::bfloat16> {
  using type = nf_bfloat16;
};
template <>
struct prelude_of<dtype::complex64> {
  using type = nf_complex64;
};
template <>
struct prelude_of<dtype::complex128> {
  using type = nf_complex128;
};
template <dtype D>
using prelude_t = typename prelude_of<D>::type;

// A host value as the prelude's type of the same layout, and back.
template <class To, class From>
inline To same_bits(From v) {
  static_assert(sizeof(To) == sizeof(From));
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else {
    To out;
    std::memcpy(static_cast<void*>(&out), &v, sizeof out);
    return out;
  }
}

// The type a reduction's accumulator computes in, as the prelude names it: float for the 16-bit
// floats, as NumPy's float16 reductions accumulate.
template <dtype D>
using prelude_compute_t = std::conditional_t<ir::narrow_float_v<D>, float, prelude_t<D>>;

// prelude_op<op_code::name>::call(a...) is nf_name(a...): an op's prelude function is named after
// it, which is also how the CUDA renderer spells it (jit/cuda_ops.cpp).
template <ir::op_code Code>
struct prelude_op;
#define NDFUSE_PRELUDE_OP(name, arity)   \
  template <>                            \
  struct prelude_op<ir::op_code::name> { \
    template <class... A>                \
    static auto call(A... a) {           \
      return nf_##name(a...);            \
    }                                    \
  };
NDFUSE_ALL_OPS(NDFUSE_PRELUDE_OP)
#undef NDFUSE_PRELUDE_OP

}  // namespace ndfuse::backend::cpu
