#include "ir/kernel_ir.hpp"

#include <sstream>

namespace ndfuse::ir {

const char* index_class_name(index_class c) {
  switch (c) {
    case index_class::index_class_flat:
      return "flat";
    case index_class::index_class_broadcast:
      return "broadcast";
    case index_class::index_class_strided:
      return "strided";
  }
  return "?";
}

std::string kernel_ir::key() const {
  // Everything that changes the generated code, nothing that only changes launch parameters.
  std::ostringstream os;
  os << "nd" << ndim << (index_64 ? "L" : "I") << "|in";
  for (const auto& in : inputs) os << ' ' << dtype_name(in.dt) << ':' << index_class_name(in.cls);
  os << "|sc";
  for (auto s : scalars) os << ' ' << dtype_name(s);
  os << "|io";
  for (auto c : iotas) os << ' ' << index_class_name(c);
  os << "|code";
  for (const auto& i : code) {
    os << ' ' << op_name(i.op) << ':' << dtype_name(i.dt) << ':' << dtype_name(i.operand_dt) << '('
       << i.args[0] << ',' << i.args[1] << ',' << i.args[2] << ',' << i.slot << ')';
  }
  os << "|out";
  for (const auto& o : outputs) os << ' ' << o.value << ':' << dtype_name(o.dt);
  return os.str();
}

}  // namespace ndfuse::ir
