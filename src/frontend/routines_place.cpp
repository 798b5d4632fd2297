// Index helpers, extract, place, putmask, put_along_axis, copyto, fill_diagonal and choose
// (include/ndfuse/routines.hpp). The writes rebind their target to a new array, as every ndfuse
// write does: other handles to the old values keep them.
#include <algorithm>
#include <string>

#include "frontend/composite_support.hpp"
#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/routines.hpp"

namespace ndfuse {

std::vector<array> diag_indices_from(const array& arr) {
  const frontend::operands_device on_their_device(arr);
  if (arr.ndim() < 2) throw value_error("diag_indices_from: input array must be at least 2-d");
  for (auto d : arr.shape())
    if (d != arr.shape()[0])
      throw value_error("diag_indices_from: All dimensions of input must be of equal length");
  return diag_indices(arr.shape()[0], static_cast<int>(arr.ndim()));
}

std::vector<array> tril_indices_from(const array& arr, std::int64_t k) {
  const frontend::operands_device on_their_device(arr);
  if (arr.ndim() != 2) throw value_error("tril_indices_from: input array must be 2-d");
  return tril_indices(arr.shape()[0], k, arr.shape()[1]);
}

std::vector<array> triu_indices_from(const array& arr, std::int64_t k) {
  const frontend::operands_device on_their_device(arr);
  if (arr.ndim() != 2) throw value_error("triu_indices_from: input array must be 2-d");
  return triu_indices(arr.shape()[0], k, arr.shape()[1]);
}

std::vector<array> mask_indices(std::int64_t n,
                                const std::function<array(const array&, std::int64_t)>& mask_func,
                                std::int64_t k) {
  return nonzero(not_equal(mask_func(ones({n, n}, dtype::int64), k), 0));
}

std::vector<array> ix_(const std::vector<array>& args) {
  std::vector<array> out;
  const std::size_t nd = args.size();
  for (std::size_t k = 0; k < nd; ++k) {
    array a = args[k];
    if (a.ndim() != 1) throw value_error("ix_: Cross index must be 1 dimensional");
    if (a.dtype() == dtype::bool_) a = flatnonzero(a);
    if (a.size() == 0) a = a.astype(dtype::int64);
    shape_t s(nd, 1);
    s[k] = a.size();
    out.push_back(a.reshape(s));
  }
  return out;
}

array extract(const array& condition, const array& arr) {
  return take(ravel(arr), flatnonzero(condition));
}

void place(array& arr, const array& mask, const array& vals) {
  const frontend::operands_device on_their_device(arr, mask, vals);
  if (mask.size() != arr.size()) throw value_error("place: mask and data must be the same size");
  const array at = flatnonzero(mask);
  if (at.size() == 0) return;
  if (vals.size() == 0) throw value_error("place: Cannot insert from an empty array!");
  put(arr, at, ravel(vals));
}

void putmask(array& a, const array& mask, const array& values) {
  const frontend::operands_device on_their_device(a, mask, values);
  if (mask.size() != a.size()) throw value_error("putmask: mask and data must be the same size");
  const std::int64_t nv = values.size();
  if (nv == 0 || a.size() == 0) return;
  array at = remainder(arange(a.size()), nv);
  frontend::known_range(at, 0, nv - 1);
  const array repeated = take(ravel(values).astype(a.dtype()), at).reshape(a.shape());
  a = where(mask.astype(dtype::bool_).reshape(a.shape()), repeated, a);
}

void put_along_axis(array& arr, const array& indices, const array& values, int axis) {
  const frontend::operands_device on_their_device(arr, indices, values);
  if (indices.ndim() != arr.ndim())
    throw value_error("put_along_axis: `indices` and `arr` must have the same number of dimensions");
  if (!is_integer(indices.dtype())) throw index_error("put_along_axis: `indices` must be an integer array");
  const int ax = frontend::normalized_axis(axis, arr.ndim(), "put_along_axis");
  // NumPy's _make_along_axis_idx: the indices on `axis`, aranges broadcast on the others.
  std::vector<index_item> items;
  for (int d = 0; d < static_cast<int>(arr.ndim()); ++d) {
    if (d == ax) {
      items.emplace_back(indices);
      continue;
    }
    shape_t s(static_cast<std::size_t>(arr.ndim()), 1);
    s[d] = arr.shape()[d];
    items.emplace_back(arange(arr.shape()[d]).reshape(s));
  }
  assign_index(arr, items, values);
}

void copyto(array& dst, const array& src, casting rule, const std::optional<array>& where_mask) {
  const frontend::operands_device on_their_device(dst, src, where_mask);
  if (!can_cast(src.dtype(), dst.dtype(), rule))
    throw dtype_error("copyto: Cannot cast array data from dtype('" + std::string(dtype_name(src.dtype())) +
                      "') to dtype('" + std::string(dtype_name(dst.dtype())) + "') according to the rule");
  const array value = broadcast_to(src, dst.shape()).astype(dst.dtype());
  if (!where_mask) {
    dst = value;
    return;
  }
  if (where_mask->dtype() != dtype::bool_)
    throw dtype_error("copyto: where must be a bool array (NumPy: TypeError)");
  dst = where(broadcast_to(*where_mask, dst.shape()), value, dst);
}

void fill_diagonal(array& a, const array& val, bool wrap) {
  const frontend::operands_device on_their_device(a, val);
  if (a.ndim() < 2) throw value_error("fill_diagonal: array must be at least 2-d");
  std::int64_t step = 0, end = a.size();
  if (a.ndim() == 2) {
    step = a.shape()[1] + 1;
    if (!wrap) end = std::min(end, a.shape()[1] * a.shape()[1]);
  } else {
    for (auto d : a.shape())
      if (d != a.shape()[0])
        throw value_error("fill_diagonal: All dimensions of input must be of equal length");
    std::int64_t prod = 1;
    step = 1;
    for (std::size_t i = 0; i + 1 < a.shape().size(); ++i) step += (prod *= a.shape()[i]);
  }
  if (end <= 0 || val.size() == 0) return;
  put(a, arange(0, end, step), ravel(val).astype(a.dtype()));
}

void fill_diagonal(array& a, scalar val, bool wrap) {
  const frontend::operands_device on_their_device(a);
  fill_diagonal(a, full({1}, val, a.dtype()), wrap);
}

array choose(const array& a, const std::vector<array>& choices, std::string_view mode) {
  if (choices.empty()) throw value_error("choose: 0-length sequence.");
  if (!is_integer(a.dtype()) && a.dtype() != dtype::bool_)
    throw dtype_error("choose: Cannot cast array data from dtype('" + std::string(dtype_name(a.dtype())) +
                      "') to dtype('int64') according to the rule 'safe'");
  const std::int64_t n = static_cast<std::int64_t>(choices.size());
  array k = a.astype(dtype::int64);
  if (mode == "raise") {
    if (a.size() > 0 && (min(k).item<std::int64_t>() < 0 || max(k).item<std::int64_t>() >= n))
      throw value_error("choose: invalid entry in choice array");
  } else if (mode == "wrap") {
    k = remainder(k, n);
  } else if (mode == "clip") {
    k = clip(k, 0, n - 1);
  } else {
    throw value_error("choose: clipmode must be one of 'clip', 'raise', or 'wrap'");
  }
  dtype t = choices[0].dtype();
  for (const auto& c : choices) t = promote_types(t, c.dtype());
  array out = choices[n - 1].astype(t);
  for (std::int64_t i = n - 2; i >= 0; --i) out = where(equal(k, i), choices[i].astype(t), out);
  return broadcast_to(out,
                      broadcast_shapes(k.shape(), out.shape(), "choose"));  // one choice: still k's shape
}

}  // namespace ndfuse
