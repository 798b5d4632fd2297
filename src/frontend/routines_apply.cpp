// piecewise, fromfunction, apply_along_axis and apply_over_axes (include/ndfuse/routines.hpp): a
// user's function called on views, as NumPy's Python loops call it; what it builds stays lazy.
#include <string>

#include "frontend/composite_support.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/routines.hpp"

namespace ndfuse {

array piecewise(const array& x, const std::vector<array>& condlist_in, const std::vector<piece>& funclist) {
  const frontend::operands_device on_their_device(x, condlist_in);
  std::vector<array> conds;
  for (const auto& c : condlist_in) conds.push_back(broadcast_to(c.astype(dtype::bool_), x.shape()));
  const std::size_t n = conds.size();
  if (funclist.size() == n + 1) {
    array any_holds = zeros(x.shape(), dtype::bool_);
    for (const auto& c : conds) any_holds = any_holds | c;
    conds.push_back(logical_not(any_holds));
  } else if (funclist.size() != n) {
    throw value_error("piecewise: with " + std::to_string(n) + " condition(s), either " + std::to_string(n) +
                      " or " + std::to_string(n + 1) + " functions are expected");
  }
  array y = zeros_like(x);
  for (std::size_t i = 0; i < conds.size(); ++i) {
    if (const auto* value = std::get_if<scalar>(&funclist[i])) {
      y = where(conds[i], full({}, *value, x.dtype()), y);
      continue;
    }
    // The function sees only the selected elements, as NumPy's x[cond].
    const array vals = ndfuse::index(x, {conds[i]});
    if (vals.size() == 0) continue;
    assign_index(y, {conds[i]}, std::get<std::function<array(const array&)>>(funclist[i])(vals));
  }
  return y;
}

namespace detail {

std::vector<array> coordinate_arrays(const shape_t& shape, dtype t) {
  const array grid = indices(shape, t);
  std::vector<array> out;
  for (std::size_t i = 0; i < shape.size(); ++i) out.push_back(grid(static_cast<std::int64_t>(i)));
  return out;
}

void fromfunction_arity(std::size_t ndim) {
  throw value_error("fromfunction: the function takes neither a std::vector<nf::array> nor " +
                    std::to_string(ndim) + " arrays (one per dimension of the shape)");
}

}  // namespace detail

array apply_along_axis(const std::function<array(const array&)>& func1d, int axis, const array& arr) {
  const int nd = static_cast<int>(arr.ndim());
  const int ax = frontend::normalized_axis(axis, nd, "apply_along_axis");
  const array moved = moveaxis(arr, ax, -1);
  shape_t outer = moved.shape();
  outer.pop_back();
  std::int64_t count = 1;
  for (auto d : outer) count *= d;
  if (count == 0)
    throw value_error("apply_along_axis: Cannot apply_along_axis when any iteration dimensions are 0");
  const array rows = moved.reshape({count, moved.shape().back()});
  std::vector<array> results;
  for (std::int64_t i = 0; i < count; ++i) {
    results.push_back(func1d(rows(i)));
    if (results.back().shape() != results.front().shape())
      throw value_error("apply_along_axis: the function's results must all have one shape");
  }
  const shape_t res = results.front().shape();
  shape_t full_shape = outer;
  full_shape.insert(full_shape.end(), res.begin(), res.end());
  array buff = stack(results, 0).reshape(full_shape);
  // The result's own dimensions take the place of `axis`, as NumPy's buff_permute.
  std::vector<int> perm;
  const int outer_nd = static_cast<int>(outer.size()), res_nd = static_cast<int>(res.size());
  for (int i = 0; i < ax; ++i) perm.push_back(i);
  for (int i = 0; i < res_nd; ++i) perm.push_back(outer_nd + i);
  for (int i = ax; i < outer_nd; ++i) perm.push_back(i);
  return transpose(buff, perm);
}

array apply_over_axes(const std::function<array(const array&, int)>& func, const array& a_in,
                      const std::vector<int>& axes) {
  array a = a_in;
  const int n = static_cast<int>(a.ndim());
  for (int axis : axes) {
    const int ax = axis < 0 ? axis + n : axis;
    array res = func(a, ax);
    if (res.ndim() == a.ndim()) {
      a = res;
    } else if (res.ndim() == a.ndim() - 1) {
      a = expand_dims(res, ax);
    } else {
      throw value_error("apply_over_axes: function is not returning an array of the correct shape");
    }
  }
  return a;
}

}  // namespace ndfuse
