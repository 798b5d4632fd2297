// numpy.linalg.norm for vectors and matrices, as reductions of |x| so that the whole norm of a lazy
// x is one fused kernel (prologue |x|^2, fold, epilogue sqrt).
#include <cmath>
#include <limits>

#include "frontend/operands_device.hpp"
#include "frontend/reduce_build.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::linalg {

namespace {

// NumPy's abs(x).max(axis, initial=0): the largest magnitude, 0 for an empty x.
array max_magnitude(const array& a, const axes& axis, bool keepdims) {
  const dtype t = a.dtype();
  const std::uint64_t mask = frontend::axis_mask(axis, a.ndim(), "linalg.norm");
  return frontend::reduce_value(a, ir::op_code::maximum, t, t, mask, keepdims, "linalg.norm",
                                frontend::scalar_to_bits(scalar(0), t, "linalg.norm"));
}

bool is_inf(double p, int sign) {
  return std::isinf(p) && (p > 0) == (sign > 0);
}

array vector_norm(const array& x, const norm_order& ord, const axes& axis, bool keepdims) {
  const double p = ord.p();
  const dtype real_t = x.dtype() == dtype::complex64    ? dtype::float32
                       : x.dtype() == dtype::complex128 ? dtype::float64
                                                        : x.dtype();
  if (ord.is_default() || p == 2) {
    // NumPy: sqrt(sum(real(x * conj(x)))).
    array sq = is_complex(x.dtype()) ? real(multiply(x, conj(x))) : multiply(x, x);
    return sqrt(sum(sq, axis, keepdims));
  }
  if (is_inf(p, 1)) return max_magnitude(abs(x), axis, keepdims);
  if (is_inf(p, -1)) return min(abs(x), axis, keepdims);
  if (p == 0) return sum(not_equal(x, operand(0)).astype(real_t), axis, keepdims);
  if (p == 1) return sum(abs(x), axis, keepdims);
  // NumPy: (sum |x|**p) ** (1/p), the exponents in the result's dtype.
  array s = sum(power(abs(x), operand(p)), axis, keepdims);
  return power(s, operand(1.0 / p));
}

array matrix_norm(const array& x, const norm_order& ord, int row, int col, bool keepdims) {
  const frontend::operands_device on_their_device(x);
  if (ord.is_default() || ord.name() == "fro") {
    array sq = is_complex(x.dtype()) ? real(multiply(x, conj(x))) : multiply(x, x);
    return sqrt(sum(sq, {row, col}, keepdims));
  }
  if (ord.is_named() || ord.p() == 2 || ord.p() == -2) {
    // From the singular values of the (row, col) matrices: the largest, the smallest, their sum.
    array m = moveaxis(x, {row, col}, {-2, -1});
    array s = svdvals(m);
    // NumPy takes the largest with initial=0, so an empty matrix's 2-norm is 0, and the smallest
    // without one: amin of nothing raises, here as in any reduction with no identity.
    const shape_t batch(s.shape().begin(), s.shape().end() - 1);
    array r = ord.is_named()          ? sum(s, -1)
              : ord.p() == -2         ? amin(s, -1)
              : s.shape().back() == 0 ? zeros(batch, s.dtype())
                                      : amax(s, -1);
    return keepdims ? expand_dims(r, {std::min(row, col), std::max(row, col)}) : r;
  }
  const double p = ord.p();
  // ord 1 / -1: extreme column sum (sum over rows); inf / -inf: extreme row sum.
  const bool columns = p == 1 || p == -1;
  const bool largest = p > 0;
  if (!(columns || std::isinf(p))) throw shape_error("linalg.norm: invalid norm order for matrices");
  const int summed = columns ? row : col;
  int other = columns ? col : row;
  array s = sum(abs(x), summed, keepdims);
  if (!keepdims && other > summed) --other;
  return largest ? max_magnitude(s, other, keepdims) : min(s, other, keepdims);
}

}  // namespace

array norm(const array& x_in, norm_order ord, axes axis, bool keepdims) {
  const auto& xn = frontend::checked(x_in, "linalg.norm");
  if (ord.is_named() && ord.name() != "fro" && ord.name() != "nuc")
    throw shape_error("linalg.norm: invalid norm order '" + std::string(ord.name()) + "'");
  const array x = frontend::as_inexact(x_in);
  const auto nd = static_cast<std::int64_t>(xn->shape.size());
  if (axis.all()) {
    // NumPy: ord given means a vector norm of a 1-D x or a matrix norm of a 2-D x; otherwise the
    // 2-norm of the flattened array.
    if (!ord.is_default() && nd == 2) return matrix_norm(x, ord, 0, 1, keepdims);
    if (!ord.is_default() && nd != 1)
      throw shape_error("linalg.norm: improper number of dimensions to norm (" + std::to_string(nd) + ")");
    if (ord.is_named() && nd == 1)
      throw shape_error("linalg.norm: invalid norm order '" + std::string(ord.name()) + "' for vectors");
    return vector_norm(x, ord, axis, keepdims);
  }
  frontend::axis_mask(axis, nd, "linalg.norm");  // throws for an axis out of range or repeated
  if (axis.list().size() == 1) {
    if (ord.is_named())
      throw shape_error("linalg.norm: invalid norm order '" + std::string(ord.name()) + "' for vectors");
    return vector_norm(x, ord, axis, keepdims);
  }
  if (axis.list().size() == 2) {
    int row = axis.list()[0], col = axis.list()[1];
    row = row < 0 ? row + static_cast<int>(nd) : row;
    col = col < 0 ? col + static_cast<int>(nd) : col;
    return matrix_norm(x, ord, row, col, keepdims);
  }
  throw shape_error("linalg.norm: improper number of dimensions to norm");
}

array norm(array&& x, norm_order ord, axes axis, bool keepdims) {
  return frontend::consume(x, norm(x, std::move(ord), std::move(axis), keepdims));
}

}  // namespace ndfuse::linalg
