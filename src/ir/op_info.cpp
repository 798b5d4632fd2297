// Builds the frontend's op table from the Hana registry.
#include "ir/op_info.hpp"

#include <array>

#include "ir/op_registry.hpp"

namespace ndfuse::ir {

namespace {

std::vector<op_loop> parse_loops(std::string_view types) {
  std::vector<op_loop> loops;
  std::size_t pos = 0;
  while (pos < types.size()) {
    std::size_t end = types.find(' ', pos);
    if (end == std::string_view::npos) end = types.size();
    std::string_view tok = types.substr(pos, end - pos);
    pos = end + 1;
    std::size_t arrow = tok.find("->");
    if (arrow == std::string_view::npos || arrow == 0 || arrow + 2 >= tok.size()) continue;
    auto in = dtype_from_typechar(tok[0]);
    auto out = dtype_from_typechar(tok[arrow + 2]);
    bool uniform = in.has_value() && out.has_value();
    for (std::size_t i = 1; i < arrow && uniform; ++i) uniform = dtype_from_typechar(tok[i]) == in;
    if (!uniform) continue;
    bool seen = false;
    for (const auto& l : loops) seen = seen || l.in == *in;
    if (seen) continue;
    loops.push_back({*in, *out});
    // bfloat16's loop follows float16's (see loop_output): a bfloat16 operand, which does not cast
    // to float16 safely, takes it before float32's.
    if (*in == dtype::float16)
      loops.push_back({dtype::bfloat16, *out == dtype::float16 ? dtype::bfloat16 : *out});
  }
  return loops;
}

std::array<op_info, static_cast<std::size_t>(op_code::count)> build_table() {
  std::array<op_info, static_cast<std::size_t>(op_code::count)> table{};
  hana::for_each(all_ops, [&](auto op_type) {
    using op = typename decltype(op_type)::type;
    auto& entry = table[static_cast<std::size_t>(op::code)];
    entry.name = op_name(op::code);
    entry.arity = op::arity;
    entry.loops = parse_loops(op::types);
    if constexpr (requires { op::integer_inputs_as; }) entry.integer_inputs_as = op::integer_inputs_as;
    if constexpr (requires { op::all_inputs_as; }) entry.all_inputs_as = op::all_inputs_as;
    if constexpr (requires { op::bool_unsupported; }) entry.bool_unsupported = op::bool_unsupported;
  });
  return table;
}

}  // namespace

const op_info& info(op_code op) {
  static const auto table = build_table();
  return table[static_cast<std::size_t>(op)];
}

}  // namespace ndfuse::ir
