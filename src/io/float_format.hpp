// Decimal formatting of binary floats with the exact semantics of NumPy's dragon4_positional and
// dragon4_scientific (np.format_float_positional / np.format_float_scientific), which NumPy's array
// printing is built on. Digits come from the Steele-White / Burger-Dybvig algorithm on big integers,
// so "unique" output is the shortest string that round-trips, and cut-off output is correctly rounded.
#pragma once
#include <cstdint>
#include <string>

namespace ndfuse::io {

// value = mantissa * 2^exponent; mantissa_bit is the index of its highest set bit.
struct float_bits {
  bool negative = false;
  bool is_nan = false;
  bool is_inf = false;
  std::uint64_t mantissa = 0;
  int exponent = 0;
  int mantissa_bit = 0;
  bool unequal_margins = false;  // the gap to the next float below is half the gap above
};

float_bits decompose(double v);
float_bits decompose(float v);
float_bits decompose_half(std::uint16_t bits);
float_bits decompose_bfloat16(std::uint16_t bits);

float half_bits_to_float(std::uint16_t bits);
// Rounds to the nearest float16 value (ties to even), returned widened to double.
double round_to_half(double v);

// NumPy's trim argument: 'k', '.', '0', '-'.
enum class trim_mode { keep, zeros, leave_one_zero, point_and_zeros };

struct float_format_options {
  bool unique = true;
  bool fractional = true;  // positional only: precision counts digits after the point
  int precision = -1;      // -1: none
  int min_digits = -1;
  bool sign = false;  // always print the sign
  trim_mode trim = trim_mode::keep;
  int pad_left = -1;
  int pad_right = -1;   // positional only
  int exp_digits = -1;  // scientific only
};

std::string format_positional(const float_bits& x, const float_format_options& opt);
std::string format_scientific(const float_bits& x, const float_format_options& opt);

}  // namespace ndfuse::io
