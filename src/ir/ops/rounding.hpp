// Rounding ufuncs. NumPy 2 gives floor/ceil/trunc bool and integer loops that return the input
// unchanged; rint rounds half to even (the default rounding mode) and has complex loops.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

struct floor {
  static constexpr op_code code = op_code::op_code_floor;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_floor({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::floor(a);
    else
      return a;  // bool, integers (complex: no loop)
  }
};

struct ceil {
  static constexpr op_code code = op_code::op_code_ceil;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_ceil({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::ceil(a);
    else
      return a;
  }
};

struct trunc {
  static constexpr op_code code = op_code::op_code_trunc;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_trunc({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::trunc(a);
    else
      return a;
  }
};

struct rint {
  static constexpr op_code code = op_code::op_code_rint;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_rint({0})";
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_real_v<T>)
      return std::rint(a);
    else if constexpr (is_complex_v<T>)
      return {std::rint(a.real()), std::rint(a.imag())};
    else
      return a;  // no loop (integers go through a float dtype)
  }
};

}  // namespace ndfuse::ir::ops
