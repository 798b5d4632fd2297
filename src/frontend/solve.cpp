// Linear systems and determinants: solve, inv, cholesky through their library calls; det and
// slogdet from one LU factorization, whose diagonal and pivots then reduce in fused kernels.
#include <string>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/solver_call.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::linalg {

using frontend::as_matrix_stack;
using frontend::check_info;
using frontend::concat;
using frontend::run_solver;

array solve(const array& a_in, const array& b_in) {
  frontend::checked(b_in, "linalg.solve");
  const auto& a0 = frontend::checked(a_in, "linalg.solve");
  const dtype t = frontend::solver_dtype(promote_types(a0->dt, frontend::checked(b_in, "linalg.solve")->dt),
                                         "linalg.solve");
  auto s = as_matrix_stack(a_in, "linalg.solve", true, t);
  // NumPy 2: b is one vector per matrix only when it is 1-d; otherwise a stack of matrices.
  const bool vector = b_in.ndim() == 1;
  array b = vector ? expand_dims(b_in, -1) : b_in;
  if (b.ndim() < 2)
    throw shape_error("linalg.solve: b must be at least one-dimensional, got shape " +
                      shape_str(b_in.shape()));
  const std::int64_t k = b.shape().back();
  if (b.shape()[b.ndim() - 2] != s.n)
    throw shape_error("linalg.solve: a of shape " + shape_str(a_in.shape()) + " and b of shape " +
                      shape_str(b_in.shape()) + " do not match (b needs " + std::to_string(s.n) + " rows)");
  const shape_t b_batch(b.shape().begin(), b.shape().end() - 2);
  const shape_t batch = broadcast_shapes(s.batch, b_batch, "linalg.solve");
  const std::int64_t count = ir::shape_size(batch);
  const array A = broadcast_to(s.a, concat(batch, {s.n, s.n}));
  const array B = broadcast_to(b.astype(t), concat(batch, {s.n, k}));
  ir::library_call c;
  c.op = ir::library_op::solve;
  c.dt = t;
  c.linalg.m = c.linalg.n = s.n;
  c.linalg.k = k;
  auto out = run_solver(c, count, {A, B}, {{t, concat(batch, {s.n, k})}, {dtype::int32, batch}});
  check_info(out[1], batch, "linalg.solve", "Singular matrix");
  return vector ? squeeze(out[0], -1) : out[0];
}

array inv(const array& a) {
  auto s = as_matrix_stack(a, "linalg.inv", true);
  ir::library_call c;
  c.op = ir::library_op::inv;
  c.dt = s.dt;
  c.linalg.m = c.linalg.n = s.n;
  auto out = run_solver(c, s.count, {s.a}, {{s.dt, concat(s.batch, {s.n, s.n})}, {dtype::int32, s.batch}});
  check_info(out[1], s.batch, "linalg.inv", "Singular matrix");
  return out[0];
}

array cholesky(const array& a, bool upper) {
  auto s = as_matrix_stack(a, "linalg.cholesky", true);
  ir::library_call c;
  c.op = ir::library_op::cholesky;
  c.dt = s.dt;
  c.linalg.m = c.linalg.n = s.n;
  auto out = run_solver(c, s.count, {s.a}, {{s.dt, concat(s.batch, {s.n, s.n})}, {dtype::int32, s.batch}});
  check_info(out[1], s.batch, "linalg.cholesky", "Matrix is not positive definite");
  // The library call writes the zeros of the strict upper triangle itself (ir/library.hpp).
  return upper ? conj(swapaxes(out[0], -1, -2)) : out[0];
}

namespace {

// LU's diagonal (..., n) and the sign of its row permutation (..., as the diagonal's real dtype).
struct lu_parts {
  array diagonal, perm_sign;
};

lu_parts lu_of(const array& a, const char* op) {
  auto s = as_matrix_stack(a, op, true);
  ir::library_call c;
  c.op = ir::library_op::lu;
  c.dt = s.dt;
  c.linalg.m = c.linalg.n = s.n;
  auto out = run_solver(
      c, s.count, {s.a},
      {{s.dt, concat(s.batch, {s.n, s.n})}, {dtype::int64, concat(s.batch, {s.n})}, {dtype::int32, s.batch}});
  // info > 0 only says U has a zero on its diagonal: the determinant is then 0, no error (NumPy).
  lu_parts p;
  p.diagonal = diagonal(out[0], 0, -2, -1);
  // Each pivot that is not its own row is one swap (LAPACK's pivots are 1-based).
  const array swaps = count_nonzero(not_equal(out[1], arange(1, s.n + 1, 1, dtype::int64)), -1);
  p.perm_sign = subtract(1.0, multiply(2.0, remainder(swaps, 2))).astype(frontend::real_dtype(s.dt));
  return p;
}

}  // namespace

array det(const array& a) {
  const frontend::operands_device on_their_device(a);
  auto p = lu_of(a, "linalg.det");
  return multiply(prod(p.diagonal, -1), p.perm_sign);
}

slogdet_result slogdet(const array& a) {
  const frontend::operands_device on_their_device(a);
  auto p = lu_of(a, "linalg.slogdet");
  const array mag = abs(p.diagonal);
  // Each diagonal element's unit phase (0 for a zero, which makes the sign 0 as NumPy's). A real NaN
  // counts as positive, as in NumPy, which flips the sign only for an element below 0; a complex
  // one makes the sign NaN there too.
  const array phase = is_complex(p.diagonal.dtype())
                          ? where(equal(mag, 0), operand(0), divide(p.diagonal, mag))
                          : where(isnan(p.diagonal), operand(1), sign(p.diagonal));
  slogdet_result r;
  r.sign = multiply(prod(phase, -1), p.perm_sign);
  r.logabsdet = sum(log(mag), -1);
  return r;
}

}  // namespace ndfuse::linalg
