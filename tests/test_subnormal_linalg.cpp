// det, slogdet, solve and inv of matrices whose entries are subnormal (below 2^-1022 in float64,
// 2^-126 in float32), where a factorization that multiplies by the reciprocal of a pivot meets an
// infinity. Expected values from NumPy 2.4.6 (its OpenBLAS 0.3.31; NumPy computes float32 input in
// float64 and casts back):
//   a = [[1, 2], [3, 4]] * 1e-310        det -0.0, slogdet (-1, -1426.9096104757484),
//                                        solve(a, [1, 1]) [-inf, inf], inv [[-inf, inf], [inf, -inf]]
//   d = diag(1e-310, 1)                  det 1e-310, slogdet (1, -713.8013788281542),
//                                        solve(d, [1e-310, 1]) [1, 1], inv [[inf, nan], [0, 1]]
//   b = [[4, 1, 0], [1, 3, 1], [0, 1, 2]] * 1e-310
//                                        det 0.0; NumPy's slogdet (1, -2138.226...) and solve(b, [1, 2,
//                                        3] * 1e-310) [0.2083, 0.1667, 1.5] have lost bits in its
//                                        subnormal elimination, so the expected values are NumPy's for
//                                        the unit-scale b: slogdet 2.8903717578961645 + 3 log(1e-310)
//                                        (log(1e-310) = -713.8013788281542), solve [0.22222222222222224,
//                                        0.11111111111111104, 1.4444444444444446]
//   c = [[2, 1e-310], [3e-310, 1]]       det 2, inv [[0.5, -5e-311], [-1.49999999999997e-310, 1]]
//   float32: a * 1e-40 (as float32)      det -0.0, slogdet (-1, -183.51367);
//            diag(1e-40, 1)              det 1e-40, slogdet (1, -92.10341), inv [[inf, 0], [0, 1]]
// One element differs on purpose: inv(d)[0, 1] is NaN in NumPy because its BLAS's triangular solve
// multiplies by the reciprocal of the pivot (0 * inf); the exact answer, 0 (NumPy's own for the
// float32 d, which it solves in float64), is asserted here.
#include <cmath>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

const double inf = std::numeric_limits<double>::infinity();

nf::array matrix(std::vector<double> values, std::vector<std::int64_t> shape, double scale,
                 nf::dtype dt = nf::dtype::float64) {
  for (double& v : values) v *= scale;
  return nf::asarray(values, shape).astype(dt).eval();
}

// Close in relative terms, or both the same infinity, or both NaN.
bool close(double got, double want, double rtol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= rtol * std::abs(want);
}

void check_values(const nf::array& got, const std::vector<double>& want, double rtol) {
  const auto v = got.astype(nf::dtype::float64).to_vector<double>();
  REQUIRE(v.size() == want.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    INFO("element " << i << ": got " << v[i] << ", want " << want[i]);
    CHECK(close(v[i], want[i], rtol));
  }
}

}  // namespace

TEST_CASE("det and slogdet of subnormal float64 matrices are NumPy's", "[linalg][subnormal]") {
  const nf::array a = matrix({1, 2, 3, 4}, {2, 2}, 1e-310);
  const double det_a = nf::linalg::det(a).item<double>();
  CHECK(det_a == 0.0);
  CHECK(std::signbit(det_a));
  auto sa = nf::linalg::slogdet(a);
  CHECK(sa.sign.item<double>() == -1.0);
  CHECK(close(sa.logabsdet.item<double>(), -1426.9096104757484, 1e-13));

  const nf::array d = matrix({1e-310, 0, 0, 1}, {2, 2}, 1.0);
  CHECK(close(nf::linalg::det(d).item<double>(), 1e-310, 1e-12));
  auto sd = nf::linalg::slogdet(d);
  CHECK(sd.sign.item<double>() == 1.0);
  CHECK(close(sd.logabsdet.item<double>(), -713.8013788281542, 1e-13));

  const nf::array b = matrix({4, 1, 0, 1, 3, 1, 0, 1, 2}, {3, 3}, 1e-310);
  const double det_b = nf::linalg::det(b).item<double>();
  CHECK(det_b == 0.0);
  CHECK_FALSE(std::signbit(det_b));
  auto sb = nf::linalg::slogdet(b);
  CHECK(sb.sign.item<double>() == 1.0);
  CHECK(close(sb.logabsdet.item<double>(), 2.8903717578961645 + 3 * -713.8013788281542, 1e-13));

  const nf::array c = matrix({2, 1e-310, 3e-310, 1}, {2, 2}, 1.0);
  CHECK(close(nf::linalg::det(c).item<double>(), 2.0, 1e-15));
}

TEST_CASE("solve and inv of subnormal float64 matrices are NumPy's", "[linalg][subnormal]") {
  const nf::array a = matrix({1, 2, 3, 4}, {2, 2}, 1e-310);
  check_values(nf::linalg::solve(a, nf::asarray(std::vector<double>{1, 1})), {-inf, inf}, 0);
  check_values(nf::linalg::inv(a), {-inf, inf, inf, -inf}, 0);

  const nf::array d = matrix({1e-310, 0, 0, 1}, {2, 2}, 1.0);
  check_values(nf::linalg::solve(d, nf::asarray(std::vector<double>{1e-310, 1})), {1, 1}, 1e-15);
  check_values(nf::linalg::inv(d), {inf, 0, 0, 1}, 0);

  const nf::array b = matrix({4, 1, 0, 1, 3, 1, 0, 1, 2}, {3, 3}, 1e-310);
  const nf::array rhs = matrix({1, 2, 3}, {3}, 1e-310);
  // The subnormal inputs themselves carry about 1e-13 relative error.
  check_values(nf::linalg::solve(b, rhs), {0.22222222222222224, 0.11111111111111104, 1.4444444444444446},
               1e-12);

  const nf::array c = matrix({2, 1e-310, 3e-310, 1}, {2, 2}, 1.0);
  check_values(nf::linalg::inv(c), {0.5, -5e-311, -1.49999999999997e-310, 1}, 1e-12);
}

TEST_CASE("a stack mixing subnormal and ordinary matrices factors each as NumPy does",
          "[linalg][subnormal]") {
  const nf::array a = matrix({1, 2, 3, 4}, {2, 2}, 1e-310);
  const nf::array ordinary = matrix({1, 2, 3, 4}, {2, 2}, 1.0);
  const nf::array stack = nf::stack({a, ordinary, matrix({1e-310, 0, 0, 1}, {2, 2}, 1.0)});
  check_values(nf::linalg::det(stack), {-0.0, -2.0, 1e-310}, 1e-12);
  auto s = nf::linalg::slogdet(stack);
  check_values(s.sign, {-1, -1, 1}, 0);
  check_values(s.logabsdet, {-1426.9096104757484, 0.6931471805599453, -713.8013788281542}, 1e-13);
}

TEST_CASE("det and inv of subnormal float32 matrices are NumPy's", "[linalg][subnormal]") {
  const nf::array a = matrix({1, 2, 3, 4}, {2, 2}, 1e-40, nf::dtype::float32);
  const nf::array det_a = nf::linalg::det(a);
  CHECK(det_a.dtype() == nf::dtype::float32);
  CHECK(det_a.item<float>() == 0.0f);
  CHECK(std::signbit(det_a.item<float>()));
  auto sa = nf::linalg::slogdet(a);
  CHECK(sa.sign.item<float>() == -1.0f);
  CHECK(close(sa.logabsdet.item<float>(), -183.51367, 1e-5));

  const nf::array d = matrix({1e-40, 0, 0, 1}, {2, 2}, 1.0, nf::dtype::float32);
  CHECK(close(nf::linalg::det(d).item<float>(), 1e-40, 1e-5));
  CHECK(close(nf::linalg::slogdet(d).logabsdet.item<float>(), -92.10341, 1e-5));
  check_values(nf::linalg::inv(d), {inf, 0, 0, 1}, 1e-6);
}

// NumPy 2.4.6: inv([[nan, 1], [0, 1]]) [[nan, nan], [0, 1]]; inv([[1, nan], [0, 1]]) all NaN;
// inv([[2, 1, 0], [1, nan, 1], [0, 1, 2]]) NaN but for its last row [0.5, -1, 1];
// inv([[2, 1, 0], [1, 3, 1], [0, 1, nan]]) all NaN. Which finite rows survive is an artefact of its
// OpenBLAS's kernels (the last row of the third is 1 / (4 b - 4) for b = NaN in exact arithmetic, not
// 0.5; reference LAPACK's order makes all four wholly NaN), so what is asserted is that every element
// NumPy gives as NaN is NaN here too: a NaN is never lost.
TEST_CASE("inv of a matrix holding one NaN keeps every NaN NumPy gives", "[linalg][subnormal]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto nan_where_numpy_has_nan = [](const nf::array& got, const std::vector<bool>& numpy_nan) {
    const auto v = got.to_vector<double>();
    REQUIRE(v.size() == numpy_nan.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      if (numpy_nan[i]) CHECK(std::isnan(v[i]));
  };
  nan_where_numpy_has_nan(nf::linalg::inv(matrix({nan, 1, 0, 1}, {2, 2}, 1.0)), {1, 1, 0, 0});
  nan_where_numpy_has_nan(nf::linalg::inv(matrix({1, nan, 0, 1}, {2, 2}, 1.0)), {1, 1, 1, 1});
  nan_where_numpy_has_nan(nf::linalg::inv(matrix({2, 1, 0, 1, nan, 1, 0, 1, 2}, {3, 3}, 1.0)),
                          {1, 1, 1, 1, 1, 1, 0, 0, 0});
  nan_where_numpy_has_nan(nf::linalg::inv(matrix({2, 1, 0, 1, 3, 1, 0, 1, nan}, {3, 3}, 1.0)),
                          std::vector<bool>(9, true));
}

// The paths a GPU takes for larger matrices and for stacks of small ones. NumPy's own answers here
// have lost the pivots (its det of d below is 0.0, its inverse of the third stacked matrix NaN where
// the exact one is infinite), so the expected values are NumPy's for the unit-scale equivalents:
//   d = eye(40) with d[0, 0] = 1e-310, d[0, 5] = 3e-310 is d' = eye(40), d'[0, 5] = 3 with row 0
//   times 1e-310: det(d') = 1, inv(d') = eye(40) with [0, 5] = -3, so det(d) = 1e-310, inv(d) is
//   inv(d') with column 0 times 1e310 (inf), and solve(d, [4e-310, 1, ...]) is all ones.
//   The stack [[1, 2], [3, 4]] * 1e-310, eye(2), diag(2, 1) * 1e-320 with right-hand sides [1, 1],
//   [1, 2], [3, 4]: X = [-inf, inf], [1, 2], [inf, inf] (3 / 2e-320 overflows), and the inverses
//   [[-inf, inf], [inf, -inf]], eye(2), [[inf, 0], [0, inf]].
TEST_CASE("a 40 x 40 matrix with a subnormal column, and a stack of small ones, solve exactly",
          "[linalg][subnormal]") {
  std::vector<double> dv(40 * 40, 0.0);
  for (int i = 0; i < 40; ++i) dv[i * 40 + i] = 1.0;
  dv[0] = 1e-310;
  dv[5] = 3e-310;
  const nf::array d = matrix(dv, {40, 40}, 1.0);
  CHECK(close(nf::linalg::det(d).item<double>(), 1e-310, 1e-12));
  CHECK(close(nf::linalg::slogdet(d).logabsdet.item<double>(), -713.8013788281542, 1e-13));
  std::vector<double> b(40, 1.0);
  b[0] = 4e-310;
  check_values(nf::linalg::solve(d, nf::asarray(b)), std::vector<double>(40, 1.0), 1e-12);
  std::vector<double> inv_d(40 * 40, 0.0);
  for (int i = 0; i < 40; ++i) inv_d[i * 40 + i] = 1.0;
  inv_d[0] = inf;
  inv_d[5] = -3.0;
  check_values(nf::linalg::inv(d), inv_d, 1e-12);

  const nf::array stack = nf::stack({matrix({1, 2, 3, 4}, {2, 2}, 1e-310), matrix({1, 0, 0, 1}, {2, 2}, 1.0),
                                     matrix({2, 0, 0, 1}, {2, 2}, 1e-320)});
  const nf::array rhs = matrix({1, 1, 1, 2, 3, 4}, {3, 2, 1}, 1.0);
  check_values(nf::linalg::solve(stack, rhs), {-inf, inf, 1, 2, inf, inf}, 1e-15);
  check_values(nf::linalg::inv(stack), {-inf, inf, inf, -inf, 1, 0, 0, 1, inf, 0, 0, inf}, 1e-15);
}
