// Solvers called directly rather than through the NumPy oracle (test_solvers.cpp): the error that
// names the failing matrix of a stack, eigh of a stack holding a NaN, the Jacobi kernels' sweep limit
// (a child process), launch counts in stats(), and tensorsolve/tensorinv on views and in their errors.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "child_process.hpp"
#include "ndfuse/ndfuse.hpp"

namespace nf = ndfuse;

TEST_CASE("solvers: a failing matrix of a stack is named in the linalg_error", "[solvers]") {
  // Matrix 1 of 3 is singular: NumPy's LinAlgError does not say which; ndfuse's does.
  std::vector<double> v(27, 0.0);
  for (int b : {0, 2})
    for (int i = 0; i < 3; ++i) v[std::size_t(b * 9 + i * 4)] = 1.0;
  const nf::array a = nf::asarray(v, {3, 3, 3});
  try {
    (void)nf::linalg::inv(a);
    FAIL("inv of a stack holding a singular matrix did not throw");
  } catch (const nf::linalg_error& e) {
    CHECK(std::string(e.what()).find("Singular matrix") != std::string::npos);
    CHECK(std::string(e.what()).find("matrix [1]") != std::string::npos);
  }
  // A stack past 256 matrices has its codes reduced on the device: still the first failing one.
  {
    std::vector<double> big(std::size_t(20 * 15 * 9), 0.0);
    for (int b = 0; b < 20 * 15; ++b)
      if (b != 7 * 15 + 4 && b != 12 * 15)
        for (int i = 0; i < 3; ++i) big[std::size_t(b * 9 + i * 4)] = 1.0;
    try {
      (void)nf::linalg::inv(nf::asarray(big, {20, 15, 3, 3}));
      FAIL("inv of a large stack holding singular matrices did not throw");
    } catch (const nf::linalg_error& e) {
      CHECK(std::string(e.what()).find("matrix [7, 4] of a stack of shape (20, 15)") != std::string::npos);
    }
  }
  // Not positive definite: the second matrix of a (2, 2) stack.
  std::vector<double> w(16, 0.0);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 2; ++i) w[std::size_t(b * 4 + i * 3)] = b == 1 ? -1.0 : 2.0;
  try {
    (void)nf::linalg::cholesky(nf::asarray(w, {2, 2, 2, 2}));
    FAIL("cholesky of a stack holding a negative definite matrix did not throw");
  } catch (const nf::linalg_error& e) {
    CHECK(std::string(e.what()).find("matrix [0, 1]") != std::string::npos);
  }
}

// A stack whose middle matrix holds a NaN (at [5, 3] and [3, 5]) between two diagonal ones. NumPy 2.5
// (LAPACK's syevd) returns NaN eigenvalues for the 32 x 32 stack (28 of 32) and raises LinAlgError
// "Eigenvalues did not converge" for the 8 x 8 one; diag(1..n) and diag(2n..2) give 1..n and 2..2n
// exactly. Each backend follows one of the two: NaN eigenvalues for that matrix, or a linalg_error;
// never finite ones (the GPU's Jacobi kernels converged around a NaN to finite values, info 0, until
// they learned to check), and the diagonal matrices exact either way.
TEST_CASE("solvers: eigh of a stack holding a NaN gives NaNs or raises, never finite values", "[solvers]") {
  for (int n : {32, 24, 8})
    for (nf::dtype dt : {nf::float64, nf::float32, nf::complex128}) {
      if (dt == nf::float32 && n != 24) continue;
      INFO("n " << n << ", " << nf::dtype_name(dt));
      std::vector<double> v(std::size_t(3 * n * n), 0.0);
      for (int i = 0; i < n; ++i) {
        v[std::size_t(i * n + i)] = i + 1;
        v[std::size_t(n * n + i * n + i)] = 1;
        v[std::size_t(2 * n * n + i * n + i)] = 2.0 * (n - i);
      }
      v[std::size_t(n * n + 5 * n + 3)] = v[std::size_t(n * n + 3 * n + 5)] = NAN;
      const nf::array a = nf::asarray(v, {3, n, n}).astype(dt);
      try {
        auto [w, vecs] = nf::linalg::eigh(a);
        const auto values = w.astype(nf::float64).to_vector<double>();
        bool any_nan = false;
        for (int k = 0; k < n; ++k) {
          CHECK(values[std::size_t(k)] == k + 1);
          CHECK(values[std::size_t(2 * n + k)] == 2.0 * (k + 1));
          any_nan = any_nan || std::isnan(values[std::size_t(n + k)]);
        }
        CHECK(any_nan);
      } catch (const nf::linalg_error& e) {
        CHECK(std::string(e.what()).find("did not converge") != std::string::npos);
      }
    }
}

// The GPU's Jacobi kernels (eigh and svd of stacks of n <= 32) give up after a number of sweeps (40;
// random matrices take 5 to 10), with info 1: NumPy's LinAlgError "Eigenvalues did not converge" or
// "SVD did not converge". No matrix found needs that many, so a child process lowers the limit to one
// sweep (NDFUSE_JACOBI_MAX_SWEEPS=1): a diagonal matrix still converges (its first sweep rotates
// nothing), a Hilbert matrix does not, and the error names it among diagonal ones.
TEST_CASE("solvers: a Jacobi kernel out of sweeps raises linalg_error naming the matrix", "[solvers]") {
  if (!ndfuse_test::cuda_backend_active()) NDFUSE_SKIP("the Jacobi kernels are the cuda backend's");
  CHECK(ndfuse_test::run_self("solvers child: Jacobi kernels limited to one sweep",
                              {"NDFUSE_JACOBI_MAX_SWEEPS=1", "NDFUSE_TEST_CHILD=jacobi_sweeps"}) == 0);
}

TEST_CASE("solvers child: Jacobi kernels limited to one sweep", "[.][solvers_child]") {
  if (!ndfuse_test::is_child("jacobi_sweeps"))
    NDFUSE_SKIP("runs only as a child process of another test case");
  // n = 8 and complex: small_eigh.cu; float64 n = 24: register_eigh.cu; svd: small_svd.cu.
  for (const auto& [n, dt] :
       {std::pair{8, nf::float64}, std::pair{8, nf::complex64}, std::pair{24, nf::float64}}) {
    INFO("n " << n << ", " << nf::dtype_name(dt));
    std::vector<double> diag(std::size_t(3 * n * n), 0.0), hilbert = diag;
    for (int b = 0; b < 3; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const auto at = std::size_t((b * n + i) * n + j);
          diag[at] = i == j ? i + 1.0 : 0.0;
          hilbert[at] = b == 1 ? 1.0 / (i + j + 1) : diag[at];
        }
    const nf::array d = nf::asarray(diag, {3, n, n}).astype(dt),
                    h = nf::asarray(hilbert, {3, n, n}).astype(dt);
    // NumPy: np.linalg.eigvalsh(np.diag(np.arange(1.0, n + 1))) is 1, 2, ..., n.
    const auto w = nf::linalg::eigvalsh(d).astype(nf::float64).to_vector<double>();
    for (int k = 0; k < 3 * n; ++k) CHECK(w[std::size_t(k)] == k % n + 1);
    for (const bool vectors : {true, false}) {
      try {
        if (vectors)
          (void)nf::linalg::eigh(h).eigenvalues.eval();
        else
          (void)nf::linalg::eigvalsh(h).eval();
        FAIL("eigh did not raise at a limit of one sweep");
      } catch (const nf::linalg_error& e) {
        const std::string what = e.what();
        CHECK(what.find("Eigenvalues did not converge") != std::string::npos);
        CHECK(what.find("matrix [1] of a stack of shape (3,)") != std::string::npos);
      }
    }
    if (n > 8) continue;
    // NumPy: np.linalg.svd(np.diag(np.arange(1.0, n + 1)), compute_uv=False) is n, n - 1, ..., 1.
    const auto s = nf::linalg::svdvals(d).astype(nf::float64).to_vector<double>();
    for (int k = 0; k < 3 * n; ++k) CHECK(s[std::size_t(k)] == n - k % n);
    try {
      (void)nf::linalg::svd(h, false);
      FAIL("svd did not raise at a limit of one sweep");
    } catch (const nf::linalg_error& e) {
      const std::string what = e.what();
      CHECK(what.find("SVD did not converge") != std::string::npos);
      CHECK(what.find("matrix [1] of a stack of shape (3,)") != std::string::npos);
    }
  }
}

TEST_CASE("solvers: one library call each, counted in stats()", "[solvers]") {
  const nf::array a = nf::asarray(std::vector<double>{4, 1, 0, 1, 5, 2, 0, 2, 6}, {3, 3});
  a.to_host();
  nf::reset_stats();
  auto [u, s, vh] = nf::linalg::svd(a);
  CHECK(nf::stats().library_calls == 1);
  nf::reset_stats();
  const nf::array x = nf::linalg::solve(a, nf::ones({3}));
  CHECK(nf::stats().library_calls == 1);
  // NumPy: np.linalg.solve(a, np.ones(3)).
  const auto got = x.to_vector<double>();
  const std::vector<double> want{0.22448979591836735, 0.10204081632653061, 0.1326530612244898};
  for (int i = 0; i < 3; ++i) CHECK(std::abs(got[std::size_t(i)] - want[std::size_t(i)]) < 1e-14);
}

TEST_CASE("solvers: tensorsolve and tensorinv solve reshaped views, copying nothing", "[solvers]") {
  // The 6 x 6 matrix 2 I + 1 as a (2, 3, 6) tensor, evaluated and contiguous: its reshape to a matrix
  // is a view, so each call does what solve and inv of that matrix do (one library call; solve
  // copies b, which LAPACK overwrites), and nothing more.
  const nf::array m = nf::add(nf::multiply(nf::eye(6), 2.0), 1.0).eval();
  const nf::array a = m.reshape({2, 3, 6}).copy().eval();
  const nf::array b = nf::ones({2, 3}).eval(), v = nf::ones({6}).eval();
  nf::reset_stats();
  (void)nf::linalg::solve(m, v);
  (void)nf::linalg::inv(m);
  const nf::stats_t matrix_calls = nf::stats();
  nf::reset_stats();
  const nf::array x = nf::linalg::tensorsolve(a, b);
  const nf::array ai = nf::linalg::tensorinv(a, 2);
  CHECK(nf::stats().library_calls == 2);
  CHECK(nf::stats().kernels_launched == matrix_calls.kernels_launched);
  CHECK(nf::stats().bytes_allocated == matrix_calls.bytes_allocated);
  CHECK(x.shape() == nf::shape_t{6});
  CHECK(ai.shape() == nf::shape_t{6, 2, 3});
  // NumPy: np.linalg.tensorsolve((2 * np.eye(6) + 1).reshape(2, 3, 6), np.ones((2, 3))) is 1/8 everywhere.
  for (double v : x.to_vector<double>()) CHECK(std::abs(v - 0.125) < 1e-15);
}

TEST_CASE("solvers: tensorsolve and tensorinv name the call and the shapes in their errors", "[solvers]") {
  namespace la = nf::linalg;
  auto message_of = [](auto&& call) -> std::string {
    try {
      (void)call();
    } catch (const nf::error& e) {
      return e.what();
    }
    return "(no exception)";
  };
  const std::string not_square = message_of([] {
    return la::tensorsolve(nf::ones({2, 3, 4}), nf::ones({2, 3}));
  });
  CHECK(not_square.find("linalg.tensorsolve") != std::string::npos);
  CHECK(not_square.find("(2, 3, 4)") != std::string::npos);
  CHECK(not_square.find("(2, 3)") != std::string::npos);
  CHECK_THROWS_AS(la::tensorsolve(nf::ones({2, 3, 4}), nf::ones({2, 3})), nf::shape_error);
  const std::string singular = message_of([] { return la::tensorinv(nf::zeros({2, 2, 2, 2})); });
  CHECK(singular.find("linalg.tensorinv") != std::string::npos);
  CHECK(singular.find("Singular matrix") != std::string::npos);
  CHECK_THROWS_AS(la::tensorinv(nf::zeros({2, 2, 2, 2})), nf::linalg_error);
  const std::string bad_ind = message_of([] { return la::tensorinv(nf::eye(4), 0); });
  CHECK(bad_ind.find("ind") != std::string::npos);
  CHECK_THROWS_AS(la::tensorinv(nf::eye(4), 0), nf::value_error);
  const std::string bad_axis = message_of([] {
    return la::tensorsolve(nf::ones({2, 3, 6}), nf::ones({6}), std::vector<int>{-1});
  });
  CHECK(bad_axis.find("axis -1") != std::string::npos);
}
