// Shape manipulation with NumPy's names and meaning. Where NumPy returns a view, so does ndfuse:
// no copy of an evaluated array, and an index remap inside the fused kernel of an unevaluated one.
// (Value semantics make the difference invisible except for speed: nothing writes through a view.)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

// One dim may be -1 (inferred). A view when the strides allow (always for an unevaluated array);
// otherwise, as NumPy, a copy: written by the kernel that first needs it.
array reshape(const array& a, const shape_t& shape);
array ravel(const array& a);
array transpose(const array& a);  // reverses the axes
array transpose(const array& a, const std::vector<int>& axes);
array swapaxes(const array& a, int axis1, int axis2);
array moveaxis(const array& a, const std::vector<int>& source, const std::vector<int>& destination);
array moveaxis(const array& a, int source, int destination);
array squeeze(const array& a, axes axis = {});  // axis: none = every length-1 axis
array expand_dims(const array& a, const std::vector<int>& axis);
array expand_dims(const array& a, int axis);
array broadcast_to(const array& a, const shape_t& shape);
std::vector<array> broadcast_arrays(const std::vector<array>& arrays);

// The same views of a temporary (`nf::reshape(a * b, s)`): its handle goes once the view reads it,
// so a plan evaluated before the full expression ends fuses through it rather than writing it (a
// node a handle holds is written, DESIGN.md §3; docs/numpy-differences.md).
array reshape(array&& a, const shape_t& shape);
array ravel(array&& a);
array transpose(array&& a);
array transpose(array&& a, const std::vector<int>& axes);
array swapaxes(array&& a, int axis1, int axis2);
array moveaxis(array&& a, const std::vector<int>& source, const std::vector<int>& destination);
array moveaxis(array&& a, int source, int destination);
array squeeze(array&& a, axes axis = {});
array expand_dims(array&& a, const std::vector<int>& axis);
array expand_dims(array&& a, int axis);
array broadcast_to(array&& a, const shape_t& shape);
array atleast_1d(const array& a);
array atleast_2d(const array& a);
array atleast_3d(const array& a);

array flip(const array& a, axes axis = {});  // axis: none = every axis
array fliplr(const array& a);
array flipud(const array& a);
array flip(array&& a, axes axis = {});
array rot90(const array& a, int k = 1, const std::vector<int>& axes = {0, 1});

array diagonal(const array& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);
array diagonal(array&& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);
// diag(v): a 1-D v gives the 2-D array with v on diagonal k; a 2-D v gives its diagonal k.
array diag(const array& v, std::int64_t k = 0);
array trace(const array& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1,
            std::optional<dtype> dt = std::nullopt);
array tril(const array& m, std::int64_t k = 0);
array triu(const array& m, std::int64_t k = 0);

// Coordinate arrays: meshgrid's indexing is "xy" (default) or "ij"; indices' dtype defaults to int64.
std::vector<array> meshgrid(const std::vector<array>& xi, const std::string& indexing = "xy");
array indices(const shape_t& dimensions, dtype dt = dtype::int64);

// A new array with the same values. Lazy: a kernel writes it (contiguously) when it is evaluated;
// `transpose(a).copy()` is a transposing copy.
array copy(const array& a);
array ascontiguousarray(const array& a);

// Splitting: views along `axis`. `sections` must divide the axis (split) or need not (array_split);
// `indices` are the split points, as NumPy's list form.
std::vector<array> split(const array& a, std::int64_t sections, int axis = 0);
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices, int axis = 0);
std::vector<array> array_split(const array& a, std::int64_t sections, int axis = 0);
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices, int axis = 0);

// tile(a, reps) and repeat(a, repeats, axis): one kernel writes the result (a broadcast reshaped).
array tile(const array& a, const std::vector<std::int64_t>& reps);
array tile(const array& a, std::int64_t reps);
array repeat(const array& a, std::int64_t repeats, std::optional<int> axis = std::nullopt);

}  // namespace ndfuse

namespace ndfuse {

// Joining. The result dtype is the arrays' common dtype (NumPy's result_type); shapes must match
// except along `axis`. One kernel computes the whole result: each piece is read only inside its
// own region, and the pieces' producers fuse into it.
array concatenate(const std::vector<array>& arrays, int axis = 0);
array concatenate(const std::vector<array>& arrays, none_t);  // each flattened first
array stack(const std::vector<array>& arrays, int axis = 0);
array hstack(const std::vector<array>& arrays);
array vstack(const std::vector<array>& arrays);
array dstack(const std::vector<array>& arrays);
array column_stack(const std::vector<array>& arrays);

// np.pad with mode "constant" (constant_value), "edge" or "reflect". pad_width is per axis
// (before, after); one pair applies to every axis.
array pad(const array& a, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
          const std::string& mode = "constant", scalar constant_value = 0);
array pad(const array& a, std::int64_t pad_width, const std::string& mode = "constant",
          scalar constant_value = 0);

// np.roll: elements shifted along axis (with wrap-around); without an axis, over the flattened array.
array roll(const array& a, std::int64_t shift, std::optional<int> axis = std::nullopt);

}  // namespace ndfuse
