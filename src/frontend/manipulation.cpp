// Shape manipulation. Each op is a view (frontend/view.hpp) or a small composition of views,
// iotas and elementwise nodes, so it fuses with whatever produces or consumes it.
#include "ndfuse/manipulation.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/reduce_build.hpp"
#include "frontend/view.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

using frontend::checked;
using frontend::coeff;
using frontend::make_view;
using frontend::normalize_axis;

namespace {

std::int64_t ndim_of(const array& a, const char* op) {
  return static_cast<std::int64_t>(checked(a, op)->shape.size());
}

// The axes of a list normalized, with NumPy's duplicate check.
std::vector<int> normalize_axes(const std::vector<int>& axes, std::int64_t ndim, const char* op) {
  std::vector<int> out;
  for (int a : axes) {
    int n = normalize_axis(a, ndim, op);
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw shape_error(std::string(op) + ": repeated axis " + std::to_string(a));
    out.push_back(n);
  }
  return out;
}

// The view whose dim k walks a's dim source_of_out[k] (or, for -1, is a new length-1 dim): the
// affine form of squeeze (a's length-1 dims left out) and expand_dims.
array drop_and_insert(const array& a, const shape_t& out_shape, const std::vector<int>& source_of_out) {
  const auto& an = checked(a, "view");
  auto p = frontend::affine_view(an->shape.size(), out_shape.size());
  for (std::size_t k = 0; k < out_shape.size(); ++k)
    if (source_of_out[k] >= 0) coeff(p, source_of_out[k], k, out_shape.size()) = 1;
  return make_view(a, std::move(p), out_shape);
}

}  // namespace

array reshape(const array& a, const shape_t& shape) {
  const auto& an = checked(a, "reshape");
  shape_t out = shape;
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (out[d] == -1) {
      if (unknown >= 0) throw shape_error("reshape: can only specify one unknown dimension");
      unknown = static_cast<int>(d);
    } else if (out[d] < 0) {
      throw shape_error("reshape: negative dimensions not allowed (shape " + shape_str(shape) + ")");
    } else if (__builtin_mul_overflow(known, out[d], &known)) {
      // No array has that many elements, so none reshapes into it (NumPy says the same).
      throw shape_error("reshape: cannot reshape array of size " + std::to_string(an->size()) +
                        " into shape " + shape_str(shape));
    }
  }
  const std::int64_t size = an->size();
  if (unknown >= 0 && known != 0 && size % known == 0) out[unknown] = size / known;
  if (ir::shape_size(out) != size || (unknown >= 0 && known == 0))
    throw shape_error("reshape: cannot reshape array of size " + std::to_string(size) + " into shape " +
                      shape_str(shape));
  return frontend::reshape_view(a, out);
}

array ravel(const array& a) {
  return frontend::reshape_view(a, {checked(a, "ravel")->size()});
}

array transpose(const array& a) {
  const std::int64_t nd = ndim_of(a, "transpose");
  std::vector<int> order(nd);
  for (std::int64_t k = 0; k < nd; ++k) order[k] = static_cast<int>(nd - 1 - k);
  return frontend::permute(a, order);
}

array transpose(const array& a, const std::vector<int>& axes) {
  const std::int64_t nd = ndim_of(a, "transpose");
  if (static_cast<std::int64_t>(axes.size()) != nd)
    throw shape_error("transpose: axes don't match array (" + std::to_string(axes.size()) + " axes for a " +
                      std::to_string(nd) + "-d array)");
  return frontend::permute(a, normalize_axes(axes, nd, "transpose"));
}

array swapaxes(const array& a, int axis1, int axis2) {
  const std::int64_t nd = ndim_of(a, "swapaxes");
  std::vector<int> order(nd);
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[normalize_axis(axis1, nd, "swapaxes")], order[normalize_axis(axis2, nd, "swapaxes")]);
  return frontend::permute(a, order);
}

array moveaxis(const array& a, const std::vector<int>& source, const std::vector<int>& destination) {
  const std::int64_t nd = ndim_of(a, "moveaxis");
  if (source.size() != destination.size())
    throw shape_error("moveaxis: `source` and `destination` arguments must have the same number of elements");
  auto src = normalize_axes(source, nd, "moveaxis");
  auto dst = normalize_axes(destination, nd, "moveaxis");
  std::vector<int> order;
  for (int d = 0; d < nd; ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  std::vector<std::pair<int, int>> moves;
  for (std::size_t k = 0; k < src.size(); ++k) moves.emplace_back(dst[k], src[k]);
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return frontend::permute(a, order);
}

array moveaxis(const array& a, int source, int destination) {
  return moveaxis(a, std::vector<int>{source}, std::vector<int>{destination});
}

array squeeze(const array& a, axes axis) {
  const auto& an = checked(a, "squeeze");
  const std::int64_t nd = an->shape.size();
  std::uint64_t mask = 0;
  if (axis.all()) {
    for (std::int64_t d = 0; d < nd; ++d)
      if (an->shape[d] == 1) mask |= std::uint64_t(1) << d;
  } else {
    mask = frontend::axis_mask(axis, nd, "squeeze");
    for (std::int64_t d = 0; d < nd; ++d)
      if ((mask >> d & 1) && an->shape[d] != 1)
        throw shape_error(
            "squeeze: cannot select an axis to squeeze out which has size not equal to one (axis " +
            std::to_string(d) + " of shape " + shape_str(an->shape) + ")");
  }
  shape_t out;
  std::vector<int> source;
  for (std::int64_t d = 0; d < nd; ++d) {
    if (!(mask >> d & 1)) {
      out.push_back(an->shape[d]);
      source.push_back(static_cast<int>(d));
    }
  }
  return drop_and_insert(a, out, source);
}

array expand_dims(const array& a, const std::vector<int>& axis) {
  const auto& an = checked(a, "expand_dims");
  const std::int64_t out_nd = an->shape.size() + axis.size();
  auto inserted = normalize_axes(axis, out_nd, "expand_dims");
  shape_t out;
  std::vector<int> source;
  int next = 0;
  for (std::int64_t k = 0; k < out_nd; ++k) {
    if (std::find(inserted.begin(), inserted.end(), k) != inserted.end()) {
      out.push_back(1);
      source.push_back(-1);
    } else {
      out.push_back(an->shape[next]);
      source.push_back(next++);
    }
  }
  return drop_and_insert(a, out, source);
}

array expand_dims(const array& a, int axis) {
  return expand_dims(a, std::vector<int>{axis});
}

array broadcast_to(const array& a, const shape_t& shape) {
  const auto& an = checked(a, "broadcast_to");
  const std::size_t nd = an->shape.size();
  bool ok = shape.size() >= nd;
  for (auto d : shape) ok = ok && d >= 0;
  const std::size_t lead = ok ? shape.size() - nd : 0;
  for (std::size_t d = 0; ok && d < nd; ++d) ok = an->shape[d] == shape[lead + d] || an->shape[d] == 1;
  if (!ok)
    throw shape_error("broadcast_to: array of shape " + shape_str(an->shape) +
                      " cannot be broadcast to shape " + shape_str(shape));
  auto p = frontend::affine_view(nd, shape.size());
  for (std::size_t d = 0; d < nd; ++d)
    if (an->shape[d] != 1) coeff(p, d, lead + d, shape.size()) = 1;
  return make_view(a, std::move(p), shape);
}

std::vector<array> broadcast_arrays(const std::vector<array>& arrays) {
  shape_t shape;
  for (const auto& a : arrays)
    shape = broadcast_shapes(shape, checked(a, "broadcast_arrays")->shape, "broadcast_arrays");
  std::vector<array> out;
  for (const auto& a : arrays) out.push_back(broadcast_to(a, shape));
  return out;
}

array atleast_1d(const array& a) {
  return ndim_of(a, "atleast_1d") >= 1 ? a : reshape(a, {1});
}

array atleast_2d(const array& a) {
  const std::int64_t nd = ndim_of(a, "atleast_2d");
  if (nd >= 2) return a;
  return nd == 0 ? reshape(a, {1, 1}) : expand_dims(a, 0);
}

array atleast_3d(const array& a) {
  const auto& an = checked(a, "atleast_3d");
  switch (an->shape.size()) {
    case 0:
      return reshape(a, {1, 1, 1});
    case 1:
      return reshape(a, {1, an->shape[0], 1});
    case 2:
      return expand_dims(a, 2);
    default:
      return a;
  }
}

array flip(const array& a, axes axis) {
  const auto& an = checked(a, "flip");
  const std::size_t nd = an->shape.size();
  const std::uint64_t mask = frontend::axis_mask(axis, nd, "flip");
  auto p = frontend::affine_view(nd, nd);
  for (std::size_t d = 0; d < nd; ++d) {
    const bool flipped = mask >> d & 1;
    coeff(p, d, d, nd) = flipped ? -1 : 1;
    p.base[d] = flipped && an->shape[d] > 0 ? an->shape[d] - 1 : 0;
  }
  return make_view(a, std::move(p), an->shape);
}

array fliplr(const array& a) {
  if (ndim_of(a, "fliplr") < 2)
    throw shape_error("fliplr: Input must be >= 2-d, got shape " + shape_str(a.shape()));
  return flip(a, 1);
}

array flipud(const array& a) {
  if (ndim_of(a, "flipud") < 1) throw shape_error("flipud: Input must be >= 1-d.");
  return flip(a, 0);
}

array rot90(const array& a, int k, const std::vector<int>& axes_) {
  const std::int64_t nd = ndim_of(a, "rot90");
  if (axes_.size() != 2) throw shape_error("rot90: len(axes) must be 2.");
  if (nd < 2) throw shape_error("rot90: the array must be at least 2-d, got shape " + shape_str(a.shape()));
  if (axes_[0] == axes_[1] || std::abs(axes_[0] - axes_[1]) == nd)
    throw shape_error("rot90: Axes must be different.");
  const int a0 = normalize_axis(axes_[0], nd, "rot90"), a1 = normalize_axis(axes_[1], nd, "rot90");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return a;
  if (k == 2) return flip(flip(a, a0), a1);
  std::vector<int> order(nd);
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[a0], order[a1]);
  if (k == 1) return frontend::permute(flip(a, a1), order);
  return flip(frontend::permute(a, order), a1);
}

array diagonal(const array& a, std::int64_t offset, int axis1, int axis2) {
  const auto& an = checked(a, "diagonal");
  const std::int64_t nd = an->shape.size();
  if (nd < 2) throw shape_error("diagonal: diag requires an array of at least two dimensions");
  const int a1 = normalize_axis(axis1, nd, "diagonal"), a2 = normalize_axis(axis2, nd, "diagonal");
  if (a1 == a2) throw shape_error("diagonal: axis1 and axis2 cannot be the same");
  const std::int64_t n1 = an->shape[a1], n2 = an->shape[a2];
  const std::int64_t len =
      std::max<std::int64_t>(0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
  shape_t out;
  std::vector<int> rest;
  for (int d = 0; d < nd; ++d)
    if (d != a1 && d != a2) {
      rest.push_back(d);
      out.push_back(an->shape[d]);
    }
  out.push_back(len);
  auto p = frontend::affine_view(nd, out.size());
  for (std::size_t k = 0; k < rest.size(); ++k) coeff(p, rest[k], k, out.size()) = 1;
  coeff(p, a1, out.size() - 1, out.size()) = 1;
  coeff(p, a2, out.size() - 1, out.size()) = 1;
  if (len > 0) {
    p.base[a1] = offset < 0 ? -offset : 0;
    p.base[a2] = offset > 0 ? offset : 0;
  }
  return make_view(a, std::move(p), out);
}

array diag(const array& v, std::int64_t k) {
  const frontend::operands_device on_their_device(v);
  const auto& vn = checked(v, "diag");
  if (vn->shape.size() == 2) return diagonal(v, k, 0, 1);
  if (vn->shape.size() != 1)
    throw shape_error("diag: Input must be 1- or 2-d, got shape " + shape_str(vn->shape));
  // v on diagonal k of an (n + |k|)^2 zero matrix: v is read (guarded) only on that diagonal.
  const std::int64_t n = vn->shape[0] + (k < 0 ? -k : k);
  const shape_t shape{n, n};
  const array on_diagonal = equal(frontend::iota(dtype::int64, shape, 0.0, 1.0, {-1, 1}), k);
  auto p = frontend::affine_view(1, 2);
  coeff(p, 0, k >= 0 ? 0 : 1, 2) = 1;  // v's index: the row above the main diagonal, else the column
  return frontend::select_region(on_diagonal, frontend::overhanging_view(vn, std::move(p), shape),
                                 zeros({}, vn->dt));
}

array trace(const array& a, std::int64_t offset, int axis1, int axis2, std::optional<dtype> dt) {
  return sum(diagonal(a, offset, axis1, axis2), -1, false, dt);
}

namespace {

// m with the elements where (column - row) compares false with k replaced by zero: the shared body
// of tril and triu, over the last two axes.
array triangle(const array& m, std::int64_t k, bool lower, const char* op) {
  const auto& mn = checked(m, op);
  const std::size_t nd = mn->shape.size();
  if (nd < 2)
    throw shape_error(std::string(op) + ": input must be at least 2-d, got shape " + shape_str(mn->shape));
  shape_t plane{mn->shape[nd - 2], mn->shape[nd - 1]};
  array diff = frontend::iota(dtype::int64, plane, 0.0, 1.0, {-1, 1});  // column - row
  array keep = lower ? less_equal(diff, k) : greater_equal(diff, k);
  return where(keep, m, zeros({}, mn->dt));
}

}  // namespace

array tril(const array& m, std::int64_t k) {
  const frontend::operands_device on_their_device(m);
  return triangle(m, k, true, "tril");
}
array triu(const array& m, std::int64_t k) {
  const frontend::operands_device on_their_device(m);
  return triangle(m, k, false, "triu");
}

std::vector<array> meshgrid(const std::vector<array>& xi, const std::string& indexing) {
  if (indexing != "xy" && indexing != "ij")
    throw value_error("meshgrid: Valid values for `indexing` are 'xy' and 'ij'.");
  const std::size_t n = xi.size();
  shape_t shape;
  for (const auto& x : xi) shape.push_back(checked(x, "meshgrid")->size());
  const bool xy = indexing == "xy" && n >= 2;
  if (xy) std::swap(shape[0], shape[1]);
  std::vector<array> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = i;
    if (xy && i < 2) at = 1 - i;
    auto p = frontend::affine_view(1, n);
    coeff(p, 0, at, n) = 1;
    out.push_back(make_view(ravel(xi[i]), std::move(p), shape));
  }
  return out;
}

array indices(const shape_t& dimensions, dtype dt) {
  const std::size_t n = dimensions.size();
  shape_t shape{static_cast<std::int64_t>(n)};
  shape.insert(shape.end(), dimensions.begin(), dimensions.end());
  std::vector<array> grids;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::int64_t> c(n, 0);
    c[i] = 1;
    grids.push_back(expand_dims(frontend::iota(dt, dimensions, 0.0, 1.0, c), 0));
  }
  // One iota per row of the result: a where over the leading index picks row i's.
  if (n == 0) return zeros({0}, dt);
  array rows = frontend::iota(dtype::int64, shape, 0.0, 1.0, [&] {
    std::vector<std::int64_t> c(shape.size(), 0);
    c[0] = 1;
    return c;
  }());
  array result = grids[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) result = where(equal(rows, std::int64_t(i)), grids[i], result);
  return broadcast_to(result, shape).copy();
}

array copy(const array& a) {
  return frontend::lazy_copy(a);
}

array ascontiguousarray(const array& a) {
  const auto& an = checked(a, "ascontiguousarray");
  if (!an->materialized() || ir::has_contiguous_strides(an->shape, an->strides)) return atleast_1d(a);
  return atleast_1d(frontend::lazy_copy(a));
}

namespace {

std::vector<array> split_at(const array& a, const std::vector<std::int64_t>& points, int axis,
                            const char* op) {
  const auto& an = checked(a, op);
  const int ax = normalize_axis(axis, an->shape.size(), op);
  const std::int64_t n = an->shape[ax];
  std::vector<array> out;
  std::int64_t prev = 0;
  for (std::size_t k = 0; k <= points.size(); ++k) {
    std::int64_t end = k < points.size() ? points[k] : n;
    std::int64_t lo = std::clamp<std::int64_t>(prev < 0 ? prev + n : prev, 0, n);
    std::int64_t hi = std::clamp<std::int64_t>(end < 0 ? end + n : end, 0, n);
    hi = std::max(hi, lo);
    std::vector<index_item> items(ax, index_item(all));
    items.emplace_back(slice(lo, hi));
    out.push_back(index(a, items));
    prev = end;
  }
  return out;
}

std::vector<std::int64_t> section_points(std::int64_t n, std::int64_t sections, bool even, const char* op) {
  if (sections <= 0) throw shape_error(std::string(op) + ": number sections must be larger than 0.");
  if (even && n % sections != 0)
    throw shape_error(std::string(op) + ": array split does not result in an equal division");
  std::vector<std::int64_t> points;
  const std::int64_t each = n / sections, extras = n % sections;
  std::int64_t at = 0;
  for (std::int64_t k = 0; k + 1 < sections; ++k) {
    at += each + (k < extras ? 1 : 0);
    points.push_back(at);
  }
  return points;
}

std::int64_t axis_extent(const array& a, int axis, const char* op) {
  const auto& an = checked(a, op);
  return an->shape[normalize_axis(axis, an->shape.size(), op)];
}

}  // namespace

std::vector<array> split(const array& a, std::int64_t sections, int axis) {
  return split_at(a, section_points(axis_extent(a, axis, "split"), sections, true, "split"), axis, "split");
}
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices, int axis) {
  return split_at(a, indices, axis, "split");
}
std::vector<array> array_split(const array& a, std::int64_t sections, int axis) {
  return split_at(a, section_points(axis_extent(a, axis, "array_split"), sections, false, "array_split"),
                  axis, "array_split");
}
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices, int axis) {
  return split_at(a, indices, axis, "array_split");
}

array tile(const array& a, const std::vector<std::int64_t>& reps) {
  const auto& an = checked(a, "tile");
  for (auto r : reps)
    if (r < 0) throw shape_error("tile: negative dimensions are not allowed");
  const std::size_t nd = std::max(an->shape.size(), reps.size());
  shape_t in(nd - an->shape.size(), 1), r(nd - reps.size(), 1);
  in.insert(in.end(), an->shape.begin(), an->shape.end());
  r.insert(r.end(), reps.begin(), reps.end());
  // (r0, n0, r1, n1, ...) broadcast from (1, n0, 1, n1, ...), then merged pairwise.
  shape_t interleaved, with_ones, out;
  for (std::size_t d = 0; d < nd; ++d) {
    interleaved.insert(interleaved.end(), {r[d], in[d]});
    with_ones.insert(with_ones.end(), {1, in[d]});
    out.push_back(ir::mul_sizes(r[d], in[d], "tile"));
  }
  return reshape(broadcast_to(reshape(a, with_ones), interleaved), out);
}

array tile(const array& a, std::int64_t reps) {
  return tile(a, std::vector<std::int64_t>{reps});
}

array repeat(const array& a, std::int64_t repeats, std::optional<int> axis) {
  if (repeats < 0) throw shape_error("repeat: negative dimensions are not allowed");
  if (!axis) return repeat(ravel(a), repeats, 0);
  const auto& an = checked(a, "repeat");
  const int ax = normalize_axis(*axis, an->shape.size(), "repeat");
  // (..., n, 1, ...) broadcast to (..., n, repeats, ...), then the pair merged.
  shape_t with_one = an->shape, widened = an->shape, out = an->shape;
  with_one.insert(with_one.begin() + ax + 1, 1);
  widened.insert(widened.begin() + ax + 1, repeats);
  out[ax] = ir::mul_sizes(out[ax], repeats, "repeat");
  return reshape(broadcast_to(reshape(a, with_one), widened), out);
}

// --- views of temporaries ----------------------------------------------------------------------------
// The view reads the temporary's node at once, so its handle goes (frontend::consume).

array reshape(array&& a, const shape_t& shape) {
  return frontend::consume(a, reshape(a, shape));
}
array ravel(array&& a) {
  return frontend::consume(a, ravel(a));
}
array transpose(array&& a) {
  return frontend::consume(a, transpose(a));
}
array transpose(array&& a, const std::vector<int>& axes) {
  return frontend::consume(a, transpose(a, axes));
}
array swapaxes(array&& a, int axis1, int axis2) {
  return frontend::consume(a, swapaxes(a, axis1, axis2));
}
array moveaxis(array&& a, const std::vector<int>& source, const std::vector<int>& destination) {
  return frontend::consume(a, moveaxis(a, source, destination));
}
array moveaxis(array&& a, int source, int destination) {
  return frontend::consume(a, moveaxis(a, source, destination));
}
array squeeze(array&& a, axes axis) {
  return frontend::consume(a, squeeze(a, std::move(axis)));
}
array expand_dims(array&& a, const std::vector<int>& axis) {
  return frontend::consume(a, expand_dims(a, axis));
}
array expand_dims(array&& a, int axis) {
  return frontend::consume(a, expand_dims(a, axis));
}
array broadcast_to(array&& a, const shape_t& shape) {
  return frontend::consume(a, broadcast_to(a, shape));
}
array flip(array&& a, axes axis) {
  return frontend::consume(a, flip(a, std::move(axis)));
}
array diagonal(array&& a, std::int64_t offset, int axis1, int axis2) {
  return frontend::consume(a, diagonal(a, offset, axis1, axis2));
}

// --- the ndarray methods --------------------------------------------------------------------------

// Each method twice: on an lvalue, and on a temporary, whose handle then goes (see array.hpp).
#define NDFUSE_METHOD(signature, call)     \
  array array::signature const& {          \
    return call;                           \
  }                                        \
  array array::signature&& {               \
    return frontend::consume(*this, call); \
  }

NDFUSE_METHOD(reshape(const shape_t& shape), ndfuse::reshape(*this, shape))
NDFUSE_METHOD(ravel(), ndfuse::ravel(*this))
NDFUSE_METHOD(flatten(), ndfuse::copy(ndfuse::ravel(*this)))
NDFUSE_METHOD(transpose(), ndfuse::transpose(*this))
NDFUSE_METHOD(transpose(const std::vector<int>& axes), ndfuse::transpose(*this, axes))
NDFUSE_METHOD(T(), ndfuse::transpose(*this))
NDFUSE_METHOD(swapaxes(int a, int b), ndfuse::swapaxes(*this, a, b))
NDFUSE_METHOD(squeeze(axes axis), ndfuse::squeeze(*this, axis))
NDFUSE_METHOD(diagonal(std::int64_t offset, int axis1, int axis2),
              ndfuse::diagonal(*this, offset, axis1, axis2))
NDFUSE_METHOD(copy(), ndfuse::copy(*this))
#undef NDFUSE_METHOD

}  // namespace ndfuse
