#include "backend/cpu/loops_impl.hpp"

namespace ndfuse::backend::cpu {
// The first half of the op list (by op code); loops_part1.cpp has the rest.
void fill_op_loops_part0(op_table& t) {
  fill_op_loops<0, static_cast<int>(ir::op_code::sqrt)>(t);
}
}  // namespace ndfuse::backend::cpu
