// Reductions and scans (NumPy's sum, mean, argmax, cumsum, ...). Each builds one reduction node
// (plus the small elementwise tail a mean or a norm needs); nothing runs until evaluation, and the
// elementwise producers of the input run inside the reduction kernel.
//
// Arguments follow NumPy's names and meaning; C++ has no keywords, so they are positional, in the
// order axis, keepdims, dtype (var and std: axis, ddof, keepdims, dtype):
//   nf::sum(x)                    all axes
//   nf::sum(x, 1)                 one axis (negative counts from the end)
//   nf::sum(x, {0, 2}, true)      several axes, keepdims
//   nf::sum(x, nf::none, false, nf::dtype::float32)
// The result dtype follows NumPy: a sum of a small int is int64 (uint64 for unsigned, int64 for
// bool), a mean of ints is float64, argmax is int64. Empty reductions follow NumPy: a sum of
// nothing is 0, a mean of nothing is NaN, and min/max/argmin/argmax of nothing throw shape_error.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

using reduce_dtype = std::optional<dtype>;

// Each reduction also takes a temporary (nf::sum(a * b)): the reduction reads it and drops its
// handle, so the fuser does not write the temporary to memory (docs/numpy-differences.md).
#define NDFUSE_REDUCTION(name)                                                                       \
  array name(const array& a, axes axis = {}, bool keepdims = false, reduce_dtype dt = std::nullopt); \
  array name(array&& a, axes axis = {}, bool keepdims = false, reduce_dtype dt = std::nullopt);      \
  array& name(const array& a, axes axis, bool keepdims, reduce_dtype dt, out o);

// Sums and products (dtype= sets the accumulator and result dtype, as in NumPy).
NDFUSE_REDUCTION(sum)
NDFUSE_REDUCTION(prod)
NDFUSE_REDUCTION(nansum)
NDFUSE_REDUCTION(nanprod)
NDFUSE_REDUCTION(mean)
NDFUSE_REDUCTION(nanmean)
#undef NDFUSE_REDUCTION

#define NDFUSE_REDUCTION(name)                                       \
  array name(const array& a, axes axis = {}, bool keepdims = false); \
  array name(array&& a, axes axis = {}, bool keepdims = false);      \
  array& name(const array& a, axes axis, bool keepdims, out o);

// Extrema (NaN propagates; the nan forms skip NaN), logical reductions, counts.
NDFUSE_REDUCTION(min)
NDFUSE_REDUCTION(max)
NDFUSE_REDUCTION(amin)
NDFUSE_REDUCTION(amax)
NDFUSE_REDUCTION(nanmin)
NDFUSE_REDUCTION(nanmax)
NDFUSE_REDUCTION(ptp)
NDFUSE_REDUCTION(any)
NDFUSE_REDUCTION(count_nonzero)
// Index of the first extremum along one axis (or in the flattened array for nf::none), int64;
// several axes throw shape_error, as NumPy refuses a tuple there.
// nanargmin/nanargmax treat NaN as +inf/-inf as NumPy does; an all-NaN slice gives -1 (NumPy
// raises ValueError there: a data-dependent error cannot be raised where the node is built).
NDFUSE_REDUCTION(argmin)
NDFUSE_REDUCTION(argmax)
NDFUSE_REDUCTION(nanargmin)
NDFUSE_REDUCTION(nanargmax)
#undef NDFUSE_REDUCTION

// nf::all is both the reduction (nf::all(x, axis)) and, in indexing, the whole-axis placeholder
// (x(nf::all, 0)), so it is a callable object rather than a function.
struct all_t {
  array operator()(const array& a, axes axis = {}, bool keepdims = false) const;
  array& operator()(const array& a, axes axis, bool keepdims, out o) const;
};
inline constexpr all_t all{};

// Variance and standard deviation, with NumPy's ddof (divisor n - ddof). Complex inputs give real
// results (|x - mean|^2).
array var(const array& a, axes axis = {}, double ddof = 0, bool keepdims = false,
          reduce_dtype dt = std::nullopt);
array var(array&& a, axes axis = {}, double ddof = 0, bool keepdims = false, reduce_dtype dt = std::nullopt);
array std(const array& a, axes axis = {}, double ddof = 0, bool keepdims = false,
          reduce_dtype dt = std::nullopt);
array std(array&& a, axes axis = {}, double ddof = 0, bool keepdims = false, reduce_dtype dt = std::nullopt);
array nanvar(const array& a, axes axis = {}, double ddof = 0, bool keepdims = false,
             reduce_dtype dt = std::nullopt);
array nanvar(array&& a, axes axis = {}, double ddof = 0, bool keepdims = false,
             reduce_dtype dt = std::nullopt);
array nanstd(const array& a, axes axis = {}, double ddof = 0, bool keepdims = false,
             reduce_dtype dt = std::nullopt);
array nanstd(array&& a, axes axis = {}, double ddof = 0, bool keepdims = false,
             reduce_dtype dt = std::nullopt);
array& var(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt, out o);
array& std(const array& a, axes axis, double ddof, bool keepdims, reduce_dtype dt, out o);

// Weighted average: sum(a * w) / sum(w) along axis; w has a's shape, or is 1-D along one axis.
array average(const array& a, axes axis = {}, bool keepdims = false);
array average(const array& a, axes axis, const array& weights, bool keepdims = false);

// Cumulative sum and product along one axis, or over the flattened array (nf::none).
array cumsum(const array& a, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt);
array cumprod(const array& a, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt);
inline array cumsum(const array& a, none_t, reduce_dtype dt = std::nullopt) {
  return cumsum(a, std::nullopt, dt);
}
inline array cumprod(const array& a, none_t, reduce_dtype dt = std::nullopt) {
  return cumprod(a, std::nullopt, dt);
}

namespace linalg {

// The order of a norm: a number p (1, 2, inf, -inf, 0, any p for vectors), or "fro" / "nuc".
class norm_order {
 public:
  norm_order() = default;  // NumPy's ord=None: 2-norm of a vector, Frobenius of a matrix
  template <class T>
  requires std::is_arithmetic_v<T> norm_order(T p) : p_(static_cast<double>(p)), set_(true) {}
  norm_order(std::string name) : name_(std::move(name)), set_(true) {}
  norm_order(const char* name) : name_(name), set_(true) {}
  bool is_default() const { return !set_; }
  bool is_named() const { return !name_.empty(); }
  double p() const { return p_; }
  std::string_view name() const { return name_; }

 private:
  double p_ = 2;
  std::string name_;
  bool set_ = false;
};

// numpy.linalg.norm: vector norms over one axis (or the flattened array when axis is none and
// the input is not 2-D), matrix norms over two axes ("fro", 1, -1, inf, -inf as fused reductions;
// 2, -2 and "nuc" from the singular values, which run the SVD at the call).
array norm(const array& x, norm_order ord = {}, axes axis = {}, bool keepdims = false);
array norm(array&& x, norm_order ord = {}, axes axis = {}, bool keepdims = false);

}  // namespace linalg

}  // namespace ndfuse
