// Sorting and searching: sort, argsort, partition, argpartition, searchsorted, unique, bincount.
// Each is a library call (CUB radix sorts on CUDA, std algorithms on the CPU) on materialized
// inputs; the elementwise work around it (casts, moving the axis, the flags of unique) fuses.
//
// Order is NumPy's: NaN after everything, complex by real part then imaginary part. Sorts are
// stable, so argsort gives NumPy's kind="stable" result, and partition/argpartition return a full
// sort (a valid partition for every kth). unique and bincount count at the call (their result's
// shape depends on the data), as NumPy must too.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

array sort(const array& a, int axis = -1);
array sort(const array& a, none_t);  // the flattened array
array argsort(const array& a, int axis = -1);
array argsort(const array& a, none_t);
array partition(const array& a, std::int64_t kth, int axis = -1);
array partition(const array& a, const std::vector<std::int64_t>& kth, int axis = -1);
array argpartition(const array& a, std::int64_t kth, int axis = -1);
array argpartition(const array& a, const std::vector<std::int64_t>& kth, int axis = -1);

// Indices into the sorted 1-D `a` where `v`'s elements would be inserted (side "left" or "right").
array searchsorted(const array& a, const array& v, std::string_view side = "left");
array searchsorted(const array& a, scalar v, std::string_view side = "left");

// NumPy's unique (flattened, NaNs collapsed into one as equal_nan=True does) and the array-API
// forms, which keep every NaN apart as NumPy's do: unique_all gives values, first indices, inverse
// (x's shape) and counts.
struct unique_all_result {
  array values, indices, inverse_indices, counts;
};
struct unique_counts_result {
  array values, counts;
};
struct unique_inverse_result {
  array values, inverse_indices;
};
array unique(const array& a);
array unique_values(const array& a);
unique_all_result unique_all(const array& a);
unique_counts_result unique_counts(const array& a);
unique_inverse_result unique_inverse(const array& a);

// Counts of each value of the non-negative 1-D integer array x (int64), or sums of its weights
// (float64); at least minlength bins. A negative value throws value_error. An empty x gives
// minlength int64 zeros, weights or not, as NumPy does.
array bincount(const array& x, std::int64_t minlength = 0);
array bincount(const array& x, const array& weights, std::int64_t minlength = 0);

}  // namespace ndfuse
