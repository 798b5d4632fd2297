// The dtype enum, NumPy 2 (NEP 50) promotion and casting rules, and host element types.
#pragma once
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <string_view>
#include <type_traits>

namespace ndfuse {

// Order matters: it is the registry's dtype index and the order of dtype lists in tests.
enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
  complex64,
  complex128,
  // Last, so the NumPy dtypes keep their indices. Not a NumPy dtype: promotion follows ml_dtypes'
  // safe casts (bool, int8 and uint8 cast to it; it casts to float32 and wider), so it pairs with
  // float16 and int16 in float32, as NumPy pairs float16 with int16.
  bfloat16,
};
inline constexpr int dtype_count = 15;

inline constexpr dtype bool_ = dtype::bool_;
inline constexpr dtype int8 = dtype::int8;
inline constexpr dtype int16 = dtype::int16;
inline constexpr dtype int32 = dtype::int32;
inline constexpr dtype int64 = dtype::int64;
inline constexpr dtype uint8 = dtype::uint8;
inline constexpr dtype uint16 = dtype::uint16;
inline constexpr dtype uint32 = dtype::uint32;
inline constexpr dtype uint64 = dtype::uint64;
inline constexpr dtype float16 = dtype::float16;
inline constexpr dtype float32 = dtype::float32;
inline constexpr dtype float64 = dtype::float64;
inline constexpr dtype complex64 = dtype::complex64;
inline constexpr dtype complex128 = dtype::complex128;
inline constexpr dtype bfloat16 = dtype::bfloat16;

// The kind of a value: NEP 50 orders weak Python-like scalars by kind alone.
enum class dtype_kind : std::uint8_t { bool_, int_, float_, complex };

std::string_view dtype_name(dtype t);
std::ostream& operator<<(std::ostream& os, dtype t);
// numpy.dtype(name) for the supported dtypes: "float32", "f", "<f4", "single", "intp", ...;
// dtype_error for other names, unsupported dtypes and big-endian data.
dtype dtype_from_name(std::string_view name);

std::size_t itemsize(dtype t);
dtype_kind kind_of(dtype t);
bool is_integer(dtype t);  // signed or unsigned, not bool
bool is_signed_integer(dtype t);
bool is_unsigned_integer(dtype t);
bool is_floating(dtype t);
bool is_complex(dtype t);
inline bool is_inexact(dtype t) {
  return is_floating(t) || is_complex(t);
}

// np.promote_types
dtype promote_types(dtype a, dtype b);

enum class casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };
// np.can_cast(from, to, casting)
bool can_cast(dtype from, dtype to, casting rule = casting::safe);

// The dtype a weak (C++ arithmetic) scalar of `kind` takes when combined with an array of dtype `t`.
dtype weak_promote(dtype t, dtype_kind kind);

// Host storage of float16: IEEE binary16 bits. Arithmetic happens in float32, as NumPy does.
struct float16_t {
  std::uint16_t bits = 0;
  float16_t() = default;
  explicit float16_t(float f);
  explicit operator float() const;
};

// Host storage of bfloat16: the upper 16 bits of a float32. Arithmetic happens in float32 and rounds
// once per op (to nearest even), as ml_dtypes, JAX and PyTorch do.
struct bfloat16_t {
  std::uint16_t bits = 0;
  bfloat16_t() = default;
  explicit bfloat16_t(float f);
  explicit operator float() const;
  static bfloat16_t from_bits(std::uint16_t b) {
    bfloat16_t x;
    x.bits = b;
    return x;
  }
};

template <class T>
struct dtype_of_t;
#define NDFUSE_DTYPE_OF(T, D)         \
  template <>                         \
  struct dtype_of_t<T> {              \
    static constexpr dtype value = D; \
  }
NDFUSE_DTYPE_OF(bool, dtype::bool_);
NDFUSE_DTYPE_OF(std::int8_t, dtype::int8);
NDFUSE_DTYPE_OF(std::int16_t, dtype::int16);
NDFUSE_DTYPE_OF(std::int32_t, dtype::int32);
NDFUSE_DTYPE_OF(long, dtype::int64);
NDFUSE_DTYPE_OF(long long, dtype::int64);
NDFUSE_DTYPE_OF(std::uint8_t, dtype::uint8);
NDFUSE_DTYPE_OF(std::uint16_t, dtype::uint16);
NDFUSE_DTYPE_OF(std::uint32_t, dtype::uint32);
NDFUSE_DTYPE_OF(unsigned long, dtype::uint64);
NDFUSE_DTYPE_OF(unsigned long long, dtype::uint64);
NDFUSE_DTYPE_OF(float16_t, dtype::float16);
NDFUSE_DTYPE_OF(bfloat16_t, dtype::bfloat16);
NDFUSE_DTYPE_OF(float, dtype::float32);
NDFUSE_DTYPE_OF(double, dtype::float64);
NDFUSE_DTYPE_OF(std::complex<float>, dtype::complex64);
NDFUSE_DTYPE_OF(std::complex<double>, dtype::complex128);
#undef NDFUSE_DTYPE_OF
template <class T>
inline constexpr dtype dtype_of = dtype_of_t<T>::value;

template <class T>
concept element_type = requires {
  dtype_of_t<T>::value;
};

// A C++ scalar as NumPy sees a Python scalar: a value plus its kind, with no fixed width (weak).
struct scalar {
  dtype_kind kind = dtype_kind::float_;
  bool b = false;
  std::int64_t i = 0;   // int kind, when it fits
  std::uint64_t u = 0;  // int kind above INT64_MAX
  bool is_big_unsigned = false;
  std::complex<double> c;  // float and complex kinds

  scalar() = default;
  scalar(bool v) : kind(dtype_kind::bool_), b(v) {}
  template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) scalar(T v) : kind(dtype_kind::int_) {
    if constexpr (std::is_unsigned_v<T>) {
      if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX)) {
        is_big_unsigned = true;
        u = static_cast<std::uint64_t>(v);
        return;
      }
    }
    i = static_cast<std::int64_t>(v);
  }
  scalar(float v) : kind(dtype_kind::float_), c(v, 0.0) {}
  scalar(double v) : kind(dtype_kind::float_), c(v, 0.0) {}
  scalar(std::complex<float> v) : kind(dtype_kind::complex), c(v) {}
  scalar(std::complex<double> v) : kind(dtype_kind::complex), c(v) {}
};

// NumPy's finfo: the limits of a float dtype (a complex dtype's are its parts'; value_error for
// other dtypes). Values are the dtype's own, widened to double.
struct finfo {
  explicit finfo(ndfuse::dtype t);
  explicit finfo(std::string_view t) : finfo(dtype_from_name(t)) {}
  ndfuse::dtype dtype;  // the float dtype (float32 for complex64)
  int bits, precision, maxexp, minexp, nexp, nmant, machep, negep, iexp;
  double eps, epsneg, max, min, tiny, smallest_normal, smallest_subnormal, resolution;
};

// NumPy's iinfo: the range of an integer dtype (value_error for other dtypes, bool included).
struct iinfo {
  explicit iinfo(ndfuse::dtype t);
  explicit iinfo(std::string_view t) : iinfo(dtype_from_name(t)) {}
  ndfuse::dtype dtype;
  int bits;
  std::int64_t min;
  std::uint64_t max;
};

template <class T>
concept scalar_type = std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
    std::is_same_v<T, std::complex<double>>;

}  // namespace ndfuse
