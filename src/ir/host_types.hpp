// Host element types per dtype: how a value is stored, and the type host code computes it in (the
// CPU backend's reductions accumulate in it). float16 is stored as its bits and computed in float32,
// as NumPy does.
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>

#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

template <dtype D>
struct storage_of;
template <>
struct storage_of<dtype::bool_> {
  using type = bool;
};
template <>
struct storage_of<dtype::int8> {
  using type = std::int8_t;
};
template <>
struct storage_of<dtype::int16> {
  using type = std::int16_t;
};
template <>
struct storage_of<dtype::int32> {
  using type = std::int32_t;
};
template <>
struct storage_of<dtype::int64> {
  using type = std::int64_t;
};
template <>
struct storage_of<dtype::uint8> {
  using type = std::uint8_t;
};
template <>
struct storage_of<dtype::uint16> {
  using type = std::uint16_t;
};
template <>
struct storage_of<dtype::uint32> {
  using type = std::uint32_t;
};
template <>
struct storage_of<dtype::uint64> {
  using type = std::uint64_t;
};
template <>
struct storage_of<dtype::float16> {
  using type = float16_t;
};
template <>
struct storage_of<dtype::float32> {
  using type = float;
};
template <>
struct storage_of<dtype::float64> {
  using type = double;
};
template <>
struct storage_of<dtype::complex64> {
  using type = std::complex<float>;
};
template <>
struct storage_of<dtype::complex128> {
  using type = std::complex<double>;
};
template <>
struct storage_of<dtype::bfloat16> {
  using type = bfloat16_t;
};
template <dtype D>
using storage_t = typename storage_of<D>::type;

// The 16-bit floats, stored as bits and computed in float32.
template <dtype D>
inline constexpr bool narrow_float_v = D == dtype::float16 || D == dtype::bfloat16;

template <dtype D>
using compute_t = std::conditional_t<narrow_float_v<D>, float, storage_t<D>>;

template <class T>
struct is_complex_t : std::false_type {};
template <class T>
struct is_complex_t<std::complex<T>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex_t<T>::value;

// IEEE binary16 <-> binary32 with round-to-nearest-even (the conversions NumPy's npy_half uses).
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);
std::uint16_t double_to_half(double d);  // rounds once, directly from double, as NumPy's casts do
// bfloat16: the upper half of a float32's bits, rounded to nearest even (NaN stays NaN).
float bfloat16_to_float(std::uint16_t b);
std::uint16_t float_to_bfloat16(float f);
std::uint16_t double_to_bfloat16(double d);  // rounds once, directly from double

template <dtype D>
inline compute_t<D> to_compute(storage_t<D> v) {
  if constexpr (D == dtype::float16)
    return half_to_float(v.bits);
  else if constexpr (D == dtype::bfloat16)
    return bfloat16_to_float(v.bits);
  else
    return v;
}
template <dtype D>
inline storage_t<D> to_storage(compute_t<D> v) {
  if constexpr (D == dtype::float16) {
    float16_t h;
    h.bits = float_to_half(v);
    return h;
  } else if constexpr (D == dtype::bfloat16) {
    bfloat16_t b;
    b.bits = float_to_bfloat16(v);
    return b;
  } else {
    return v;
  }
}

}  // namespace ndfuse::ir
