// Casts, select and iota loops, plus the lookup functions of loops.hpp.
#include <cmath>
#include <limits>

#include "backend/cpu/loops_impl.hpp"

namespace ndfuse::backend::cpu {

namespace {

template <class T>
constexpr bool is_cplx = ir::is_complex_v<T>;

// Float to integer as NumPy's C casts behave on x86-64 (where the C standard says undefined): types
// of up to 16 bits and int32 convert through int32 (cvttsd2si, 32-bit: out-of-range and NaN give
// INT32_MIN) and wrap; int64 and uint32 through int64 (INT64_MIN), uint64 directly where it fits.
template <class To, class F>
To float_to_int(F v) {
  double d = static_cast<double>(v);
  if constexpr (std::is_same_v<To, std::uint64_t>) {
    if (d >= 0 && d < 18446744073709551616.0) return static_cast<std::uint64_t>(d);
  }
  if constexpr (sizeof(To) < 4 || std::is_same_v<To, std::int32_t>) {
    if (!(d > -2147483649.0 && d < 2147483648.0))
      return static_cast<To>(std::numeric_limits<std::int32_t>::min());
    return static_cast<To>(static_cast<std::int32_t>(d));
  }
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return static_cast<To>(std::numeric_limits<std::int64_t>::min());
  return static_cast<To>(static_cast<std::int64_t>(d));
}

template <dtype From, dtype To>
ir::storage_t<To> convert(ir::storage_t<From> x) {
  using ir::storage_t;
  using F = ir::compute_t<From>;
  using T = ir::compute_t<To>;
  F v = ir::to_compute<From>(x);
  if constexpr (To == dtype::bool_) {
    return v != F{};
  } else if constexpr (To == dtype::float16) {
    float16_t h;
    if constexpr (is_cplx<F>)
      h.bits = ir::double_to_half(static_cast<double>(v.real()));
    else if constexpr (std::is_same_v<F, float>)
      h.bits = ir::float_to_half(v);
    else
      h.bits = ir::double_to_half(static_cast<double>(v));
    return h;
  } else if constexpr (To == dtype::bfloat16) {
    bfloat16_t b;
    if constexpr (is_cplx<F>)
      b.bits = ir::double_to_bfloat16(static_cast<double>(v.real()));
    else if constexpr (std::is_same_v<F, float>)
      b.bits = ir::float_to_bfloat16(v);
    else
      b.bits = ir::double_to_bfloat16(static_cast<double>(v));
    return b;
  } else if constexpr (is_cplx<T>) {
    using R = typename T::value_type;
    if constexpr (is_cplx<F>)
      return T(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else
      return T(static_cast<R>(v), R(0));
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (is_cplx<F>)
      return static_cast<T>(v.real());
    else
      return static_cast<T>(v);
  } else {  // integer target
    if constexpr (is_cplx<F>)
      return float_to_int<T>(v.real());
    else if constexpr (std::is_floating_point_v<F>)
      return float_to_int<T>(v);
    else
      return static_cast<T>(v);  // modular since C++20
  }
}

template <dtype From, dtype To>
void cast_block(void* out, const void* const* in, std::int64_t n) {
  auto* __restrict o = static_cast<ir::storage_t<To>*>(out);
  auto* __restrict a = static_cast<const ir::storage_t<From>*>(in[0]);
  for (std::int64_t i = 0; i < n; ++i) o[i] = convert<From, To>(a[i]);
}

template <dtype D>
void where_block(void* out, const void* const* in, std::int64_t n) {
  using T = ir::storage_t<D>;
  auto* __restrict o = static_cast<T*>(out);
  auto* __restrict c = static_cast<const bool*>(in[0]);
  auto* __restrict a = static_cast<const T*>(in[1]);
  auto* __restrict b = static_cast<const T*>(in[2]);
  for (std::int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
}

// iota value = start + affine * step in the dtype's own arithmetic (NumPy's arange fill), or
// (affine == 0) for eye.
template <dtype D>
void iota_block(void* out, const std::int64_t* affine, std::int64_t n, const ir::iota_params& p) {
  using T = ir::compute_t<D>;
  auto* o = static_cast<ir::storage_t<D>*>(out);
  if (p.equals) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = convert<dtype::bool_, D>(affine[i] + p.offset == 0);
    return;
  }
  if constexpr (D == dtype::bool_) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = (p.start + p.step * double(affine[i] + p.offset)) != 0.0;
  } else if constexpr (is_cplx<T>) {
    using R = typename T::value_type;
    T s(static_cast<R>(p.start.real()), static_cast<R>(p.start.imag()));
    T d(static_cast<R>(p.step.real()), static_cast<R>(p.step.imag()));
    for (std::int64_t i = 0; i < n; ++i) o[i] = s + T(static_cast<R>(affine[i] + p.offset)) * d;
  } else if constexpr (std::is_floating_point_v<T>) {
    T s = static_cast<T>(p.start.real()), d = static_cast<T>(p.step.real());
    for (std::int64_t i = 0; i < n; ++i)
      o[i] = ir::to_storage<D>(s + static_cast<T>(affine[i] + p.offset) * d);
  } else {
    auto s = static_cast<std::int64_t>(p.start.real()), d = static_cast<std::int64_t>(p.step.real());
    for (std::int64_t i = 0; i < n; ++i)
      o[i] = static_cast<T>(static_cast<std::uint64_t>(s) +
                            static_cast<std::uint64_t>(affine[i] + p.offset) * static_cast<std::uint64_t>(d));
  }
}

struct tables {
  op_table ops{};
  std::array<std::array<block_fn, dtype_count>, dtype_count> casts{};
  std::array<block_fn, dtype_count> wheres{};
  std::array<iota_fn, dtype_count> iotas{};
  tables() {
    fill_op_loops_part0(ops);
    fill_op_loops_part1(ops);
    hana::for_each(ir::all_dtypes, [&](auto from) {
      constexpr dtype f = decltype(from)::value;
      wheres[static_cast<int>(f)] = &where_block<f>;
      iotas[static_cast<int>(f)] = &iota_block<f>;
      hana::for_each(ir::all_dtypes, [&](auto to) {
        constexpr dtype t = decltype(to)::value;
        casts[static_cast<int>(f)][static_cast<int>(t)] = &cast_block<f, t>;
      });
    });
  }
};

const tables& all_tables() {
  static const tables t;
  return t;
}

}  // namespace

block_fn op_loop(ir::op_code op, dtype in) {
  return all_tables().ops[static_cast<int>(op)][static_cast<int>(in)];
}
block_fn cast_loop(dtype from, dtype to) {
  return all_tables().casts[static_cast<int>(from)][static_cast<int>(to)];
}
block_fn where_loop(dtype t) {
  return all_tables().wheres[static_cast<int>(t)];
}
iota_fn iota_loop(dtype t) {
  return all_tables().iotas[static_cast<int>(t)];
}

}  // namespace ndfuse::backend::cpu
