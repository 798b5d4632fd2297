#include "io/float_format.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ndfuse::io {

namespace {

// Unsigned big integer, 32-bit limbs, least significant first, no leading zero limbs.
struct big_uint {
  std::vector<std::uint32_t> limbs;

  static big_uint from_u64(std::uint64_t v) {
    big_uint r;
    while (v) {
      r.limbs.push_back(static_cast<std::uint32_t>(v));
      v >>= 32;
    }
    return r;
  }
  static big_uint pow2(int n) {
    big_uint r;
    r.limbs.assign(static_cast<std::size_t>(n / 32) + 1, 0);
    r.limbs.back() = std::uint32_t{1} << (n % 32);
    return r;
  }
  bool is_zero() const { return limbs.empty(); }
  void trim() {
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  void shift_left(int n) {
    if (is_zero() || n == 0) return;
    const std::size_t whole = static_cast<std::size_t>(n / 32);
    const int bits = n % 32;
    std::vector<std::uint32_t> out(limbs.size() + whole + 1, 0);
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      const std::uint64_t v = static_cast<std::uint64_t>(limbs[i]) << bits;
      out[i + whole] |= static_cast<std::uint32_t>(v);
      out[i + whole + 1] |= static_cast<std::uint32_t>(v >> 32);
    }
    limbs = std::move(out);
    trim();
  }
  void multiply(std::uint32_t m) {
    std::uint64_t carry = 0;
    for (auto& l : limbs) {
      const std::uint64_t v = static_cast<std::uint64_t>(l) * m + carry;
      l = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry) limbs.push_back(static_cast<std::uint32_t>(carry));
    trim();
  }
  void multiply_pow10(int n) {
    for (; n >= 9; n -= 9) multiply(1000000000u);
    static constexpr std::uint32_t small[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    if (n > 0) multiply(small[n]);
  }
  void add(const big_uint& o) {
    if (limbs.size() < o.limbs.size()) limbs.resize(o.limbs.size(), 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      const std::uint64_t v =
          static_cast<std::uint64_t>(limbs[i]) + (i < o.limbs.size() ? o.limbs[i] : 0) + carry;
      limbs[i] = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry) limbs.push_back(static_cast<std::uint32_t>(carry));
  }
  // Requires *this >= o.
  void subtract(const big_uint& o) {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < limbs.size(); ++i) {
      std::int64_t v = static_cast<std::int64_t>(limbs[i]) - (i < o.limbs.size() ? o.limbs[i] : 0) - borrow;
      borrow = v < 0;
      if (v < 0) v += std::int64_t{1} << 32;
      limbs[i] = static_cast<std::uint32_t>(v);
    }
    trim();
  }
  friend int compare(const big_uint& a, const big_uint& b) {
    if (a.limbs.size() != b.limbs.size()) return a.limbs.size() < b.limbs.size() ? -1 : 1;
    for (std::size_t i = a.limbs.size(); i-- > 0;) {
      if (a.limbs[i] != b.limbs[i]) return a.limbs[i] < b.limbs[i] ? -1 : 1;
    }
    return 0;
  }
  // The quotient is known to be below 10, so repeated subtraction is cheap enough.
  std::uint32_t divide_small_quotient(const big_uint& divisor) {
    std::uint32_t q = 0;
    while (compare(*this, divisor) >= 0) {
      subtract(divisor);
      ++q;
    }
    return q;
  }
};

struct digit_string {
  std::string digits;
  int exponent = 0;  // base-10 exponent of the first digit
};

// Longer than any float64 digit string, so it never cuts the output short.
constexpr int max_digits = 16384;

// Steele-White / Burger-Dybvig digit generation. In unique mode digits stop as soon as they identify
// the value among its neighbours (ties at the margins accepted for even mantissas, as IEEE rounding
// would), but not before cutoff_min and never after cutoff_max; in exact mode digits are those of
// the exact binary value, correctly rounded at cutoff_max.
digit_string generate_digits(const float_bits& v, bool unique, bool total_length, int cutoff_max,
                             int cutoff_min) {
  digit_string out;
  if (v.mantissa == 0) {
    out.digits.assign(1, '0');
    return out;
  }
  const bool is_even = (v.mantissa & 1) == 0;
  big_uint scaled_value = big_uint::from_u64(v.mantissa);
  big_uint scale;
  big_uint margin_low;
  const int extra = v.unequal_margins ? 2 : 1;  // scale everything so the margins are integers
  if (v.exponent > 0) {
    scaled_value.shift_left(v.exponent + extra);
    scale = big_uint::from_u64(std::uint64_t{1} << extra);
    margin_low = big_uint::pow2(v.exponent);
  } else {
    scaled_value.shift_left(extra);
    scale = big_uint::pow2(-v.exponent + extra);
    margin_low = big_uint::from_u64(1);
  }
  auto margin_high = [&] {
    big_uint h = margin_low;
    if (v.unequal_margins) h.shift_left(1);
    return h;
  };

  // An estimate of floor(log10(value)) + 1 that is exact or one too small; the 0.69 offset and the
  // fractional-cutoff clamp reproduce NumPy's choice, which matters for where cut-off rounding lands.
  constexpr double log10_2 = 0.30102999566398119521373889472449;
  int digit_exponent = static_cast<int>(std::ceil(double(v.mantissa_bit + v.exponent) * log10_2 - 0.69));
  if (cutoff_max >= 0 && !total_length && digit_exponent <= -cutoff_max) digit_exponent = -cutoff_max + 1;

  if (digit_exponent > 0) {
    scale.multiply_pow10(digit_exponent);
  } else if (digit_exponent < 0) {
    scaled_value.multiply_pow10(-digit_exponent);
    margin_low.multiply_pow10(-digit_exponent);
  }
  if (compare(scaled_value, scale) >= 0) {
    digit_exponent += 1;
  } else {
    scaled_value.multiply(10);
    margin_low.multiply(10);
  }

  int cutoff_max_exponent = digit_exponent - max_digits;
  if (cutoff_max >= 0) {
    const int desired = total_length ? digit_exponent - cutoff_max : -cutoff_max;
    cutoff_max_exponent = std::max(cutoff_max_exponent, desired);
  }
  int cutoff_min_exponent = digit_exponent;
  if (cutoff_min >= 0) {
    const int desired = total_length ? digit_exponent - cutoff_min : -cutoff_min;
    cutoff_min_exponent = std::min(cutoff_min_exponent, desired);
  }
  out.exponent = digit_exponent - 1;

  bool low = false;
  bool high = false;
  std::uint32_t digit = 0;
  if (unique) {
    for (;;) {
      digit_exponent -= 1;
      digit = scaled_value.divide_small_quotient(scale);
      big_uint value_high = scaled_value;
      value_high.add(margin_high());
      const int cmp_low = compare(scaled_value, margin_low);
      const int cmp_high = compare(value_high, scale);
      low = is_even ? cmp_low <= 0 : cmp_low < 0;
      high = is_even ? cmp_high >= 0 : cmp_high > 0;
      if (((low || high) && digit_exponent <= cutoff_min_exponent) || digit_exponent == cutoff_max_exponent)
        break;
      out.digits.push_back(static_cast<char>('0' + digit));
      scaled_value.multiply(10);
      margin_low.multiply(10);
    }
  } else {
    for (;;) {
      digit_exponent -= 1;
      digit = scaled_value.divide_small_quotient(scale);
      if (scaled_value.is_zero() || digit_exponent == cutoff_max_exponent) break;
      out.digits.push_back(static_cast<char>('0' + digit));
      scaled_value.multiply(10);
    }
  }

  bool round_down = low;
  if (low == high) {  // both directions are legal (or neither): take the nearer, ties to an even digit
    scaled_value.shift_left(1);
    const int cmp = compare(scaled_value, scale);
    round_down = cmp < 0 || (cmp == 0 && (digit & 1) == 0);
  }
  if (round_down) {
    out.digits.push_back(static_cast<char>('0' + digit));
  } else if (digit < 9) {
    out.digits.push_back(static_cast<char>('0' + digit + 1));
  } else {
    // Carry through trailing nines; all nines become a 1 one decade up.
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits.assign(1, '1');
      out.exponent += 1;
    } else {
      out.digits.back() += 1;
    }
  }
  return out;
}

std::string sign_prefix(const float_bits& x, const float_format_options& opt) {
  if (x.negative) return "-";
  return opt.sign ? "+" : "";
}

std::string format_non_finite(const float_bits& x, const float_format_options& opt) {
  if (x.is_nan) return "nan";
  return sign_prefix(x, opt) + "inf";
}

// Splits IEEE binary bits into value = mantissa * 2^exponent, as Dragon4 wants its input.
float_bits decompose_ieee(std::uint64_t bits, int fraction_bits, int exponent_bits) {
  float_bits r;
  r.negative = ((bits >> (fraction_bits + exponent_bits)) & 1) != 0;
  const std::uint64_t frac = bits & ((std::uint64_t{1} << fraction_bits) - 1);
  const int exp_field = static_cast<int>((bits >> fraction_bits) & ((1u << exponent_bits) - 1));
  const int bias = (1 << (exponent_bits - 1)) - 1;
  if (exp_field == (1 << exponent_bits) - 1) {
    r.is_nan = frac != 0;
    r.is_inf = frac == 0;
  } else if (exp_field != 0) {
    r.mantissa = (std::uint64_t{1} << fraction_bits) | frac;
    r.exponent = exp_field - bias - fraction_bits;
    r.mantissa_bit = fraction_bits;
    // The float below is closer than the float above, except next to the subnormals.
    r.unequal_margins = exp_field != 1 && frac == 0;
  } else {
    r.mantissa = frac;
    r.exponent = 1 - bias - fraction_bits;
    r.mantissa_bit = frac ? std::bit_width(frac) - 1 : 0;
  }
  return r;
}

}  // namespace

float_bits decompose(double v) {
  return decompose_ieee(std::bit_cast<std::uint64_t>(v), 52, 11);
}
float_bits decompose(float v) {
  return decompose_ieee(std::bit_cast<std::uint32_t>(v), 23, 8);
}
float_bits decompose_half(std::uint16_t bits) {
  return decompose_ieee(bits, 10, 5);
}

float_bits decompose_bfloat16(std::uint16_t bits) {
  return decompose_ieee(bits, 7, 8);
}

float half_bits_to_float(std::uint16_t bits) {
  const float_bits b = decompose_half(bits);
  float mag;
  if (b.is_nan) {
    mag = std::numeric_limits<float>::quiet_NaN();
  } else if (b.is_inf) {
    mag = std::numeric_limits<float>::infinity();
  } else {
    mag = std::ldexp(static_cast<float>(b.mantissa), b.exponent);
  }
  return b.negative ? -mag : mag;
}

double round_to_half(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  const double mag = std::fabs(v);
  if (mag >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);
  int e = 0;
  std::frexp(mag, &e);                                             // mag = f * 2^e with f in [0.5, 1)
  const int quantum_exp = std::max(e - 1, -14) - 10;               // subnormals share the 2^-24 quantum
  const double q = std::nearbyint(std::ldexp(mag, -quantum_exp));  // ties to even in the default mode
  return std::copysign(std::ldexp(q, quantum_exp), v);
}

std::string format_positional(const float_bits& x, const float_format_options& opt) {
  if (x.is_nan || x.is_inf) return format_non_finite(x, opt);
  std::string out = sign_prefix(x, opt);
  const int has_sign = static_cast<int>(out.size());
  const digit_string d = generate_digits(x, opt.unique, !opt.fractional, opt.precision, opt.min_digits);
  const int num_digits = static_cast<int>(d.digits.size());

  int whole_digits = 1;
  int frac_digits = 0;
  if (d.exponent >= 0) {
    whole_digits = d.exponent + 1;
    if (num_digits <= whole_digits) {
      out += d.digits;
      out.append(static_cast<std::size_t>(whole_digits - num_digits), '0');
    } else {
      frac_digits = num_digits - whole_digits;
      out += d.digits.substr(0, static_cast<std::size_t>(whole_digits));
      out += '.';
      out += d.digits.substr(static_cast<std::size_t>(whole_digits));
    }
  } else {
    const int leading_zeros = -(d.exponent + 1);
    out += "0.";
    out.append(static_cast<std::size_t>(leading_zeros), '0');
    out += d.digits;
    frac_digits = leading_zeros + num_digits;
  }
  if (opt.trim != trim_mode::point_and_zeros && frac_digits == 0) out += '.';

  const int add_digits = opt.unique ? opt.min_digits : opt.precision;
  const int desired_frac = opt.fractional ? std::max(add_digits, 0) : add_digits - whole_digits;
  if (opt.trim == trim_mode::leave_one_zero) {
    if (frac_digits == 0) {
      out += '0';
      ++frac_digits;
    }
  } else if (opt.trim == trim_mode::keep && desired_frac > frac_digits) {
    out.append(static_cast<std::size_t>(desired_frac - frac_digits), '0');
    frac_digits = desired_frac;
  }
  if (opt.trim != trim_mode::keep && frac_digits > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --frac_digits;
    }
    if (out.back() == '.') {
      if (opt.trim == trim_mode::leave_one_zero) {
        out += '0';
        ++frac_digits;
      } else if (opt.trim == trim_mode::point_and_zeros) {
        out.pop_back();
      }
    }
  }
  if (opt.pad_right >= frac_digits) {
    if (opt.trim == trim_mode::point_and_zeros && frac_digits == 0) out += ' ';
    out.append(static_cast<std::size_t>(opt.pad_right - frac_digits), ' ');
  }
  if (opt.pad_left > whole_digits + has_sign) {
    out.insert(0, static_cast<std::size_t>(opt.pad_left - whole_digits - has_sign), ' ');
  }
  return out;
}

std::string format_scientific(const float_bits& x, const float_format_options& opt) {
  if (x.is_nan || x.is_inf) return format_non_finite(x, opt);
  std::string out;
  const std::string sign = sign_prefix(x, opt);
  const int left_chars = 1 + static_cast<int>(sign.size());
  if (opt.pad_left > left_chars) out.append(static_cast<std::size_t>(opt.pad_left - left_chars), ' ');
  out += sign;

  const digit_string d = generate_digits(x, opt.unique, true, opt.precision < 0 ? -1 : opt.precision + 1,
                                         opt.min_digits < 0 ? -1 : opt.min_digits + 1);
  out += d.digits[0];
  int frac_digits = static_cast<int>(d.digits.size()) - 1;
  if (frac_digits > 0) {
    out += '.';
    out += d.digits.substr(1);
  }
  if (opt.trim != trim_mode::point_and_zeros && frac_digits == 0) out += '.';

  const int add_digits = std::max(opt.unique ? opt.min_digits : opt.precision, 0);
  if (opt.trim == trim_mode::leave_one_zero) {
    if (frac_digits == 0) {
      out += '0';
      ++frac_digits;
    }
  } else if (opt.trim == trim_mode::keep && add_digits > frac_digits) {
    out.append(static_cast<std::size_t>(add_digits - frac_digits), '0');
    frac_digits = add_digits;
  }
  if (opt.trim != trim_mode::keep && frac_digits > 0) {
    while (out.back() == '0') out.pop_back();
    if (opt.trim == trim_mode::leave_one_zero && out.back() == '.') out += '0';
  }

  int exp = d.exponent;
  const int exp_digits = opt.exp_digits < 0 ? 2 : std::min(opt.exp_digits, 5);
  out += 'e';
  out += exp < 0 ? '-' : '+';
  std::string exp_str = std::to_string(exp < 0 ? -exp : exp);
  if (static_cast<int>(exp_str.size()) < exp_digits) {
    exp_str.insert(0, static_cast<std::size_t>(exp_digits) - exp_str.size(), '0');
  }
  out += exp_str;
  return out;
}

}  // namespace ndfuse::io
