// Joining and padding: concatenate and its relatives, pad and roll. Each result is one elementwise
// node tree: a where per piece, each piece read through a guarded view that is dereferenced only
// inside the piece's region. So the whole result is one kernel, and the pieces' producers fuse in.
#include <algorithm>
#include <string>

#include "frontend/operands_device.hpp"
#include "frontend/view.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

using frontend::checked;
using frontend::node_ptr;
using frontend::normalize_axis;

namespace {

// The view of x (shape `piece`) from a result of shape `shape` in which x starts at `start` (per dim).
node_ptr shifted(const node_ptr& x, const shape_t& shape, const std::vector<std::int64_t>& start) {
  const std::size_t nd = shape.size();
  auto p = frontend::affine_view(nd, nd);
  for (std::size_t d = 0; d < nd; ++d) {
    frontend::coeff(p, d, d, nd) = x->shape[d] == 1 ? 0 : 1;
    p.base[d] = x->shape[d] == 1 ? 0 : -start[d];
  }
  return frontend::overhanging_view(x, std::move(p), shape);
}

}  // namespace

array concatenate(const std::vector<array>& arrays, int axis) {
  const frontend::operands_device on_their_device(arrays);
  if (arrays.empty()) throw shape_error("concatenate: need at least one array to concatenate");
  const auto& first = checked(arrays[0], "concatenate");
  const std::int64_t nd = first->shape.size();
  if (nd == 0) throw shape_error("concatenate: zero-dimensional arrays cannot be concatenated");
  const int ax = normalize_axis(axis, nd, "concatenate");
  dtype t = first->dt;
  shape_t shape = first->shape;
  shape[ax] = 0;
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const auto& n = checked(arrays[k], "concatenate");
    if (static_cast<std::int64_t>(n->shape.size()) != nd)
      throw shape_error(
          "concatenate: all the input array dimensions except for the concatenation axis must match "
          "exactly, but array 0 has " +
          std::to_string(nd) + " dimension(s) and array " + std::to_string(k) + " has " +
          std::to_string(n->shape.size()));
    for (std::int64_t d = 0; d < nd; ++d)
      if (d != ax && n->shape[d] != first->shape[d])
        throw shape_error(
            "concatenate: all the input array dimensions except for the concatenation axis must "
            "match exactly, but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " + std::to_string(first->shape[d]) +
            " and the array at index " + std::to_string(k) + " has size " + std::to_string(n->shape[d]));
    shape[ax] += n->shape[ax];
    t = promote_types(t, n->dt);
  }
  const array at = frontend::coordinate(shape, ax);
  // Pieces from the last: result = where(at < end_0, piece_0, where(at < end_1, piece_1, ...)).
  std::vector<std::int64_t> starts;
  std::int64_t end = 0;
  for (const auto& a : arrays) {
    starts.push_back(end);
    end += a.shape()[ax];
  }
  array result;
  for (std::size_t k = arrays.size(); k-- > 0;) {
    const auto& n = arrays[k].node();
    if (n->shape[ax] == 0 && result.node()) continue;
    std::vector<std::int64_t> start(nd, 0);
    start[ax] = starts[k];
    node_ptr piece = shifted(frontend::cast_node(n, t), shape, start);
    if (!result.node()) {
      // The last piece: read where at >= its start (everything else is selected away).
      result = frontend::select_region(greater_equal(at, starts[k]), piece, zeros({}, t));
    } else {
      array inside = logical_and(greater_equal(at, starts[k]), less(at, starts[k] + n->shape[ax]));
      result = frontend::select_region(inside, piece, result);
    }
  }
  return result;
}

array concatenate(const std::vector<array>& arrays, none_t) {
  std::vector<array> flat;
  for (const auto& a : arrays) flat.push_back(ravel(a));
  return concatenate(flat, 0);
}

array stack(const std::vector<array>& arrays, int axis) {
  if (arrays.empty()) throw shape_error("stack: need at least one array to stack");
  const shape_t& shape = checked(arrays[0], "stack")->shape;
  for (const auto& a : arrays)
    if (checked(a, "stack")->shape != shape)
      throw shape_error("stack: all input arrays must have the same shape, got " + shape_str(shape) +
                        " and " + shape_str(a.shape()));
  const int ax = normalize_axis(axis, shape.size() + 1, "stack");
  std::vector<array> expanded;
  for (const auto& a : arrays) expanded.push_back(expand_dims(a, ax));
  return concatenate(expanded, ax);
}

array hstack(const std::vector<array>& arrays) {
  std::vector<array> arrs;
  for (const auto& a : arrays) arrs.push_back(atleast_1d(a));
  return concatenate(arrs, !arrs.empty() && arrs[0].ndim() == 1 ? 0 : 1);
}

array vstack(const std::vector<array>& arrays) {
  std::vector<array> arrs;
  for (const auto& a : arrays) arrs.push_back(atleast_2d(a));
  return concatenate(arrs, 0);
}

array dstack(const std::vector<array>& arrays) {
  std::vector<array> arrs;
  for (const auto& a : arrays) arrs.push_back(atleast_3d(a));
  return concatenate(arrs, 2);
}

array column_stack(const std::vector<array>& arrays) {
  std::vector<array> arrs;
  for (const auto& a : arrays) {
    const auto& n = checked(a, "column_stack");
    arrs.push_back(n->shape.size() < 2 ? reshape(a, {n->size(), 1}) : a);
  }
  return concatenate(arrs, 1);
}

namespace {

// Pads one axis by concatenating views of a itself (edge and reflect).
array pad_axis_from_self(const array& a, int ax, std::int64_t before, std::int64_t after, bool reflect) {
  array cur = a;
  // Reflect pads wider than n - 1 repeat the reflection: NumPy pads in rounds, each round by at most
  // the current length - 1, reflecting what the previous rounds made.
  while (before > 0 || after > 0) {
    const std::int64_t n = cur.shape()[ax];
    // A length-1 axis has nothing to mirror: NumPy repeats its element, as edge does.
    const bool mirror = reflect && n > 1;
    const std::int64_t chunk_b = mirror ? std::min(before, n - 1) : before;
    const std::int64_t chunk_a = mirror ? std::min(after, n - 1) : after;
    std::vector<array> pieces;
    auto slice_of = [&](const array& x, std::int64_t lo, std::int64_t hi, std::int64_t step) {
      std::vector<index_item> items(ax, index_item(all));
      items.emplace_back(step > 0 ? slice(lo, hi) : slice(lo, hi < 0 ? slice_arg(none) : slice_arg(hi), -1));
      return index(x, items);
    };
    shape_t edge_shape = cur.shape();
    if (chunk_b > 0) {
      if (mirror) {
        pieces.push_back(slice_of(cur, chunk_b, 0, -1));
      } else {
        edge_shape[ax] = chunk_b;
        pieces.push_back(broadcast_to(slice_of(cur, 0, 1, 1), edge_shape));
      }
    }
    pieces.push_back(cur);
    if (chunk_a > 0) {
      if (mirror) {
        pieces.push_back(slice_of(cur, n - 2, n - 2 - chunk_a, -1));
      } else {
        edge_shape[ax] = chunk_a;
        pieces.push_back(broadcast_to(slice_of(cur, n - 1, n, 1), edge_shape));
      }
    }
    cur = pieces.size() == 1 ? cur : concatenate(pieces, ax);
    before -= chunk_b;
    after -= chunk_a;
  }
  return cur;
}

}  // namespace

array pad(const array& a, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
          const std::string& mode, scalar constant_value) {
  const frontend::operands_device on_their_device(a);
  const auto& an = checked(a, "pad");
  const std::size_t nd = an->shape.size();
  if (pad_width.size() != nd && pad_width.size() != 1)
    throw shape_error("pad: pad_width must have one (before, after) pair per axis or a single pair, got " +
                      std::to_string(pad_width.size()) + " for a " + std::to_string(nd) + "-d array");
  std::vector<std::pair<std::int64_t, std::int64_t>> w(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    w[d] = pad_width.size() == 1 ? pad_width[0] : pad_width[d];
    if (w[d].first < 0 || w[d].second < 0) throw shape_error("pad: index can't contain negative values");
  }
  if (mode == "constant") {
    shape_t shape = an->shape;
    std::vector<std::int64_t> start(nd);
    array inside;
    for (std::size_t d = 0; d < nd; ++d) {
      shape[d] = ir::add_sizes(ir::add_sizes(shape[d], w[d].first, "pad"), w[d].second, "pad");
      start[d] = w[d].first;
    }
    for (std::size_t d = 0; d < nd; ++d) {
      if (w[d].first == 0 && w[d].second == 0) continue;
      array at = frontend::coordinate(shape, d);
      array in_d = logical_and(greater_equal(at, w[d].first), less(at, w[d].first + an->shape[d]));
      inside = inside.node() ? logical_and(inside, in_d) : in_d;
    }
    if (!inside.node()) return a;
    const array fill = full({}, constant_value, an->dt);
    return frontend::select_region(inside, shifted(an, shape, start), fill);
  }
  if (mode != "edge" && mode != "reflect")
    throw value_error("pad: mode '" + mode + "' is not supported (constant, edge and reflect are)");
  array cur = a;
  for (std::size_t d = 0; d < nd; ++d) {
    if (w[d].first == 0 && w[d].second == 0) continue;
    if (an->shape[d] == 0)
      throw shape_error("pad: can't extend empty axis " + std::to_string(d) +
                        " using modes other than 'constant' or "
                        "'empty'");
    cur = pad_axis_from_self(cur, static_cast<int>(d), w[d].first, w[d].second, mode == "reflect");
  }
  return cur;
}

array pad(const array& a, std::int64_t pad_width, const std::string& mode, scalar constant_value) {
  return pad(a, {{pad_width, pad_width}}, mode, constant_value);
}

array roll(const array& a, std::int64_t shift, std::optional<int> axis) {
  const frontend::operands_device on_their_device(a);
  const auto& an = checked(a, "roll");
  if (!axis) return reshape(roll(ravel(a), shift, 0), an->shape);
  const int ax = normalize_axis(*axis, an->shape.size(), "roll");
  const std::int64_t n = an->shape[ax];
  if (n == 0) return a;
  const std::int64_t s = ((shift % n) + n) % n;
  if (s == 0) return a;
  std::vector<index_item> head(ax, index_item(all)), tail(ax, index_item(all));
  head.emplace_back(slice(n - s, n));
  tail.emplace_back(slice(0, n - s));
  return concatenate({index(a, head), index(a, tail)}, ax);
}

}  // namespace ndfuse
