// The products built on matmul (NumPy's reshaping of each to a matrix product): dot, vdot, inner,
// tensordot, matrix_power and multi_dot; outer and kron are fused elementwise products.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/view.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse {

namespace {

std::int64_t product_of(const shape_t& s) {
  return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>());
}

}  // namespace

array tensordot(const array& a, const array& b, const std::vector<int>& a_axes,
                const std::vector<int>& b_axes) {
  frontend::checked(a, "tensordot");
  frontend::checked(b, "tensordot");
  if (a_axes.size() != b_axes.size()) throw shape_error("tensordot: shape-mismatch for sum");
  std::vector<bool> a_summed(a.ndim(), false), b_summed(b.ndim(), false);
  std::vector<int> as, bs;
  for (std::size_t i = 0; i < a_axes.size(); ++i) {
    const int x = frontend::normalize_axis(a_axes[i], a.ndim(), "tensordot"),
              y = frontend::normalize_axis(b_axes[i], b.ndim(), "tensordot");
    if (a.shape()[x] != b.shape()[y]) throw shape_error("tensordot: shape-mismatch for sum");
    if (a_summed[x] || b_summed[y]) throw shape_error("tensordot: repeated axis");
    a_summed[x] = b_summed[y] = true;
    as.push_back(x);
    bs.push_back(y);
  }
  // a as (free..., summed...) and b as (summed..., free...), each reshaped to a matrix.
  std::vector<int> a_order, b_order;
  shape_t free_a, free_b;
  for (int d = 0; d < a.ndim(); ++d)
    if (!a_summed[d]) a_order.push_back(d), free_a.push_back(a.shape()[d]);
  a_order.insert(a_order.end(), as.begin(), as.end());
  b_order = bs;
  for (int d = 0; d < b.ndim(); ++d)
    if (!b_summed[d]) b_order.push_back(d), free_b.push_back(b.shape()[d]);
  std::int64_t k = 1;
  for (int x : as) k *= a.shape()[x];
  const array am = reshape(transpose(a, a_order), {product_of(free_a), k});
  const array bm = reshape(transpose(b, b_order), {k, product_of(free_b)});
  shape_t out = free_a;
  out.insert(out.end(), free_b.begin(), free_b.end());
  return reshape(matmul(am, bm), out);
}

array tensordot(const array& a, const array& b, int axes) {
  frontend::checked(a, "tensordot");
  frontend::checked(b, "tensordot");
  if (axes < 0 || axes > a.ndim() || axes > b.ndim())
    throw shape_error("tensordot: axes=" + std::to_string(axes) + " exceeds the operands' dimensions");
  std::vector<int> as, bs;
  for (int i = 0; i < axes; ++i) {
    as.push_back(static_cast<int>(a.ndim()) - axes + i);
    bs.push_back(i);
  }
  return tensordot(a, b, as, bs);
}

array dot(const array& a, const array& b) {
  frontend::checked(a, "dot");
  frontend::checked(b, "dot");
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (b.ndim() <= 2) {
    if (a.shape().back() != b.shape()[0])
      throw shape_error("dot: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                        " not aligned: " + std::to_string(a.shape().back()) + " (dim " +
                        std::to_string(a.ndim() - 1) + ") != " + std::to_string(b.shape()[0]) + " (dim 0)");
    if (a.ndim() <= 2) return matmul(a, b);
  }
  const int bk = b.ndim() == 1 ? 0 : static_cast<int>(b.ndim()) - 2;
  if (a.shape().back() != b.shape()[bk])
    throw shape_error("dot: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                      " not aligned: " + std::to_string(a.shape().back()) + " (dim " +
                      std::to_string(a.ndim() - 1) + ") != " + std::to_string(b.shape()[bk]) + " (dim " +
                      std::to_string(bk) + ")");
  return tensordot(a, b, {-1}, {bk});
}

array vdot(const array& a, const array& b) {
  frontend::checked(a, "vdot");
  frontend::checked(b, "vdot");
  if (a.size() != b.size()) throw shape_error("vdot: vectors have different lengths");
  const array x = ravel(a), y = ravel(b);
  // conj of an evaluated vector is read by the gemm with BLAS's conjugate-transpose, not copied.
  return matmul(is_complex(x.dtype()) ? conj(x) : x, y);
}

array inner(const array& a, const array& b) {
  frontend::checked(a, "inner");
  frontend::checked(b, "inner");
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape().back() != b.shape().back())
    throw shape_error("inner: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                      " not aligned: last dimensions differ");
  return tensordot(a, b, {-1}, {-1});
}

array outer(const array& a, const array& b) {
  frontend::checked(a, "outer");
  frontend::checked(b, "outer");
  return multiply(reshape(a, {a.size(), 1}), reshape(b, {1, b.size()}));
}

array kron(const array& a, const array& b) {
  frontend::checked(a, "kron");
  frontend::checked(b, "kron");
  const std::int64_t nd = std::max(a.ndim(), b.ndim());
  shape_t sa(nd - a.ndim(), 1), sb(nd - b.ndim(), 1);
  sa.insert(sa.end(), a.shape().begin(), a.shape().end());
  sb.insert(sb.end(), b.shape().begin(), b.shape().end());
  // out[(i0, j0), (i1, j1), ...] = a[i0, i1, ...] * b[j0, j1, ...]: interleaved axes, one kernel.
  shape_t ia, ib, out;
  for (std::int64_t d = 0; d < nd; ++d) {
    ia.push_back(sa[d]), ia.push_back(1);
    ib.push_back(1), ib.push_back(sb[d]);
    out.push_back(sa[d] * sb[d]);
  }
  return reshape(multiply(reshape(a, ia), reshape(b, ib)), out);
}

namespace linalg {

array matrix_power(const array& a, std::int64_t n) {
  const frontend::operands_device on_their_device(a);
  frontend::checked(a, "matrix_power");
  if (a.ndim() < 2 || a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw shape_error("matrix_power: last 2 dimensions of the array must be square, got " +
                      shape_str(a.shape()));
  if (n == 0) return broadcast_to(eye(a.shape().back(), -1, 0, a.dtype()), a.shape()).copy();
  if (n < 0) return matrix_power(inv(a), -n);  // as NumPy: the power of the inverse
  if (n == 1) return a;
  if (n == 2) return matmul(a, a);
  if (n == 3) return matmul(matmul(a, a), a);
  // NumPy's binary decomposition, in its order (the rounding of the result depends on it).
  array z, result;
  bool have_z = false, have_result = false;
  while (n > 0) {
    z = have_z ? matmul(z, z) : a;
    have_z = true;
    const bool bit = n % 2;
    n /= 2;
    if (bit) {
      result = have_result ? matmul(result, z) : z;
      have_result = true;
    }
  }
  return result;
}

array multi_dot(const std::vector<array>& arrays) {
  const std::size_t count = arrays.size();
  if (count < 2) throw value_error("multi_dot: Expecting at least two arrays.");
  for (const auto& x : arrays) frontend::checked(x, "multi_dot");
  if (count == 2) return dot(arrays[0], arrays[1]);
  std::vector<array> m(arrays);
  const bool first_1d = m.front().ndim() == 1, last_1d = m.back().ndim() == 1;
  if (first_1d) m.front() = reshape(m.front(), {1, m.front().size()});
  if (last_1d) m.back() = reshape(m.back(), {m.back().size(), 1});
  for (const auto& x : m)
    if (x.ndim() != 2)
      throw shape_error("multi_dot: " + std::to_string(x.ndim()) +
                        "-dimensional array given. Array must be two-dimensional");
  // Matrix-chain order: cost[i][j] is the fewest scalar multiplications for m[i..j] (NumPy's
  // _multi_dot_matrix_chain_order, ties to the first split as there).
  std::vector<std::int64_t> p;
  for (const auto& x : m) p.push_back(x.shape()[0]);
  p.push_back(m.back().shape()[1]);
  std::vector<std::vector<double>> cost(count, std::vector<double>(count, 0));
  std::vector<std::vector<std::size_t>> split(count, std::vector<std::size_t>(count, 0));
  for (std::size_t len = 1; len < count; ++len)
    for (std::size_t i = 0; i + len < count; ++i) {
      const std::size_t j = i + len;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (std::size_t s = i; s < j; ++s) {
        const double c = cost[i][s] + cost[s + 1][j] + double(p[i]) * double(p[s + 1]) * double(p[j + 1]);
        if (c < cost[i][j]) cost[i][j] = c, split[i][j] = s;
      }
    }
  auto chain = [&](auto&& self, std::size_t i, std::size_t j) -> array {
    if (i == j) return m[i];
    return matmul(self(self, i, split[i][j]), self(self, split[i][j] + 1, j));
  };
  array result = chain(chain, 0, count - 1);
  if (first_1d && last_1d) return reshape(result, {});
  if (first_1d || last_1d) return ravel(result);
  return result;
}

}  // namespace linalg

}  // namespace ndfuse
