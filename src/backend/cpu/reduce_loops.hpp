// Typed loops of the CPU backend's reductions and scans, filled from the Hana registry
// (reduce_loops.cpp). Values are the prologue's results, already in the accumulator dtype.
#pragma once
#include <cstdint>

#include "ir/op_code.hpp"
#include "ir/reduction.hpp"

namespace ndfuse::backend::cpu {

// *acc = the fold of values[0..n) (n >= 1), in a fixed order: eight interleaved partial folds
// combined pairwise, as NumPy's pairwise sum does within a block.
using fold_fn = void (*)(void* acc, const void* values, std::int64_t n);
// out[i] = carry = combine(carry, values[i]), in order (NumPy's accumulate).
using scan_fn = void (*)(void* out, const void* values, std::int64_t n, void* carry);

// An arg reduction's running result: the winning value (of the values' dtype) and its index; -1
// while nothing has been taken.
struct arg_acc {
  alignas(16) unsigned char value[16] = {};
  std::int64_t index = -1;
};
// Folds values[0..n), whose indices are first, first+1, ..., into acc.
using arg_fold_fn = void (*)(arg_acc& acc, const void* values, std::int64_t n, std::int64_t first);
// acc = the winner of (acc, later): `later` covers higher indices, so ties keep acc.
using arg_combine_fn = void (*)(arg_acc& acc, const arg_acc& later);

fold_fn fold_loop(ir::op_code combine, dtype t);  // nullptr when the op does not close over t
scan_fn scan_loop(ir::op_code combine, dtype t);
arg_fold_fn arg_fold_loop(ir::reduce_kind kind, dtype t);
arg_combine_fn arg_combine_loop(ir::reduce_kind kind, dtype t);

}  // namespace ndfuse::backend::cpu
