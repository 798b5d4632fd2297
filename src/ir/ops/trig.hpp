// Trigonometric and hyperbolic ufuncs. Real loops call the C library (float16 through float32);
// complex loops call the C99 c* functions through std::complex, as NumPy's npy_c* do on glibc.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

struct sin {
  static constexpr op_code code = op_code::op_code_sin;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_sin({0})";
  static constexpr std::string_view types = "e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::sin(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct cos {
  static constexpr op_code code = op_code::op_code_cos;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_cos({0})";
  static constexpr std::string_view types = "e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::cos(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct tan {
  static constexpr op_code code = op_code::op_code_tan;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_tan({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::tan(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arcsin {
  static constexpr op_code code = op_code::op_code_arcsin;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arcsin({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::asin(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arccos {
  static constexpr op_code code = op_code::op_code_arccos;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arccos({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::acos(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arctan {
  static constexpr op_code code = op_code::op_code_arctan;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arctan({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::atan(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct sinh {
  static constexpr op_code code = op_code::op_code_sinh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_sinh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::sinh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct cosh {
  static constexpr op_code code = op_code::op_code_cosh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_cosh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::cosh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct tanh {
  static constexpr op_code code = op_code::op_code_tanh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_tanh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::tanh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arcsinh {
  static constexpr op_code code = op_code::op_code_arcsinh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arcsinh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::asinh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arccosh {
  static constexpr op_code code = op_code::op_code_arccosh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arccosh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::acosh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arctanh {
  static constexpr op_code code = op_code::op_code_arctanh;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_arctanh({0})";
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T> || is_complex_v<T>)
      return std::atanh(a);
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

struct arctan2 {
  static constexpr op_code code = op_code::op_code_arctan2;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_arctan2({0}, {1})";
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_real_v<T>)
      return std::atan2(a, b);
    else
      return a;  // no loop (integers, complex)
  }
};

struct hypot {
  static constexpr op_code code = op_code::op_code_hypot;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_hypot({0}, {1})";
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_real_v<T>)
      return std::hypot(a, b);
    else
      return a;  // no loop (integers, complex)
  }
};

}  // namespace ndfuse::ir::ops
