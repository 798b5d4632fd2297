#include "backend/cpu/loops_impl.hpp"

namespace ndfuse::backend::cpu {
void fill_op_loops_part1(op_table& t) {
  fill_op_loops<static_cast<int>(ir::op_code::sqrt), static_cast<int>(ir::op_code::count)>(t);
}
}  // namespace ndfuse::backend::cpu
