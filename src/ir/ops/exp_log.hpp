// Exponentials, logarithms and roots. Real loops call the C library (float16 through float32, as
// NumPy's e->e loops do); complex loops use the C99 c* functions that NumPy's npy_c* wrap, plus
// NumPy's own formulas for exp2, expm1, log2, log10 and log1p of complex numbers.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

namespace detail {

// log(2), log2(e) and log10(e) rounded to R, as NumPy's NPY_LOGE2f / NPY_LOGE2 etc.
template <class R>
inline constexpr R ln2_v = std::is_same_v<R, float> ? R(0.693147180559945309417232121458176568F)
                                                    : R(0.693147180559945309417232121458176568);
template <class R>
inline constexpr R log2e_v = std::is_same_v<R, float> ? R(1.442695040888963407359924681001892137F)
                                                      : R(1.442695040888963407359924681001892137);
template <class R>
inline constexpr R log10e_v = std::is_same_v<R, float> ? R(0.434294481903251827651128918916605082F)
                                                       : R(0.434294481903251827651128918916605082);

// Complex log1p as NumPy 2.4 computes it: log|z + 1| + i arg(z + 1), through hypot and atan2 (no
// extra precision near |z + 1| = 1; later NumPy versions add it there).
template <class R>
inline std::complex<R> complex_log1p(std::complex<R> z) {
  const R x1 = z.real() + R(1), y = z.imag();
  return {std::log(std::hypot(x1, y)), std::atan2(y, x1)};
}

// glibc's log and log2 return -NaN for negative input, NumPy's float64 loops +NaN.
inline double positive_nan_below_zero(double x, double result) {
  return x < 0 ? std::numeric_limits<double>::quiet_NaN() : result;
}

}  // namespace detail

struct exp {
  static constexpr op_code code = op_code::op_code_exp;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_exp({0})";
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::exp(a);
    else
      return a;  // no loop (integers go through float64)
  }
};

struct exp2 {
  static constexpr op_code code = op_code::op_code_exp2;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_exp2({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>) {
      return std::exp2(a);
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      return std::exp(T(a.real() * detail::ln2_v<R>, a.imag() * detail::ln2_v<R>));
    } else {
      return a;
    }
  }
};

struct expm1 {
  static constexpr op_code code = op_code::op_code_expm1;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_expm1({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>) {
      return std::expm1(a);
    } else if constexpr (is_complex_v<T>) {
      // expm1(x) cos(y) - 2 sin^2(y/2) keeps precision for small |z|.
      using R = typename T::value_type;
      const R x = a.real(), y = a.imag();
      const R s = std::sin(y / 2);
      return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
    } else {
      return a;
    }
  }
};

struct log {
  static constexpr op_code code = op_code::op_code_log;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_log({0})";
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (std::is_same_v<T, double>)
      return detail::positive_nan_below_zero(a, std::log(a));
    else if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::log(a);
    else
      return a;
  }
};

struct log2 {
  static constexpr op_code code = op_code::op_code_log2;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_log2({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (std::is_same_v<T, double>) {
      return detail::positive_nan_below_zero(a, std::log2(a));
    } else if constexpr (is_real_v<T>) {
      return std::log2(a);
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const T l = std::log(a);
      return {l.real() * detail::log2e_v<R>, l.imag() * detail::log2e_v<R>};
    } else {
      return a;
    }
  }
};

struct log10 {
  static constexpr op_code code = op_code::op_code_log10;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_log10({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>) {
      return std::log10(a);
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const T l = std::log(a);
      return {l.real() * detail::log10e_v<R>, l.imag() * detail::log10e_v<R>};
    } else {
      return a;
    }
  }
};

struct log1p {
  static constexpr op_code code = op_code::op_code_log1p;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_log1p({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::log1p(a);
    else if constexpr (is_complex_v<T>)
      return detail::complex_log1p(a);
    else
      return a;
  }
};

struct sqrt {
  static constexpr op_code code = op_code::op_code_sqrt;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_sqrt({0})";
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::sqrt(a);
    else
      return a;
  }
};

struct cbrt {
  static constexpr op_code code = op_code::op_code_cbrt;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_cbrt({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::cbrt(a);
    else
      return a;  // no loop (integers, complex)
  }
};

}  // namespace ndfuse::ir::ops
