// Typed block loops of the CPU backend: each processes n contiguous elements, so the compiler can
// vectorize it. Tables are filled from the Hana registry (loops_*.cpp).
#pragma once
#include <array>
#include <cstdint>

#include "ir/kernel_ir.hpp"
#include "ir/op_code.hpp"

namespace ndfuse::backend::cpu {

using block_fn = void (*)(void* out, const void* const* in, std::int64_t n);
using iota_fn = void (*)(void* out, const std::int64_t* affine, std::int64_t n, const ir::iota_params& p);

// nullptr where the op has no loop for that input dtype (the frontend never builds such a node).
block_fn op_loop(ir::op_code op, dtype in);
block_fn cast_loop(dtype from, dtype to);
block_fn where_loop(dtype t);  // in: bool cond, then two operands of t
iota_fn iota_loop(dtype t);
iota_fn random_loop(std::uint8_t mode);  // an op_code::random instruction's loop, by its mode

using op_table = std::array<std::array<block_fn, dtype_count>, static_cast<std::size_t>(ir::op_code::count)>;
void fill_op_loops_part0(op_table& t);  // split across TUs to keep each compile small
void fill_op_loops_part1(op_table& t);

}  // namespace ndfuse::backend::cpu
