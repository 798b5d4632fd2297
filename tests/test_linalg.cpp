// Matrix products against NumPy 2 (tests/oracle/gen_linalg.py writes the cases): matmul, dot, a.dot(b),
// vdot, inner, outer, tensordot, einsum, kron, linalg.matrix_power and linalg.multi_dot, on evaluated,
// transposed (read in place), conjugate-transposed and unevaluated operands. Where NumPy raises, the
// ndfuse call must throw the matching nf:: exception when the node is built.
//
// Tolerances: integer and bool results are exact (NumPy wraps integer products in the result dtype).
// Float and complex results are sums of products, so each element may carry rounding error relative to
// the magnitude of its terms, not of its value: the generator writes `scale`, the largest element of the
// same op applied to |operands|, and an element passes when |got - expected| <= rtol * scale with rtol
// 1e-12 (float64, complex128), 1e-5 (float32, complex64) or 2e-3 (float16), that of the operands'
// product where it is less precise than the result (an epilogue adding a float64 c to a float32
// product). dtype and shape must match exactly.
//
// The fusion cases check, through nf::stats(), that a product reads a transposed evaluated buffer
// through the library call's op flags (one call, no kernel, no copy) and that an integer product is a
// fused kernel, against products computed here with plain loops over the host data.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "frontend/view.hpp"
#include "oracle_support.hpp"

namespace {

std::vector<int> ints32(const std::string& s) {
  std::vector<int> out;
  for (const auto& p : oracle::split(s, ','))
    if (!p.empty()) out.push_back(std::stoi(p));
  return out;
}

// The per-operand transform named in the manifest's views column (see gen_linalg.py).
nf::array apply_view(const nf::array& x, const std::string& v) {
  if (v == "-") return x;
  if (v == "T") return x.swapaxes(-2, -1);
  if (v == "conjT") return nf::conj(x).swapaxes(-2, -1);  // NumPy's a.conj().T (a.mH)
  if (v == "lazy") return nf::frontend::lazy_copy(x);
  if (v == "lazyT") return nf::frontend::lazy_copy(x).swapaxes(-2, -1);
  throw std::runtime_error("test: unknown view " + v);
}

// gen_linalg.py's EPILOGUES around P = matmul(a, b). The product is never held by a named handle
// (ab() is a temporary), so the fuser may fold the scalars and c into GEMM's alpha and beta.
nf::array epilogue(const std::string& form, const std::vector<nf::array>& xs) {
  const auto ab = [&] { return nf::matmul(xs.at(0), xs.at(1)); };
  const auto c = [&] { return xs.at(2); };
  if (form == "2.5*ab") return 2.5 * ab();
  if (form == "ab*-3") return ab() * -3;
  if (form == "-ab") return -ab();
  if (form == "ab/4") return ab() / 4;
  if (form == "ab/3") return ab() / 3;
  if (form == "(1+2j)*ab") return std::complex<double>(1, 2) * ab();
  if (form == "ab+c") return ab() + c();
  if (form == "c+ab") return c() + ab();
  if (form == "ab-c") return ab() - c();
  if (form == "c-ab") return c() - ab();
  if (form == "2*ab+c") return 2 * ab() + c();
  if (form == "ab+3*c") return ab() + 3 * c();
  if (form == "0.5*(ab+c)") return 0.5 * (ab() + c());
  if (form == "3*(ab+c)") return 3 * (ab() + c());
  if (form == "-(ab-c)*2") return -(ab() - c()) * 2;
  throw std::runtime_error("test: unknown epilogue " + form);
}

nf::array run_op(const std::string& op, const std::vector<nf::array>& xs) {
  const auto colon = op.find(':');
  const std::string name = op.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : op.substr(colon + 1);
  if (name == "matmul") return nf::matmul(xs.at(0), xs.at(1));
  if (name == "dot") return nf::dot(xs.at(0), xs.at(1));
  if (name == "member_dot") return xs.at(0).dot(xs.at(1));
  if (name == "vdot") return nf::vdot(xs.at(0), xs.at(1));
  if (name == "inner") return nf::inner(xs.at(0), xs.at(1));
  if (name == "outer") return nf::outer(xs.at(0), xs.at(1));
  if (name == "kron") return nf::kron(xs.at(0), xs.at(1));
  if (name == "tensordot") {
    const auto semi = arg.find(';');
    if (semi == std::string::npos) return nf::tensordot(xs.at(0), xs.at(1), std::stoi(arg));
    return nf::tensordot(xs.at(0), xs.at(1), ints32(arg.substr(0, semi)), ints32(arg.substr(semi + 1)));
  }
  if (name == "einsum") return nf::einsum(arg, xs);
  if (name == "matrix_power") return nf::linalg::matrix_power(xs.at(0), std::stoll(arg));
  if (name == "multi_dot") return nf::linalg::multi_dot(xs);
  if (name == "epilogue") return epilogue(arg, xs);
  throw std::runtime_error("test: unknown op " + op);
}

double rtol_for(nf::dtype t) {
  switch (t) {
    case nf::dtype::float16:
      return 2e-3;
    case nf::dtype::float32:
    case nf::dtype::complex64:
      return 1e-5;
    default:
      return 1e-12;
  }
}

// "" when `got` matches `expected`: dtype and shape exactly, values exactly for integer and bool
// results, within rtol(dtype) * scale for float and complex ones.
std::string compare_product(const nf::host_array& got, const nf::host_array& expected,
                            const std::string& scale, nf::dtype product_dt) {
  const auto no_context = [](std::size_t) { return std::string(); };
  const std::string problem =
      oracle::compare(got, expected, oracle::tolerance{}, no_context, /*values=*/false);
  if (!problem.empty()) return problem;
  if (!nf::is_inexact(expected.dtype)) return oracle::compare(got, expected, oracle::tolerance{});  // exact
  // An epilogue's product may be less precise than its result (float32 @ float32 + float64 c).
  const double bound = std::max(rtol_for(expected.dtype), rtol_for(product_dt)) * std::stod(scale);
  const std::size_t n = oracle::element_count(expected);
  std::string out;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<double> g = oracle::element_c(got, i), e = oracle::element_c(expected, i);
    const double err = std::abs(g - e);
    if (err <= bound) continue;  // (false for NaN)
    if (++bad <= 5)
      out += "\n  [" + std::to_string(i) + "] got " + oracle::value_str(got, i) + ", expected " +
             oracle::value_str(expected, i) + " (|error| " + oracle::format_real(err) + " > bound " +
             oracle::format_real(bound) + ")";
  }
  if (!bad) return "";
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ" +
         (bad > 5 ? " (first 5)" : "") + out;
}

nf::array evaluated(nf::array a) {
  a.eval();
  return a;
}

// Dyadic values (multiples of 1/8 up to 62.5): every product and every partial sum of a few dozen of
// them is exact in float64, so a product computed in any order equals the host loop bit for bit.
std::vector<double> dyadic(std::int64_t n, std::int64_t seed) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = double((i * 7919 + seed * 104729) % 1001 - 500) / 8.0;
  return v;
}

}  // namespace

TEST_CASE("linalg oracle: matrix products against NumPy", "[oracle][linalg]") {
  const std::string dir = oracle::oracle_dir("linalg");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_linalg.py writes it to $NDFUSE_ORACLE_DIR/linalg");
  int passed = 0, failed = 0;
  std::string failed_ids;
  for (const auto& row : oracle::read_manifest(dir)) {
    if (row.size() != 6) FAIL("manifest row with " << row.size() << " fields: " << row[0]);
    const std::string& id = row[0];
    const std::string& op = row[1];
    const std::string& expect = row[5];
    std::string problem;
    try {
      std::vector<std::string> files, views;
      if (row[2] != "-") {
        files = oracle::split(row[2], ',');
        views = oracle::split(row[3], ',');
      }
      if (files.size() != views.size())
        throw std::runtime_error("test: manifest lists files and views unevenly");
      std::vector<nf::array> loaded, operands;
      for (std::size_t k = 0; k < files.size(); ++k) {
        loaded.push_back(nf::load(dir + "/" + files[k]));
        operands.push_back(apply_view(loaded.back(), views[k]));
      }
      if (expect.rfind("RAISES:", 0) == 0) {
        problem = oracle::expect_throw(oracle::split(expect, ':')[1], [&] { return run_op(op, operands); });
      } else {
        const nf::array got = run_op(op, operands);
        // The least precise product computed on the way: multi_dot multiplies neighbours first in
        // the order its costs choose, so any adjacent pair may be an intermediate (float32 @ complex64
        // rounds to complex64 before an int32 operand widens the result to complex128).
        nf::dtype product_dt = got.dtype();
        for (std::size_t k = 0; k + 1 < operands.size() && (k == 0 || op == "multi_dot"); ++k) {
          const nf::dtype pair = nf::promote_types(operands[k].dtype(), operands[k + 1].dtype());
          if (k == 0 || rtol_for(pair) > rtol_for(product_dt)) product_dt = pair;
        }
        problem = compare_product(got.to_host(), oracle::read_npy(dir + "/" + expect), row[4],
                                  nf::is_inexact(product_dt) ? product_dt : got.dtype());
        // The operands are unchanged (nothing writes into or donates a buffer a handle still holds).
        for (std::size_t k = 0; k < files.size() && problem.empty(); ++k) {
          problem = oracle::compare(loaded[k].to_host(), oracle::read_npy(dir + "/" + files[k]),
                                    oracle::tolerance{});
          if (!problem.empty()) problem = "operand " + std::to_string(k) + " changed: " + problem;
        }
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

TEST_CASE("matmul(a.T(), b) of evaluated float64 arrays is one library call: no kernel, no transpose copy",
          "[linalg][fusion]") {
  const std::int64_t k = 37, m = 23, n = 19;
  const auto ha = dyadic(k * m, 1), hb = dyadic(k * n, 2);
  const nf::array a = evaluated(nf::asarray(ha, {k, m}));  // a.T() is (m, k), read in place
  const nf::array b = evaluated(nf::asarray(hb, {k, n}));
  nf::reset_stats();
  nf::array c = nf::matmul(a.T(), b);
  c.eval();
  const nf::stats_t s = nf::stats();
  CHECK(s.library_calls == 1);
  CHECK(s.kernels_launched == 0);
  CHECK(s.bytes_allocated == std::uint64_t(m * n) * sizeof(double));  // the result only
  REQUIRE(c.dtype() == nf::dtype::float64);
  REQUIRE(c.shape() == nf::shape_t{m, n});
  const auto got = c.to_vector<double>();
  std::vector<double> want(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t p = 0; p < k; ++p) want[i * n + j] += ha[p * m + i] * hb[p * n + j];
  CHECK(got == want);
}

TEST_CASE(
    "matmul of a conjugate transpose of an evaluated complex128 array is one library call and no kernel",
    "[linalg][fusion]") {
  const std::int64_t k = 11, m = 7, n = 5;
  const auto re_a = dyadic(k * m, 3), im_a = dyadic(k * m, 4), re_b = dyadic(k * n, 5),
             im_b = dyadic(k * n, 6);
  std::vector<std::complex<double>> ha(re_a.size()), hb(re_b.size());
  for (std::size_t i = 0; i < ha.size(); ++i) ha[i] = {re_a[i], im_a[i]};
  for (std::size_t i = 0; i < hb.size(); ++i) hb[i] = {re_b[i], im_b[i]};
  const nf::array a = evaluated(nf::asarray(ha, {k, m}));
  const nf::array b = evaluated(nf::asarray(hb, {k, n}));
  std::vector<std::complex<double>> want(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t p = 0; p < k; ++p) want[i * n + j] += std::conj(ha[p * m + i]) * hb[p * n + j];
  // Both spellings of the conjugate transpose: NumPy's a.conj().T (a.mH) and a.T.conj().
  for (const bool conj_first : {true, false}) {
    INFO((conj_first ? "matmul(nf::conj(a).T(), b)" : "matmul(nf::conj(a.T()), b)"));
    nf::reset_stats();
    nf::array c = nf::matmul(conj_first ? nf::conj(a).T() : nf::conj(a.T()), b);
    c.eval();
    const nf::stats_t s = nf::stats();
    CHECK(s.library_calls == 1);
    CHECK(s.kernels_launched == 0);
    REQUIRE(c.dtype() == nf::dtype::complex128);
    REQUIRE(c.shape() == nf::shape_t{m, n});
    CHECK(c.to_vector<std::complex<double>>() == want);  // dyadic parts: exact in any summation order
  }
}

TEST_CASE("an int32 matmul is a fused kernel, no library call, and wraps as NumPy does", "[linalg][fusion]") {
  const std::int64_t m = 6, k = 9, n = 4;
  std::vector<std::int32_t> ha(static_cast<std::size_t>(m * k)), hb(static_cast<std::size_t>(k * n));
  for (std::size_t i = 0; i < ha.size(); ++i) ha[i] = std::int32_t((i * 7919 + 3) % 200003) - 100001;
  for (std::size_t i = 0; i < hb.size(); ++i) hb[i] = std::int32_t((i * 104729 + 5) % 150001) - 75000;
  const nf::array a = evaluated(nf::asarray(ha, {m, k}));
  const nf::array b = evaluated(nf::asarray(hb, {k, n}));
  nf::reset_stats();
  nf::array c = nf::matmul(a, b);
  c.eval();
  const nf::stats_t s = nf::stats();
  CHECK(s.library_calls == 0);
  CHECK(s.kernels_launched >= 1);
  REQUIRE(c.dtype() == nf::dtype::int32);
  REQUIRE(c.shape() == nf::shape_t{m, n});
  const auto got = c.to_vector<std::int32_t>();
  std::vector<std::int32_t> want(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      std::uint32_t acc = 0;  // modulo 2**32, as NumPy's int32 loop
      for (std::int64_t p = 0; p < k; ++p) acc += std::uint32_t(ha[i * k + p]) * std::uint32_t(hb[p * n + j]);
      want[i * n + j] = static_cast<std::int32_t>(acc);
    }
  CHECK(got == want);
}

TEST_CASE("scalars and an added matrix around a product fold into GEMM's alpha and beta",
          "[linalg][fusion]") {
  const std::int64_t m = 13, k = 21, n = 8;
  const auto ha = dyadic(m * k, 7), hb = dyadic(k * n, 8), hc = dyadic(m * n, 9);
  const nf::array a = evaluated(nf::asarray(ha, {m, k}));
  const nf::array b = evaluated(nf::asarray(hb, {k, n}));
  const nf::array c = evaluated(nf::asarray(hc, {m, n}));
  std::vector<double> ab(static_cast<std::size_t>(m * n), 0.0);  // dyadic: exact in any order
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t p = 0; p < k; ++p) ab[i * n + j] += ha[i * k + p] * hb[p * n + j];
  const auto bytes = std::uint64_t(m * n) * sizeof(double);

  SECTION("2 * (a @ b) + c, c evaluated and held: one call, alpha 2 and beta 1, c copied to the output") {
    nf::array d = 2 * nf::matmul(a, b) + c;
    const std::string plan = nf::explain(d);
    INFO(plan);
    CHECK(plan.find("alpha 2, beta 1 (in2 is C, copied to the output)") != std::string::npos);
    nf::reset_stats();
    d.eval();
    const nf::stats_t s = nf::stats();
    CHECK(s.library_calls == 1);
    CHECK(s.kernels_launched == 0);
    CHECK(s.bytes_allocated == bytes);
    std::vector<double> want(ab.size());
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = 2 * ab[i] + hc[i];
    CHECK(d.to_vector<double>() == want);
    CHECK(c.to_vector<double>() == hc);  // C is read, never written
  }
  SECTION("(a @ b) * inf stays a multiply after the call: IEEE's inf and NaN, not a folded alpha") {
    const double inf = std::numeric_limits<double>::infinity();
    const nf::array z = evaluated(nf::zeros({m, k}));
    nf::array d = nf::matmul(a, b) * inf;
    nf::array e = nf::matmul(z, b) * inf;  // 0 * inf: NaN, as NumPy's (a @ b) * inf
    const auto got = d.to_vector<double>(), nan_got = e.to_vector<double>();
    for (std::size_t i = 0; i < ab.size(); ++i) {
      CHECK(got[i] == (ab[i] > 0 ? inf : ab[i] < 0 ? -inf : got[i]));
      CHECK(std::isnan(nan_got[i]));
    }
  }
  SECTION("a @ b - 3 * c: the kernel writing 3 * c writes the buffer GEMM then updates in place") {
    nf::array d = nf::matmul(a, b) - 3 * c;
    nf::reset_stats();
    d.eval();
    const nf::stats_t s = nf::stats();
    CHECK(s.library_calls == 1);
    CHECK(s.kernels_launched == 1);
    CHECK(s.buffers_donated == 1);
    CHECK(s.bytes_allocated == bytes);
    std::vector<double> want(ab.size());
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = ab[i] - 3 * hc[i];
    CHECK(d.to_vector<double>() == want);
  }
  SECTION("-(a.T() @ b.T()) / 4: negation and the power-of-two divide fold, the transposes are op flags") {
    const nf::array at = evaluated(nf::asarray(ha, {k, m})).T(), bt = evaluated(nf::asarray(hb, {n, k})).T();
    nf::array d = -nf::matmul(at, bt) / 4;
    nf::reset_stats();
    d.eval();
    const nf::stats_t s = nf::stats();
    CHECK(s.library_calls == 1);
    CHECK(s.kernels_launched == 0);
    std::vector<double> want(ab.size(), 0.0);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t p = 0; p < k; ++p) want[i * n + j] += ha[p * m + i] * hb[j * k + p];
    for (auto& w : want) w = -w / 4;
    CHECK(d.to_vector<double>() == want);
  }
  SECTION("a product a handle holds is written, and scaled by a kernel of its own") {
    const nf::array p = nf::matmul(a, b);
    nf::array d = 2 * p + c;
    nf::reset_stats();
    d.eval();
    const nf::stats_t s = nf::stats();
    CHECK(s.library_calls == 1);
    CHECK(s.kernels_launched == 1);
    CHECK(p.to_vector<double>() == ab);
    std::vector<double> want(ab.size());
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = 2 * ab[i] + hc[i];
    CHECK(d.to_vector<double>() == want);
  }
}
