// The op table's internal ops (op_code.hpp's NDFUSE_INTERNAL_OPS): elementwise parts of the
// library's own composites, with no NumPy name. Entries as in op_table.hpp.
#pragma once
#include <string_view>

#include "ir/op_code.hpp"

namespace ndfuse::ir::ops {

// A standard gamma variate of shape b from the substream keyed by a (an integer below 2^53, drawn
// by the caller): nf::random's gamma family. One loop: nothing else calls it.
struct random_gamma {
  static constexpr op_code code = op_code::random_gamma;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "dd->d";
};

// A Poisson variate of mean b from the substream keyed by a, as a float64 integer.
struct random_poisson {
  static constexpr op_code code = op_code::random_poisson;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "dd->d";
};

// Logarithmic-series and Zipf variates of parameter b from the substream keyed by a.
struct random_logseries {
  static constexpr op_code code = op_code::random_logseries;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "dd->d";
};
struct random_zipf {
  static constexpr op_code code = op_code::random_zipf;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "dd->d";
};

// A von Mises angle of mean b and concentration c from the substream keyed by a.
struct random_vonmises {
  static constexpr op_code code = op_code::random_vonmises;
  static constexpr int arity = 3;
  static constexpr std::string_view types = "ddd->d";
};

// A binomial variate of b trials (an integer) with success probability c, substream key a.
struct random_binomial {
  static constexpr op_code code = op_code::random_binomial;
  static constexpr int arity = 3;
  static constexpr std::string_view types = "ddd->d";
};

// a * 2^n with n an integer held in a's float type (nf::ldexp converts and clamps it).
struct ldexp_float {
  static constexpr op_code code = op_code::ldexp_float;
  static constexpr int arity = 2;
  static constexpr std::string_view types = "ee->e ff->f dd->d";
};

// frexp's mantissa and exponent, as two ops so that each is one output.
struct frexp_mantissa {
  static constexpr op_code code = op_code::frexp_mantissa;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->e f->f d->d";
};

struct frexp_exponent {
  static constexpr op_code code = op_code::frexp_exponent;
  static constexpr int arity = 1;
  static constexpr std::string_view types = "e->i f->i d->i";
};

}  // namespace ndfuse::ir::ops
