// The print options and NumPy's printing functions (include/ndfuse/printing.hpp) over the array
// layout of repr.cpp and the Dragon4 digits of float_format.cpp.
#include <cmath>
#include <cstring>
#include <mutex>
#include <ostream>

#include "io/float_format.hpp"
#include "io/repr.hpp"
#include "ndfuse/printing.hpp"

namespace ndfuse {

namespace {

std::mutex options_mutex;
print_options current_options;

io::trim_mode trim_of(std::string_view trim) {
  if (trim == "k") return io::trim_mode::keep;
  if (trim == ".") return io::trim_mode::zeros;
  if (trim == "0") return io::trim_mode::leave_one_zero;
  if (trim == "-") return io::trim_mode::point_and_zeros;
  throw value_error("format_float: trim must be one of 'k', '.', '0', '-', got '" + std::string(trim) + "'");
}

template <class F>
std::string positional(F x, std::optional<int> precision, bool unique, bool fractional, std::string_view trim,
                       bool sign, std::optional<int> pad_left, std::optional<int> pad_right,
                       std::optional<int> min_digits) {
  if (!unique && !precision)
    throw value_error("format_float_positional: precision must be given when unique is false");
  io::float_format_options o;
  o.unique = unique;
  o.fractional = fractional;
  o.precision = precision.value_or(-1);
  o.min_digits = min_digits.value_or(-1);
  o.sign = sign;
  o.trim = trim_of(trim);
  o.pad_left = pad_left.value_or(-1);
  o.pad_right = pad_right.value_or(-1);
  return io::format_positional(io::decompose(x), o);
}

template <class F>
std::string scientific(F x, std::optional<int> precision, bool unique, std::string_view trim, bool sign,
                       std::optional<int> pad_left, std::optional<int> exp_digits,
                       std::optional<int> min_digits) {
  if (!unique && !precision)
    throw value_error("format_float_scientific: precision must be given when unique is false");
  io::float_format_options o;
  o.unique = unique;
  o.precision = precision.value_or(-1);
  o.min_digits = min_digits.value_or(-1);
  o.sign = sign;
  o.trim = trim_of(trim);
  o.pad_left = pad_left.value_or(-1);
  o.exp_digits = exp_digits.value_or(-1);
  return io::format_scientific(io::decompose(x), o);
}

// A NumPy float scalar's str: positional between 1e-4 and 1e16 (and for 0), scientific beyond;
// trim_pos / trim_sci as NumPy's scalartypes.c passes them.
std::string float_scalar(const io::float_bits& b, double magnitude, io::trim_mode trim_pos,
                         io::trim_mode trim_sci, bool sign) {
  if (b.is_nan) return sign ? "+nan" : "nan";
  if (b.is_inf) return b.negative ? "-inf" : (sign ? "+inf" : "inf");
  io::float_format_options o;
  o.sign = sign;
  if (magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
    o.trim = trim_pos;
    return io::format_positional(b, o);
  }
  o.trim = trim_sci;
  return io::format_scientific(b, o);
}

// The bits and magnitude of element i of a real float dtype (or part i of a complex one).
std::pair<io::float_bits, double> float_at(const host_array& h, std::size_t i) {
  switch (h.dtype) {
    case dtype::float16: {
      const auto bits = h.raw<std::uint16_t>(i);
      return {io::decompose_half(bits), std::fabs(io::half_bits_to_float(bits))};
    }
    case dtype::bfloat16: {
      const auto bits = h.raw<std::uint16_t>(i);
      std::uint32_t u = static_cast<std::uint32_t>(bits) << 16;
      float f;
      std::memcpy(&f, &u, sizeof f);
      return {io::decompose_bfloat16(bits), std::fabs(f)};
    }
    case dtype::float32:
    case dtype::complex64: {
      const float f = h.raw<float>(i);
      return {io::decompose(f), std::fabs(f)};
    }
    default: {
      const double d = h.raw<double>(i);
      return {io::decompose(d), std::fabs(d)};
    }
  }
}

// str() of the one element of a 0-d array, as NumPy's scalar types print.
std::string scalar_str(const host_array& h) {
  using io::trim_mode;
  switch (h.dtype) {
    case dtype::bool_:
      return h.bytes[0] != std::byte{0} ? "True" : "False";
    case dtype::int8:
      return std::to_string(h.raw<std::int8_t>(0));
    case dtype::int16:
      return std::to_string(h.raw<std::int16_t>(0));
    case dtype::int32:
      return std::to_string(h.raw<std::int32_t>(0));
    case dtype::int64:
      return std::to_string(h.raw<std::int64_t>(0));
    case dtype::uint8:
      return std::to_string(h.raw<std::uint8_t>(0));
    case dtype::uint16:
      return std::to_string(h.raw<std::uint16_t>(0));
    case dtype::uint32:
      return std::to_string(h.raw<std::uint32_t>(0));
    case dtype::uint64:
      return std::to_string(h.raw<std::uint64_t>(0));
    case dtype::complex64:
    case dtype::complex128: {
      const auto [re, re_mag] = float_at(h, 0);
      const auto [im, im_mag] = float_at(h, 1);
      const trim_mode t = trim_mode::point_and_zeros;
      // A real part of +0 prints as a pure imaginary number.
      if (!re.is_nan && !re.is_inf && re_mag == 0 && !re.negative)
        return float_scalar(im, im_mag, t, t, false) + "j";
      std::string out = "(";
      out += float_scalar(re, re_mag, t, t, false);
      out += float_scalar(im, im_mag, t, t, true);
      return out + "j)";
    }
    default: {
      const auto [b, mag] = float_at(h, 0);
      return float_scalar(b, mag, trim_mode::leave_one_zero, trim_mode::point_and_zeros, false);
    }
  }
}

// A Python scalar as repr() prints it inside a list.
std::string python_repr(const scalar& v) {
  using io::trim_mode;
  switch (v.kind) {
    case dtype_kind::bool_:
      return v.b ? "True" : "False";
    case dtype_kind::int_:
      return v.is_big_unsigned ? std::to_string(v.u) : std::to_string(v.i);
    case dtype_kind::float_: {
      const double d = v.c.real();
      return float_scalar(io::decompose(d), std::fabs(d), trim_mode::leave_one_zero,
                          trim_mode::point_and_zeros, false);
    }
    case dtype_kind::complex: {
      const double re = v.c.real(), im = v.c.imag();
      const trim_mode t = trim_mode::point_and_zeros;
      const io::float_bits rb = io::decompose(re), ib = io::decompose(im);
      if (re == 0 && !std::signbit(re)) return float_scalar(ib, std::fabs(im), t, t, false) + "j";
      std::string out = "(";
      out += float_scalar(rb, std::fabs(re), t, t, false);
      out += float_scalar(ib, std::fabs(im), t, t, true);
      return out + "j)";
    }
  }
  return "?";
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const nested_list& l) {
  if (l.value) return os << python_repr(*l.value);
  os << '[';
  for (std::size_t i = 0; i < l.items.size(); ++i) os << (i ? ", " : "") << l.items[i];
  return os << ']';
}

print_options get_printoptions() {
  std::lock_guard lock(options_mutex);
  return current_options;
}

void set_printoptions(const print_options& options) {
  if (options.precision < 0) throw value_error("set_printoptions: precision must be >= 0");
  if (options.threshold < 0) throw value_error("set_printoptions: threshold must be >= 0");
  if (options.edgeitems < 0) throw value_error("set_printoptions: edgeitems must be >= 0");
  if (options.linewidth < 1) throw value_error("set_printoptions: linewidth must be >= 1");
  std::lock_guard lock(options_mutex);
  current_options = options;
}

printoptions::printoptions(const print_options& options) : saved_(get_printoptions()) {
  set_printoptions(options);
}

printoptions::~printoptions() {
  std::lock_guard lock(options_mutex);
  current_options = saved_;
}

std::string array_repr(const array& a) {
  return repr(a);
}

std::string array_str(const array& a) {
  const host_array h = a.to_host();
  if (h.shape.empty()) return scalar_str(h);
  const print_options o = get_printoptions();
  return io::format_elements(h, o, " ", 0, o.linewidth);
}

std::string str(const array& a) {
  return array_str(a);
}

std::string array2string(const array& a, std::optional<std::int64_t> max_line_width,
                         std::optional<int> precision, std::optional<bool> suppress_small,
                         std::string_view separator, std::string_view prefix) {
  print_options o = get_printoptions();
  if (max_line_width) o.linewidth = *max_line_width;
  if (precision) o.precision = *precision;
  if (suppress_small) o.suppress = *suppress_small;
  if (o.precision < 0) throw value_error("array2string: precision must be >= 0");
  return io::format_elements(a.to_host(), o, separator, prefix.size(), o.linewidth);
}

std::string format_float_positional(double x, std::optional<int> precision, bool unique, bool fractional,
                                    std::string_view trim, bool sign, std::optional<int> pad_left,
                                    std::optional<int> pad_right, std::optional<int> min_digits) {
  return positional(x, precision, unique, fractional, trim, sign, pad_left, pad_right, min_digits);
}

std::string format_float_positional(float x, std::optional<int> precision, bool unique, bool fractional,
                                    std::string_view trim, bool sign, std::optional<int> pad_left,
                                    std::optional<int> pad_right, std::optional<int> min_digits) {
  return positional(x, precision, unique, fractional, trim, sign, pad_left, pad_right, min_digits);
}

std::string format_float_scientific(double x, std::optional<int> precision, bool unique,
                                    std::string_view trim, bool sign, std::optional<int> pad_left,
                                    std::optional<int> exp_digits, std::optional<int> min_digits) {
  return scientific(x, precision, unique, trim, sign, pad_left, exp_digits, min_digits);
}

std::string format_float_scientific(float x, std::optional<int> precision, bool unique, std::string_view trim,
                                    bool sign, std::optional<int> pad_left, std::optional<int> exp_digits,
                                    std::optional<int> min_digits) {
  return scientific(x, precision, unique, trim, sign, pad_left, exp_digits, min_digits);
}

}  // namespace ndfuse
