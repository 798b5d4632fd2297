// Elementwise extrema. maximum/minimum propagate NaN, fmax/fmin ignore it (NaN only when both are).
// Real loops follow NumPy's SIMD loops, which pick the second argument when the two compare equal
// (so maximum(0.0, -0.0) is -0.0). Complex values order lexicographically as in comparison.hpp.
#pragma once
#include "ir/ops/comparison.hpp"

namespace ndfuse::ir::ops {

namespace detail {

template <class T>
inline bool has_nan(T a) {
  if constexpr (is_complex_v<T>)
    return std::isnan(a.real()) || std::isnan(a.imag());
  else if constexpr (is_real_v<T>)
    return std::isnan(a);
  else
    return false;
}

}  // namespace detail

struct maximum {
  static constexpr op_code code = op_code::op_code_maximum;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_maximum({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a || b;
    else if constexpr (is_complex_v<T>)
      return detail::has_nan(a) || detail::complex_less_equal(b, a) ? a : b;
    else if constexpr (is_real_v<T>)
      return (a > b || std::isnan(a)) ? a : b;
    else
      return a > b ? a : b;
  }
};

struct minimum {
  static constexpr op_code code = op_code::op_code_minimum;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_minimum({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a && b;
    else if constexpr (is_complex_v<T>)
      return detail::has_nan(a) || detail::complex_less_equal(a, b) ? a : b;
    else if constexpr (is_real_v<T>)
      return (a < b || std::isnan(a)) ? a : b;
    else
      return a < b ? a : b;
  }
};

struct fmax {
  static constexpr op_code code = op_code::op_code_fmax;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_fmax({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a || b;
    else if constexpr (is_complex_v<T>)
      return detail::has_nan(b) || detail::complex_less_equal(b, a) ? a : b;
    else if constexpr (is_real_v<T>)
      return (a > b || std::isnan(b)) ? a : b;
    else
      return a > b ? a : b;
  }
};

struct fmin {
  static constexpr op_code code = op_code::op_code_fmin;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_fmin({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a && b;
    else if constexpr (is_complex_v<T>)
      return detail::has_nan(b) || detail::complex_less_equal(a, b) ? a : b;
    else if constexpr (is_real_v<T>)
      return (a < b || std::isnan(b)) ? a : b;
    else
      return a < b ? a : b;
  }
};

}  // namespace ndfuse::ir::ops
