// dtype facts and NumPy 2 promotion (NEP 50). Promotion is derived from safe casting, as NumPy's
// promote_types is: the first dtype in NumPy's order that both operands cast to safely.
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <string>

#include "ndfuse/dtype.hpp"

#include "ir/host_types.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse {

namespace {

constexpr std::array<std::string_view, dtype_count> dtype_names = {
    "bool",   "int8",    "int16",   "int32",   "int64",     "uint8",      "uint16",  "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128", "bfloat16"};
constexpr std::array<std::size_t, dtype_count> dtype_sizes = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16, 2};

int index(dtype t) {
  return static_cast<int>(t);
}

// Width in bits of the integer dtypes; float precision ranks for the rest.
int int_bits(dtype t) {
  return static_cast<int>(itemsize(t) * 8);
}

// NumPy's same_kind order: bool < unsigned < signed < float < complex.
int same_kind_rank(dtype t) {
  if (t == dtype::bool_) return 0;
  if (is_unsigned_integer(t)) return 1;
  if (is_signed_integer(t)) return 2;
  if (is_floating(t)) return 3;
  return 4;
}

// The smallest float that holds every value of an integer dtype exactly (NumPy's safe casts).
dtype float_for_int(dtype t) {
  int bits = int_bits(t);
  if (bits <= 8) return dtype::float16;
  if (bits <= 16) return dtype::float32;
  return dtype::float64;
}

bool safe_cast(dtype from, dtype to) {
  if (from == to || from == dtype::bool_) return true;
  if (to == dtype::bool_) return false;
  // bfloat16 (8 significant bits, float32's exponent) holds int8 and uint8 exactly, and float32
  // holds it; float16 and bfloat16 each have values the other lacks.
  if (to == dtype::bfloat16) return from == dtype::int8 || from == dtype::uint8;
  if (from == dtype::bfloat16) return is_complex(to) || (is_floating(to) && itemsize(to) >= 4);
  if (is_signed_integer(from)) {
    if (is_signed_integer(to)) return int_bits(to) >= int_bits(from);
    if (is_unsigned_integer(to)) return false;
  } else if (is_unsigned_integer(from)) {
    if (is_unsigned_integer(to)) return int_bits(to) >= int_bits(from);
    if (is_signed_integer(to)) return int_bits(to) > int_bits(from);
  }
  if (is_integer(from)) {
    dtype f = float_for_int(from);
    if (is_floating(to)) return itemsize(to) >= itemsize(f);
    return itemsize(to) >= 2 * std::max<std::size_t>(itemsize(f), 4);  // complex64 holds float32 parts
  }
  if (is_floating(from)) {
    if (is_floating(to)) return itemsize(to) >= itemsize(from);
    if (is_complex(to)) return itemsize(to) >= 2 * std::max<std::size_t>(itemsize(from), 4);
    return false;
  }
  // complex
  return is_complex(to) && itemsize(to) >= itemsize(from);
}

// NumPy's order of candidate results for promote_types.
constexpr std::array<dtype, dtype_count> promotion_order = {
    dtype::bool_,    dtype::int8,    dtype::uint8,   dtype::int16,     dtype::uint16,
    dtype::int32,    dtype::uint32,  dtype::int64,   dtype::uint64,    dtype::float16,
    dtype::bfloat16, dtype::float32, dtype::float64, dtype::complex64, dtype::complex128};

}  // namespace

std::string_view dtype_name(dtype t) {
  return dtype_names.at(index(t));
}
std::ostream& operator<<(std::ostream& os, dtype t) {
  return os << dtype_name(t);
}

namespace {

// numpy.dtype()'s spellings of the supported dtypes on a 64-bit little-endian machine: type
// names, aliases, one-letter codes and kind+size codes (a byte-order prefix is read apart).
const std::pair<std::string_view, dtype> dtype_spellings[] = {{"bool", dtype::bool_},
                                                              {"bool_", dtype::bool_},
                                                              {"?", dtype::bool_},
                                                              {"b1", dtype::bool_},
                                                              {"int8", dtype::int8},
                                                              {"byte", dtype::int8},
                                                              {"b", dtype::int8},
                                                              {"i1", dtype::int8},
                                                              {"int16", dtype::int16},
                                                              {"short", dtype::int16},
                                                              {"h", dtype::int16},
                                                              {"i2", dtype::int16},
                                                              {"int32", dtype::int32},
                                                              {"intc", dtype::int32},
                                                              {"i", dtype::int32},
                                                              {"i4", dtype::int32},
                                                              {"int64", dtype::int64},
                                                              {"int", dtype::int64},
                                                              {"int_", dtype::int64},
                                                              {"long", dtype::int64},
                                                              {"longlong", dtype::int64},
                                                              {"intp", dtype::int64},
                                                              {"l", dtype::int64},
                                                              {"q", dtype::int64},
                                                              {"p", dtype::int64},
                                                              {"n", dtype::int64},
                                                              {"i8", dtype::int64},
                                                              {"uint8", dtype::uint8},
                                                              {"ubyte", dtype::uint8},
                                                              {"B", dtype::uint8},
                                                              {"u1", dtype::uint8},
                                                              {"uint16", dtype::uint16},
                                                              {"ushort", dtype::uint16},
                                                              {"H", dtype::uint16},
                                                              {"u2", dtype::uint16},
                                                              {"uint32", dtype::uint32},
                                                              {"uintc", dtype::uint32},
                                                              {"I", dtype::uint32},
                                                              {"u4", dtype::uint32},
                                                              {"uint64", dtype::uint64},
                                                              {"uint", dtype::uint64},
                                                              {"ulong", dtype::uint64},
                                                              {"ulonglong", dtype::uint64},
                                                              {"uintp", dtype::uint64},
                                                              {"L", dtype::uint64},
                                                              {"Q", dtype::uint64},
                                                              {"P", dtype::uint64},
                                                              {"N", dtype::uint64},
                                                              {"u8", dtype::uint64},
                                                              {"float16", dtype::float16},
                                                              {"half", dtype::float16},
                                                              {"e", dtype::float16},
                                                              {"f2", dtype::float16},
                                                              {"float32", dtype::float32},
                                                              {"single", dtype::float32},
                                                              {"f", dtype::float32},
                                                              {"f4", dtype::float32},
                                                              {"float64", dtype::float64},
                                                              {"float", dtype::float64},
                                                              {"double", dtype::float64},
                                                              {"d", dtype::float64},
                                                              {"f8", dtype::float64},
                                                              {"complex64", dtype::complex64},
                                                              {"csingle", dtype::complex64},
                                                              {"F", dtype::complex64},
                                                              {"c8", dtype::complex64},
                                                              {"complex128", dtype::complex128},
                                                              {"complex", dtype::complex128},
                                                              {"cdouble", dtype::complex128},
                                                              {"D", dtype::complex128},
                                                              {"c16", dtype::complex128},
                                                              {"bfloat16", dtype::bfloat16},
                                                              {"bf16", dtype::bfloat16}};

}  // namespace

dtype dtype_from_name(std::string_view name) {
  std::string_view code = name;
  // A byte-order mark before a code: '<', '=' and '|' are this machine's order; '>' is not, but
  // for one-byte types.
  const bool big_endian = code.size() > 1 && code[0] == '>';
  if (code.size() > 1 && (code[0] == '<' || code[0] == '=' || code[0] == '|' || big_endian))
    code.remove_prefix(1);
  for (const auto& [spelling, t] : dtype_spellings) {
    if (spelling != code) continue;
    if (big_endian && itemsize(t) > 1)
      throw dtype_error("data type '" + std::string(name) + "': big-endian data is not supported");
    return t;
  }
  throw dtype_error("data type '" + std::string(name) + "' not understood (or not supported)");
}

std::size_t itemsize(dtype t) {
  return dtype_sizes.at(index(t));
}

dtype_kind kind_of(dtype t) {
  if (t == dtype::bool_) return dtype_kind::bool_;
  if (is_integer(t)) return dtype_kind::int_;
  if (is_floating(t)) return dtype_kind::float_;
  return dtype_kind::complex;
}
bool is_signed_integer(dtype t) {
  return t >= dtype::int8 && t <= dtype::int64;
}
bool is_unsigned_integer(dtype t) {
  return t >= dtype::uint8 && t <= dtype::uint64;
}
bool is_integer(dtype t) {
  return is_signed_integer(t) || is_unsigned_integer(t);
}
bool is_floating(dtype t) {
  return (t >= dtype::float16 && t <= dtype::float64) || t == dtype::bfloat16;
}
bool is_complex(dtype t) {
  return t == dtype::complex64 || t == dtype::complex128;
}

dtype promote_types(dtype a, dtype b) {
  for (dtype c : promotion_order)
    if (safe_cast(a, c) && safe_cast(b, c)) return c;
  return dtype::complex128;  // unreachable: everything casts safely to complex128 except nothing
}

// Type resolution asks this for every candidate loop of every op built: a table, not the rules.
const std::array<std::array<bool, dtype_count>, dtype_count>& safe_table() {
  static const auto table = [] {
    std::array<std::array<bool, dtype_count>, dtype_count> t{};
    for (int f = 0; f < dtype_count; ++f)
      for (int to = 0; to < dtype_count; ++to)
        t[f][to] = safe_cast(static_cast<dtype>(f), static_cast<dtype>(to));
    return t;
  }();
  return table;
}

bool can_cast(dtype from, dtype to, casting rule) {
  if (rule == casting::safe) return safe_table()[index(from)][index(to)];
  switch (rule) {
    case casting::no:
    case casting::equiv:
      return from == to;
    case casting::safe:
      return safe_cast(from, to);
    case casting::same_kind:
      return safe_cast(from, to) || same_kind_rank(from) <= same_kind_rank(to);
    case casting::unsafe:
      return true;
  }
  return false;
}

dtype weak_promote(dtype t, dtype_kind kind) {
  if (static_cast<int>(kind_of(t)) >= static_cast<int>(kind)) return t;
  switch (kind) {
    case dtype_kind::bool_:
      return t;
    case dtype_kind::int_:
      return dtype::int64;
    case dtype_kind::float_:
      return dtype::float64;
    case dtype_kind::complex:
      if (t == dtype::float16 || t == dtype::bfloat16 || t == dtype::float32) return dtype::complex64;
      return dtype::complex128;
  }
  return t;
}

namespace {

// A double rounded to t's precision and widened back (resolution is stored in the dtype, as NumPy's).
double in_dtype(double v, dtype t) {
  switch (t) {
    case dtype::float16:
      return ir::half_to_float(ir::double_to_half(v));
    case dtype::bfloat16:
      return static_cast<float>(bfloat16_t(static_cast<float>(v)));
    case dtype::float32:
      return static_cast<float>(v);
    default:
      return v;
  }
}

}  // namespace

finfo::finfo(ndfuse::dtype t) {
  if (t == ndfuse::dtype::complex64) t = ndfuse::dtype::float32;
  if (t == ndfuse::dtype::complex128) t = ndfuse::dtype::float64;
  if (!is_floating(t)) throw value_error("finfo: data type " + std::string(dtype_name(t)) + " not inexact");
  dtype = t;
  // IEEE binary formats: the exponent and mantissa widths decide everything else.
  nmant = t == ndfuse::dtype::float16    ? 10
          : t == ndfuse::dtype::bfloat16 ? 7
          : t == ndfuse::dtype::float32  ? 23
                                         : 52;
  nexp = t == ndfuse::dtype::float16 ? 5 : t == ndfuse::dtype::float64 ? 11 : 8;
  bits = 1 + nexp + nmant;
  iexp = nexp;
  machep = -nmant;
  negep = -nmant - 1;
  maxexp = 1 << (nexp - 1);
  minexp = 2 - maxexp;
  eps = std::ldexp(1.0, machep);
  epsneg = std::ldexp(1.0, negep);
  max = std::ldexp(2.0 - eps, maxexp - 1);
  min = -max;
  tiny = smallest_normal = std::ldexp(1.0, minexp);
  smallest_subnormal = std::ldexp(1.0, minexp - nmant);
  precision = static_cast<int>(std::floor(nmant * std::log10(2.0)));
  // 10**-precision, correctly rounded (std::pow need not be) and then stored in the dtype.
  resolution = in_dtype(std::strtod(("1e-" + std::to_string(precision)).c_str(), nullptr), t);
}

iinfo::iinfo(ndfuse::dtype t) {
  if (!is_integer(t))
    throw value_error("iinfo: Invalid integer data type '" + std::string(dtype_name(t)) + "'.");
  dtype = t;
  bits = static_cast<int>(itemsize(t) * 8);
  if (is_signed_integer(t)) {
    min = bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
    max = (std::uint64_t{1} << (bits - 1)) - 1;
  } else {
    min = 0;
    max = bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
  }
}

}  // namespace ndfuse
