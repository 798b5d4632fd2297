#include "backend/cpu/loops_impl.hpp"

namespace ndfuse::backend::cpu {
void fill_op_loops_part1(op_table& t) {
  fill_op_loops<static_cast<int>(ir::op_code::op_code_sqrt), static_cast<int>(ir::op_code::op_code_count)>(t);
}
}  // namespace ndfuse::backend::cpu
