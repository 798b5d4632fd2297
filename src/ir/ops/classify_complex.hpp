// Floating-point classification (bool and integer loops give the constant answers) and the complex
// part accessors. real and imag are not ufuncs in NumPy (np.real, np.imag); their `types` say what
// NumPy returns: the component's float dtype for complex input, the input dtype otherwise (imag of a
// real array is zeros).
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

struct isnan {
  static constexpr op_code code = op_code::op_code_isnan;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_isnan({0})";
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
  template <class T>
  static bool apply(T a) {
    if constexpr (is_complex_v<T>)
      return std::isnan(a.real()) || std::isnan(a.imag());
    else if constexpr (is_real_v<T>)
      return std::isnan(a);
    else
      return false;
  }
};

struct isinf {
  static constexpr op_code code = op_code::op_code_isinf;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_isinf({0})";
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
  template <class T>
  static bool apply(T a) {
    if constexpr (is_complex_v<T>)
      return std::isinf(a.real()) || std::isinf(a.imag());
    else if constexpr (is_real_v<T>)
      return std::isinf(a);
    else
      return false;
  }
};

struct isfinite {
  static constexpr op_code code = op_code::op_code_isfinite;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_isfinite({0})";
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
  template <class T>
  static bool apply(T a) {
    if constexpr (is_complex_v<T>)
      return std::isfinite(a.real()) && std::isfinite(a.imag());
    else if constexpr (is_real_v<T>)
      return std::isfinite(a);
    else
      return true;
  }
};

struct real {
  static constexpr op_code code = op_code::op_code_real;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_real({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d F->f D->d";
  template <class T>
  static auto apply(T a) {
    if constexpr (is_complex_v<T>)
      return a.real();
    else
      return a;
  }
};

struct imag {
  static constexpr op_code code = op_code::op_code_imag;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_imag({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d F->f D->d";
  template <class T>
  static auto apply(T a) {
    if constexpr (is_complex_v<T>)
      return a.imag();
    else
      return T{};
  }
};

struct conjugate {
  static constexpr op_code code = op_code::op_code_conjugate;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_conjugate({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_complex_v<T>)
      return std::conj(a);
    else
      return a;
  }
};

}  // namespace ndfuse::ir::ops
