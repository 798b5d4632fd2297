// trapezoid, gradient and unwrap (include/ndfuse/numerical.hpp), as NumPy's
// lib/_function_base_impl.py computes them: slices of the input combined elementwise (one fused
// kernel per result), then a sum or a cumulative sum where NumPy has one.
#include <cmath>
#include <string>

#include "frontend/composite_support.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/numerical.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

namespace {

// a[start:stop] along `axis` (stop may be negative, as Python's).
array along(const array& a, int axis, std::int64_t start, std::int64_t stop) {
  const std::int64_t n = a.shape()[axis];
  if (stop < 0) stop += n;
  if (start < 0) start += n;
  std::vector<index_item> items(static_cast<std::size_t>(a.ndim()), all);
  items[axis] = slice(start, stop);
  return index(a, items);
}

// The shape with -1 at `axis` and 1 elsewhere, for a 1-D array laid along it.
shape_t laid_along(std::int64_t ndim, int axis, std::int64_t n) {
  shape_t s(static_cast<std::size_t>(ndim), 1);
  s[axis] = n;
  return s;
}

}  // namespace

namespace {

// NumPy indexes a 0-d y's shape by the axis: its IndexError.
void check_not_0d(const array& y) {
  if (y.ndim() == 0) throw index_error("trapezoid: list assignment index out of range (y is 0-d)");
}

}  // namespace

array trapezoid(const array& y, double dx, int axis) {
  check_not_0d(y);
  const int ax = frontend::normalized_axis(axis, y.ndim(), "trapezoid");
  return sum(dx * (along(y, ax, 1, y.shape()[ax]) + along(y, ax, 0, -1)) / 2.0, ax);
}

array trapezoid(const array& y, const array& x, int axis) {
  check_not_0d(y);
  const int ax = frontend::normalized_axis(axis, y.ndim(), "trapezoid");
  array d;
  if (x.ndim() == 1) {
    d = diff(x);
    d = d.reshape(laid_along(y.ndim(), ax, d.size()));
  } else {
    d = diff(x, 1, ax);
  }
  return sum(d * (along(y, ax, 1, y.shape()[ax]) + along(y, ax, 0, -1)) / 2.0, ax);
}

namespace {

// One axis's spacing: a weak scalar (a C++ double, as NumPy's Python float), a strong 0-d array
// (NumPy's numpy.float64, as a uniform coordinate array leaves it), or the differences of
// non-uniform coordinates.
struct spacing {
  std::optional<double> weak;
  std::optional<array> uniform;
  std::optional<array> steps;
};

array gradient_along(const array& f, int axis, const spacing& h, int edge_order, dtype out) {
  const std::int64_t n = f.shape()[axis];
  if (n < edge_order + 1)
    throw value_error(
        "gradient: Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
        "elements "
        "are required.");
  const auto at = [&](std::int64_t i) { return along(f, axis, i < 0 ? n + i : i, (i < 0 ? n + i : i) + 1); };
  array inner, first, last;
  if (!h.steps) {
    const array f4 = along(f, axis, 2, n), f2 = along(f, axis, 0, -2);
    inner = h.weak ? (f4 - f2) / (2. * *h.weak) : (f4 - f2) / (2. * *h.uniform);
  } else {
    const std::int64_t m = h.steps->size();
    const array dx1 = (*h.steps)(slice(0, m - 1)), dx2 = (*h.steps)(slice(1, m));
    const shape_t shape = laid_along(f.ndim(), axis, m - 1);
    const array a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape);
    const array b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape);
    const array c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape);
    inner = a * along(f, axis, 0, -2) + b * along(f, axis, 1, -1) + c * along(f, axis, 2, n);
  }
  if (edge_order == 1) {
    if (h.weak) {
      first = (at(1) - at(0)) / *h.weak;
      last = (at(-1) - at(-2)) / *h.weak;
    } else {
      const array d0 = h.steps ? (*h.steps)(0) : *h.uniform;
      const array dn = h.steps ? (*h.steps)(h.steps->size() - 1) : *h.uniform;
      first = (at(1) - at(0)) / d0;
      last = (at(-1) - at(-2)) / dn;
    }
  } else if (h.weak) {
    // NumPy's a = -1.5 / dx, ... are Python floats here: weak beside f.
    const double dx = *h.weak;
    first = (-1.5 / dx) * at(0) + (2. / dx) * at(1) + (-0.5 / dx) * at(2);
    last = (0.5 / dx) * at(-3) + (-2. / dx) * at(-2) + (1.5 / dx) * at(-1);
  } else {
    array a, b, c, a2, b2, c2;
    if (!h.steps) {
      const array& dx = *h.uniform;
      a = -1.5 / dx, b = 2. / dx, c = -0.5 / dx;
      a2 = 0.5 / dx, b2 = -2. / dx, c2 = 1.5 / dx;
    } else {
      const std::int64_t m = h.steps->size();
      array dx1 = (*h.steps)(0), dx2 = (*h.steps)(1);
      a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2));
      b = (dx1 + dx2) / (dx1 * dx2);
      c = -dx1 / (dx2 * (dx1 + dx2));
      dx1 = (*h.steps)(m - 2), dx2 = (*h.steps)(m - 1);
      a2 = (dx2) / (dx1 * (dx1 + dx2));
      b2 = -(dx2 + dx1) / (dx1 * dx2);
      c2 = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2));
    }
    first = a * at(0) + b * at(1) + c * at(2);
    last = a2 * at(-3) + b2 * at(-2) + c2 * at(-1);
  }
  return concatenate({first.astype(out), inner.astype(out), last.astype(out)}, axis);
}

std::vector<array> gradients(const array& f_in, const std::vector<spacing>& given, axes axis,
                             int edge_order) {
  if (edge_order > 2 || edge_order < 1)
    throw value_error("gradient: 'edge_order' greater than 2 not supported");
  std::vector<int> list;
  if (axis.all())
    for (int i = 0; i < static_cast<int>(f_in.ndim()); ++i) list.push_back(i);
  else
    for (int a : axis.list()) list.push_back(frontend::normalized_axis(a, f_in.ndim(), "gradient"));
  std::vector<spacing> h = given;
  if (h.size() == 1 && list.size() != 1) h.assign(list.size(), given[0]);
  if (h.size() != list.size()) throw dtype_error("gradient: invalid number of arguments");
  const dtype out = is_inexact(f_in.dtype()) ? f_in.dtype() : dtype::float64;
  const array f = is_integer(f_in.dtype()) ? f_in.astype(dtype::float64) : f_in;
  std::vector<array> result;
  for (std::size_t i = 0; i < list.size(); ++i)
    result.push_back(gradient_along(f, list[i], h[i], edge_order, out));
  return result;
}

}  // namespace

std::vector<array> gradient(const array& f, double dx, axes axis, int edge_order) {
  const frontend::operands_device on_their_device(f);
  return gradients(f, {spacing{dx, std::nullopt, std::nullopt}}, axis, edge_order);
}

std::vector<array> gradient(const array& f, const std::vector<array>& given, axes axis, int edge_order) {
  const frontend::operands_device on_their_device(f, given);
  std::vector<spacing> h;
  std::vector<int> list;
  if (axis.all())
    for (int i = 0; i < static_cast<int>(f.ndim()); ++i) list.push_back(i);
  else
    for (int a : axis.list()) list.push_back(frontend::normalized_axis(a, f.ndim(), "gradient"));
  if (given.size() != list.size() && !(given.size() == 1 && given[0].ndim() == 0))
    throw dtype_error("gradient: invalid number of arguments");
  for (std::size_t i = 0; i < given.size(); ++i) {
    const array& d = given[i];
    if (d.ndim() == 0) {
      h.push_back({std::nullopt, d, std::nullopt});
      continue;
    }
    if (d.ndim() != 1) throw value_error("gradient: distances must be either scalars or 1d");
    if (d.size() != f.shape()[list[i]])
      throw shape_error("gradient: when 1d, distances must match the length of the corresponding dimension");
    const array coords = is_integer(d.dtype()) ? d.astype(dtype::float64) : d;
    const array steps = diff(coords);
    // Uniform coordinates leave NumPy a numpy scalar (strong) step.
    if (steps.size() > 0 && all(equal(steps, steps(0))).item<bool>())
      h.push_back({std::nullopt, steps(0), std::nullopt});
    else
      h.push_back({std::nullopt, std::nullopt, steps});
  }
  return gradients(f, h, axis, edge_order);
}

array unwrap(const array& p, std::optional<double> discont, int axis, double period) {
  const frontend::operands_device on_their_device(p);
  const array dd = diff(p, 1, axis);  // first, as NumPy: its error for a 0-d p
  const int ax = frontend::normalized_axis(axis, p.ndim(), "unwrap");
  const double jump = discont.value_or(period / 2);
  const dtype t = result_type(dd, period);
  const double high = period / 2, low = -high;
  array ddmod = remainder(dd - low, period) + low;
  ddmod = where(equal(ddmod, low) & greater(dd, 0), high, ddmod).astype(ddmod.dtype());
  array correct = ddmod - dd;
  correct = where(less(abs(dd), jump), 0, correct).astype(correct.dtype());
  const std::int64_t n = p.shape()[ax];
  if (n == 0) return p.astype(t);
  return concatenate({along(p, ax, 0, 1).astype(t), (along(p, ax, 1, n) + cumsum(correct, ax)).astype(t)},
                     ax);
}

}  // namespace ndfuse
