// bfloat16 against NumPy 2 with ml_dtypes (tests/oracle/gen_bfloat16.py writes the cases): elementwise
// ops, casts both ways, promotion with every other dtype, reductions and matmul. bfloat16 arrays are
// stored as float32 (exact) and cast here; results must have the expected dtype and agree bit for bit
// ("exact": ops correctly rounded in float32 and then rounded once to bfloat16, on both sides) or
// within one bfloat16 ulp ("ulp": float32 libm and summation orders differ between implementations).
// Also: weak C++ scalars keep bfloat16, repr, and .npy refusing bfloat16 (test_npy.cpp).
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "oracle_support.hpp"

namespace {

using unary_fn = std::function<nf::array(const nf::array&)>;
using binary_fn = std::function<nf::array(const nf::array&, const nf::array&)>;

#define UNARY(name)                                       \
  {                                                       \
#name, [](const nf::array& a) { return nf::name(a); } \
  }
#define BINARY(name)                                                             \
  {                                                                              \
#name, [](const nf::array& a, const nf::array& b) { return nf::name(a, b); } \
  }
const std::map<std::string, unary_fn> unary = {
    UNARY(negative), UNARY(absolute), UNARY(sqrt),     UNARY(square), UNARY(floor),
    UNARY(ceil),     UNARY(trunc),    UNARY(rint),     UNARY(sign),   UNARY(reciprocal),
    UNARY(isnan),    UNARY(isinf),    UNARY(isfinite), UNARY(exp),    UNARY(log),
    UNARY(log1p),    UNARY(expm1),    UNARY(sin),      UNARY(cos),    UNARY(tan),
    UNARY(tanh),     UNARY(arctan),   UNARY(cbrt),     UNARY(exp2),   UNARY(log2)};
const std::map<std::string, binary_fn> binary = {
    BINARY(add),     BINARY(subtract),  BINARY(multiply),     BINARY(true_divide), BINARY(maximum),
    BINARY(minimum), BINARY(fmax),      BINARY(fmin),         BINARY(greater),     BINARY(less_equal),
    BINARY(equal),   BINARY(not_equal), BINARY(floor_divide), BINARY(remainder),   BINARY(power),
    BINARY(arctan2), BINARY(hypot)};
#undef UNARY
#undef BINARY

nf::array run(const std::string& op, const std::vector<nf::array>& xs) {
  const auto colon = op.find(':');
  const std::string name = op.substr(0, colon), arg = colon == std::string::npos ? "" : op.substr(colon + 1);
  if (auto u = unary.find(op); u != unary.end()) return u->second(xs.at(0));
  if (auto b = binary.find(op); b != binary.end()) return b->second(xs.at(0), xs.at(1));
  if (name == "astype") return xs.at(0).astype(oracle::parse_dtype(arg));
  if (name == "matmul") return nf::matmul(xs.at(0), xs.at(1));
  const nf::axes axis = arg == "-" ? nf::axes() : nf::axes(std::stoi(arg));
  if (name == "sum") return nf::sum(xs.at(0), axis);
  if (name == "mean") return nf::mean(xs.at(0), axis);
  if (name == "max") return nf::max(xs.at(0), axis);
  if (name == "min") return nf::min(xs.at(0), axis);
  if (name == "prod") return nf::prod(xs.at(0), axis);
  throw std::runtime_error("test: unknown op " + op);
}

// One bfloat16 unit in the last place at |e| (2^-133 below the normal range).
double bf16_ulp(double e) {
  if (!std::isfinite(e) || e == 0) return std::ldexp(1.0, -133);
  int x = 0;
  std::frexp(std::fabs(e), &x);
  return std::ldexp(1.0, std::max(x - 8, -133));
}

std::string compare(const nf::array& got, const nf::host_array& want, nf::dtype want_dt, bool ulp) {
  if (got.dtype() != want_dt)
    return "dtype " + oracle::name_of(got.dtype()) + ", expected " + oracle::name_of(want_dt);
  if (want_dt != nf::dtype::bfloat16) return oracle::compare(got.to_host(), want, oracle::tolerance{});
  const auto g = got.astype(nf::float32).to_vector<float>();
  const std::size_t n = oracle::element_count(want);
  if (g.size() != n) return "size " + std::to_string(g.size()) + ", expected " + std::to_string(n);
  std::string out;
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = oracle::element<float>(want, i), v = g[i];
    const bool same = (std::isnan(e) && std::isnan(v)) || (e == v && std::signbit(e) == std::signbit(v));
    const bool close = ulp && std::isfinite(e) && std::fabs(v - e) <= bf16_ulp(e);
    if (same || close) continue;
    if (++bad <= 5)
      out += "\n  [" + std::to_string(i) + "] got " + oracle::format_real(v) + ", expected " +
             oracle::format_real(e);
  }
  return bad ? std::to_string(bad) + " of " + std::to_string(n) + " differ" + out : "";
}

}  // namespace

TEST_CASE("bfloat16 oracle: ops, casts, promotion, reductions and matmul against NumPy with ml_dtypes",
          "[oracle][bfloat16]") {
  const std::string dir = oracle::oracle_dir("bfloat16");
  if (dir.empty())
    NDFUSE_SKIP("no bfloat16 oracle data: tests/oracle/gen_bfloat16.py (with ml_dtypes) writes it");
  int passed = 0, failed = 0;
  std::string failures;
  for (const auto& row : oracle::read_manifest(dir)) {
    if (row.size() != 6) FAIL("manifest row with " << row.size() << " fields");
    std::string problem;
    try {
      std::vector<nf::array> xs;
      for (const auto& f : oracle::split(row[2], ',')) {
        const auto at = f.find('@');
        nf::array x = nf::load(dir + "/" + f.substr(0, at));
        xs.push_back(at == std::string::npos ? x : x.astype(oracle::parse_dtype(f.substr(at + 1))));
      }
      problem = compare(run(row[1], xs), oracle::read_npy(dir + "/" + row[4]), oracle::parse_dtype(row[3]),
                        row[5] == "ulp");
    } catch (const std::exception& e) {
      problem = std::string("threw: ") + e.what();
    }
    if (problem.empty()) {
      ++passed;
    } else {
      ++failed;
      if (failed <= 20) failures += "\n" + row[0] + ": " + problem;
    }
  }
  INFO(passed << " cases passed, " << failed << " failed" << failures);
  CHECK(failed == 0);
  CHECK(passed > 0);
}

TEST_CASE("bfloat16: C++ scalars are weak, promotion pairs with float16 and int16 in float32", "[bfloat16]") {
  const nf::array x = nf::asarray(std::vector<float>{1.5f, -2.25f, 3.0f}).astype(nf::bfloat16);
  CHECK((x * 2.5).dtype() == nf::bfloat16);  // a float scalar is weak (NEP 50), as in JAX and PyTorch
  CHECK((x + 1).dtype() == nf::bfloat16);
  CHECK((x * std::complex<double>(0, 1)).dtype() == nf::complex64);
  CHECK(nf::promote_types(nf::bfloat16, nf::float16) == nf::float32);
  CHECK(nf::promote_types(nf::bfloat16, nf::int16) == nf::float32);
  CHECK(nf::promote_types(nf::bfloat16, nf::uint8) == nf::bfloat16);
  CHECK(nf::can_cast(nf::bfloat16, nf::float32));
  CHECK_FALSE(nf::can_cast(nf::float16, nf::bfloat16));
  CHECK(nf::can_cast(nf::float16, nf::bfloat16, nf::casting::same_kind));
  nf::array y = x;
  y *= 2.0;  // same_kind in-place: stays bfloat16
  CHECK(y.dtype() == nf::bfloat16);
  CHECK(y.astype(nf::float32).to_vector<float>() == std::vector<float>{3.0f, -4.5f, 6.0f});
  // 2.5 * 1.5 = 3.75 and 2.5 * -2.25 = -5.625 are bfloat16 values; 7.5 too.
  CHECK((x * 2.5).astype(nf::float32).to_vector<float>() == std::vector<float>{3.75f, -5.625f, 7.5f});
  std::ostringstream os;
  os << x;
  // NumPy's float formatting, as for float16 (ml_dtypes prints each element's own str instead:
  // array([1.5, -2.25, 3], dtype=bfloat16)).
  CHECK(os.str() == "array([ 1.5 , -2.25,  3.  ], dtype=bfloat16)");
}
