// The host C++ of a user kernel for the CPU device: the user's body as an inline function over one
// element, and an extern "C" block function the interpreter calls over a block of elements, as it
// calls its own typed loops.
#pragma once
#include <string>

#include "ir/user_kernel.hpp"

namespace ndfuse::backend::cpu {

// The symbol of the block function: void(void* const* out, const void* const* in, long long n),
// in: one block of n values per operand (scalars as n copies), out: one per output.
inline constexpr const char* user_block_symbol = "nf_user_block";

// Throws dtype_error for a dtype the host code cannot name (float16, bfloat16).
std::string host_source(const ir::user_kernel& k);

// A reduction kernel's combine (in: a and b of the accumulator's dtype; body: the reduce
// expression) as the two functions the CPU reducer calls, with the built-in folds' signatures
// (reduce_loops.hpp): nf_user_fold(acc, values, n), the fold of n values in the built-in folds'
// order, and nf_user_combine(out, {a, b}, n), elementwise.
inline constexpr const char* user_fold_symbol = "nf_user_fold";
inline constexpr const char* user_combine_symbol = "nf_user_combine";
std::string host_combine_source(const ir::user_kernel& combine);
// The file name the compiler's messages and dumps use: nf_user_<name>_<8 hex>.
std::string host_source_name(const ir::user_kernel& k);

}  // namespace ndfuse::backend::cpu
