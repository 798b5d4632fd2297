// Creation ops against NumPy 2 (tests/oracle/gen_creation.py writes $NDFUSE_ORACLE_DIR/creation):
// zeros/ones/empty/full and their *_like forms, arange, linspace, eye and identity, with default and
// explicit dtypes. Values come from C++ literals, as a user writes them.
#include "catch.hpp"
#include "oracle_support.hpp"

namespace {

using params_t = std::map<std::string, std::string>;

bool has(const params_t& p, const char* key) {
  return p.count(key) != 0;
}

// Calls f with the scalar token's value as the C++ literal type it stands for (bool, int64_t, ...).
template <class F>
nf::array with_literal(const std::string& token, F&& f) {
  return std::visit([&](auto v) { return f(v); }, oracle::parse_scalar(token));
}

nf::array build(const std::string& func, const params_t& p, const std::string& dir) {
  auto shape = [&] { return oracle::parse_shape(p.at("shape")); };
  auto dtype = [&] { return oracle::parse_dtype(p.at("dtype")); };
  auto like = [&] { return nf::load(dir + "/" + p.at("like")); };
  bool typed = has(p, "dtype");
  if (func == "zeros") return typed ? nf::zeros(shape(), dtype()) : nf::zeros(shape());
  if (func == "ones") return typed ? nf::ones(shape(), dtype()) : nf::ones(shape());
  if (func == "empty") return typed ? nf::empty(shape(), dtype()) : nf::empty(shape());
  if (func == "full")
    return with_literal(p.at("value"),
                        [&](auto v) { return typed ? nf::full(shape(), v, dtype()) : nf::full(shape(), v); });
  if (func == "zeros_like") return typed ? nf::zeros_like(like(), dtype()) : nf::zeros_like(like());
  if (func == "ones_like") return typed ? nf::ones_like(like(), dtype()) : nf::ones_like(like());
  if (func == "empty_like") return typed ? nf::empty_like(like(), dtype()) : nf::empty_like(like());
  if (func == "full_like")
    return with_literal(p.at("value"), [&](auto v) {
      return typed ? nf::full_like(like(), v, dtype()) : nf::full_like(like(), v);
    });
  if (func == "arange") {
    auto stop = oracle::to_nf_scalar(oracle::parse_scalar(p.at("stop")));
    if (!has(p, "start")) return nf::arange(stop);
    auto start = oracle::to_nf_scalar(oracle::parse_scalar(p.at("start")));
    if (!has(p, "step")) return nf::arange(start, stop);
    auto step = oracle::to_nf_scalar(oracle::parse_scalar(p.at("step")));
    return typed ? nf::arange(start, stop, step, dtype()) : nf::arange(start, stop, step);
  }
  if (func == "linspace") {
    double start = std::get<double>(oracle::parse_scalar(p.at("start")));
    double stop = std::get<double>(oracle::parse_scalar(p.at("stop")));
    return nf::linspace(start, stop, std::stoll(p.at("num")), p.at("endpoint") == "1", dtype());
  }
  if (func == "eye")
    return nf::eye(std::stoll(p.at("n")), std::stoll(p.at("m")), std::stoll(p.at("k")), dtype());
  if (func == "identity") return nf::identity(std::stoll(p.at("n")), dtype());
  throw std::runtime_error("test: unknown creation function " + func);
}

std::string run_case(const std::string& dir, const std::vector<std::string>& row) {
  const std::string& func = row.at(1);
  params_t p = oracle::parse_params(row.at(2));
  const std::string& expect = row.at(3);
  if (expect.rfind("RAISES:", 0) == 0) {
    auto parts = oracle::split(expect, ':');
    std::string why = oracle::expect_throw(parts.at(1), [&] { return build(func, p, dir); });
    return why.empty() ? "" : why + " (NumPy raises " + parts.at(2) + ")";
  }
  nf::host_array expected = oracle::read_npy(dir + "/" + expect);
  nf::array a = build(func, p, dir);
  // The dtype and shape are known when the node is built, before any evaluation.
  if (oracle::name_of(a.dtype()) != oracle::name_of(expected.dtype) || a.shape() != expected.shape)
    return "built node: dtype " + oracle::name_of(a.dtype()) + " shape " + oracle::numpy_shape(a.shape()) +
           ", expected " + oracle::name_of(expected.dtype) + " " + oracle::numpy_shape(expected.shape);
  // Filled values are exact, -0.0 included; computed sequences (arange, linspace) get the arithmetic
  // tolerance, since NumPy computes float32 aranges in float32 and others may compute in float64.
  bool computed = func == "arange" || func == "linspace";
  oracle::tolerance tol;
  tol.zero_sign = !computed;
  bool values = func != "empty" && func != "empty_like";
  return oracle::compare(
      a.to_host(), expected, tol, [](std::size_t) { return std::string(); }, values);
}

}  // namespace

TEST_CASE("creation oracle: zeros, ones, empty, full, *_like, arange, linspace, eye, identity",
          "[oracle][creation]") {
  std::string dir = oracle::oracle_dir("creation");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_creation.py writes $NDFUSE_ORACLE_DIR/creation");
  int passed = 0, failed = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    std::string failure;
    try {
      failure = run_case(dir, row);
    } catch (const std::exception& e) {
      failure = std::string("unexpected exception: ") + e.what();
    }
    if (failure.empty()) {
      ++passed;
    } else {
      ++failed;
      FAIL_CHECK("case " << row.at(0) << "  (" << row.at(1) << " " << row.at(2) << ")\n  " << failure);
    }
  }
  INFO(passed << " cases passed, " << failed << " failed");
  CHECK(passed + failed > 100);
  CHECK(failed == 0);
}
