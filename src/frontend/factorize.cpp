// Factorizations: qr, eigh / eigvalsh, eig / eigvals, svd / svdvals, each one library call (the
// hermitian svd: eigh's, then a sort of the eigenvalues' magnitudes). The small fix-ups around a
// call (clearing a triangle, unpacking LAPACK's real eigenvectors) are lazy elementwise work that
// fuses into whatever reads the result.
#include <complex>
#include <string>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "frontend/solver_call.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse::linalg {

using frontend::as_matrix_stack;
using frontend::check_info;
using frontend::concat;
using frontend::real_dtype;
using frontend::run_solver;

namespace {

// An identity per matrix of the stack (NumPy's factors of empty matrices).
array identity_stack(const shape_t& batch, std::int64_t n, dtype t) {
  return broadcast_to(eye(n, -1, 0, t), concat(batch, {n, n})).copy();
}

// Whether some matrix's singular values span more than 1e8 (the smallest below 1e-8 of the
// largest, or a NaN), where the fast routines' absolute error stops being small relative to the
// smallest. One fused reduction and a one-byte read: reading back the values themselves took about
// 100 us of a 245 us svd of 10000 8 x 8 matrices on an H100.
bool widely_spread(const array& s, std::int64_t k) {
  const array flat = s.reshape({s.size() / k, k});
  return any(logical_not(greater_equal(flat(all, k - 1), multiply(flat(all, 0), 1e-8)))).item<bool>();
}

}  // namespace

qr_result qr(const array& a, std::string_view mode) {
  const frontend::operands_device on_their_device(a);
  if (mode != "reduced" && mode != "complete" && mode != "r")
    throw value_error("linalg.qr: unrecognized mode '" + std::string(mode) +
                      "' (expected 'reduced', 'complete' or 'r')");
  auto s = as_matrix_stack(a, "linalg.qr", false);
  const std::int64_t k = std::min(s.m, s.n);
  ir::library_call c;
  c.op = ir::library_op::qr;
  c.dt = s.dt;
  c.linalg.m = s.m;
  c.linalg.n = s.n;
  c.linalg.full_matrices = mode == "complete";
  c.linalg.r_only = mode == "r";
  const std::int64_t q_cols = c.linalg.full_matrices ? s.m : k, r_rows = c.linalg.full_matrices ? s.m : k;
  std::vector<std::pair<dtype, shape_t>> outs;
  if (!c.linalg.r_only) outs.push_back({s.dt, concat(s.batch, {s.m, q_cols})});
  outs.push_back({s.dt, concat(s.batch, {r_rows, s.n})});
  auto out = run_solver(c, s.count, {s.a}, outs);
  qr_result r;
  r.R = triu(out.back());  // below the diagonal the library left its reflectors
  if (!c.linalg.r_only)
    r.Q = (s.m == 0 || s.n == 0) && q_cols == s.m ? identity_stack(s.batch, s.m, s.dt) : out[0];
  return r;
}

namespace {

eigh_result eigh_call(const array& a, std::string_view uplo, bool vectors, const char* op) {
  if (uplo != "L" && uplo != "U")
    throw value_error(std::string(op) + ": UPLO argument must be 'L' or 'U', got '" + std::string(uplo) +
                      "'");
  auto s = as_matrix_stack(a, op, true);
  ir::library_call c;
  c.op = ir::library_op::eigh;
  c.dt = s.dt;
  c.linalg.m = c.linalg.n = s.n;
  c.linalg.compute_uv = vectors;
  c.linalg.upper = uplo == "U";
  std::vector<std::pair<dtype, shape_t>> outs{{real_dtype(s.dt), concat(s.batch, {s.n})}};
  if (vectors) outs.push_back({s.dt, concat(s.batch, {s.n, s.n})});
  outs.push_back({dtype::int32, s.batch});
  auto out = run_solver(c, s.count, {s.a}, outs);
  check_info(out.back(), s.batch, op, "Eigenvalues did not converge");
  eigh_result r;
  r.eigenvalues = out[0];
  // The library writes eigenvector k in row k (the solvers' column-major V): NumPy's columns are the
  // transposed view, with no copy (CuPy's eigh returns the same view).
  if (vectors) r.eigenvectors = swapaxes(out[1], -1, -2);
  return r;
}

eig_result eig_call(const array& a, bool vectors, const char* op) {
  auto s = as_matrix_stack(a, op, true);
  const dtype ct = is_complex(s.dt) ? s.dt : s.dt == dtype::float32 ? dtype::complex64 : dtype::complex128;
  ir::library_call c;
  c.op = ir::library_op::eig;
  c.dt = s.dt;
  c.linalg.m = c.linalg.n = s.n;
  c.linalg.compute_uv = vectors;
  std::vector<std::pair<dtype, shape_t>> outs{{ct, concat(s.batch, {s.n})}};
  if (vectors) outs.push_back({s.dt, concat(s.batch, {s.n, s.n})});
  outs.push_back({dtype::int32, s.batch});
  auto out = run_solver(c, s.count, {s.a}, outs);
  check_info(out.back(), s.batch, op, "Eigenvalues did not converge");
  eig_result r;
  r.eigenvalues = out[0];
  if (vectors) r.eigenvectors = out[1];
  if (is_complex(s.dt) || !vectors) return r;
  const array im = imag(out[0]);
  // LAPACK packs a conjugate pair's vectors as two real columns: v[j] = V[:, j] + i V[:, j+1]
  // when Im w[j] > 0, and v[j] = V[:, j-1] - i V[:, j] for its partner (Im w[j] < 0).
  const array V = out[1];
  const array im_row = expand_dims(im, -2);  // one sign per column
  const std::complex<double> i(0, 1);
  const array upper = add(V, multiply(roll(V, -1, -1), i));
  const array lower = subtract(roll(V, 1, -1), multiply(V, i));
  r.eigenvectors = where(greater(im_row, 0), upper, where(less(im_row, 0), lower, V.astype(ct)));
  return r;
}

}  // namespace

eigh_result eigh(const array& a, std::string_view UPLO) {
  return eigh_call(a, UPLO, true, "linalg.eigh");
}
array eigvalsh(const array& a, std::string_view UPLO) {
  return eigh_call(a, UPLO, false, "linalg.eigvalsh").eigenvalues;
}
eig_result eig(const array& a) {
  return eig_call(a, true, "linalg.eig");
}
array eigvals(const array& a) {
  return eig_call(a, false, "linalg.eigvals").eigenvalues;
}

namespace {

// NumPy's svd(hermitian=True), step for step: A = V diag(w) V^H is an SVD once |w| is sorted
// descending and w's signs move into Vh's rows (U keeps the eigenvectors as they are).
svd_result hermitian_svd(const array& a, bool compute_uv) {
  const char* op = "linalg.svd";
  if (!compute_uv)
    return {array(), flip(sort(abs(eigh_call(a, "L", false, op).eigenvalues), -1), -1), array()};
  const eigh_result e = eigh_call(a, "L", true, op);
  const array& w = e.eigenvalues;
  const array magnitude = abs(w);
  // NumPy's order: argsort(|w|) reversed. Equal magnitudes (w and -w) have no defined order there
  // (NumPy's default sort is not stable); here they come last index first (a stable sort reversed).
  const array order = flip(argsort(magnitude, -1), -1);
  // NumPy moves copysign(1, w) into Vh, so an eigenvalue of -0.0 negates its row too: the sign bit
  // is read through atan2, whose result is negative exactly for w's with the sign bit set.
  const array negative_w = less(arctan2(w, -1.0), 0);
  svd_result r;
  r.S = take_along_axis(magnitude, order, -1);
  r.U = take_along_axis(e.eigenvectors, expand_dims(order, -2), -1);
  const array flip_row = expand_dims(take_along_axis(negative_w, order, -1), -2);
  r.Vh = conj(swapaxes(where(flip_row, negative(r.U), r.U), -1, -2));
  return r;
}

}  // namespace

svd_result svd(const array& a, bool full_matrices, bool compute_uv, bool hermitian) {
  if (hermitian) return hermitian_svd(a, compute_uv);
  const char* op = compute_uv ? "linalg.svd" : "linalg.svdvals";
  auto s = as_matrix_stack(a, op, false);
  const std::int64_t k = std::min(s.m, s.n);
  const std::int64_t u_cols = full_matrices ? s.m : k, v_rows = full_matrices ? s.n : k;
  ir::library_call c;
  c.op = ir::library_op::svd;
  c.dt = s.dt;
  c.linalg.m = s.m;
  c.linalg.n = s.n;
  c.linalg.full_matrices = full_matrices;
  c.linalg.compute_uv = compute_uv;
  std::vector<std::pair<dtype, shape_t>> outs{{real_dtype(s.dt), concat(s.batch, {k})}};
  if (compute_uv) {
    outs.push_back({s.dt, concat(s.batch, {s.m, u_cols})});
    outs.push_back({s.dt, concat(s.batch, {v_rows, s.n})});
  }
  outs.push_back({dtype::int32, s.batch});
  auto out = run_solver(c, s.count, {s.a}, outs);
  check_info(out.back(), s.batch, op, "SVD did not converge");
  if (k > 0 && widely_spread(out[0], k)) {
    // Tiny singular values decide ranks and cut-offs: ask again for them at full accuracy.
    c.linalg.accurate = true;
    out = run_solver(c, s.count, {s.a}, outs);
    check_info(out.back(), s.batch, op, "SVD did not converge");
  }
  svd_result r;
  r.S = out[0];
  if (!compute_uv) return r;
  const bool empty = k == 0;
  r.U = empty && full_matrices ? identity_stack(s.batch, s.m, s.dt) : out[1];
  r.Vh = empty && full_matrices ? identity_stack(s.batch, s.n, s.dt) : out[2];
  return r;
}

array svdvals(const array& a) {
  return svd(a, false, false).S;
}

}  // namespace ndfuse::linalg
