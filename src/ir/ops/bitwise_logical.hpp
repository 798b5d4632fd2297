// Logical ufuncs (truthiness of any dtype: NaN is true, a complex number is true when either part
// is) and bitwise ufuncs on bools and integers, with NumPy's shift rules for out-of-range counts.
#pragma once
#include "ir/ops/common.hpp"

namespace ndfuse::ir::ops {

struct logical_and {
  static constexpr op_code code = op_code::op_code_logical_and;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_logical_and({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
  template <class T>
  static bool apply(T a, T b) {
    return detail::truthy(a) && detail::truthy(b);
  }
};

struct logical_or {
  static constexpr op_code code = op_code::op_code_logical_or;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_logical_or({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
  template <class T>
  static bool apply(T a, T b) {
    return detail::truthy(a) || detail::truthy(b);
  }
};

struct logical_xor {
  static constexpr op_code code = op_code::op_code_logical_xor;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_logical_xor({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ee->? ff->? dd->? gg->? "
      "FF->? DD->? GG->? OO->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
  template <class T>
  static bool apply(T a, T b) {
    return detail::truthy(a) != detail::truthy(b);
  }
};

struct logical_not {
  static constexpr op_code code = op_code::op_code_logical_not;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_logical_not({0})";
  static constexpr std::string_view types =
      "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? e->? f->? d->? g->? F->? D->? G->? "
      "O->O";
  // NumPy 2 promotes every input of the logical ufuncs to bool (so uint8 and -2 is True).
  static constexpr dtype all_inputs_as = dtype::bool_;
  template <class T>
  static bool apply(T a) {
    return !detail::truthy(a);
  }
};

struct bitwise_and {
  static constexpr op_code code = op_code::op_code_bitwise_and;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_bitwise_and({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a && b;
    else if constexpr (is_int_v<T>)
      return static_cast<T>(a & b);
    else
      return a;  // no loop (floating point, complex)
  }
};

struct bitwise_or {
  static constexpr op_code code = op_code::op_code_bitwise_or;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_bitwise_or({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a || b;
    else if constexpr (is_int_v<T>)
      return static_cast<T>(a | b);
    else
      return a;  // no loop (floating point, complex)
  }
};

struct bitwise_xor {
  static constexpr op_code code = op_code::op_code_bitwise_xor;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_bitwise_xor({0}, {1})";
  static constexpr std::string_view types =
      "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_bool_v<T>)
      return a != b;
    else if constexpr (is_int_v<T>)
      return static_cast<T>(a ^ b);
    else
      return a;  // no loop (floating point, complex)
  }
};

struct invert {
  static constexpr op_code code = op_code::op_code_invert;
  static constexpr int arity = 1;
  static constexpr std::string_view cuda = "nf_invert({0})";
  static constexpr std::string_view types = "?->? b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q O->O";
  template <class T>
  static T apply(T a) {
    if constexpr (is_bool_v<T>)
      return !a;
    else if constexpr (is_int_v<T>)
      return static_cast<T>(~a);
    else
      return a;  // no loop (floating point, complex)
  }
};

struct left_shift {
  static constexpr op_code code = op_code::op_code_left_shift;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_left_shift({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      // A count that is negative (huge once unsigned) or >= the width shifts every bit out: 0.
      using W = detail::wide_t<T>;
      const auto n = static_cast<detail::uint_t<T>>(b);
      const auto shifted =
          static_cast<W>(static_cast<W>(static_cast<detail::uint_t<T>>(a)) << (n & (sizeof(T) * 8 - 1)));
      return n < sizeof(T) * 8 ? static_cast<T>(static_cast<detail::uint_t<T>>(shifted)) : T{0};
    } else {
      return a;  // no loop (bool, floating point, complex)
    }
  }
};

struct right_shift {
  static constexpr op_code code = op_code::op_code_right_shift;
  static constexpr int arity = 2;
  static constexpr std::string_view cuda = "nf_right_shift({0}, {1})";
  static constexpr std::string_view types =
      "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q OO->O";
  template <class T>
  static T apply(T a, T b) {
    if constexpr (is_int_v<T>) {
      // Arithmetic for signed types: an out-of-range count leaves only the sign (0 or -1), the
      // same as shifting by width - 1. Unsigned values shift out to 0.
      const auto n = static_cast<detail::uint_t<T>>(b);
      constexpr unsigned bits = sizeof(T) * 8;
      if constexpr (is_sint_v<T>) {
        return static_cast<T>(a >> (n < bits ? n : bits - 1));
      } else {
        return n < bits ? static_cast<T>(a >> (n & (bits - 1))) : T{0};
      }
    } else {
      return a;  // no loop (bool, floating point, complex)
    }
  }
};

}  // namespace ndfuse::ir::ops
