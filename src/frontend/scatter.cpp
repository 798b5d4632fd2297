// Assignment through a basic index (advanced ones are in gather.cpp): x(idx) = value rebinds x to
// where(in_region, value_on_x_grid, x). The value is laid onto x's index space by a guarded view (flipped for
// negative steps, each element repeated |step| times for steps past one), so the whole update is one
// elementwise node tree that fuses with the producers of x and of the value.
#include <string>

#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/view.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse {

using frontend::checked;
using frontend::node_ptr;

void assign_index(array& x, const std::vector<index_item>& items, const array& value) {
  const frontend::operands_device on_their_device(x, value);
  if (frontend::has_array(items)) return frontend::assign_advanced(x, items, value);
  const auto& xn = checked(x, "index assignment");
  const auto& vn = checked(value, "index assignment");
  const auto r = frontend::resolve_index(xn->shape, items);
  shape_t b;
  try {
    b = broadcast_shapes(vn->shape, r.shape, "index assignment");
  } catch (const shape_error&) {
    b.clear();
  }
  if (b != r.shape)
    throw shape_error("index assignment: could not broadcast input array from shape " + shape_str(vn->shape) +
                      " into shape " + shape_str(r.shape));
  if (ir::shape_size(r.shape) == 0) return;
  // NumPy's setitem casts unsafely (a float stored into an int array truncates).
  array grid = broadcast_to(array(frontend::cast_node(vn, xn->dt)), r.shape);
  const std::size_t nd = xn->shape.size();
  std::vector<std::int64_t> lo(nd, 0), hi(nd, 0), stride(nd, 1);
  for (std::size_t k = 0; k < r.source.size(); ++k) {
    const auto [d, step] = r.source[k];
    if (d < 0) continue;
    const std::int64_t len = r.shape[k];
    if (step < 0) grid = flip(grid, static_cast<int>(k));  // now in increasing index order
    const std::int64_t s = step < 0 ? -step : step;
    if (s > 1) grid = repeat(grid, s, static_cast<int>(k));
    lo[d] = step > 0 ? r.base[d] : r.base[d] + (len - 1) * step;
    hi[d] = lo[d] + (len - 1) * s;
    stride[d] = s;
  }
  // grid (view dims) seen from x's index space: view dim k walks x's dim source[k] from lo.
  auto p = frontend::affine_view(r.shape.size(), nd);
  for (std::size_t k = 0; k < r.source.size(); ++k) {
    const auto [d, step] = r.source[k];
    if (d < 0 || grid.shape()[k] == 1) continue;
    frontend::coeff(p, k, d, nd) = 1;
    p.base[k] = -lo[d];
  }
  const node_ptr on_x = frontend::overhanging_view(grid.node(), std::move(p), xn->shape);
  array inside;
  auto both = [&](const array& c) { inside = inside.node() ? logical_and(inside, c) : c; };
  for (std::size_t d = 0; d < nd; ++d) {
    const bool whole = !r.integer[d] && lo[d] == 0 && stride[d] == 1 && hi[d] == xn->shape[d] - 1;
    if (whole) continue;
    const array at = frontend::coordinate(xn->shape, d);
    if (r.integer[d]) {
      both(equal(at, r.base[d]));
      continue;
    }
    both(logical_and(greater_equal(at, lo[d]), less_equal(at, hi[d])));
    if (stride[d] > 1) both(equal(remainder(at - lo[d], stride[d]), 0));
  }
  if (!inside.node()) {
    x = frontend::finish(frontend::make_node(ir::op_code::cast, xn->dt, {on_x}, xn->shape));
    return;
  }
  x = frontend::select_region(inside, on_x, x);
}

void assign_index(array& x, const std::vector<index_item>& items, scalar value) {
  const auto& xn = checked(x, "index assignment");
  const scalar stored = frontend::stored_scalar(value, xn->dt, "index assignment");
  assign_index(x, items, array(frontend::operand_node(stored, xn->dt, "index assignment")));
}

}  // namespace ndfuse
