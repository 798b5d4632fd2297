// Views and basic indexing. Every view is one node (or, of an evaluated array, one new set of
// strides over the same storage); nothing is copied and nothing runs.
#include "frontend/view.hpp"

#include "frontend/gather.hpp"

#include <algorithm>
#include <string>

#include "ir/shape_math.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

namespace frontend {

ir::view_params affine_view(std::size_t in_ndim, std::size_t out_ndim) {
  ir::view_params p;
  p.base.assign(in_ndim, 0);
  p.coeff.assign(in_ndim * out_ndim, 0);
  return p;
}

array lazy_copy(const array& x) {
  const auto& xn = checked(x, "copy");
  return finish(make_node(ir::op_code::cast, xn->dt, {xn}, xn->shape));
}

array make_view(const array& x, ir::view_params p, const shape_t& shape) {
  node_ptr xn = checked(x, "view");
  if (xn->materialized()) {
    // A view of a buffer is built here rather than through finish: its size is checked the same way.
    ir::checked_size(shape, itemsize(xn->dt), "view");
    auto strides = xn->strides;
    std::int64_t offset = xn->offset;
    if (ir::apply_view(p, xn->shape, shape, strides, offset)) {
      auto n = ir::new_node();
      n->place = xn->place;
      n->op = ir::op_code::buffer;
      n->dt = xn->dt;
      n->shape = shape;
      n->storage = xn->storage;
      n->strides = std::move(strides);
      n->offset = offset;
      n->view_of = xn->view_of ? xn->view_of : xn;
      n->publish();
      return array(std::move(n));
    }
    xn = lazy_copy(x).node();  // a reshape the strides cannot express: view a copy
  }
  auto n = make_node(ir::op_code::view, xn->dt, {xn}, shape);
  n->params().view = std::move(p);
  return finish(std::move(n));
}

int normalize_axis(int axis, std::int64_t ndim, const char* op) {
  const std::int64_t a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim)
    throw shape_error(std::string(op) + ": axis " + std::to_string(axis) +
                      " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(a);
}

array permute(const array& x, const std::vector<int>& order) {
  const auto& xn = checked(x, "transpose");
  const std::size_t nd = xn->shape.size();
  // An identity order (a 1-d transpose, moveaxis of an axis onto itself) is x itself, as a reshape
  // to the same shape is: a view node over a lazy result would be evaluated as a copy of it.
  bool identity = true;
  for (std::size_t k = 0; k < nd; ++k) identity = identity && order[k] == static_cast<int>(k);
  if (identity) return x;
  auto p = affine_view(nd, nd);
  shape_t shape(nd);
  for (std::size_t k = 0; k < nd; ++k) {
    coeff(p, order[k], k, nd) = 1;
    shape[k] = xn->shape[order[k]];
  }
  return make_view(x, std::move(p), shape);
}

array reshape_view(const array& x, const shape_t& shape) {
  const auto& xn = checked(x, "reshape");
  if (xn->shape == shape) return x;
  ir::view_params p;
  p.reshape = true;
  return make_view(x, std::move(p), shape);
}

node_ptr overhanging_view(const node_ptr& x, ir::view_params p, const shape_t& shape) {
  auto n = make_node(ir::op_code::view, x->dt, {x}, shape);
  n->params().view = std::move(p);
  return n;
}

node_ptr guarded(const node_ptr& mask, const node_ptr& value) {
  return make_node(ir::op_code::guard, value->dt, {mask, value}, value->shape);
}

array select_region(const array& mask, const node_ptr& value, const array& otherwise) {
  // Built by hand, not through nf::where: a handle on the guard node would make an evaluation write it.
  const auto& m = checked(mask, "where");
  const auto& o = checked(otherwise, "where");
  const shape_t shape =
      broadcast_shapes(broadcast_shapes(m->shape, value->shape, "where"), o->shape, "where");
  return finish(
      make_node(ir::op_code::where, value->dt, {m, guarded(m, value), cast_node(o, value->dt)}, shape));
}

array coordinate(const shape_t& shape, std::size_t axis) {
  std::vector<std::int64_t> c(shape.size(), 0);
  c[axis] = 1;
  return iota(dtype::int64, shape, 0.0, 1.0, c);
}

}  // namespace frontend

namespace {

std::string dims_text(std::int64_t n) {
  return std::to_string(n) + "-dimensional";
}

}  // namespace

namespace frontend {

slice_span resolve_slice(const slice& s, std::int64_t n) {
  const std::int64_t step = s.step.value_or(1);
  auto bound = [&](const std::optional<std::int64_t>& v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t b = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<std::int64_t>(b, 0, n) : std::clamp<std::int64_t>(b, -1, n - 1);
  };
  const std::int64_t start = bound(s.start, step > 0 ? 0 : n - 1);
  const std::int64_t stop = bound(s.stop, step > 0 ? n : -1);
  // The step's magnitude in 64 unsigned bits (INT64_MIN has none in signed), and the length
  // as 1 + (span - 1) / |step|: neither can overflow, whatever the step.
  const std::uint64_t magnitude = step > 0 ? std::uint64_t(step) : std::uint64_t(0) - std::uint64_t(step);
  std::int64_t len = 0;
  if (step > 0 && stop > start) len = 1 + std::int64_t(std::uint64_t(stop - start - 1) / magnitude);
  if (step < 0 && start > stop) len = 1 + std::int64_t(std::uint64_t(start - stop - 1) / magnitude);
  return {start, step, len};
}

basic_index resolve_index(const shape_t& in, const std::vector<index_item>& items) {
  const std::int64_t nd = static_cast<std::int64_t>(in.size());
  std::int64_t consumed = 0, ellipses = 0;
  for (const auto& it : items) {
    if (it.kind == index_kind::ellipsis)
      ++ellipses;
    else if (it.kind != index_kind::newaxis)
      ++consumed;
  }
  if (ellipses > 1) throw index_error("index: an index can only have a single ellipsis ('...')");
  if (consumed > nd)
    throw index_error("index: too many indices for array: array is " + dims_text(nd) + ", but " +
                      std::to_string(consumed) + " were indexed");
  // Expanded: one entry per position, the ellipsis (or the end) filled with nf::all.
  std::vector<index_item> full;
  bool expanded = false;
  for (const auto& it : items) {
    if (it.kind == index_kind::ellipsis) {
      for (std::int64_t k = 0; k < nd - consumed; ++k) full.emplace_back(all);
      expanded = true;
    } else {
      full.push_back(it);
    }
  }
  if (!expanded)
    for (std::int64_t k = 0; k < nd - consumed; ++k) full.emplace_back(all);

  basic_index r;
  r.base.assign(nd, 0);
  r.integer.assign(nd, false);
  std::int64_t d = 0;
  for (const auto& it : full) {
    switch (it.kind) {
      case index_kind::newaxis:
        r.shape.push_back(1);
        r.source.emplace_back(-1, 0);
        break;
      case index_kind::integer: {
        const std::int64_t n = in[d];
        const std::int64_t i = it.integer < 0 ? it.integer + n : it.integer;
        if (i < 0 || i >= n)
          throw index_error("index: index " + std::to_string(it.integer) + " is out of bounds for axis " +
                            std::to_string(d) + " with size " + std::to_string(n) + " (array shape " +
                            shape_str(in) + ")");
        r.integer[d] = true;
        r.base[d++] = i;
        break;
      }
      case index_kind::all:
        r.shape.push_back(in[d]);
        r.source.emplace_back(d++, 1);
        break;
      case index_kind::slice: {
        const std::int64_t step = it.range.step.value_or(1);
        if (step == 0) throw index_error("index: slice step cannot be zero");
        const slice_span span = resolve_slice(it.range, in[d]);
        const std::int64_t start = span.start, len = span.length;
        r.shape.push_back(len);
        r.base[d] = len > 0 ? start : 0;
        // A step that never reaches a second element is no stride at all: 1 keeps the view's
        // stride arithmetic (step x the input's stride) in range.
        r.source.emplace_back(d++, len > 1 ? step : 1);
        break;
      }
      case index_kind::ellipsis:
        break;
      case index_kind::array:
        throw error("index: internal error, an index array reached basic indexing");
    }
  }
  return r;
}

}  // namespace frontend

array index(const array& x, const std::vector<index_item>& items) {
  const auto& xn = frontend::checked(x, "index");
  if (frontend::has_array(items)) return frontend::index_advanced(x, items);
  const auto r = frontend::resolve_index(xn->shape, items);
  auto p = frontend::affine_view(xn->shape.size(), r.shape.size());
  p.base = r.base;
  for (std::size_t k = 0; k < r.source.size(); ++k)
    if (r.source[k].first >= 0) frontend::coeff(p, r.source[k].first, k, r.shape.size()) = r.source[k].second;
  return frontend::make_view(x, std::move(p), r.shape);
}

}  // namespace ndfuse
