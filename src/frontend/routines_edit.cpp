// delete_, insert, resize, rollaxis, row_stack, trim_zeros, diagflat, sort_complex, real_if_close
// and lexsort (include/ndfuse/routines.hpp), as NumPy's lib/_function_base_impl.py and
// _core/fromnumeric.py compute them. The index lists NumPy builds in Python are built here on the
// host, and the result is one gather of them (its positions known in range, so nothing is read back).
#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "frontend/composite_support.hpp"
#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/view.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/routines.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse {

namespace {

// NumPy's "if axis is None: arr = arr.ravel()": the array and the axis the edit works along.
std::pair<array, int> edit_axis(const array& arr, std::optional<int> axis, const char* op) {
  if (!axis) return {arr.ndim() == 1 ? arr : ravel(arr), 0};
  return {arr, frontend::normalized_axis(*axis, arr.ndim(), op)};
}

// The positions `at` (int64, each in [0, n)) of a along axis, as one gather.
array gather_along(const array& a, int axis, const std::vector<std::int64_t>& at) {
  const std::int64_t n = a.shape()[axis];
  array idx = asarray(at);
  if (!at.empty()) frontend::known_range(idx, 0, std::max<std::int64_t>(n - 1, 0));
  return take(a, idx, axis);
}

// The positions a slice selects from n (Python's range(*slice.indices(n))).
std::vector<std::int64_t> slice_positions(const slice& s, std::int64_t n, const char* op) {
  if (s.step.value_or(1) == 0) throw value_error(std::string(op) + ": slice step cannot be zero");
  const frontend::slice_span span = frontend::resolve_slice(s, n);
  std::vector<std::int64_t> out;
  for (std::int64_t k = 0; k < span.length; ++k) out.push_back(span.start + k * span.step);
  return out;
}

std::string out_of_bounds(std::int64_t index, int axis, std::int64_t n) {
  return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
         " with size " + std::to_string(n);
}

array delete_positions(const array& a, int axis, const std::vector<std::int64_t>& gone, const char* op) {
  const std::int64_t n = a.shape()[axis];
  std::vector<bool> keep(static_cast<std::size_t>(n), true);
  for (std::int64_t i : gone) {
    if (i < -n || i >= n) throw index_error(std::string(op) + ": " + out_of_bounds(i, axis, n));
    keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = false;
  }
  std::vector<std::int64_t> at;
  for (std::int64_t i = 0; i < n; ++i)
    if (keep[static_cast<std::size_t>(i)]) at.push_back(i);
  return gather_along(a, axis, at);
}

// An index array's values on the host (integers), or its true positions (a bool mask).
std::vector<std::int64_t> host_indices(const array& obj, std::int64_t n, const char* op, bool* was_mask) {
  *was_mask = obj.dtype() == dtype::bool_;
  if (*was_mask) {
    if (obj.ndim() != 1 || (std::string(op) == "delete" && obj.size() != n))
      throw value_error(
          std::string(op) + ": boolean array argument obj must be one dimensional" +
          (std::string(op) == "delete" ? " and match the axis length of " + std::to_string(n) : ""));
    return flatnonzero(obj).to_vector<std::int64_t>();
  }
  if (!is_integer(obj.dtype()) && obj.size() > 0)
    throw index_error(std::string(op) + ": arrays used as indices must be of integer (or boolean) type");
  if (obj.ndim() > 1)
    throw value_error(std::string(op) + ": index array argument obj must be one dimensional or scalar");
  return obj.size() == 0 ? std::vector<std::int64_t>{} : obj.astype(dtype::int64).to_vector<std::int64_t>();
}

}  // namespace

array delete_(const array& arr, std::int64_t obj, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr);
  const auto [a, ax] = edit_axis(arr, axis, "delete");
  return delete_positions(a, ax, {obj}, "delete");
}

array delete_(const array& arr, const std::vector<std::int64_t>& obj, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr);
  const auto [a, ax] = edit_axis(arr, axis, "delete");
  return delete_positions(a, ax, obj, "delete");
}

array delete_(const array& arr, const array& obj, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr, obj);
  const auto [a, ax] = edit_axis(arr, axis, "delete");
  bool mask = false;
  const std::vector<std::int64_t> at = host_indices(obj, a.shape()[ax], "delete", &mask);
  return delete_positions(a, ax, at, "delete");
}

array delete_(const array& arr, const slice& obj, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr);
  const auto [a, ax] = edit_axis(arr, axis, "delete");
  return delete_positions(a, ax, slice_positions(obj, a.shape()[ax], "delete"), "delete");
}

namespace {

// NumPy's insert of a single index: values (at least arr's ndim, their first axis moved to `axis`
// when the index was a scalar) between arr[:index] and arr[index:].
array insert_block(const array& a, int axis, std::int64_t index, const array& values_in, bool scalar_index) {
  const std::int64_t n = a.shape()[axis];
  if (index < -n || index > n) throw index_error("insert: " + out_of_bounds(index, axis, n));
  if (index < 0) index += n;
  array values = values_in.astype(a.dtype());
  while (values.ndim() < a.ndim()) values = expand_dims(values, 0);
  if (scalar_index) values = moveaxis(values, 0, axis);
  shape_t block = a.shape();
  block[axis] = values.shape()[axis];
  values = broadcast_to(values, block);
  std::vector<index_item> head(static_cast<std::size_t>(a.ndim()), all), tail = head;
  head[axis] = slice(0, index);
  tail[axis] = slice(index, n);
  return concatenate({ndfuse::index(a, head), values, ndfuse::index(a, tail)}, axis);
}

// NumPy's insert of a list of indices: one value per index, the indices sorted stably and shifted
// past the values inserted before them.
array insert_list(const array& a, int axis, std::vector<std::int64_t> at, const array& values_in) {
  const std::int64_t n = a.shape()[axis];
  for (auto& i : at) {
    if (i < -n || i > n) throw index_error("insert: " + out_of_bounds(i, axis, n));
    if (i < 0) i += n;
  }
  const std::int64_t added = static_cast<std::int64_t>(at.size());
  std::vector<std::int64_t> order(at.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto l, auto r) { return at[l] < at[r]; });
  // Position in the result of each inserted value, and the source of every result position: old
  // elements are 0..n-1 of [a, values], inserted ones n + k.
  std::vector<std::int64_t> source(static_cast<std::size_t>(n + added), -1);
  for (std::int64_t rank = 0; rank < added; ++rank) {
    const std::int64_t k = order[rank];
    source[static_cast<std::size_t>(at[k] + rank)] = n + k;
  }
  std::int64_t next = 0;
  for (auto& s : source)
    if (s < 0) s = next++;
  shape_t block = a.shape();
  block[axis] = added;
  const array values = broadcast_to(values_in.astype(a.dtype()), block);
  array joined = concatenate({a, values}, axis);
  array idx = asarray(source);
  frontend::known_range(idx, 0, n + added - 1);
  return take(joined, idx, axis);
}

}  // namespace

array insert(const array& arr, std::int64_t obj, const array& values, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr, values);
  const auto [a, ax] = edit_axis(arr, axis, "insert");
  return insert_block(a, ax, obj, values, true);
}

array insert(const array& arr, const std::vector<std::int64_t>& obj, const array& values,
             std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr, values);
  const auto [a, ax] = edit_axis(arr, axis, "insert");
  if (obj.size() == 1) return insert_block(a, ax, obj[0], values, false);
  return insert_list(a, ax, obj, values);
}

array insert(const array& arr, const array& obj, const array& values, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr, obj, values);
  const auto [a, ax] = edit_axis(arr, axis, "insert");
  bool mask = false;
  const std::vector<std::int64_t> at = host_indices(obj, a.shape()[ax], "insert", &mask);
  if (at.size() == 1) return insert_block(a, ax, at[0], values, obj.ndim() == 0 && !mask);
  return insert_list(a, ax, at, values);
}

array insert(const array& arr, const slice& obj, const array& values, std::optional<int> axis) {
  const frontend::operands_device on_their_device(arr, values);
  const auto [a, ax] = edit_axis(arr, axis, "insert");
  const std::vector<std::int64_t> at = slice_positions(obj, a.shape()[ax], "insert");
  if (at.size() == 1) return insert_block(a, ax, at[0], values, false);
  return insert_list(a, ax, at, values);
}

array resize(const array& a, const shape_t& new_shape) {
  const frontend::operands_device on_their_device(a);
  std::int64_t size = 1;
  for (auto d : new_shape) {
    if (d < 0) throw value_error("resize: all elements of `new_shape` must be non-negative");
    size *= d;
  }
  const array flat = ravel(a);
  if (flat.size() == 0 || size == 0) return zeros(new_shape, a.dtype());
  array at = remainder(arange(size), flat.size());
  frontend::known_range(at, 0, flat.size() - 1);
  return take(flat, at).reshape(new_shape);
}

array rollaxis(const array& a, int axis, int start) {
  const int n = static_cast<int>(a.ndim());
  const int ax = frontend::normalized_axis(axis, n, "rollaxis");
  if (start < 0) start += n;
  if (!(0 <= start && start < n + 1))
    throw shape_error("rollaxis: 'start' arg requires " + std::to_string(-n) + " <= start < " +
                      std::to_string(n + 1) + ", but " + std::to_string(start) + " was passed in");
  if (ax < start) --start;
  if (ax == start) return a;
  std::vector<int> axes;
  for (int i = 0; i < n; ++i)
    if (i != ax) axes.push_back(i);
  axes.insert(axes.begin() + start, ax);
  return transpose(a, axes);
}

array row_stack(const std::vector<array>& arrays) {
  return vstack(arrays);
}

array trim_zeros(const array& filt, std::string_view trim, std::optional<std::vector<int>> axis) {
  const frontend::operands_device on_their_device(filt);
  std::string t(trim);
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (t != "fb" && t != "bf" && t != "f" && t != "b")
    throw value_error("trim_zeros: unexpected character(s) in `trim`: '" + std::string(trim) + "'");
  const int nd = static_cast<int>(filt.ndim());
  std::vector<bool> trimmed(static_cast<std::size_t>(nd), !axis);
  if (axis)
    for (int a : *axis) trimmed[frontend::normalized_axis(a, nd, "trim_zeros")] = true;
  if (nd == 0 || std::none_of(trimmed.begin(), trimmed.end(), [](bool b) { return b; })) return filt;
  // The box of the nonzero values: argwhere's min and max per axis.
  const array nz = argwhere(filt);
  std::vector<std::int64_t> lo(nd, 0), hi(nd, 0);
  if (nz.shape()[0] > 0) {
    const auto mins = min(nz, 0).to_vector<std::int64_t>(), maxs = max(nz, 0).to_vector<std::int64_t>();
    for (int i = 0; i < nd; ++i) {
      lo[i] = t.find('f') != std::string::npos ? mins[i] : 0;
      hi[i] = t.find('b') != std::string::npos ? maxs[i] + 1 : filt.shape()[i];
    }
  }
  std::vector<index_item> items;
  for (int i = 0; i < nd; ++i)
    items.push_back(trimmed[i] ? index_item(slice(lo[i], hi[i])) : index_item(all));
  return ndfuse::index(filt, items);
}

array diagflat(const array& v, std::int64_t k) {
  const frontend::operands_device on_their_device(v);
  return diag(ravel(v), k);
}

array sort_complex(const array& a) {
  const array s = sort(a, -1);
  if (is_complex(s.dtype())) return s;
  const dtype t = s.dtype();
  const bool small = t == dtype::int8 || t == dtype::uint8 || t == dtype::int16 || t == dtype::uint16;
  return s.astype(small ? dtype::complex64 : dtype::complex128);
}

array real_if_close(const array& a, double tol) {
  if (!is_complex(a.dtype())) return a;
  if (tol > 1)
    tol *= a.dtype() == dtype::complex64 ? std::numeric_limits<float>::epsilon()
                                         : std::numeric_limits<double>::epsilon();
  return all(less(abs(imag(a)), tol)).item<bool>() ? real(a) : a;
}

array lexsort(const std::vector<array>& keys, int axis) {
  if (keys.empty()) throw dtype_error("lexsort: need sequence of keys with len > 0 in lexsort");
  for (const auto& k : keys)
    if (k.shape() != keys[0].shape()) throw value_error("lexsort: all keys need to be the same shape");
  if (keys[0].ndim() == 0) return zeros({}, dtype::int64);
  const int ax = frontend::normalized_axis(axis, keys[0].ndim(), "lexsort");
  // The last key is the primary one: stable sorts from the first key to the last.
  array order = argsort(keys[0], ax);
  for (std::size_t i = 1; i < keys.size(); ++i)
    order = take_along_axis(order, argsort(take_along_axis(keys[i], order, ax), ax), ax);
  return order;
}

array lexsort(const array& keys, int axis) {
  std::vector<array> rows;
  for (std::int64_t i = 0; i < (keys.ndim() == 0 ? 0 : keys.shape()[0]); ++i) rows.push_back(keys(i));
  return lexsort(rows, axis);
}

}  // namespace ndfuse
