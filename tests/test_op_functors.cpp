// Direct checks of the op bodies (the prelude's nf_<op>, as the CPU backend's loops run them) on the
// corner cases where NumPy's loops have their own rules: wrapping, division by zero, shifts, NaN and
// signed zero in extrema, complex ordering and rounding, float16 rounding. Expected values come from
// NumPy 2.4 (x86-64, AVX2); tests/test_ops.cpp covers every op and dtype against the NumPy oracle.
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "backend/cpu/loops.hpp"
#include "catch.hpp"
#include "ir/host_types.hpp"
#include "ir/op_registry.hpp"

namespace {

using ndfuse::dtype;
namespace ir = ndfuse::ir;
namespace ops = ndfuse::ir::ops;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
constexpr double pinf = std::numeric_limits<double>::infinity();
constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

// Runs Op's loop for input dtype D on one element, as the CPU backend runs it.
template <class Op, dtype D, class... A>
auto run(A... args) {
  constexpr auto out = ir::loop_output(Op::types, D);
  static_assert(out.has_value(), "NumPy has no such loop");
  const ir::storage_t<D> in[] = {static_cast<ir::storage_t<D>>(args)...};
  const void* operands[] = {&in[0], &in[sizeof...(A) - 1]};
  ir::storage_t<*out> result{};
  ndfuse::backend::cpu::op_loop(Op::code, D)(&result, operands, 1);
  return result;
}

// Bit-exact equality (so -0.0 != 0.0), except that any NaN matches any NaN.
template <class T>
bool same(T a, T b) {
  if constexpr (ndfuse::ir::is_complex_v<T>) {
    return same(a.real(), b.real()) && same(a.imag(), b.imag());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(a) ==
           std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(b);
  } else {
    return a == b;
  }
}

}  // namespace

TEST_CASE("loop table follows ufunc.types", "[op_functors]") {
  CHECK(ir::loop_output(ops::true_divide::types, dtype::int32) == std::nullopt);  // ints divide as float64
  CHECK(ir::loop_output(ops::subtract::types, dtype::bool_) == std::nullopt);
  CHECK(ir::loop_output(ops::sqrt::types, dtype::int16) == std::nullopt);
  CHECK(ir::loop_output(ops::absolute::types, dtype::complex64) == dtype::float32);
  CHECK(ir::loop_output(ops::real::types, dtype::complex128) == dtype::float64);
  CHECK(ir::loop_output(ops::imag::types, dtype::int8) == dtype::int8);
  CHECK(ir::loop_output(ops::less::types, dtype::float16) == dtype::bool_);
  CHECK(ir::loop_output(ops::floor::types, dtype::uint16) == dtype::uint16);
  CHECK(ir::loop_output(ops::left_shift::types, dtype::bool_) == std::nullopt);
}

TEST_CASE("integer arithmetic wraps", "[op_functors]") {
  CHECK(run<ops::add, dtype::int8>(127, 1) == -128);
  CHECK(run<ops::add, dtype::uint8>(200, 100) == 44);
  CHECK(run<ops::subtract, dtype::uint8>(3, 5) == 254);
  CHECK(run<ops::multiply, dtype::int16>(300, 300) == 24464);
  CHECK(run<ops::multiply, dtype::uint16>(65535, 65535) == 1);
  CHECK(run<ops::negative, dtype::int32>(INT32_MIN) == INT32_MIN);
  CHECK(run<ops::absolute, dtype::int8>(-128) == -128);
  CHECK(run<ops::power, dtype::int8>(3, 5) == -13);
  CHECK(run<ops::power, dtype::int64>(3, 40) == -6289078614652622815LL);
  CHECK(run<ops::power, dtype::uint8>(2, 8) == 0);
  CHECK(run<ops::power, dtype::int32>(0, 0) == 1);
  CHECK(run<ops::power, dtype::int32>(-2, 31) == INT32_MIN);
}

TEST_CASE("integer division by zero and MIN / -1", "[op_functors]") {
  CHECK(run<ops::floor_divide, dtype::int32>(7, -2) == -4);
  CHECK(run<ops::floor_divide, dtype::int32>(-7, 2) == -4);
  CHECK(run<ops::floor_divide, dtype::int32>(-7, -2) == 3);
  CHECK(run<ops::floor_divide, dtype::int32>(INT32_MIN, -1) == INT32_MIN);
  CHECK(run<ops::floor_divide, dtype::int32>(5, 0) == 0);
  CHECK(run<ops::floor_divide, dtype::uint8>(7, 0) == 0);
  CHECK(run<ops::remainder, dtype::int32>(7, -2) == -1);
  CHECK(run<ops::remainder, dtype::int32>(-7, 2) == 1);
  CHECK(run<ops::remainder, dtype::int32>(INT32_MIN, -1) == 0);
  CHECK(run<ops::remainder, dtype::int32>(5, 0) == 0);
  CHECK(run<ops::fmod, dtype::int32>(-7, 2) == -1);
  CHECK(run<ops::fmod, dtype::int32>(7, -2) == 1);
  CHECK(run<ops::fmod, dtype::int32>(INT32_MIN, -1) == 0);
  CHECK(run<ops::fmod, dtype::int32>(5, 0) == 0);
  // NumPy computes 1.0 / x and converts: 1/0 = inf becomes x86's "integer indefinite".
  CHECK(run<ops::reciprocal, dtype::int32>(0) == INT32_MIN);
  CHECK(run<ops::reciprocal, dtype::int64>(0) == INT64_MIN);
  CHECK(run<ops::reciprocal, dtype::int8>(0) == 0);
  CHECK(run<ops::reciprocal, dtype::uint32>(0) == 0u);
  CHECK(run<ops::reciprocal, dtype::int16>(-1) == -1);
  CHECK(run<ops::reciprocal, dtype::int64>(2) == 0);
}

TEST_CASE("shifts by out-of-range counts", "[op_functors]") {
  CHECK(run<ops::left_shift, dtype::int8>(1, 7) == -128);
  CHECK(run<ops::left_shift, dtype::int8>(1, 8) == 0);
  CHECK(run<ops::left_shift, dtype::uint8>(255, 1) == 254);
  CHECK(run<ops::left_shift, dtype::int64>(1, 64) == 0);
  CHECK(run<ops::left_shift, dtype::int32>(1, -1) == 0);
  CHECK(run<ops::right_shift, dtype::int32>(-8, 1) == -4);
  CHECK(run<ops::right_shift, dtype::int32>(-8, 40) == -1);
  CHECK(run<ops::right_shift, dtype::int32>(5, -1) == 0);
  CHECK(run<ops::right_shift, dtype::uint16>(40000, 16) == 0);
}

TEST_CASE("float floor_divide and remainder follow npy_divmod", "[op_functors]") {
  struct row {
    double a, b, floordiv, rem;
  };
  const row rows[] = {{7.0, -2.0, -4.0, -1.0}, {-7.0, 2.0, -4.0, 1.0},   {-0.0, 1.0, -0.0, 0.0},
                      {0.0, -1.0, -0.0, -0.0}, {1.0, 0.0, pinf, qnan},   {0.0, 0.0, qnan, qnan},
                      {1.0, pinf, 0.0, 1.0},   {-1.0, pinf, -1.0, pinf}, {pinf, 1.0, qnan, qnan},
                      {5.0, 0.5, 10.0, 0.0}};
  for (const row& r : rows) {
    INFO(r.a << " // " << r.b);
    CHECK(same(run<ops::floor_divide, dtype::float64>(r.a, r.b), r.floordiv));
    CHECK(same(run<ops::remainder, dtype::float64>(r.a, r.b), r.rem));
    CHECK(same(run<ops::floor_divide, dtype::float32>(float(r.a), float(r.b)), float(r.floordiv)));
  }
}

TEST_CASE("sign", "[op_functors]") {
  CHECK(same(run<ops::sign, dtype::float64>(-0.0), 0.0));
  CHECK(same(run<ops::sign, dtype::float64>(-3.0), -1.0));
  CHECK(std::isnan(run<ops::sign, dtype::float64>(qnan)));
  CHECK(run<ops::sign, dtype::int8>(-5) == -1);
  CHECK(
      same(run<ops::sign, dtype::complex128>(c128(3, 4)), c128(0x1.3333333333333p-1, 0x1.999999999999ap-1)));
  CHECK(same(run<ops::sign, dtype::complex128>(c128(pinf, 1)), c128(1, 0)));
  CHECK(same(run<ops::sign, dtype::complex128>(c128(-1, -pinf)), c128(0, -1)));
  CHECK(same(run<ops::sign, dtype::complex128>(c128(pinf, pinf)), c128(qnan, qnan)));
  CHECK(same(run<ops::sign, dtype::complex128>(c128(0, 0)), c128(0, 0)));
}

TEST_CASE("extrema: NaN propagation and signed zeros", "[op_functors]") {
  CHECK(std::isnan(run<ops::maximum, dtype::float64>(qnan, 1.0)));
  CHECK(std::isnan(run<ops::maximum, dtype::float64>(1.0, qnan)));
  CHECK(same(run<ops::maximum, dtype::float64>(0.0, -0.0), -0.0));  // NumPy's SIMD loops take the 2nd
  CHECK(same(run<ops::minimum, dtype::float32>(-0.0f, 0.0f), 0.0f));
  CHECK(same(run<ops::fmax, dtype::float64>(qnan, 1.0), 1.0));
  CHECK(same(run<ops::fmin, dtype::float64>(1.0, qnan), 1.0));
  CHECK(same(run<ops::minimum, dtype::complex128>(c128(1, 2), c128(1, 1)), c128(1, 1)));
  CHECK(same(run<ops::maximum, dtype::complex128>(c128(qnan, 0), c128(0, 1)), c128(qnan, 0)));
  CHECK(same(run<ops::maximum, dtype::complex128>(c128(2, qnan), c128(0, 1)), c128(2, qnan)));
  CHECK(same(run<ops::fmax, dtype::complex128>(c128(0, 1), c128(qnan, 0)), c128(0, 1)));
}

TEST_CASE("complex ordering and truthiness", "[op_functors]") {
  CHECK_FALSE(run<ops::less, dtype::complex128>(c128(1, qnan), c128(2, 0)));
  CHECK(run<ops::less, dtype::complex128>(c128(1, 1), c128(1, 2)));
  CHECK(run<ops::greater_equal, dtype::complex128>(c128(2, 0), c128(1, 5)));
  CHECK_FALSE(run<ops::equal, dtype::float64>(qnan, qnan));
  CHECK(run<ops::logical_and, dtype::float64>(qnan, 1.0));
  CHECK(run<ops::logical_not, dtype::complex128>(c128(0, 0)));
  CHECK(run<ops::logical_xor, dtype::complex128>(c128(0, qnan), c128(0, 0)));
  CHECK_FALSE(run<ops::isfinite, dtype::complex128>(c128(1, pinf)));
  CHECK(run<ops::isnan, dtype::complex64>(c64(std::nanf(""), 1)));
  CHECK_FALSE(run<ops::isinf, dtype::int64>(5));
}

TEST_CASE("complex arithmetic rounds as NumPy's loops", "[op_functors]") {
  // Fused multiply-add, as NumPy's SIMD complex multiply (the plain formula gives 0x1.bada76d97b30fp-1).
  CHECK(same(run<ops::multiply, dtype::complex128>(c128(-0.453, -0.216), c128(-2.02, -0.232)),
             c128(0x1.bada76d97b310p-1, 0x1.15347a5b0ff11p-1)));
  CHECK(same(run<ops::square, dtype::complex128>(c128(1.935, -0.27)),
             c128(0x1.d5edfa43fe5cap+1, -0x1.0b7e90ff97248p+0)));
  // NumPy's SIMD |z| (hypot gives 0.7500666637039671).
  CHECK(same(run<ops::absolute, dtype::complex128>(c128(0.55, -0.51)), 0x1.8008bcdcdb532p-1));
  CHECK(same(run<ops::absolute, dtype::complex128>(c128(3, 4)), 5.0));
  CHECK(same(run<ops::absolute, dtype::complex128>(c128(pinf, qnan)), pinf));
  CHECK(std::isnan(run<ops::absolute, dtype::complex128>(c128(qnan, 1))));
  // Smith's division.
  CHECK(same(run<ops::true_divide, dtype::complex128>(c128(1, 2), c128(3, 4)),
             c128(0x1.c28f5c28f5c29p-2, 0x1.47ae147ae147bp-4)));
  CHECK(same(run<ops::true_divide, dtype::complex128>(c128(1, 1), c128(0, 0)), c128(pinf, pinf)));
  CHECK(same(run<ops::true_divide, dtype::complex128>(c128(0, 0), c128(0, 0)), c128(qnan, qnan)));
  CHECK(same(run<ops::true_divide, dtype::complex64>(c64(1e30f, 1e30f), c64(1e30f, 1e30f)), c64(1, 0)));
  // npy_cpow: exact small integer powers and fixed special cases.
  CHECK(same(run<ops::power, dtype::complex128>(c128(1, 1), c128(2, 0)), c128(0, 2)));
  CHECK(same(run<ops::power, dtype::complex128>(c128(1, 2), c128(5, 0)), c128(41, -38)));
  CHECK(same(run<ops::power, dtype::complex128>(c128(2, 0), c128(-2, 0)), c128(0.25, 0)));
  CHECK(same(run<ops::power, dtype::complex128>(c128(0, 0), c128(-1, 0)), c128(qnan, qnan)));
  CHECK(same(run<ops::power, dtype::complex128>(c128(qnan, qnan), c128(0, 0)), c128(1, 0)));
}

TEST_CASE("rounding and complex parts", "[op_functors]") {
  CHECK(same(run<ops::rint, dtype::float64>(2.5), 2.0));
  CHECK(same(run<ops::rint, dtype::float64>(-0.5), -0.0));
  CHECK(same(run<ops::rint, dtype::float32>(3.5f), 4.0f));
  CHECK(same(run<ops::rint, dtype::complex128>(c128(2.5, -1.5)), c128(2, -2)));
  CHECK(run<ops::floor, dtype::int16>(-7) == -7);
  CHECK(same(run<ops::real, dtype::complex64>(c64(1, 2)), 1.0f));
  CHECK(run<ops::imag, dtype::int32>(5) == 0);
  CHECK(same(run<ops::conjugate, dtype::complex128>(c128(1, 2)), c128(1, -2)));
}

TEST_CASE("float16 loops compute in float32 and round once", "[op_functors]") {
  using ndfuse::float16_t;
  CHECK(float16_t(0.1f).bits == 11878);
  CHECK(run<ops::add, dtype::float16>(float16_t(0.1f), float16_t(0.2f)).bits == 13516);
  CHECK(run<ops::true_divide, dtype::float16>(float16_t(1.0f), float16_t(3.0f)).bits == 13653);
  CHECK(static_cast<float>(run<ops::floor_divide, dtype::float16>(float16_t(7.0f), float16_t(-2.0f))) ==
        -4.0f);
  CHECK(ir::float_to_half(65520.0f) == 0x7c00);  // the tie above 65504 rounds to even: pinf
  CHECK(ir::float_to_half(65519.99f) == 0x7bff);
  CHECK(ir::float_to_half(0x1p-25f) == 0x0000);  // tie between 0 and the smallest subnormal
  CHECK(ir::double_to_half(0x1.0000002p-25) == 0x0001);
  CHECK(ir::float_to_half(-1e10f) == 0xfc00);
  // 1 + 2^-11 + 2^-40 rounds up from double; through float it would be a tie that rounds down.
  CHECK(ir::double_to_half(1.0 + 0x1p-11 + 0x1p-40) == 0x3c01);
  CHECK(ir::float_to_half(static_cast<float>(1.0 + 0x1p-11 + 0x1p-40)) == 0x3c00);
  CHECK(ir::half_to_float(0x0001) == 0x1p-24f);
  CHECK(std::isnan(ir::half_to_float(ir::float_to_half(std::nanf("")))));
}
