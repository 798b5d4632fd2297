// What the singular values give: pinv, lstsq, matrix_rank and cond (one SVD call each, then fused
// elementwise work, reductions and matrix products, in NumPy's formulas).
#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/solver_call.hpp"
#include "ndfuse/config.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::linalg {

namespace {

double eps_of(dtype t) {
  return frontend::real_dtype(t) == dtype::float32 ? std::numeric_limits<float>::epsilon()
                                                   : std::numeric_limits<double>::epsilon();
}

array matrix_t(const array& x) {
  return swapaxes(x, -1, -2);
}

// V diag(1/s) U^H over the singular values above cutoff (the others count as zero), applied to b
// when given: NumPy's pinv formula.
array pseudo_inverse(const svd_result& f, const array& cutoff) {
  const array large = greater(f.S, cutoff);
  const array inv_s = where(large, divide(1, f.S), operand(0)).astype(f.S.dtype());
  return matmul(conj(matrix_t(f.Vh)), multiply(expand_dims(inv_s, -1), conj(matrix_t(f.U))));
}

// b / c for a real c, b's real and imaginary parts divided apart: the complex quotient (NumPy's
// formula, Smith's) multiplies by 1 / c, which overflows for a subnormal c.
array divide_parts(const array& b, const array& c) {
  if (!is_complex(b.dtype())) return divide(b, c);
  return add(divide(real(b), c), multiply(divide(imag(b), c), std::complex<double>(0, 1))).astype(b.dtype());
}

// x = V diag(1/s) U^H b over the singular values above cutoff, without forming 1/s, which overflows
// for singular values below 1 / (the largest number): a matrix of subnormal entries, whose least-
// squares solution is still of ordinary size (LAPACK's gelsd scales A and B into range for the same
// reason). Each column of b is divided by its largest magnitude c_j (a NaN stays in its column) and s
// by its largest, s_max; then x_j = c_j / s_max V ((U^H b_j / c_j) / (s / s_max)), every intermediate
// of b's and A's own scales cancelled, the factor c_j / s_max as large as the answer.
array least_squares_solution(const svd_result& f, const array& cutoff, const array& b) {
  const array large = greater(f.S, cutoff);
  const array s_max = amax(f.S, -1, true), c = amax(abs(b), 0, true);
  const array s_scale = where(greater(s_max, 0), s_max, operand(1)),
              b_scale = where(greater(c, 0), c, operand(1));
  const array y = matmul(conj(matrix_t(f.U)), divide_parts(b, b_scale));
  const array z = where(expand_dims(large, -1), divide(y, expand_dims(divide(f.S, s_scale), -1)), operand(0));
  return multiply(matmul(conj(matrix_t(f.Vh)), z.astype(b.dtype())), divide(b_scale, s_scale));
}

}  // namespace

array pinv(const array& a, std::optional<double> rcond_arg, bool hermitian, std::optional<double> rtol) {
  const frontend::operands_device on_their_device(a);
  // Checked first, as NumPy does, before any shape is looked at.
  if (rcond_arg && rtol) throw value_error("linalg.pinv: `rtol` and `rcond` can't be both set.");
  const double rcond = rcond_arg ? *rcond_arg : rtol ? *rtol : 1e-15;
  auto s = frontend::as_matrix_stack(a, "linalg.pinv", false);
  if (s.m == 0 || s.n == 0) return zeros(frontend::concat(s.batch, {s.n, s.m}), s.dt);
  // NumPy returns empty matrices before its hermitian SVD (eigh) asks for square ones.
  if (hermitian) frontend::as_matrix_stack(a, "linalg.pinv", true);
  // NumPy takes the hermitian SVD of conj(a) and leaves the conjugations out of its formula; both
  // give the pseudo-inverse of the Hermitian matrix a's lower triangle defines.
  const svd_result f = svd(s.a, false, true, hermitian);
  const array cutoff = multiply(amax(f.S, -1, true), rcond);
  return pseudo_inverse(f, cutoff);
}

lstsq_result lstsq(const array& a, const array& b_in, double rcond) {
  const frontend::operands_device on_their_device(a, b_in);
  const auto& an = frontend::checked(a, "linalg.lstsq");
  const auto& bn = frontend::checked(b_in, "linalg.lstsq");
  const bool vector = bn->shape.size() == 1;
  if (an->shape.size() != 2 || (bn->shape.size() != 1 && bn->shape.size() != 2))
    throw shape_error("linalg.lstsq: a must be two-dimensional and b one- or two-dimensional, got shapes " +
                      shape_str(an->shape) + " and " + shape_str(bn->shape));
  const std::int64_t m = an->shape[0], n = an->shape[1];
  if (bn->shape[0] != m) throw linalg_error("linalg.lstsq: Incompatible dimensions");
  const dtype t = frontend::solver_dtype(promote_types(an->dt, bn->dt), "linalg.lstsq");
  const dtype rt = frontend::real_dtype(t);
  const array A = a.astype(t);
  const array B = (vector ? expand_dims(b_in, -1) : b_in).astype(t);
  if (rcond < 0) rcond = eps_of(t) * static_cast<double>(std::max(m, n));
  lstsq_result r;
  if (m == 0 || n == 0) {
    // Nothing to fit: x is zero, every singular value list empty.
    r.x = zeros(vector ? shape_t{n} : shape_t{n, B.shape()[1]}, t);
    r.s = zeros({0}, rt);
    r.residuals = m == 0 || n >= m ? zeros({0}, rt) : sum(real(multiply(B, conj(B))), 0);
    return r;
  }
  const svd_result f = svd(A, false, true);
  const array cutoff = multiply(amax(f.S, -1, true), rcond);
  array x = least_squares_solution(f, cutoff, B);
  // NumPy's gelsd reports an SVD that did not converge where a singular value here is NaN (an
  // infinity in a gives NaN singular values): the rank and that check come from one plan.
  array ranked = count_nonzero(greater(f.S, cutoff)), nans = count_nonzero(isnan(f.S));
  eval(ranked, nans);
  if (nans.item<std::int64_t>() > 0)
    throw linalg_error("linalg.lstsq: SVD did not converge in Linear Least Squares");
  r.rank = ranked.item<std::int64_t>();
  r.s = f.S;
  if (r.rank == n && m > n) {
    const array d = subtract(B, matmul(A, x));
    r.residuals = sum(real(multiply(d, conj(d))), 0);
  } else {
    r.residuals = zeros({0}, rt);
  }
  r.x = vector ? squeeze(x, -1) : x;
  return r;
}

array matrix_rank(const array& a, std::optional<double> tol, bool hermitian, std::optional<double> rtol) {
  const frontend::operands_device on_their_device(a);
  if (tol && rtol) throw value_error("linalg.matrix_rank: `tol` and `rtol` can't be both set.");
  const auto& an = frontend::checked(a, "linalg.matrix_rank");
  if (an->shape.size() < 2) return any(not_equal(a, 0)).astype(dtype::int64);
  auto s = frontend::as_matrix_stack(a, "linalg.matrix_rank", hermitian);
  // No singular values: NumPy's threshold is a max with initial=0, and nothing exceeds it.
  if (s.m == 0 || s.n == 0) return zeros(s.batch, dtype::int64);
  const array S = hermitian ? svd(s.a, false, false, true).S : svdvals(s.a);
  const array threshold =
      tol ? full({}, *tol, frontend::real_dtype(s.dt))
          : multiply(amax(S, -1, true),
                     rtol ? *rtol : eps_of(s.dt) * static_cast<double>(std::max(s.m, s.n)));
  return count_nonzero(greater(S, threshold), -1);
}

array cond(const array& x, norm_order p) {
  auto s = frontend::as_matrix_stack(x, "linalg.cond", false);
  if (s.m == 0 || s.n == 0) throw linalg_error("linalg.cond: cond is not defined on empty arrays");
  array r;
  if (p.is_default() || (!p.is_named() && (p.p() == 2 || p.p() == -2))) {
    const array S = svdvals(s.a);
    const std::int64_t k = std::min(s.m, s.n);
    const array first = S(ellipsis, 0), last = S(ellipsis, k - 1);
    r = !p.is_default() && p.p() == -2 ? divide(last, first) : divide(first, last);
  } else {
    if (s.m != s.n)
      throw linalg_error("linalg.cond: last 2 dimensions of the array must be square, got shape " +
                         shape_str(x.shape()));
    r = multiply(norm(s.a, p, {-2, -1}), norm(inv(s.a), p, {-2, -1}));
  }
  // NumPy: a NaN from a singular matrix means an infinite condition number, unless x had NaN.
  const array x_nan = any(isnan(s.a), {-2, -1});
  return where(logical_and(isnan(r), logical_not(x_nan)), std::numeric_limits<double>::infinity(), r)
      .astype(r.dtype());
}

}  // namespace ndfuse::linalg
