// tensorsolve and tensorinv: a tensor problem is one matrix problem on a reshaped view of a, so each
// is a reshape, one solve or inv, and a reshape back (views of evaluated buffers: nothing is copied
// unless `axes` reorders a, as NumPy copies then too). NumPy's shape rules are kept to the letter,
// including what its Python slicing does at the edges.
#include <algorithm>
#include <numeric>
#include <string>

#include "frontend/build.hpp"
#include "frontend/solver_call.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"

namespace ndfuse::linalg {

namespace {

shape_t slice_of(const shape_t& s, std::size_t begin, std::size_t end) {
  return shape_t(s.begin() + static_cast<std::ptrdiff_t>(begin),
                 s.begin() + static_cast<std::ptrdiff_t>(end));
}

// A singular matrix is found by solve or inv; the message says which call it came through.
template <class F>
array naming_singular(const char* op, F&& f) {
  try {
    return f();
  } catch (const linalg_error& e) {
    throw linalg_error(std::string(op) + ": " + e.what());
  }
}

}  // namespace

array tensorsolve(const array& a_in, const array& b, const std::optional<std::vector<int>>& axes) {
  const char* op = "linalg.tensorsolve";
  const auto& an = frontend::checked(a_in, op);
  const auto& bn = frontend::checked(b, op);
  frontend::solver_dtype(promote_types(an->dt, bn->dt), op);
  const auto nd = static_cast<int>(an->shape.size());
  array a = a_in;
  if (axes) {
    // NumPy's list.remove then append: each listed axis moves to the end in turn, so a repeated
    // axis moves again (no error), and an axis must be listed as its non-negative position.
    std::vector<int> order(static_cast<std::size_t>(nd));
    std::iota(order.begin(), order.end(), 0);
    for (int k : *axes) {
      const auto at = std::find(order.begin(), order.end(), k);
      if (at == order.end())
        throw shape_error(std::string(op) + ": axis " + std::to_string(k) + " is not an axis of a of shape " +
                          shape_str(an->shape) + " (axes are positions 0 to " + std::to_string(nd - 1) +
                          "; NumPy's tensorsolve takes no negative axes)");
      order.erase(at);
      order.push_back(k);
    }
    a = transpose(a, order);
  }
  const shape_t& shape = a.shape();
  // NumPy's x shape is a.shape[-(a.ndim - b.ndim):]: the axes after b's usually, but all of a's when
  // the ranks are equal (-0 is 0), and a.shape[b.ndim - a.ndim:] when b has more.
  const auto bnd = static_cast<int>(b.ndim());
  const auto start = static_cast<std::size_t>(bnd < nd ? bnd : bnd == nd ? 0 : std::min(bnd - nd, nd));
  const shape_t leading = slice_of(shape, 0, start), x_shape = slice_of(shape, start, shape.size());
  const std::int64_t n = ir::shape_size(x_shape), rows = ir::shape_size(leading);
  // NumPy asks a.size == n * n: true when n is 0 (a is empty) or the leading axes hold n too.
  if (n != 0 && rows != n)
    throw shape_error(std::string(op) + ": a of shape " + shape_str(shape) +
                      (axes ? " (after moving the axes)" : "") + " is not square for b of shape " +
                      shape_str(b.shape()) + ": prod(a.shape[" + std::to_string(start) +
                      ":]) = " + std::to_string(n) + " must equal prod(a.shape[:" + std::to_string(start) +
                      "]) = " + std::to_string(rows));
  if (b.size() != n)
    throw shape_error(std::string(op) + ": b of shape " + shape_str(b.shape()) + " has " +
                      std::to_string(b.size()) + " elements, a of shape " + shape_str(shape) + " needs " +
                      std::to_string(n) + " (the size of x's shape " + shape_str(x_shape) + ")");
  return naming_singular(op, [&] { return reshape(solve(reshape(a, {n, n}), ravel(b)), x_shape); });
}

array tensorinv(const array& a, int ind) {
  const char* op = "linalg.tensorinv";
  const auto& an = frontend::checked(a, op);
  frontend::solver_dtype(an->dt, op);
  if (ind <= 0)
    throw value_error(std::string(op) + ": Invalid ind argument " + std::to_string(ind) +
                      " (must be a positive integer)");
  const shape_t& shape = an->shape;
  const std::size_t split = std::min(static_cast<std::size_t>(ind), shape.size());
  const shape_t leading = slice_of(shape, 0, split), trailing = slice_of(shape, split, shape.size());
  // NumPy reshapes the inverse to a.shape[ind:] + a.shape[:ind] with reshape(*shape), which a 0-d
  // a leaves without arguments (a TypeError there).
  if (shape.empty()) throw shape_error(std::string(op) + ": a 0-d array has no tensor inverse");
  const std::int64_t n = ir::shape_size(trailing), rows = ir::shape_size(leading);
  // NumPy's reshape(n, -1) cannot infer the -1 when n is 0; otherwise inv needs rows == n.
  if (n == 0 || rows != n)
    throw shape_error(std::string(op) + ": a of shape " + shape_str(shape) + " is not square for ind=" +
                      std::to_string(ind) + ": prod(a.shape[" + std::to_string(split) +
                      ":]) = " + std::to_string(n) + " must equal prod(a.shape[:" + std::to_string(split) +
                      "]) = " + std::to_string(rows) + (n == 0 ? " and be non-zero" : ""));
  return naming_singular(op, [&] {
    return reshape(inv(reshape(a, {n, n})), frontend::concat(trailing, leading));
  });
}

}  // namespace ndfuse::linalg
