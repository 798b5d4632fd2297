// Advanced indexing. x(idx...) resolves to a basic view of x (every array position kept whole),
// then a gather node over that view: the fused kernel loads the view's buffer at the strided
// offset of the other axes plus idx_j * stride_j, so x(idx) * 2 is one kernel. A bool mask becomes
// the coordinate arrays of its true elements (NumPy's rule), which needs their count at the call.
// x(idx...) = v is a scatter library call on a copy of x, with the element offsets and the values
// computed by one fused kernel.
#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>

#include "frontend/view.hpp"
#include "ndfuse/config.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::frontend {

bool has_array(const std::vector<index_item>& items) {
  return std::any_of(items.begin(), items.end(),
                     [](const index_item& i) { return i.kind == index_kind::array; });
}

node_ptr contiguous_operand(const array& x) {
  const auto& xn = checked(x, "library call");
  if (xn->materialized() && !ir::has_contiguous_strides(xn->shape, xn->strides)) return lazy_copy(x).node();
  return xn;
}

array library_node(const ir::library_call& c, dtype out, const std::vector<array>& inputs,
                   const shape_t& shape) {
  std::vector<node_ptr> operands;
  for (const auto& in : inputs) operands.push_back(contiguous_operand(in));
  auto n = make_node(ir::op_code::library, out, std::move(operands), shape);
  n->params().library = c;
  return finish(std::move(n));
}

namespace {

std::string out_of_bounds(std::int64_t i, std::int64_t axis, std::int64_t n) {
  return "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
         std::to_string(n);
}

// idx (shape index_shape) as an operand of a node of shape `to`: its dims lead, the rest broadcast.
array leading(const array& idx, const shape_t& to) {
  shape_t padded = idx.shape();
  padded.resize(to.size(), 1);
  return broadcast_to(reshape_view(idx, padded), to);
}

}  // namespace

std::pair<std::int64_t, std::int64_t> value_range(const array& x, bool exact) {
  const auto& n = checked(x, "value range");
  const std::lock_guard graph(ir::graph_mutex());  // the range is recorded on a shared node
  if (!n->range_known || (exact && n->range_is_bound)) {
    // Computed once per array, then remembered on its node (its values never change).
    array held = x;
    held.eval();
    // As int64 inside the reductions' epilogues: two kernels, no cast on the way to the host.
    // uint64 past int64's range saturates (it is out of range for any axis anyway).
    array lo = min(x), hi = max(x);
    if (n->dt == dtype::uint64) hi = minimum(hi, std::numeric_limits<std::int64_t>::max());
    lo = lo.astype(dtype::int64);
    hi = hi.astype(dtype::int64);
    eval(lo, hi);
    n->range_min = lo.item<std::int64_t>();
    n->range_max = hi.item<std::int64_t>();
    n->range_known = true;
    n->range_is_bound = false;
  }
  return {n->range_min, n->range_max};
}

array checked_indices(const array& idx, std::int64_t n, std::int64_t axis, const char* op) {
  const auto& in = checked(idx, op);
  if (!is_integer(in->dt))
    throw index_error(std::string(op) +
                      ": arrays used as indices must be of integer (or boolean) type, got " +
                      std::string(dtype_name(in->dt)));
  array i = idx.astype(dtype::int64);
  if (in->size() == 0) return i;
  auto [lo, hi] = value_range(idx);
  if (hi >= n || lo < -n) std::tie(lo, hi) = value_range(idx, true);  // a bound: the values decide
  if (hi >= n) throw index_error(std::string(op) + ": " + out_of_bounds(hi, axis, n));
  if (lo < -n) throw index_error(std::string(op) + ": " + out_of_bounds(lo, axis, n));
  if (lo < 0) i = where(less(i, 0), add(i, n), i);
  return i;
}

array gather(const array& src, const std::vector<int>& axes, const std::vector<array>& idx,
             const shape_t& index_shape) {
  const auto& sn = checked(src, "gather");
  shape_t shape = index_shape;
  for (std::size_t a = 0; a < sn->shape.size(); ++a)
    if (std::find(axes.begin(), axes.end(), static_cast<int>(a)) == axes.end()) shape.push_back(sn->shape[a]);
  std::vector<node_ptr> inputs{sn};
  for (const auto& i : idx) inputs.push_back(leading(i, shape).node());
  auto n = make_node(ir::op_code::gather, sn->dt, std::move(inputs), shape);
  n->params().gather_axes = axes;
  return finish(std::move(n));
}

array& known_range(array& a, std::int64_t lo, std::int64_t hi) {
  a.node()->range_known = true;
  a.node()->range_is_bound = true;
  a.node()->range_min = lo;
  a.node()->range_max = hi;
  return a;
}

array true_indices(const array& flags) {
  array held = flags;
  held.eval();  // written once, read by both the count and the compaction
  ir::library_call c;
  c.op = ir::library_op::flatnonzero;
  c.dt = dtype::bool_;
  c.rows = count_nonzero(held).item<std::int64_t>();
  c.length = held.size();
  array flat = library_node(c, dtype::int64, {held}, {c.rows});
  return known_range(flat, 0, std::max<std::int64_t>(c.length - 1, 0));
}

std::vector<array> nonzero_coordinates(const array& mask, const char* op) {
  const auto& mn = checked(mask, op);
  if (mn->shape.empty())
    throw shape_error(std::string(op) +
                      ": calling nonzero on 0d arrays is not allowed (as in NumPy 2); use "
                      "atleast_1d first");
  const array flat = true_indices(mn->dt == dtype::bool_ ? mask : not_equal(mask, 0));
  std::vector<array> coords;
  const auto strides = ir::contiguous_strides(mn->shape);
  for (std::size_t d = 0; d < mn->shape.size(); ++d) {
    array k = flat;
    if (d + 1 < mn->shape.size()) k = floor_divide(k, strides[d]);
    if (d > 0) k = remainder(k, mn->shape[d]);
    coords.push_back(std::move(known_range(k, 0, mn->shape[d] - 1)));
  }
  return coords;
}

namespace {

// An index with arrays, resolved: the basic view of x, the view dims the arrays index, and the
// arrays themselves (int64, in range, broadcast to index_shape).
struct advanced_index {
  std::vector<index_item> basic;  // x's items with each array position replaced by nf::all
  array view;
  std::vector<int> axes;
  std::vector<array> indices;
  shape_t index_shape;
  // NumPy's placement: index dims replace the indexed axes in place when those are adjacent,
  // else they lead. order[k] = the gather dim that result dim k is.
  std::vector<int> order;
  shape_t result_shape;
};

advanced_index resolve(const array& x, const std::vector<index_item>& items, const char* op) {
  const frontend::operands_device on_their_device(x);
  const auto& xn = checked(x, op);
  const std::int64_t nd = static_cast<std::int64_t>(xn->shape.size());
  std::int64_t consumed = 0;
  for (const auto& it : items) {
    if (it.kind == index_kind::array)
      consumed += it.arr.dtype() == dtype::bool_ ? it.arr.ndim() : 1;
    else if (it.kind != index_kind::newaxis && it.kind != index_kind::ellipsis)
      ++consumed;
  }
  if (consumed > nd)
    throw index_error(std::string(op) + ": too many indices for array: array is " + std::to_string(nd) +
                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  advanced_index r;
  std::vector<std::pair<int, array>> arrays;  // (view dim, indices before the range check)
  std::vector<std::int64_t> axis_of;          // x's axis each of them indexes
  std::int64_t in_dim = 0;
  int out_dim = 0;
  auto keep = [&](array idx) {
    r.basic.emplace_back(all);
    arrays.emplace_back(out_dim++, std::move(idx));
    axis_of.push_back(in_dim++);
  };
  for (const auto& it : items) {
    switch (it.kind) {
      case index_kind::newaxis:
        r.basic.push_back(it);
        ++out_dim;
        break;
      case index_kind::ellipsis:
        for (std::int64_t k = 0; k < nd - consumed; ++k, ++in_dim, ++out_dim) r.basic.emplace_back(all);
        consumed = nd;
        break;
      case index_kind::integer: {  // beside arrays, an integer is a 0-d index array
        array i(operand_node(it.integer, dtype::int64, op));
        keep(known_range(i, it.integer, it.integer));
        break;
      }
      case index_kind::array: {
        const auto& an = checked(it.arr, op);
        if (an->dt != dtype::bool_) {
          keep(it.arr);
          break;
        }
        if (an->shape.empty()) {
          // NumPy: a 0-d boolean adds an axis of length 1, indexed by [0] where it is true and by
          // [] where false. Its value sets the result's shape: it is read now (waits for the device).
          const bool truth = it.arr.item<bool>();
          r.basic.emplace_back(newaxis);
          array none_or_first = zeros({truth ? 1 : 0}, dtype::int64);
          arrays.emplace_back(out_dim++, known_range(none_or_first, 0, 0));
          axis_of.push_back(in_dim);  // consumes none of x's axes
          break;
        }
        for (std::size_t k = 0; k < an->shape.size(); ++k)
          if (an->shape[k] != xn->shape[in_dim + k])
            throw index_error(std::string(op) + ": boolean index did not match indexed array along axis " +
                              std::to_string(in_dim + k) + "; size of axis is " +
                              std::to_string(xn->shape[in_dim + k]) +
                              " but size of corresponding boolean axis is " + std::to_string(an->shape[k]));
        for (auto& c : nonzero_coordinates(it.arr, op)) keep(std::move(c));
        break;
      }
      default:
        r.basic.push_back(it);
        ++in_dim;
        ++out_dim;
    }
  }
  r.view = index(x, r.basic);
  for (const auto& [dim, idx] : arrays) {
    try {
      r.index_shape = r.axes.empty() ? idx.shape() : broadcast_shapes(r.index_shape, idx.shape(), op);
    } catch (const shape_error&) {
      throw index_error(std::string(op) +
                        ": shape mismatch: indexing arrays could not be broadcast together "
                        "(shapes " +
                        shape_str(r.index_shape) + " and " + shape_str(idx.shape()) + ")");
    }
    r.axes.push_back(dim);
  }
  for (std::size_t j = 0; j < arrays.size(); ++j) {
    const auto& [dim, idx] = arrays[j];
    const array checked_idx = checked_indices(idx, r.view.shape()[dim], axis_of[j], op);
    r.indices.push_back(broadcast_to(checked_idx, r.index_shape));
  }
  // The gather's dims: index dims, then the view's other dims in order.
  const int nb = static_cast<int>(r.index_shape.size());
  const int vd = static_cast<int>(r.view.ndim());
  bool adjacent = true;
  for (std::size_t j = 1; j < r.axes.size(); ++j) adjacent = adjacent && r.axes[j] == r.axes[j - 1] + 1;
  const int first = adjacent ? r.axes.front() : 0;
  for (int k = 0; k < first; ++k) r.order.push_back(nb + k);
  for (int k = 0; k < nb; ++k) r.order.push_back(k);
  for (int k = nb + first; k < nb + vd - static_cast<int>(r.axes.size()); ++k) r.order.push_back(k);
  shape_t gathered = r.index_shape;
  for (int d = 0; d < vd; ++d)
    if (std::find(r.axes.begin(), r.axes.end(), d) == r.axes.end()) gathered.push_back(r.view.shape()[d]);
  for (int k : r.order) r.result_shape.push_back(gathered[k]);
  return r;
}

}  // namespace

array index_advanced(const array& x, const std::vector<index_item>& items) {
  auto r = resolve(x, items, "index");
  array g = gather(r.view, r.axes, r.indices, r.index_shape);
  return permute(g, r.order);
}

void assign_advanced(array& x, const std::vector<index_item>& items, const array& value) {
  const frontend::operands_device on_their_device(x, value);
  const char* op = "index assignment";
  const auto& xn = checked(x, op);
  const auto& vn = checked(value, op);
  // x(mask) = scalar is where(mask, scalar, x): one fused kernel, nothing counted.
  if (items.size() == 1 && items[0].arr.node() && items[0].arr.dtype() == dtype::bool_ && vn->size() == 1 &&
      items[0].arr.ndim() > 0 && items[0].arr.ndim() <= static_cast<std::int64_t>(xn->shape.size()) &&
      std::equal(items[0].arr.shape().begin(), items[0].arr.shape().end(), xn->shape.begin())) {
    shape_t padded = items[0].arr.shape();
    padded.resize(xn->shape.size(), 1);
    const array v = reshape_view(array(cast_node(vn, xn->dt)), {});
    x = where(reshape_view(items[0].arr, padded), v, x);
    return;
  }
  auto r = resolve(x, items, op);
  shape_t b;
  try {
    b = broadcast_shapes(vn->shape, r.result_shape, op);
  } catch (const shape_error&) {
    b.clear();
  }
  if (b != r.result_shape)
    throw shape_error(std::string(op) + ": shape mismatch: value array of shape " + shape_str(vn->shape) +
                      " could not be broadcast to indexing result of shape " + shape_str(r.result_shape));
  if (ir::shape_size(r.result_shape) == 0) return;
  // Values in the gather's dim order (the inverse of the placement), cast as NumPy's setitem does.
  std::vector<int> inverse(r.order.size());
  for (std::size_t k = 0; k < r.order.size(); ++k) inverse[r.order[k]] = static_cast<int>(k);
  const array values = permute(broadcast_to(array(cast_node(vn, xn->dt)), r.result_shape), inverse);
  const shape_t& g = values.shape();
  // Element offsets into x (C order): the view's affine map, with the indexed dims from the arrays.
  const auto basic = resolve_index(xn->shape, r.basic);
  const auto c = ir::contiguous_strides(xn->shape);
  std::int64_t base = 0;
  for (std::size_t d = 0; d < c.size(); ++d) base += c[d] * basic.base[d];
  std::vector<std::int64_t> coeffs(r.index_shape.size(), 0);
  std::vector<std::int64_t> per_axis(basic.source.size(), 0);
  for (std::size_t k = 0; k < basic.source.size(); ++k)
    if (basic.source[k].first >= 0) per_axis[k] = c[basic.source[k].first] * basic.source[k].second;
  for (std::size_t k = 0; k < per_axis.size(); ++k)
    if (std::find(r.axes.begin(), r.axes.end(), static_cast<int>(k)) == r.axes.end())
      coeffs.push_back(per_axis[k]);
  array offsets = iota(dtype::int64, g, base, 1, coeffs);
  for (std::size_t j = 0; j < r.axes.size(); ++j)
    offsets = add(offsets, multiply(leading(r.indices[j], g), per_axis[r.axes[j]]));
  ir::library_call call;
  call.op = ir::library_op::scatter;
  call.dt = xn->dt;
  call.rows = ir::shape_size(g);
  call.length = xn->size();
  x = library_node(call, xn->dt, {x, offsets, values}, xn->shape);
}

}  // namespace ndfuse::frontend
