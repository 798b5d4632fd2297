// NumPy 2 (NEP 50) promotion against ndfuse (tests/oracle/gen_promotion.py writes the table):
// np.result_type of every pair of the 14 dtypes, array x weak Python scalar for every dtype and kind
// (with the values that overflow: NumPy raises OverflowError at the op, ndfuse nf::dtype_error), the
// dtype of real ops built from them (lazy: no evaluation needed), np.can_cast for every rule, and
// the dtype (or the refusal, at the call) of library calls, reductions and sorts of every dtype.
#include <optional>

#include "catch.hpp"
#include "oracle_support.hpp"

namespace {

// "a:int8" is a 1-d int8 array; anything else a weak scalar token.
struct side {
  std::string token;
  std::optional<nf::array> arr;
  oracle::scalar_value value;
  explicit side(const std::string& t) : token(t) {
    if (t.rfind("a:", 0) == 0)
      arr = nf::zeros({2}, oracle::parse_dtype(t.substr(2)));
    else
      value = oracle::parse_scalar(t);
  }
  nf::operand operand() const {
    if (arr) return nf::operand(*arr);
    return std::visit([](auto v) { return nf::operand(v); }, value);
  }
};

template <class F>
nf::array apply(F f, const side& a, const side& b) {
  if (a.arr && b.arr) return f(*a.arr, *b.arr);
  if (a.arr) return std::visit([&](auto v) { return f(*a.arr, v); }, b.value);
  return std::visit([&](auto v) { return f(v, *b.arr); }, a.value);
}

// "" when the built node's dtype is `expected` (a dtype name or RAISES:<error>:<numpy error>).
template <class F>
std::string check_dtype(const std::string& what, const std::string& expected, F&& build) {
  if (expected.rfind("RAISES:", 0) == 0) {
    auto parts = oracle::split(expected, ':');
    std::string why = oracle::expect_throw(parts.at(1), build);
    return why.empty() ? "" : what + ": " + why + " (NumPy raises " + parts.at(2) + ")";
  }
  try {
    nf::dtype got = build().dtype();
    if (oracle::name_of(got) == expected) return "";
    return what + ": got " + oracle::name_of(got) + ", expected " + expected;
  } catch (const std::exception& e) {
    return what + ": threw '" + e.what() + "', expected dtype " + expected;
  }
}

nf::dtype_kind kind_of_token(const std::string& t) {
  switch (t[0]) {
    case 'b':
      return nf::dtype_kind::bool_;
    case 'i':
    case 'u':
      return nf::dtype_kind::int_;
    case 'f':
      return nf::dtype_kind::float_;
    default:
      return nf::dtype_kind::complex;
  }
}

// Checks one pair/scalar row: id kind left right result_type add multiply true_divide maximum.
std::string check_row(const std::vector<std::string>& row) {
  side a(row.at(2)), b(row.at(3));
  const std::string& result_type = row.at(4);
  std::string out;
  auto note = [&](const std::string& s) {
    if (!s.empty()) out += "\n  " + s;
  };
  try {
    std::string got = oracle::name_of(nf::result_type(a.operand(), b.operand()));
    if (got != result_type) note("nf::result_type: got " + got + ", expected " + result_type);
  } catch (const std::exception& e) {
    note(std::string("nf::result_type threw '") + e.what() + "', expected " + result_type);
  }
  if (a.arr && b.arr) {
    std::string got = oracle::name_of(nf::promote_types(a.arr->dtype(), b.arr->dtype()));
    if (got != result_type) note("nf::promote_types: got " + got + ", expected " + result_type);
  } else {
    const side& array_side = a.arr ? a : b;
    const side& scalar_side = a.arr ? b : a;
    try {
      std::string got =
          oracle::name_of(nf::weak_promote(array_side.arr->dtype(), kind_of_token(scalar_side.token)));
      if (got != result_type) note("nf::weak_promote: got " + got + ", expected " + result_type);
    } catch (const std::exception& e) {
      note(std::string("nf::weak_promote threw '") + e.what() + "', expected " + result_type);
    }
  }
  note(check_dtype("a + b", row.at(5), [&] {
    return apply([](const auto& x, const auto& y) -> nf::array { return x + y; }, a, b);
  }));
  note(check_dtype("nf::multiply(a, b)", row.at(6), [&] { return nf::multiply(a.operand(), b.operand()); }));
  note(check_dtype("a / b", row.at(7), [&] {
    return apply([](const auto& x, const auto& y) -> nf::array { return x / y; }, a, b);
  }));
  note(check_dtype("nf::maximum(a, b)", row.at(8), [&] { return nf::maximum(a.operand(), b.operand()); }));
  return out;
}

// The calls of gen_promotion.py's CALLS, on m = eye(4, dtype) and v = ones(8, dtype).
nf::array build_call(const std::string& name, const nf::array& m, const nf::array& v) {
  if (name == "matmul") return nf::matmul(m, m);
  if (name == "linalg.inv") return nf::linalg::inv(m);
  if (name == "linalg.det") return nf::linalg::det(m);
  if (name == "linalg.svdvals") return nf::linalg::svdvals(m);
  if (name == "linalg.eigvalsh") return nf::linalg::eigvalsh(m);
  if (name == "linalg.cholesky") return nf::linalg::cholesky(m);
  if (name == "linalg.solve") return nf::linalg::solve(m, m);
  if (name == "linalg.norm") return nf::linalg::norm(m);
  if (name == "fft.fft") return nf::fft::fft(v);
  if (name == "fft.rfft") return nf::fft::rfft(v);
  if (name == "fft.ifft") return nf::fft::ifft(v);
  if (name == "sum") return nf::sum(v);
  if (name == "prod") return nf::prod(v);
  if (name == "max") return nf::max(v);
  if (name == "argmax") return nf::argmax(v);
  if (name == "mean") return nf::mean(v);
  if (name == "var") return nf::var(v);
  if (name == "cumsum") return nf::cumsum(v);
  if (name == "cumprod") return nf::cumprod(v);
  if (name == "sort") return nf::sort(v);
  if (name == "argsort") return nf::argsort(v);
  if (name == "flatnonzero") return nf::flatnonzero(v);
  if (name == "unique") return nf::unique(v);
  if (name == "searchsorted") return nf::searchsorted(v, v);
  throw std::runtime_error("test_promotion: no call named " + name);
}

// A refusal must come at the call (nothing evaluated); a call that builds must also evaluate, so an
// error that only the backend would raise fails the row.
std::string check_call(const std::vector<std::string>& row) {
  const std::string& name = row.at(2);
  const nf::dtype t = oracle::parse_dtype(row.at(3));
  const std::string what = "nf::" + name + " of " + row.at(3);
  const nf::array m = nf::eye(4, 4, 0, t), v = nf::ones({8}, t);
  return check_dtype(what, row.at(4), [&] {
    nf::array r = build_call(name, m, v);
    if (row.at(4).rfind("RAISES:", 0) != 0) r.eval();
    return r;
  });
}

nf::casting parse_casting(const std::string& s) {
  if (s == "no") return nf::casting::no;
  if (s == "equiv") return nf::casting::equiv;
  if (s == "safe") return nf::casting::safe;
  if (s == "same_kind") return nf::casting::same_kind;
  return nf::casting::unsafe;
}

int run_kind(const std::string& dir, const std::string& kind) {
  static const auto rows = oracle::read_manifest(dir);
  int failed = 0, passed = 0;
  for (const auto& row : rows) {
    if (row.at(1) != kind) continue;
    std::string failure;
    if (kind == "can_cast") {
      bool got = nf::can_cast(oracle::parse_dtype(row.at(2)), oracle::parse_dtype(row.at(3)),
                              parse_casting(row.at(4)));
      if (got != (row.at(5) == "1"))
        failure = std::string("\n  nf::can_cast: got ") + (got ? "true" : "false") + ", NumPy says " +
                  (row.at(5) == "1" ? "true" : "false");
    } else if (kind == "call") {
      failure = check_call(row);
    } else {
      failure = check_row(row);
    }
    if (failure.empty()) {
      ++passed;
    } else {
      ++failed;
      FAIL_CHECK("case " << row.at(0) << failure);
    }
  }
  INFO(kind << ": " << passed << " cases passed, " << failed << " failed");
  CHECK(passed > 0);
  return failed;
}

}  // namespace

#define PROMOTION_ORACLE(kind)                                                                              \
  std::string dir = oracle::oracle_dir("promotion");                                                        \
  if (dir.empty())                                                                                          \
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_promotion.py writes $NDFUSE_ORACLE_DIR/promotion"); \
  CHECK(run_kind(dir, kind) == 0)

TEST_CASE("promotion oracle: every pair of the 14 dtypes (result_type, promote_types, op dtypes)",
          "[oracle][promotion]") {
  PROMOTION_ORACLE("pair");
}
TEST_CASE("promotion oracle: array x weak scalar of each kind, both orders, overflowing ints",
          "[oracle][promotion]") {
  PROMOTION_ORACLE("scalar");
}
TEST_CASE("promotion oracle: can_cast for every pair and casting rule", "[oracle][promotion]") {
  PROMOTION_ORACLE("can_cast");
}
TEST_CASE(
    "promotion oracle: library calls, reductions, scans and sorts of every dtype refuse at the call "
    "or evaluate, with NumPy's result dtype",
    "[oracle][promotion]") {
  PROMOTION_ORACLE("call");
}
