// The op registry: a Boost.Hana tuple of every elementwise op's entry (op_table.hpp) and of every
// dtype. Backends instantiate their per-(op, dtype) loops by iterating over these two lists, so an op
// is declared in exactly one place: its entry. Heavy: include only from the few registry TUs.
#pragma once
#include <boost/hana.hpp>
#include <optional>
#include <string_view>
#include <type_traits>

#include "ir/host_types.hpp"
#include "ir/op_code.hpp"

namespace ndfuse::ir {

namespace hana = boost::hana;

// NumPy's type characters, as they appear in ufunc.types.
constexpr std::optional<dtype> dtype_from_typechar(char c) {
  switch (c) {
    case '?':
      return dtype::bool_;
    case 'b':
      return dtype::int8;
    case 'h':
      return dtype::int16;
    case 'i':
      return dtype::int32;
    case 'l':
    case 'q':
      return dtype::int64;
    case 'B':
      return dtype::uint8;
    case 'H':
      return dtype::uint16;
    case 'I':
      return dtype::uint32;
    case 'L':
    case 'Q':
      return dtype::uint64;
    case 'e':
      return dtype::float16;
    case 'f':
      return dtype::float32;
    case 'd':
      return dtype::float64;
    case 'F':
      return dtype::complex64;
    case 'D':
      return dtype::complex128;
    default:
      return std::nullopt;  // long double, objects, datetimes: not ndfuse dtypes
  }
}

// In an op's `types` (NumPy's ufunc.types, space separated, e.g. "??->? bb->b ff->f"), the output
// dtype of the loop whose inputs are all `in`, or nullopt when there is none. NumPy has no
// bfloat16: it has a loop wherever float16 has one ('e'), computing in float32 the same way, with a
// bfloat16 result where float16's is float16 (ml_dtypes registers its ufunc loops alike).
constexpr std::optional<dtype> loop_output(std::string_view types, dtype in) {
  if (in == dtype::bfloat16) {
    auto out = loop_output(types, dtype::float16);
    return out == dtype::float16 ? std::optional<dtype>(dtype::bfloat16) : out;
  }
  std::size_t pos = 0;
  while (pos < types.size()) {
    std::size_t end = types.find(' ', pos);
    if (end == std::string_view::npos) end = types.size();
    std::string_view tok = types.substr(pos, end - pos);
    std::size_t arrow = tok.find("->");
    if (arrow != std::string_view::npos && arrow + 2 < tok.size()) {
      bool all_in = arrow > 0;
      for (std::size_t i = 0; i < arrow; ++i) all_in = all_in && dtype_from_typechar(tok[i]) == in;
      auto out = dtype_from_typechar(tok[arrow + 2]);
      if (all_in && out) return out;
    }
    pos = end + 1;
  }
  return std::nullopt;
}

}  // namespace ndfuse::ir

#include "ir/op_table.hpp"
#include "ir/op_table_internal.hpp"

namespace ndfuse::ir {

template <dtype D>
using dtype_c = std::integral_constant<dtype, D>;

inline constexpr auto all_dtypes = hana::make_tuple(
    dtype_c<dtype::bool_>{}, dtype_c<dtype::int8>{}, dtype_c<dtype::int16>{}, dtype_c<dtype::int32>{},
    dtype_c<dtype::int64>{}, dtype_c<dtype::uint8>{}, dtype_c<dtype::uint16>{}, dtype_c<dtype::uint32>{},
    dtype_c<dtype::uint64>{}, dtype_c<dtype::float16>{}, dtype_c<dtype::float32>{}, dtype_c<dtype::float64>{},
    dtype_c<dtype::complex64>{}, dtype_c<dtype::complex128>{}, dtype_c<dtype::bfloat16>{});
static_assert(decltype(hana::length(all_dtypes))::value == dtype_count);

#define NDFUSE_OP_TYPE(name, arity) ops::name,
inline constexpr auto all_ops = hana::drop_back(hana::tuple_t<NDFUSE_ALL_OPS(NDFUSE_OP_TYPE) void>);
#undef NDFUSE_OP_TYPE

// Every op-table entry must name its own op code and have the arity the op list says.
#define NDFUSE_OP_CHECK(name, arity_)                                     \
  static_assert(ops::name::code == op_code::name, "ops::" #name " code"); \
  static_assert(ops::name::arity == arity_, "ops::" #name " arity");
NDFUSE_ALL_OPS(NDFUSE_OP_CHECK)
#undef NDFUSE_OP_CHECK

}  // namespace ndfuse::ir
