// What a reduction or scan node computes. The combining step is a binary registry op (add for sum,
// minimum for min, fmin for nanmin, logical_or for any, ...), so every backend reuses its
// elementwise op table to combine partial results; only the arg reductions need a pair type.
#pragma once
#include <cstdint>

#include "ir/op_code.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

enum class reduce_kind : std::uint8_t {
  value,      // fold with `combine`
  argmin,     // index of the first minimum; NaN counts as the minimum (NumPy)
  argmax,     // index of the first maximum; NaN counts as the maximum (NumPy)
  nanargmin,  // NaN never wins; an all-NaN slice gives -1
  nanargmax,
};
const char* reduce_kind_name(reduce_kind k);
inline bool is_arg_reduction(reduce_kind k) {
  return k != reduce_kind::value;
}

// A scalar value stored as the bits of a given dtype (at most complex128, 16 bytes).
struct scalar_bits {
  alignas(16) unsigned char bytes[16] = {};
};

struct reduction_params {
  reduce_kind kind = reduce_kind::value;
  op_code combine = op_code::add;  // value kinds (and scans)
  dtype acc_dt = dtype::float64;   // partial results; arg kinds: the compared values' dtype
  scalar_bits identity;            // of acc_dt: the result of reducing nothing
  std::uint64_t axes = 0;          // bit d set: input axis d is reduced (scan: the one axis)
};

}  // namespace ndfuse::ir
