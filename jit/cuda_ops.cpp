// Op expressions for the renderer: an elementwise op's body is the prelude function named after it,
// nf_<name> (jit/prelude/*.cuh), so its CUDA template is derived from the op table's names.
#include "jit/cuda_ops.hpp"

#include <array>
#include <string>

#include "ir/op_info.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::jit {

namespace {

using template_table = std::array<std::string, static_cast<std::size_t>(ir::op_code::count)>;

template_table build_table() {
  template_table table{};
  for (std::size_t i = 0; i < table.size(); ++i) {
    const ir::op_info& op = ir::info(static_cast<ir::op_code>(i));
    if (op.arity == 0) continue;  // a structural op: the renderer writes it itself
    table[i] = "nf_" + std::string(op.name) +
               (op.arity == 1   ? "({0})"
                : op.arity == 2 ? "({0}, {1})"
                                : "({0}, {1}, {2})");
  }
  return table;
}

}  // namespace

std::string_view cuda_template(ir::op_code op) {
  static const template_table table = build_table();
  const auto i = static_cast<std::size_t>(op);
  if (i >= table.size() || table[i].empty())
    throw error(std::string("jit: no CUDA template for op ") + ir::op_name(op) + " (a structural op)");
  return table[i];
}

std::string fill_template(std::string_view tmpl, const std::string* operands, int count) {
  std::string out;
  out.reserve(tmpl.size() + 16);
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 2 < tmpl.size() && tmpl[i + 2] == '}' && tmpl[i + 1] >= '0' &&
        tmpl[i + 1] <= '9') {
      const int k = tmpl[i + 1] - '0';
      if (k >= count) throw error("jit: CUDA template \"" + std::string(tmpl) + "\" uses a missing operand");
      out += operands[k];
      i += 2;
    } else {
      out += tmpl[i];
    }
  }
  return out;
}

std::string numbered(const char* prefix, long long i) {
  std::string s(prefix);  // appended rather than "prefix" + to_string(i), which trips GCC 12's -Wrestrict
  s += std::to_string(i);
  return s;
}

const char* cuda_type(dtype t) {
  switch (t) {
    case dtype::bool_:
      return "bool";
    case dtype::int8:
      return "nf_int8";
    case dtype::int16:
      return "nf_int16";
    case dtype::int32:
      return "nf_int32";
    case dtype::int64:
      return "nf_int64";
    case dtype::uint8:
      return "nf_uint8";
    case dtype::uint16:
      return "nf_uint16";
    case dtype::uint32:
      return "nf_uint32";
    case dtype::uint64:
      return "nf_uint64";
    case dtype::float16:
      return "nf_float16";
    case dtype::float32:
      return "float";
    case dtype::float64:
      return "double";
    case dtype::complex64:
      return "nf_complex64";
    case dtype::complex128:
      return "nf_complex128";
    case dtype::bfloat16:
      return "nf_bfloat16";
  }
  return "?";
}

}  // namespace ndfuse::jit
