// IEEE binary16 conversions. Narrowing rounds to nearest, ties to even, straight from the source
// precision (a double is not first rounded to float, which could round twice); NaN keeps the top of
// its payload and its sign, as NumPy's npy_half conversions do.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "ir/host_types.hpp"

namespace ndfuse {

float16_t::float16_t(float f) : bits(ir::float_to_half(f)) {}
float16_t::operator float() const {
  return ir::half_to_float(bits);
}
bfloat16_t::bfloat16_t(float f) : bits(ir::float_to_bfloat16(f)) {}
bfloat16_t::operator float() const {
  return ir::bfloat16_to_float(bits);
}

}  // namespace ndfuse

namespace ndfuse::ir {

namespace {

// Narrows an IEEE binary value of a wider format (Bits: its unsigned integer type, Mant: its stored
// significand bits, Bias: its exponent bias) to binary16 bits.
template <class Bits, int Mant, int Bias>
std::uint16_t narrow_to_half(Bits x) {
  constexpr int width = sizeof(Bits) * 8;
  constexpr int drop = Mant - 10;  // significand bits that do not fit
  constexpr Bits sign_mask = Bits{1} << (width - 1);
  constexpr Bits exp_mask = ~sign_mask & ~((Bits{1} << Mant) - 1);
  constexpr Bits mant_mask = (Bits{1} << Mant) - 1;
  // The smallest magnitude that rounds to +inf: 65520, halfway between 65504 and 2^16.
  constexpr Bits overflow = (Bits{Bias + 15} << Mant) | (Bits{0x3ff} << drop) | (Bits{1} << (drop - 1));
  constexpr Bits min_normal = Bits{Bias - 14} << Mant;    // 2^-14
  constexpr Bits half_min_sub = Bits{Bias - 25} << Mant;  // 2^-25: half the smallest subnormal

  const auto sign = static_cast<std::uint16_t>((x >> (width - 16)) & 0x8000u);
  const Bits ax = x & ~sign_mask;
  if (ax >= exp_mask) {
    if (ax == exp_mask) return sign | 0x7c00u;  // infinity
    auto payload = static_cast<std::uint16_t>((ax >> drop) & 0x3ffu);
    return sign | 0x7c00u | (payload != 0 ? payload : 1u);  // NaN stays NaN
  }
  if (ax >= overflow) return sign | 0x7c00u;
  if (ax < min_normal) {
    // Subnormal result. The value is m * 2^(e - Bias - Mant); in units of the smallest subnormal,
    // 2^-24, that is m >> s with s = Bias + Mant - 24 - e, which lies in [drop + 1, drop + 11].
    if (ax <= half_min_sub) return sign;  // rounds to zero (a tie goes to the even zero)
    const int e = static_cast<int>(ax >> Mant);
    const Bits m = (ax & mant_mask) | (Bits{1} << Mant);
    const int s = Bias + Mant - 24 - e;
    Bits k = m >> s;
    const Bits rem = m & ((Bits{1} << s) - 1);
    const Bits halfway = Bits{1} << (s - 1);
    if (rem > halfway || (rem == halfway && (k & 1))) ++k;
    return sign | static_cast<std::uint16_t>(k);  // k == 0x400 is the smallest normal: still right
  }
  // Normal result; a carry out of the significand correctly bumps the exponent.
  Bits h = ((ax >> Mant) - (Bias - 15)) << 10 | ((ax & mant_mask) >> drop);
  const Bits rem = ax & ((Bits{1} << drop) - 1);
  const Bits halfway = Bits{1} << (drop - 1);
  if (rem > halfway || (rem == halfway && (h & 1))) ++h;
  return sign | static_cast<std::uint16_t>(h);
}

}  // namespace

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));  // inf, NaN
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + (127 - 15)) << 23) | (mant << 13));
  // Zero or subnormal: mant * 2^-24 is exact in float.
  const float mag = static_cast<float>(mant) * 0x1p-24f;
  return std::bit_cast<float>(sign | std::bit_cast<std::uint32_t>(mag));
}

std::uint16_t float_to_half(float f) {
  return narrow_to_half<std::uint32_t, 23, 127>(std::bit_cast<std::uint32_t>(f));
}

std::uint16_t double_to_half(double d) {
  return narrow_to_half<std::uint64_t, 52, 1023>(std::bit_cast<std::uint64_t>(d));
}

float bfloat16_to_float(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

std::uint16_t float_to_bfloat16(float f) {
  const auto u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  // Adding just under half a unit of the kept bits (plus the kept lowest bit) rounds to nearest even,
  // and carries into the exponent, up to infinity, exactly where rounding should.
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

std::uint16_t double_to_bfloat16(double d) {
  const std::uint16_t sign = std::signbit(d) ? 0x8000u : 0u;
  if (std::isnan(d)) return sign | 0x7fc0u;
  const double a = std::fabs(d);
  if (a == 0) return sign;
  if (std::isinf(a)) return sign | 0x7f80u;
  // Round to 8 significant bits (subnormals: to multiples of 2^-133) with nearbyint, which rounds to
  // nearest even; the result is exact in float32, whose upper half it then is.
  int e = 0;
  std::frexp(a, &e);
  const int unit = std::max(e - 8, -133);
  const double r = std::ldexp(std::nearbyint(std::ldexp(a, -unit)), unit);
  if (r >= 0x1p128) return sign | 0x7f80u;
  return sign | static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(r)) >> 16);
}

}  // namespace ndfuse::ir
