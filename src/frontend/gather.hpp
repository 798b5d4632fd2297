// Advanced indexing: gathers (x(idx) reads) and scatters (x(idx) = v writes), and the checks and
// library calls they rest on. Shared by indexing, take/put/compress and the sorting functions.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "frontend/build.hpp"
#include "ir/library.hpp"
#include "ndfuse/index.hpp"

namespace ndfuse::frontend {

bool has_array(const std::vector<index_item>& items);
array index_advanced(const array& x, const std::vector<index_item>& items);
void assign_advanced(array& x, const std::vector<index_item>& items, const array& value);

// `idx` (an integer array) checked against an axis of length n (index_error naming `op` where NumPy
// raises IndexError) and with negative entries wrapped: int64, every entry in [0, n). The check
// reads idx's min and max at the call (once per array: the result is remembered on its node).
array checked_indices(const array& idx, std::int64_t n, std::int64_t axis, const char* op);

// An integer array's min and max, computed at the call (waits for the device) unless known; a
// builder's bound (known_range) serves unless `exact`.
std::pair<std::int64_t, std::int64_t> value_range(const array& x, bool exact = false);

// src's elements at idx_j along src axis axes[j] (each idx_j int64, in range, of shape
// `index_shape`): shape (index_shape..., src's other axes...). Fuses as a load at computed offsets.
array gather(const array& src, const std::vector<int>& axes, const std::vector<array>& idx,
             const shape_t& index_shape);

// Marks an int64 array whose values are known to lie in [lo, hi]: gathers with it skip the check
// when the bound is within their axis, and read the values when it is not.
array& known_range(array& a, std::int64_t lo, std::int64_t hi);

// The flat indices (int64, ascending) of the true elements of a bool array: counts them at the call
// (the result's shape; waits for the device), then compacts them with a library call.
array true_indices(const array& flags);

// The coordinates of mask's true elements, one int64 array per axis (NumPy's nonzero). Counts
// them at the call; the coordinates themselves are computed lazily.
std::vector<array> nonzero_coordinates(const array& mask, const char* op);

// x's node as a library operand: C-contiguous (a lazy copy of a strided evaluated view).
node_ptr contiguous_operand(const array& x);
// A library-call node; its operands go through contiguous_operand.
array library_node(const ir::library_call& c, dtype out, const std::vector<array>& inputs,
                   const shape_t& shape);

}  // namespace ndfuse::frontend
