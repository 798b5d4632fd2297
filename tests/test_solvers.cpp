// Solvers and factorizations against NumPy 2 (tests/oracle/gen_solvers.py writes the cases), on the
// backend NDFUSE_BACKEND selects (LAPACK on cpu, cuSOLVER on cuda).
//
// Unique results (solutions, inverses, determinants, eigenvalues, singular values, Cholesky factors,
// pseudo-inverses, ranks, norms) are compared element by element with NumPy's. Factors NumPy does not
// pin down (the signs or phases of singular vectors, eigenvectors and Q's columns) are checked by
// what defines them, on the host in double precision: the reconstruction A = U S V^H, A V = V diag(w),
// A = Q R, with relative error below 1e-12 (double precision) or 1e-5 (single), and orthonormality
// within the same bounds; plus NumPy's shapes and dtypes, and |R| = |R_numpy|. A hermitian SVD (from
// eigh) is also held to NumPy's rank-one terms U[:, j] Vh[j, :], which fix the order of the singular
// values and the signs moved into Vh but not the eigenvectors' phases (which LAPACK builds choose
// differently); where |eigenvalues| tie, that order is not defined and only the rest is checked.
// The solvers' other tests, called directly, are in test_solvers_calls.cpp.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace nf = ndfuse;

namespace {

using cplx = std::complex<double>;

// An element of any float, complex or (as inputs may be) int32/int64 array as complex double.
cplx element_wide(const nf::host_array& h, std::size_t i) {
  if (h.dtype == nf::dtype::int32) return double(oracle::element<std::int32_t>(h, i));
  if (h.dtype == nf::dtype::int64) return double(oracle::element<std::int64_t>(h, i));
  return oracle::element_c(h, i);
}

// A stack of matrices on the host, widened to complex double.
struct host_stack {
  nf::shape_t batch;
  std::int64_t rows = 0, cols = 0;
  std::vector<cplx> v;
  std::int64_t count() const { return rows && cols ? std::int64_t(v.size()) / (rows * cols) : 0; }
  cplx at(std::int64_t b, std::int64_t i, std::int64_t j) const {
    return v[std::size_t((b * rows + i) * cols + j)];
  }
};

host_stack stack_of(const nf::host_array& h) {
  host_stack s;
  const auto nd = h.shape.size();
  s.rows = nd >= 2 ? h.shape[nd - 2] : 1;
  s.cols = nd >= 1 ? h.shape[nd - 1] : 1;
  if (nd >= 2) s.batch.assign(h.shape.begin(), h.shape.end() - 2);
  const std::size_t n = oracle::element_count(h);
  for (std::size_t i = 0; i < n; ++i) s.v.push_back(element_wide(h, i));
  return s;
}

double bound_for(nf::dtype t) {
  return oracle::precision_level(t) == 1 ? 1e-5 : 1e-12;
}
// Elementwise comparison with NumPy: error relative to the largest expected magnitude (the
// algorithms differ in rounding, not in the exactly rounded result).
double rtol_for(nf::dtype t, const std::string& op) {
  const bool single = oracle::precision_level(t) == 1;
  if (op == "eig" || op == "eigvals" || op == "cond") return single ? 2e-3 : 1e-9;
  return single ? 2e-4 : 1e-10;
}

std::string compare_scaled(const nf::host_array& got, const nf::host_array& expected, double rtol) {
  if (got.dtype != expected.dtype)
    return "dtype: got " + oracle::name_of(got.dtype) + ", expected " + oracle::name_of(expected.dtype);
  if (got.shape != expected.shape)
    return "shape: got " + oracle::numpy_shape(got.shape) + ", expected " +
           oracle::numpy_shape(expected.shape);
  const std::size_t n = oracle::element_count(expected);
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const cplx e = oracle::element_c(expected, i);
    if (std::isfinite(std::abs(e))) scale = std::max(scale, std::abs(e));
  }
  std::string out;
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const cplx g = oracle::element_c(got, i), e = oracle::element_c(expected, i);
    // A NaN is matched by a NaN in the same part (its sign is LAPACK's, never NumPy's to promise).
    const bool nan_e = std::isnan(e.real()) || std::isnan(e.imag());
    const bool ok =
        std::isfinite(std::abs(e)) ? std::abs(g - e) <= rtol * std::max(scale, 1e-300)
        : nan_e ? std::isnan(g.real()) == std::isnan(e.real()) && std::isnan(g.imag()) == std::isnan(e.imag())
                : (std::isinf(e.real()) && g.real() == e.real());
    if (ok) continue;
    if (++bad <= 4)
      out += "\n  [" + std::to_string(i) + "] got " + oracle::value_str(got, i) + ", expected " +
             oracle::value_str(expected, i);
  }
  return bad ? std::to_string(bad) + " of " + std::to_string(n) + " differ (rtol " +
                   oracle::format_real(rtol) + " of max |expected| " + oracle::format_real(scale) + ")" + out
             : "";
}

// NumPy's element order is not defined for eig's eigenvalues: compare them sorted, by real part to
// 1e-6 of the row's largest magnitude (so rounding does not reorder near-ties; relative, so that
// eigenvalues near 1e-37 do not all round to one key), then by imaginary part.
nf::host_array sorted_values(const nf::host_array& h) {
  nf::host_array s = h;
  const auto nd = h.shape.size();
  const std::size_t n = nd ? std::size_t(h.shape.back()) : 1, total = oracle::element_count(h);
  const std::size_t item = nf::itemsize(h.dtype);
  for (std::size_t start = 0; start < total; start += n) {
    std::vector<std::size_t> idx(n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = i;
    auto key = [&](std::size_t i) { return oracle::element_c(h, start + i); };
    double big = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (std::isfinite(std::abs(key(i)))) big = std::max(big, std::abs(key(i)));
    const double unit = big > 0 ? 1e6 / big : 1e6;
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      const cplx x = key(a), y = key(b);
      const double rx = std::round(x.real() * unit), ry = std::round(y.real() * unit);
      return rx != ry ? rx < ry : x.imag() < y.imag();
    });
    for (std::size_t i = 0; i < n; ++i)
      std::copy_n(h.bytes.data() + (start + idx[i]) * item, item, s.bytes.data() + (start + i) * item);
  }
  return s;
}

// ||v||_2, scaled by the largest |element| so that neither 1e300 nor 1e-310 squares out of range.
double frob(const std::vector<cplx>& v) {
  double big = 0;
  for (const auto& x : v) big = std::max({big, std::abs(x.real()), std::abs(x.imag())});
  if (big == 0 || !std::isfinite(big)) return big;
  double s = 0;
  for (const auto& x : v) s += std::norm(x / big);
  return big * std::sqrt(s);
}

// ||A - L M|| / ||A|| over the stack, using the first `inner` columns of L and rows of M; M's rows
// scaled by `diag` when given (per matrix, length >= inner).
double product_error(const host_stack& a, const host_stack& l, const host_stack& m, std::int64_t inner,
                     const host_stack* diag) {
  std::vector<cplx> diff, ref;
  for (std::int64_t b = 0; b < a.count(); ++b)
    for (std::int64_t i = 0; i < a.rows; ++i)
      for (std::int64_t j = 0; j < a.cols; ++j) {
        cplx s = 0;
        for (std::int64_t p = 0; p < inner; ++p)
          s += l.at(b, i, p) * (diag ? diag->v[std::size_t(b * diag->cols + p)] : cplx(1)) * m.at(b, p, j);
        diff.push_back(a.at(b, i, j) - s);
        ref.push_back(a.at(b, i, j));
      }
  const double r = frob(ref);
  return r == 0 ? frob(diff) : frob(diff) / r;
}

// ||Q^H Q - I|| / ||I|| over the first `k` columns of each matrix (rows: when `by_rows`).
double orthonormality_error(const host_stack& q, std::int64_t k, bool by_rows) {
  std::vector<cplx> diff;
  const std::int64_t len = by_rows ? q.cols : q.rows;
  for (std::int64_t b = 0; b < q.count(); ++b)
    for (std::int64_t x = 0; x < k; ++x)
      for (std::int64_t y = 0; y < k; ++y) {
        cplx s = 0;
        for (std::int64_t p = 0; p < len; ++p)
          s += by_rows ? std::conj(q.at(b, x, p)) * q.at(b, y, p) : std::conj(q.at(b, p, x)) * q.at(b, p, y);
        diff.push_back(s - cplx(x == y ? 1 : 0));
      }
  return k && q.count() ? frob(diff) / std::sqrt(double(k * q.count())) : 0;
}

// A V - V diag(w), relative to ||A|| ||V||.
double eigen_error(const host_stack& a, const host_stack& v, const std::vector<cplx>& w) {
  std::vector<cplx> diff, av, vv;
  const std::int64_t n = a.rows;
  for (std::int64_t b = 0; b < a.count(); ++b)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        cplx s = 0;
        for (std::int64_t p = 0; p < n; ++p) s += a.at(b, i, p) * v.at(b, p, j);
        diff.push_back(s - v.at(b, i, j) * w[std::size_t(b * n + j)]);
        av.push_back(a.at(b, i, j));
        vv.push_back(v.at(b, i, j));
      }
  return frob(diff) /
         std::max(frob(av) * frob(vv) / std::sqrt(double(std::max<std::int64_t>(a.count() * n, 1))), 1e-300);
}

std::string check_bound(const char* what, double err, double bound) {
  if (!(err <= bound))
    return std::string(what) + " error " + oracle::format_real(err) + " above " + oracle::format_real(bound);
  return "";
}

nf::host_array abs_of(const nf::host_array& h) {
  const auto s = stack_of(h);
  std::vector<double> v;
  for (const auto& x : s.v) v.push_back(std::abs(x));
  return nf::asarray(v, h.shape).to_host();
}

std::vector<nf::array> run_op(const std::string& op, const std::map<std::string, std::string>& p,
                              const std::vector<nf::array>& in) {
  auto param = [&](const std::string& k, const std::string& d) { return p.count(k) ? p.at(k) : d; };
  namespace la = nf::linalg;
  auto order = [&]() -> la::norm_order {
    const std::string o = param("ord", "None");
    if (o == "None") return {};
    if (o == "fro" || o == "nuc") return la::norm_order(o);
    if (o == "inf") return la::norm_order(INFINITY);
    return la::norm_order(std::stod(o));
  };
  if (op == "solve") return {la::solve(in[0], in[1])};
  if (op == "inv") return {la::inv(in[0])};
  if (op == "det") return {la::det(in[0])};
  if (op == "slogdet") {
    auto r = la::slogdet(in[0]);
    return {r.sign, r.logabsdet};
  }
  if (op == "cholesky") return {la::cholesky(in[0], param("upper", "0") == "1")};
  if (op == "qr") {
    auto r = la::qr(in[0], param("mode", "reduced"));
    if (param("mode", "reduced") == "r") return {r.R};
    return {r.Q, r.R};
  }
  if (op == "eigh") {
    auto r = la::eigh(in[0], param("UPLO", "L"));
    return {r.eigenvalues, r.eigenvectors};
  }
  if (op == "eigvalsh") return {la::eigvalsh(in[0], param("UPLO", "L"))};
  if (op == "eig") {
    auto r = la::eig(in[0]);
    return {r.eigenvalues, r.eigenvectors};
  }
  if (op == "eigvals") return {la::eigvals(in[0])};
  const bool hermitian = param("hermitian", "0") == "1";
  if (op == "svd") {
    const bool uv = param("uv", "1") == "1";
    auto [u, s, vh] = la::svd(in[0], param("full", "1") == "1", uv, hermitian);
    if (!uv) return {s};
    return {u, s, vh};
  }
  if (op == "svdvals") return {la::svdvals(in[0])};
  // Cut-offs: rcond (pinv), tol (matrix_rank) and rtol (both), when the case gives them.
  auto number = [&](const char* key) -> std::optional<double> {
    if (!p.count(key)) return std::nullopt;
    return std::stod(p.at(key));
  };
  if (op == "pinv") {
    if (p.count("rcond") || p.count("rtol"))
      return {la::pinv(in[0], number("rcond"), hermitian, number("rtol"))};
    return {hermitian ? la::pinv(in[0], 1e-15, true) : la::pinv(in[0])};
  }
  if (op == "matrix_rank") {
    if (p.count("tol") || p.count("rtol"))
      return {la::matrix_rank(in[0], number("tol"), hermitian, number("rtol"))};
    return {hermitian ? la::matrix_rank(in[0], std::nullopt, true) : la::matrix_rank(in[0])};
  }
  if (op == "tensorsolve") {
    if (!p.count("axes")) return {la::tensorsolve(in[0], in[1])};
    std::vector<int> axes;
    for (const auto& a : oracle::split(p.at("axes"), ',')) axes.push_back(std::stoi(a));
    return {la::tensorsolve(in[0], in[1], axes)};
  }
  if (op == "tensorinv")
    return {p.count("ind") ? la::tensorinv(in[0], std::stoi(p.at("ind"))) : la::tensorinv(in[0])};
  if (op == "cond") return {la::cond(in[0], order())};
  if (op == "norm") return {la::norm(in[0], order(), {-2, -1})};
  if (op == "matrix_power") return {la::matrix_power(in[0], std::stoll(param("n", "1")))};
  if (op == "lstsq") {
    auto r = la::lstsq(in[0], in[1]);
    return {r.x, r.residuals, nf::asarray(std::vector<std::int64_t>{r.rank}, {}), r.s};
  }
  throw std::runtime_error("test: unknown op " + op);
}

// U diag(S) Vh per matrix of the stack.
host_stack svd_product(const host_stack& u, const host_stack& s, const host_stack& vh) {
  host_stack r;
  r.batch = u.batch;
  r.rows = u.rows;
  r.cols = vh.cols;
  for (std::int64_t b = 0; b < u.count(); ++b)
    for (std::int64_t i = 0; i < r.rows; ++i)
      for (std::int64_t j = 0; j < r.cols; ++j) {
        cplx x = 0;
        for (std::int64_t p = 0; p < s.cols; ++p)
          x += u.at(b, i, p) * s.v[std::size_t(b * s.cols + p)] * vh.at(b, p, j);
        r.v.push_back(x);
      }
  return r;
}

// The rank-one terms U[:, j] Vh[j, :] of an SVD against NumPy's: unlike U and Vh, they do not depend
// on the phase the eigensolver gave each eigenvector, but they do on the order of the singular
// values and on which rows of Vh carry a negative eigenvalue's sign. Largest difference of an
// element (the terms' elements are at most 1 in magnitude).
double rank_one_error(const host_stack& u, const host_stack& vh, const host_stack& u_np,
                      const host_stack& vh_np) {
  double err = 0;
  for (std::int64_t b = 0; b < u.count(); ++b)
    for (std::int64_t p = 0; p < u.cols; ++p)
      for (std::int64_t i = 0; i < u.rows; ++i)
        for (std::int64_t j = 0; j < vh.cols; ++j)
          err =
              std::max(err, std::abs(u.at(b, i, p) * vh.at(b, p, j) - u_np.at(b, i, p) * vh_np.at(b, p, j)));
  return err;
}

// The checks of one case; "" when it passes.
std::string check_case(const std::string& op, const std::map<std::string, std::string>& params,
                       const std::vector<nf::host_array>& got, const std::vector<nf::host_array>& expected,
                       const nf::host_array& input) {
  auto param = [&](const std::string& k) { return params.count(k) ? params.at(k) : std::string(); };
  if (got.size() != expected.size())
    return "got " + std::to_string(got.size()) + " results, NumPy has " + std::to_string(expected.size());
  const nf::dtype t = expected[0].dtype;
  const double bound = bound_for(expected.back().dtype);
  const double rtol = rtol_for(t, op);
  std::string problem;
  auto first = [&](std::string p) {
    if (problem.empty() && !p.empty()) problem = p;
  };
  // Shapes and dtypes always match NumPy's.
  for (std::size_t k = 0; k < got.size(); ++k)
    first(oracle::compare(
        got[k], expected[k], oracle::tolerance{}, [](std::size_t) { return std::string(); },
        /*values=*/false));
  if (!problem.empty()) return problem;
  const host_stack a = stack_of(input);
  if (op == "svd" && got.size() == 1) {
    first(compare_scaled(got[0], expected[0], rtol));
  } else if (op == "svd") {
    first(compare_scaled(got[1], expected[1], rtol));
    const auto u = stack_of(got[0]), s = stack_of(got[1]), vh = stack_of(got[2]);
    const std::int64_t k = std::min(a.rows, a.cols);
    // Hermitian: only a's lower triangle was read, so where its upper one differs, the matrix
    // factored is NumPy's U diag(S) Vh.
    const host_stack factored =
        param("lower") == "1"
            ? svd_product(stack_of(expected[0]), stack_of(expected[1]), stack_of(expected[2]))
            : a;
    first(check_bound("reconstruction", product_error(factored, u, vh, k, &s), bound));
    first(check_bound("U orthonormality", orthonormality_error(u, u.cols, false), bound));
    first(check_bound("Vh orthonormality", orthonormality_error(vh, vh.rows, true), bound));
    if (param("hermitian") == "1" && param("ties") != "1")
      first(check_bound("U[:, j] Vh[j, :] against NumPy's",
                        rank_one_error(u, vh, stack_of(expected[0]), stack_of(expected[2])), rtol));
  } else if (op == "qr") {
    const bool r_only = got.size() == 1;
    const auto r = stack_of(got.back());
    for (std::int64_t b = 0; b < r.count(); ++b)
      for (std::int64_t i = 0; i < r.rows; ++i)
        for (std::int64_t j = 0; j < std::min(i, r.cols); ++j)
          if (r.at(b, i, j) != cplx(0)) first("R is not upper triangular");
    first(compare_scaled(abs_of(got.back()), abs_of(expected.back()), rtol));
    if (!r_only) {
      const auto q = stack_of(got[0]);
      first(check_bound("reconstruction", product_error(a, q, r, std::min(q.cols, r.rows), nullptr), bound));
      first(check_bound("Q orthonormality", orthonormality_error(q, q.cols, false), bound));
    }
  } else if (op == "eigh") {
    first(compare_scaled(got[0], expected[0], rtol));
    // A's read triangle: the eigenvectors solve the Hermitian matrix NumPy saw (its other triangle mirrored).
    const auto w = stack_of(got[0]), v = stack_of(got[1]);
    host_stack h = a;
    const auto e = stack_of(expected[1]), ew = stack_of(expected[0]);
    // Rebuild the Hermitian matrix from NumPy's own factors (V diag(w) V^H): independent of the triangle.
    for (std::int64_t b = 0; b < a.count(); ++b)
      for (std::int64_t i = 0; i < a.rows; ++i)
        for (std::int64_t j = 0; j < a.cols; ++j) {
          cplx s = 0;
          for (std::int64_t p = 0; p < a.rows; ++p)
            s += e.at(b, i, p) * ew.v[std::size_t(b * a.rows + p)] * std::conj(e.at(b, j, p));
          h.v[std::size_t((b * a.rows + i) * a.cols + j)] = s;
        }
    first(check_bound("A V = V diag(w)", eigen_error(h, v, w.v), bound * 10));
    first(check_bound("V orthonormality", orthonormality_error(v, v.cols, false), bound));
  } else if (op == "eig") {
    first(compare_scaled(sorted_values(got[0]), sorted_values(expected[0]), rtol));
    const auto w = stack_of(got[0]), v = stack_of(got[1]);
    first(check_bound("A V = V diag(w)", eigen_error(a, v, w.v), bound * 100));
  } else if (op == "eigvals") {
    first(compare_scaled(sorted_values(got[0]), sorted_values(expected[0]), rtol));
  } else if (op == "matrix_rank") {
    first(oracle::compare(got[0], expected[0], oracle::tolerance{}));
  } else if (op == "lstsq") {
    first(compare_scaled(got[0], expected[0], rtol));
    if (oracle::element_count(expected[1])) first(compare_scaled(got[1], expected[1], rtol * 100));
    first(oracle::compare(got[2], expected[2], oracle::tolerance{}));
    first(compare_scaled(got[3], expected[3], rtol));
  } else {
    for (std::size_t k = 0; k < got.size(); ++k) first(compare_scaled(got[k], expected[k], rtol));
  }
  return problem;
}

// `tiles` copies of h stacked along axis 0 (the manifest's tile=K).
nf::host_array tiled(nf::host_array h, std::int64_t tiles) {
  if (tiles == 1) return h;
  const std::vector<std::byte> one = std::move(h.bytes);
  h.bytes.reserve(one.size() * std::size_t(tiles));
  for (std::int64_t k = 0; k < tiles; ++k) h.bytes.insert(h.bytes.end(), one.begin(), one.end());
  h.shape.at(0) *= tiles;
  return h;
}

}  // namespace

TEST_CASE("solvers oracle: np.linalg factorizations and solvers against NumPy", "[oracle][solvers]") {
  const std::string dir = oracle::oracle_dir("solvers");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_solvers.py writes it to $NDFUSE_ORACLE_DIR/solvers");
  int passed = 0, failed = 0;
  std::string failed_ids;
  for (const auto& row : oracle::read_manifest(dir)) {
    if (row.size() != 5) FAIL("manifest row with " << row.size() << " fields: " << row[0]);
    const std::string& id = row[0];
    const std::string& op = row[1];
    const auto params = row[2] == "-" ? std::map<std::string, std::string>{} : oracle::parse_params(row[2]);
    const std::string& expect = row[4];
    std::string problem;
    try {
      std::vector<nf::array> inputs;
      const auto files = oracle::split(row[3], ',');
      const std::int64_t tiles = params.count("tile") ? std::stoll(params.at("tile")) : 1;
      auto read = [&](const std::string& f) { return tiled(oracle::read_npy(dir + "/" + f), tiles); };
      for (const auto& f : files)
        inputs.push_back(tiles == 1 ? nf::load(dir + "/" + f) : nf::asarray(read(f)));
      if (expect.rfind("RAISES:", 0) == 0) {
        problem = oracle::expect_throw(oracle::split(expect, ':')[1],
                                       [&] { return run_op(op, params, inputs)[0]; });
      } else {
        std::vector<nf::host_array> got, want;
        for (const auto& r : run_op(op, params, inputs)) got.push_back(r.to_host());
        for (const auto& f : oracle::split(expect, ',')) want.push_back(read(f));
        problem = check_case(op, params, got, want, read(files[0]));
        // The inputs are unchanged (the solvers work on copies).
        for (std::size_t k = 0; k < files.size() && problem.empty(); ++k)
          if (!oracle::compare(inputs[k].to_host(), read(files[k]), oracle::tolerance{}).empty())
            problem = "input " + std::to_string(k) + " changed";
      }
    } catch (const std::exception& e) {
      problem = std::string("threw: ") + e.what();
    }
    if (problem.empty()) {
      ++passed;
    } else {
      ++failed;
      if (failed <= 30) UNSCOPED_INFO(id << ": " << problem);
      failed_ids += "\n  " + id;
    }
  }
  INFO(passed << " cases passed, " << failed << " failed" << (failed ? ":" : "") << failed_ids);
  CHECK(failed == 0);
}
