// Comparison ufuncs. Complex numbers compare lexicographically (real part, then imaginary part)
// with NumPy's NaN rules: an ordering holds only when no part involved is NaN.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

namespace detail {

// NumPy's CGT/CGE/CLT/CLE: a difference in real parts decides only when neither imaginary part is
// NaN; equal real parts defer to the imaginary parts.
template <class R>
inline bool complex_less(std::complex<R> a, std::complex<R> b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() < b.imag());
}
template <class R>
inline bool complex_less_equal(std::complex<R> a, std::complex<R> b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) && !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() <= b.imag());
}

}  // namespace detail

struct equal {
  static constexpr op_code code = op_code::op_code_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_equal({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    return a == b;  // std::complex compares both parts
  }
};

struct not_equal {
  static constexpr op_code code = op_code::op_code_not_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_not_equal({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    return a != b;  // std::complex compares both parts
  }
};

struct less {
  static constexpr op_code code = op_code::op_code_less;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_less({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    if constexpr (is_complex_v<T>)
      return detail::complex_less(a, b);
    else
      return a < b;
  }
};

struct less_equal {
  static constexpr op_code code = op_code::op_code_less_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_less_equal({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    if constexpr (is_complex_v<T>)
      return detail::complex_less_equal(a, b);
    else
      return a <= b;
  }
};

struct greater {
  static constexpr op_code code = op_code::op_code_greater;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_greater({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    if constexpr (is_complex_v<T>)
      return detail::complex_less(b, a);
    else
      return a > b;
  }
};

struct greater_equal {
  static constexpr op_code code = op_code::op_code_greater_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_greater_equal({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
  template <class T>
  static bool apply(T a, T b) {
    if constexpr (is_complex_v<T>)
      return detail::complex_less_equal(b, a);
    else
      return a >= b;
  }
};

}  // namespace ndfuse::ir::ops
