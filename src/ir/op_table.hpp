// The op table: every elementwise op (a NumPy ufunc, or np.real / np.imag) with its NumPy metadata.
// An op's body is not here: it is the prelude function nf_<name> (jit/prelude/*.cuh), which NVRTC
// compiles for the GPU and the CPU backend compiles as host C++ (backend/cpu/prelude_host.hpp).
//
// Each entry: `code`, `arity`, `types` (NumPy 2's ufunc.types, in NumPy's order: the loops, from
// which the frontend resolves dtypes and each backend instantiates the body), and where NumPy's type
// resolver departs from the loops, `integer_inputs_as`, `all_inputs_as` or `bool_unsupported`.
// real and imag are not ufuncs in NumPy; their `types` say what NumPy returns (the component's
// float dtype for complex input, the input dtype otherwise).
#pragma once
#include <string_view>

#include "ir/op_code.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::ir::ops {

// --- Arithmetic ------------------------------------------------------------------------------

struct add {
  static constexpr op_code code = op_code::add;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F "
      "DD->D GG->G Mm->M mm->m mM->M OO->O";
};

struct subtract {
  static constexpr op_code code = op_code::subtract;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F DD->D "
      "GG->G Mm->M mm->m MM->m OO->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct multiply {
  static constexpr op_code code = op_code::multiply;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F "
      "DD->D GG->G mq->m qm->m md->m dm->m OO->O";
};

struct true_divide {
  static constexpr op_code code = op_code::true_divide;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "ee->e ff->f dd->d gg->g FF->F DD->D GG->G mq->m md->m mm->d OO->O";
  // NumPy's TrueDivisionTypeResolver: bool and integer inputs divide as float64, never float16.
  static constexpr dtype integer_inputs_as = dtype::float64;
};

struct floor_divide {
  static constexpr op_code code = op_code::floor_divide;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g mq->m md->m "
      "mm->q OO->O";
};

struct remainder {
  static constexpr op_code code = op_code::remainder;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g mm->m OO->O";
};

struct fmod {
  static constexpr op_code code = op_code::fmod;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g OO->O";
};

struct power {
  static constexpr op_code code = op_code::power;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d ee->e ff->f dd->d "
      "gg->g FF->F DD->D GG->G OO->O";
};

struct negative {
  static constexpr op_code code = op_code::negative;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->F D->D G->G O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct positive {
  static constexpr op_code code = op_code::positive;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->F D->D G->G O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct absolute {
  static constexpr op_code code = op_code::absolute;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->f D->d G->g "
      "O->O";
};

struct sign {
  static constexpr op_code code = op_code::sign;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G m->m O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct square {
  static constexpr op_code code = op_code::square;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct reciprocal {
  static constexpr op_code code = op_code::reciprocal;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
};

// --- Comparison ------------------------------------------------------------------------------

struct equal {
  static constexpr op_code code = op_code::equal;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

struct not_equal {
  static constexpr op_code code = op_code::not_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

struct less {
  static constexpr op_code code = op_code::less;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

struct less_equal {
  static constexpr op_code code = op_code::less_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

struct greater {
  static constexpr op_code code = op_code::greater;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

struct greater_equal {
  static constexpr op_code code = op_code::greater_equal;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ee->? ff->? "
      "dd->? gg->? FF->? DD->? GG->? MM->? mm->? OO->? OO->O";
};

// --- Logical and bitwise ---------------------------------------------------------------------

struct logical_and {
  static constexpr op_code code = op_code::logical_and;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
};

struct logical_or {
  static constexpr op_code code = op_code::logical_or;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
};

struct logical_xor {
  static constexpr op_code code = op_code::logical_xor;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
};

struct logical_not {
  static constexpr op_code code = op_code::logical_not;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "O->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
};

struct bitwise_and {
  static constexpr op_code code = op_code::bitwise_and;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
};

struct bitwise_or {
  static constexpr op_code code = op_code::bitwise_or;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
};

struct bitwise_xor {
  static constexpr op_code code = op_code::bitwise_xor;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
};

struct invert {
  static constexpr op_code code = op_code::invert;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q O->O";
};

struct left_shift {
  static constexpr op_code code = op_code::left_shift;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
};

struct right_shift {
  static constexpr op_code code = op_code::right_shift;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
};

// --- Exponentials, logarithms and roots ------------------------------------------------------

struct exp {
  static constexpr op_code code = op_code::exp;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
};

struct exp2 {
  static constexpr op_code code = op_code::exp2;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct expm1 {
  static constexpr op_code code = op_code::expm1;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct log {
  static constexpr op_code code = op_code::log;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
};

struct log2 {
  static constexpr op_code code = op_code::log2;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct log10 {
  static constexpr op_code code = op_code::log10;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct log1p {
  static constexpr op_code code = op_code::log1p;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct sqrt {
  static constexpr op_code code = op_code::sqrt;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
};

struct cbrt {
  static constexpr op_code code = op_code::cbrt;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g O->O";
};

// --- Trigonometric and hyperbolic ------------------------------------------------------------

struct sin {
  static constexpr op_code code = op_code::sin;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct cos {
  static constexpr op_code code = op_code::cos;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct tan {
  static constexpr op_code code = op_code::tan;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arcsin {
  static constexpr op_code code = op_code::arcsin;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arccos {
  static constexpr op_code code = op_code::arccos;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arctan {
  static constexpr op_code code = op_code::arctan;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct sinh {
  static constexpr op_code code = op_code::sinh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct cosh {
  static constexpr op_code code = op_code::cosh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct tanh {
  static constexpr op_code code = op_code::tanh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arcsinh {
  static constexpr op_code code = op_code::arcsinh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arccosh {
  static constexpr op_code code = op_code::arccosh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arctanh {
  static constexpr op_code code = op_code::arctanh;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d e->e f->f d->d g->g F->F D->D G->G O->O";
};

struct arctan2 {
  static constexpr op_code code = op_code::arctan2;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g OO->O";
};

struct hypot {
  static constexpr op_code code = op_code::hypot;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g OO->O";
};

// --- Rounding --------------------------------------------------------------------------------

struct logaddexp {
  static constexpr op_code code = op_code::logaddexp;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g";
};

struct logaddexp2 {
  static constexpr op_code code = op_code::logaddexp2;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g";
};

struct floor {
  static constexpr op_code code = op_code::floor;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
};

struct ceil {
  static constexpr op_code code = op_code::ceil;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
};

struct trunc {
  static constexpr op_code code = op_code::trunc;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d f->f d->d g->g O->O";
};

struct rint {
  static constexpr op_code code = op_code::rint;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d f->f d->d g->g F->F D->D G->G O->O";
};

// --- Extrema ---------------------------------------------------------------------------------

struct maximum {
  static constexpr op_code code = op_code::maximum;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
};

struct minimum {
  static constexpr op_code code = op_code::minimum;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
};

struct fmax {
  static constexpr op_code code = op_code::fmax;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
};

struct fmin {
  static constexpr op_code code = op_code::fmin;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g "
      "FF->F DD->D GG->G mm->m MM->M OO->O";
};

// --- Classification and complex parts --------------------------------------------------------

struct isnan {
  static constexpr op_code code = op_code::isnan;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
};

struct isinf {
  static constexpr op_code code = op_code::isinf;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
};

struct isfinite {
  static constexpr op_code code = op_code::isfinite;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "m->? M->?";
};

struct real {
  static constexpr op_code code = op_code::real;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d F->f D->d";
};

struct imag {
  static constexpr op_code code = op_code::imag;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d F->f D->d";
};

struct conjugate {
  static constexpr op_code code = op_code::conjugate;
  static constexpr int arity = 1;
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
};

// --- Floating-point bits and integer number theory ------------------------------------------

struct signbit {
  static constexpr op_code code = op_code::signbit;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->? f->? d->? g->?";
};

struct copysign {
  static constexpr op_code code = op_code::copysign;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g";
};

struct nextafter {
  static constexpr op_code code = op_code::nextafter;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d gg->g";
};

struct gcd {
  static constexpr op_code code = op_code::gcd;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct lcm {
  static constexpr op_code code = op_code::lcm;
  static constexpr int arity = 2;
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
};

struct bitwise_count {
  static constexpr op_code code = op_code::bitwise_count;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "b->B B->B h->B H->B i->B I->B l->B L->B q->B Q->B O->O";
};

}  // namespace ndfuse::ir::ops
