// NumPy's array routines written in Python over indexing: deleting and inserting, placing and
// filling, choosing, index helpers, and applying a function along axes. Each builds views, gathers
// and fused elementwise work; index lists NumPy computes in Python are computed on the host.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/index.hpp"

namespace ndfuse {

// arr without the entries at `obj` along `axis` (of the flattened arr without one): one index, a
// list, an integer array or a bool mask of the axis's length, or a slice. An index out of range
// throws index_error. (NumPy's delete; `delete` is a C++ keyword.)
array delete_(const array& arr, std::int64_t obj, std::optional<int> axis = std::nullopt);
array delete_(const array& arr, const std::vector<std::int64_t>& obj, std::optional<int> axis = std::nullopt);
array delete_(const array& arr, const array& obj, std::optional<int> axis = std::nullopt);
array delete_(const array& arr, const slice& obj, std::optional<int> axis = std::nullopt);
// arr with `values` (cast to arr's dtype, broadcast) inserted before the given indices along
// `axis` (of the flattened arr without one). One index inserts all of values there (values' first
// axis laid along `axis`); a list inserts one value per index, as NumPy's.
array insert(const array& arr, std::int64_t obj, const array& values, std::optional<int> axis = std::nullopt);
array insert(const array& arr, const std::vector<std::int64_t>& obj, const array& values,
             std::optional<int> axis = std::nullopt);
array insert(const array& arr, const array& obj, const array& values, std::optional<int> axis = std::nullopt);
array insert(const array& arr, const slice& obj, const array& values, std::optional<int> axis = std::nullopt);

// NumPy's resize: a's flattened values repeated to fill new_shape (zeros when a is empty).
array resize(const array& a, const shape_t& new_shape);
// a with `axis` moved to before position `start` (NumPy's older moveaxis).
array rollaxis(const array& a, int axis, int start = 0);
array row_stack(const std::vector<array>& arrays);  // vstack
// The 1-D filt without its leading ("f"), trailing ("b") or both ("fb") zeros; an n-d filt is
// trimmed to the box of its nonzero values, along `axis` or every axis.
array trim_zeros(const array& filt, std::string_view trim = "fb",
                 std::optional<std::vector<int>> axis = std::nullopt);
// v flattened onto diagonal k of a 2-D array.
array diagflat(const array& v, std::int64_t k = 0);
// Sorted along the last axis and made complex (complex64 for 8- and 16-bit integers, complex128
// otherwise).
array sort_complex(const array& a);
// a's real part where every imaginary part is below tol (tol > 1: tol machine epsilons); else a.
array real_if_close(const array& a, double tol = 100);

// Lexicographic sort: indices ordering by the last key first, then the others (each key one array
// of the same shape), along `axis`; stable.
array lexsort(const std::vector<array>& keys, int axis = -1);
array lexsort(const array& keys, int axis = -1);  // the rows of keys are the keys

// Index helpers.
std::vector<array> diag_indices_from(const array& arr);
std::vector<array> tril_indices_from(const array& arr, std::int64_t k = 0);
std::vector<array> triu_indices_from(const array& arr, std::int64_t k = 0);
// nonzero(mask_func(ones((n, n)), k) != 0): the indices of a mask such as nf::triu's.
std::vector<array> mask_indices(std::int64_t n,
                                const std::function<array(const array&, std::int64_t)>& mask_func,
                                std::int64_t k = 0);
// Open meshes: each 1-D sequence (a bool one: its nonzero indices) shaped to broadcast against the
// others along its own axis.
std::vector<array> ix_(const std::vector<array>& args);

// Reading and writing by condition. extract: arr's values where condition is nonzero (both
// flattened). place: arr's elements where mask holds take vals in turn, repeated. putmask: a's
// element n takes values[n % len(values)] where mask holds. put_along_axis: arr rebound with
// values at indices along axis (take_along_axis's inverse). copyto: dst rebound to src (cast with
// `casting`, dtype_error where that refuses) where `where` holds. fill_diagonal: a's main diagonal
// (of a 2-D array, or an n-d array of equal dims) set to val, repeated; wrap continues past a tall
// matrix's first square.
array extract(const array& condition, const array& arr);
void place(array& arr, const array& mask, const array& vals);
void putmask(array& a, const array& mask, const array& values);
void put_along_axis(array& arr, const array& indices, const array& values, int axis);
void copyto(array& dst, const array& src, casting rule = casting::same_kind,
            const std::optional<array>& where = std::nullopt);
void fill_diagonal(array& a, const array& val, bool wrap = false);
void fill_diagonal(array& a, scalar val, bool wrap = false);

// choices[a] elementwise, a and the choices broadcast together; mode "raise" (an entry outside
// [0, n) throws value_error), "wrap" (modulo n) or "clip".
array choose(const array& a, const std::vector<array>& choices, std::string_view mode = "raise");

// The values of each piece where its condition holds (later conditions win), zero elsewhere; a
// piece is a value or a function of x's selected elements. One piece more than conditions: it
// applies where no condition holds.
using piece = std::variant<scalar, std::function<array(const array&)>>;
array piecewise(const array& x, const std::vector<array>& condlist, const std::vector<piece>& funclist);

// f of the coordinate arrays (indices(shape), of dtype t): f takes a std::vector<array>, or one
// array per dimension (up to 4).
template <class F>
array fromfunction(F&& f, const shape_t& shape, dtype t = dtype::float64);
// func1d applied to every 1-D slice along `axis`; its results (all of one shape) take the axis's
// place. Throws value_error when there is no slice (a zero-length other dimension).
array apply_along_axis(const std::function<array(const array&)>& func1d, int axis, const array& arr);
// func(a, axis) for each axis in turn, each result (keeping or dropping that axis) reshaped to keep it.
array apply_over_axes(const std::function<array(const array&, int)>& func, const array& a,
                      const std::vector<int>& axes);

namespace detail {
std::vector<array> coordinate_arrays(const shape_t& shape, dtype t);
[[noreturn]] void fromfunction_arity(std::size_t ndim);
}  // namespace detail

template <class F>
array fromfunction(F&& f, const shape_t& shape, dtype t) {
  const std::vector<array> c = detail::coordinate_arrays(shape, t);
  if constexpr (std::is_invocable_r_v<array, F, const std::vector<array>&>) {
    return f(c);
  } else {
    if constexpr (std::is_invocable_r_v<array, F, const array&>)
      if (c.size() == 1) return f(c[0]);
    if constexpr (std::is_invocable_r_v<array, F, const array&, const array&>)
      if (c.size() == 2) return f(c[0], c[1]);
    if constexpr (std::is_invocable_r_v<array, F, const array&, const array&, const array&>)
      if (c.size() == 3) return f(c[0], c[1], c[2]);
    if constexpr (std::is_invocable_r_v<array, F, const array&, const array&, const array&, const array&>)
      if (c.size() == 4) return f(c[0], c[1], c[2], c[3]);
    detail::fromfunction_arity(c.size());
  }
}

}  // namespace ndfuse
