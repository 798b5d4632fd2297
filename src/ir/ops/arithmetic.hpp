// Arithmetic ufuncs with NumPy's semantics: integers wrap, integer division by zero gives 0,
// float floor_divide/remainder follow npy_divmod, complex products are fused as NumPy's SIMD loops.
//
// Each op: `code`, `arity`, `types` (NumPy 2's ufunc.types, in NumPy's order) and
// `apply(T...)`, where T is the compute type of the loop's input dtype (float for float16); the
// result converts to the compute type of the loop's output dtype. apply is only called for loops
// listed in `types`; other instantiations compile but are meaningless. `cuda` is the op's CUDA
// expression template for jit/render.cpp: {0}, {1} stand for the operands, and the nf_* functions
// it calls are in jit/prelude/*.cuh, overloaded per storage type to match `apply` on every loop.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

struct add {
  static constexpr op_code code = op_code::op_code_add;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_add({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F "
      "DD->D GG->G Mm->M mm->m mM->M OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a || b;
    else if constexpr (is_int_v<T>)
      return detail::wrap_add(a, b);
    else
      return a + b;
  }
};

struct subtract {
  static constexpr op_code code = op_code::op_code_subtract;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_subtract({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F DD->D "
      "GG->G Mm->M mm->m MM->m OO->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a != b;  // no loop: NumPy rejects bool subtraction
    else if constexpr (is_int_v<T>)
      return detail::wrap_sub(a, b);
    else
      return a - b;
  }
};

struct multiply {
  static constexpr op_code code = op_code::op_code_multiply;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_multiply({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g FF->F "
      "DD->D GG->G mq->m qm->m md->m dm->m OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a && b;
    else if constexpr (is_int_v<T>)
      return detail::wrap_mul(a, b);
    else if constexpr (is_complex_v<T>)
      return detail::cmul_fused(a, b);
    else
      return a * b;
  }
};

struct true_divide {
  static constexpr op_code code = op_code::op_code_true_divide;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_true_divide({0}, {1})";
  static constexpr std::string_view types =
      "ee->e ff->f dd->d gg->g FF->F DD->D GG->G mq->m md->m mm->d OO->O";
  // NumPy's TrueDivisionTypeResolver: bool and integer inputs divide as float64, never float16.
  static constexpr dtype integer_inputs_as = dtype::float64;
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) {
      // NumPy's complex divide loop: Smith's method, with NaN inputs passed through as NumPy does.
      using R = typename T::value_type;
      const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
      const R abs_br = std::fabs(br), abs_bi = std::fabs(bi);
      const bool ar_nan = std::isnan(ar), ai_nan = std::isnan(ai);
      if (!std::isnan(br) && !std::isnan(bi) && (ar_nan || ai_nan) &&
          ((((!ar_nan && std::isinf(ar)) || (!ai_nan && std::isinf(ai))) && (br != 0 || bi != 0)) ||
           (std::isinf(br) && std::isinf(bi)))) {
        const R nan = ar_nan ? ar : ai;
        return {nan, nan};
      }
      if (std::isgreaterequal(abs_br, abs_bi)) {
        if (abs_br == 0 && abs_bi == 0) {
          if ((ar_nan && (ai == 0 || ai_nan)) || (ar == 0 && ai_nan))
            return {ar_nan ? ar : ai, ai_nan ? ai : ar};
          return {ar / abs_br, ai / abs_bi};
        }
        const R rat = bi / br;
        const R scl = R(1) / (br + bi * rat);
        return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
      }
      const R rat = br / bi;
      const R scl = R(1) / (bi + br * rat);
      return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
    } else if constexpr (is_real_v<T>) {
      return a / b;
    } else {
      return a;  // no loop: integers divide in float64 after the frontend's cast
    }
  }
};

struct floor_divide {
  static constexpr op_code code = op_code::op_code_floor_divide;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_floor_divide({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g mq->m md->m "
      "mm->q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      if (b == 0) return 0;
      if constexpr (is_sint_v<T>) {
        // MIN // -1 overflows; NumPy returns MIN (and warns).
        if (b == -1) return detail::wrap_neg(a);
        T q = static_cast<T>(a / b);
        if (((a > 0) != (b > 0)) && q * b != a) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    } else if constexpr (is_real_v<T>) {
      if (b == 0) return a / b;
      T mod;
      return detail::floor_divmod(a, b, mod);
    } else {
      return a;  // no loop (bool, complex)
    }
  }
};

struct remainder {
  static constexpr op_code code = op_code::op_code_remainder;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_remainder({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g mm->m OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      if (b == 0) return 0;
      if constexpr (is_sint_v<T>) {
        if (b == -1) return 0;  // also MIN % -1, which would trap in C++
        T r = static_cast<T>(a % b);
        if (r != 0 && ((a > 0) != (b > 0))) r = static_cast<T>(r + b);
        return r;
      } else {
        return static_cast<T>(a % b);
      }
    } else if constexpr (is_real_v<T>) {
      if (b == 0) return std::fmod(a, b);
      T mod;
      detail::floor_divmod(a, b, mod);
      return mod;
    } else {
      return a;  // no loop (bool, complex)
    }
  }
};

struct fmod {
  static constexpr op_code code = op_code::op_code_fmod;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_fmod({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d gg->g OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      if (b == 0) return 0;
      if constexpr (is_sint_v<T>) {
        if (b == -1) return 0;
      }
      return static_cast<T>(a % b);  // truncated, sign of the dividend, as C
    } else if constexpr (is_real_v<T>) {
      return std::fmod(a, b);
    } else {
      return a;  // no loop (bool, complex)
    }
  }
};

struct power {
  static constexpr op_code code = op_code::op_code_power;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_power({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ee->e ff->f dd->d ee->e ff->f dd->d "
      "gg->g FF->F DD->D GG->G OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      // NumPy raises ValueError for a negative integer exponent; the frontend checks scalar
      // exponents, and an array element that slips through gives 0 here.
      if constexpr (is_sint_v<T>) {
        if (b < 0) return 0;
      }
      // Square-and-multiply in unsigned arithmetic: the result wraps like NumPy's.
      using W = detail::wide_t<T>;
      W base = static_cast<detail::uint_t<T>>(a);
      auto e = static_cast<detail::uint_t<T>>(b);
      W out = (e & 1u) ? base : W{1};
      e = static_cast<detail::uint_t<T>>(e >> 1);
      while (e != 0) {
        base = static_cast<detail::uint_t<T>>(base * base);
        if (e & 1u) out = static_cast<detail::uint_t<T>>(out * base);
        e = static_cast<detail::uint_t<T>>(e >> 1);
      }
      return static_cast<T>(static_cast<detail::uint_t<T>>(out));
    } else if constexpr (is_real_v<T>) {
      return std::pow(a, b);
    } else if constexpr (is_complex_v<T>) {
      return complex_power(a, b);
    } else {
      return a;  // no loop (bool)
    }
  }

 private:
  // npy_cpow: exact special cases and repeated multiplication for small integer exponents,
  // otherwise the C library's cpow.
  template <class R>
  static std::complex<R> complex_power(std::complex<R> a, std::complex<R> b) {
    const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (br == 0 && bi == 0) return {R(1), R(0)};
    if (ar == 0 && ai == 0) {
      if (br > 0) return {R(0), R(0)};
      return {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN()};
    }
    if (bi == 0 && br > -100 && br < 100 && static_cast<R>(static_cast<int>(br)) == br) {
      int n = static_cast<int>(br);
      if (n == 1) return a;
      if (n == 2) return detail::cmul_plain(a, a);
      if (n == 3) return detail::cmul_plain(a, detail::cmul_plain(a, a));
      if (n < 0) n = -n;
      std::complex<R> acc{R(1), R(0)};
      std::complex<R> p = a;
      for (int mask = 1;; mask <<= 1) {
        if (n & mask) acc = detail::cmul_plain(acc, p);
        if (n < (mask << 1)) break;
        p = detail::cmul_plain(p, p);
      }
      if (br < 0) acc = detail::cdiv_smith(std::complex<R>{R(1), R(0)}, acc);
      return acc;
    }
    return std::pow(a, b);
  }
};

struct negative {
  static constexpr op_code code = op_code::op_code_negative;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_negative({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->F D->D G->G O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
  template <class T>
  static T apply(T a) {
    if constexpr (is_bool_v<T>)
      return a;  // no loop: NumPy rejects negating bools
    else if constexpr (is_int_v<T>)
      return detail::wrap_neg(a);
    else
      return -a;
  }
};

struct positive {
  static constexpr op_code code = op_code::op_code_positive;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_positive({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->F D->D G->G O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
  template <class T>
  static T apply(T a) {
    return a;
  }
};

struct absolute {
  static constexpr op_code code = op_code::op_code_absolute;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_absolute({0})";
  static constexpr std::string_view types =
      "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g m->m F->f D->d G->g "
      "O->O";
  template <class T>
  static auto apply(T a) {
    if constexpr (is_sint_v<T>)
      return a < 0 ? detail::wrap_neg(a) : a;  // abs(MIN) == MIN
    else if constexpr (is_real_v<T>)
      return std::fabs(a);
    else if constexpr (is_complex_v<T>)
      return detail::cabs_numpy(a);
    else
      return a;  // bool, unsigned
  }
};

struct sign {
  static constexpr op_code code = op_code::op_code_sign;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_sign({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G m->m O->O";
  // NumPy's resolver refuses bool here even though bool casts safely to int8.
  static constexpr bool bool_unsupported = true;
  template <class T>
  static T apply(T a) {
    if constexpr (is_uint_v<T>) {
      return static_cast<T>(a != 0);
    } else if constexpr (is_sint_v<T>) {
      return static_cast<T>((a > 0) - (a < 0));
    } else if constexpr (is_real_v<T>) {
      // sign(-0.0) is +0.0 and sign(NaN) is that NaN.
      return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));
    } else if constexpr (is_complex_v<T>) {
      // NumPy 2: z / |z|, with |z| from hypot and fixed results for infinite and zero inputs.
      using R = typename T::value_type;
      constexpr R nan = std::numeric_limits<R>::quiet_NaN();
      const R re = a.real(), im = a.imag();
      const R mag = std::hypot(re, im);
      if (std::isnan(mag)) return {nan, nan};
      if (std::isinf(mag)) {
        if (std::isinf(re)) {
          if (std::isinf(im)) return {nan, nan};
          return {re > 0 ? R(1) : R(-1), R(0)};
        }
        return {R(0), im > 0 ? R(1) : R(-1)};
      }
      if (mag == 0) return {R(0), R(0)};
      return {re / mag, im / mag};
    } else {
      return a;  // no loop (bool)
    }
  }
};

struct square {
  static constexpr op_code code = op_code::op_code_square;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_square({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_bool_v<T>)
      return a;  // no loop
    else if constexpr (is_int_v<T>)
      return detail::wrap_mul(a, a);
    else if constexpr (is_complex_v<T>)
      return detail::cmul_fused(a, a);
    else
      return a * a;
  }
};

struct reciprocal {
  static constexpr op_code code = op_code::op_code_reciprocal;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_reciprocal({0})";
  static constexpr std::string_view types =
      "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q e->e f->f d->d g->g F->F D->D G->G O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_int_v<T>) {
      // NumPy computes 1.0 / a and converts back; x86-64's conversion of inf (a == 0) yields the
      // "integer indefinite" value: MIN for 32- and 64-bit signed types, 0 after truncation for
      // narrower ones and for unsigned types.
      if (a == 0) {
        if constexpr (is_sint_v<T> && sizeof(T) >= 4)
          return std::numeric_limits<T>::min();
        else
          return 0;
      }
      return static_cast<T>(T(1) / a);
    } else if constexpr (is_real_v<T>) {
      return T(1) / a;
    } else if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      const R re = a.real(), im = a.imag();
      if (std::fabs(im) <= std::fabs(re)) {
        const R r = im / re;
        const R d = re + im * r;
        return {R(1) / d, -r / d};
      }
      const R r = re / im;
      const R d = re * r + im;
      return {r / d, R(-1) / d};
    } else {
      return a;  // no loop (bool)
    }
  }
};

}  // namespace ndfuse::ir::ops
