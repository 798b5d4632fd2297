// NumPy 2 compares integers exactly where the usual promotion cannot: a signed integer against
// uint64 (which would promote to float64 and round), and an integer array against a Python int
// outside its range (which elsewhere raises OverflowError). Both are built from ordinary ops.
#pragma once
#include <optional>

#include "ir/op_code.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse::frontend {

bool is_comparison(ir::op_code op);
// The exact comparison when one of the cases above applies, else nullopt.
std::optional<array> exact_integer_comparison(ir::op_code op, const operand& a, const operand& b);

}  // namespace ndfuse::frontend
