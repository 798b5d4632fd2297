// Every elementwise op, operator, in-place operator and out= form against NumPy 2, on every dtype
// (tests/oracle/gen_ops.py writes the cases; see its docstring for the manifest format). Where NumPy
// raises, the ndfuse call must throw the matching nf:: exception when the node is built.
#include <functional>
#include <optional>

#include "catch.hpp"
#include "oracle_support.hpp"

namespace {

// One operand of a case: an input array (loaded with nf::load) or a weak scalar literal.
struct arg {
  std::string token;
  std::optional<nf::array> arr;
  oracle::scalar_value value;

  nf::operand operand() const {
    if (arr) return nf::operand(*arr);
    return std::visit([](auto v) { return nf::operand(v); }, value);
  }
  const nf::array& array() const {
    if (!arr) throw std::runtime_error("test: operand " + token + " must be an array here");
    return *arr;
  }
};

struct unary_entry {
  nf::array (*call)(const nf::array&);
  nf::array* (*call_out)(const nf::array&, nf::array&);
};
struct binary_entry {
  nf::array (*call)(const nf::operand&, const nf::operand&);
  nf::array* (*call_out)(const nf::operand&, const nf::operand&, nf::array&);
};

// clang-format off
#define UNARY(name)                                                                                      \
  {#name, unary_entry{[](const nf::array& x) { return nf::name(x); },                                    \
                      [](const nf::array& x, nf::array& y) { return &nf::name(x, nf::out(y)); }}}
#define BINARY(name)                                                                                     \
  {#name, binary_entry{[](const nf::operand& a, const nf::operand& b) { return nf::name(a, b); },        \
                       [](const nf::operand& a, const nf::operand& b, nf::array& y) {                    \
                         return &nf::name(a, b, nf::out(y));                                             \
                       }}}
// clang-format on

const std::map<std::string, unary_entry>& unary_functions() {
  static const std::map<std::string, unary_entry> table = {UNARY(negative),
                                                           UNARY(positive),
                                                           UNARY(absolute),
                                                           UNARY(abs),
                                                           UNARY(sign),
                                                           UNARY(logical_not),
                                                           UNARY(invert),
                                                           UNARY(bitwise_not),
                                                           UNARY(exp),
                                                           UNARY(exp2),
                                                           UNARY(expm1),
                                                           UNARY(log),
                                                           UNARY(log2),
                                                           UNARY(log10),
                                                           UNARY(log1p),
                                                           UNARY(sqrt),
                                                           UNARY(cbrt),
                                                           UNARY(square),
                                                           UNARY(reciprocal),
                                                           UNARY(sin),
                                                           UNARY(cos),
                                                           UNARY(tan),
                                                           UNARY(arcsin),
                                                           UNARY(arccos),
                                                           UNARY(arctan),
                                                           UNARY(sinh),
                                                           UNARY(cosh),
                                                           UNARY(tanh),
                                                           UNARY(arcsinh),
                                                           UNARY(arccosh),
                                                           UNARY(arctanh),
                                                           UNARY(floor),
                                                           UNARY(ceil),
                                                           UNARY(trunc),
                                                           UNARY(rint),
                                                           UNARY(isnan),
                                                           UNARY(isinf),
                                                           UNARY(isfinite),
                                                           UNARY(real),
                                                           UNARY(imag),
                                                           UNARY(conj),
                                                           UNARY(conjugate),
                                                           UNARY(acos),
                                                           UNARY(asin),
                                                           UNARY(atan),
                                                           UNARY(acosh),
                                                           UNARY(asinh),
                                                           UNARY(atanh),
                                                           UNARY(bitwise_invert),
                                                           UNARY(signbit),
                                                           UNARY(bitwise_count)};
  return table;
}

const std::map<std::string, binary_entry>& binary_functions() {
  static const std::map<std::string, binary_entry> table = {BINARY(add),
                                                            BINARY(subtract),
                                                            BINARY(multiply),
                                                            BINARY(divide),
                                                            BINARY(true_divide),
                                                            BINARY(floor_divide),
                                                            BINARY(remainder),
                                                            BINARY(mod),
                                                            BINARY(fmod),
                                                            BINARY(power),
                                                            BINARY(equal),
                                                            BINARY(not_equal),
                                                            BINARY(less),
                                                            BINARY(less_equal),
                                                            BINARY(greater),
                                                            BINARY(greater_equal),
                                                            BINARY(logical_and),
                                                            BINARY(logical_or),
                                                            BINARY(logical_xor),
                                                            BINARY(bitwise_and),
                                                            BINARY(bitwise_or),
                                                            BINARY(bitwise_xor),
                                                            BINARY(left_shift),
                                                            BINARY(right_shift),
                                                            BINARY(arctan2),
                                                            BINARY(hypot),
                                                            BINARY(maximum),
                                                            BINARY(minimum),
                                                            BINARY(fmax),
                                                            BINARY(fmin),
                                                            BINARY(logaddexp),
                                                            BINARY(logaddexp2),
                                                            BINARY(atan2),
                                                            BINARY(pow),
                                                            BINARY(bitwise_left_shift),
                                                            BINARY(bitwise_right_shift),
                                                            BINARY(copysign),
                                                            BINARY(nextafter),
                                                            BINARY(gcd),
                                                            BINARY(lcm)};
  return table;
}
#undef UNARY
#undef BINARY

// A binary operator with arrays and/or C++ scalar literals on either side, as a user writes it.
template <class F>
nf::array apply_operator(F f, const arg& a, const arg& b) {
  if (a.arr && b.arr) return f(*a.arr, *b.arr);
  if (a.arr) return std::visit([&](auto v) { return f(*a.arr, v); }, b.value);
  if (b.arr) return std::visit([&](auto v) { return f(v, *b.arr); }, a.value);
  throw std::runtime_error("test: an operator needs an array operand");
}

template <class F>
nf::array apply_inplace(F f, const arg& a, const arg& b) {
  nf::array x = a.array();  // value semantics: x is rebound, the loaded input stays as it was
  if (b.arr)
    f(x, *b.arr);
  else
    std::visit([&](auto v) { f(x, v); }, b.value);
  return x;
}

#define OPERATOR(sym)                                                                                  \
  if (op == "op" #sym)                                                                                 \
  return apply_operator([](const auto& x, const auto& y) -> nf::array { return x sym y; }, args.at(0), \
                        args.at(1))
#define INPLACE(sym, assign) \
  if (op == "op" #sym "=")   \
  return apply_inplace([](nf::array& x, const auto& y) { x assign y; }, args.at(0), args.at(1))

nf::array build_operator(const std::string& op, const std::vector<arg>& args) {
  if (op == "op_neg") return -args.at(0).array();
  if (op == "op_pos") return +args.at(0).array();
  if (op == "op_inv") return ~args.at(0).array();
  if (op == "op_not") return !args.at(0).array();
  OPERATOR(+);
  OPERATOR(-);
  OPERATOR(*);
  OPERATOR(/);
  OPERATOR(%);
  OPERATOR(&);
  OPERATOR(|);
  OPERATOR(^);
  OPERATOR(<<);
  OPERATOR(>>);
  OPERATOR(==);
  OPERATOR(!=);
  OPERATOR(<);
  OPERATOR(<=);
  OPERATOR(>);
  OPERATOR(>=);
  INPLACE(+, +=);
  INPLACE(-, -=);
  INPLACE(*, *=);
  INPLACE(/, /=);
  INPLACE(%, %=);
  INPLACE(&, &=);
  INPLACE(|, |=);
  INPLACE(^, ^=);
  INPLACE(<<, <<=);
  INPLACE(>>, >>=);
  throw std::runtime_error("test: unknown operator " + op);
}
#undef OPERATOR
#undef INPLACE

// Builds the node for a case (no evaluation). For out= cases, `y` is the out= target and the result.
nf::array build(const std::string& op, const std::map<std::string, std::string>& params,
                const std::vector<arg>& args) {
  if (op.rfind("op", 0) == 0) return build_operator(op, args);
  if (op.rfind("out:", 0) == 0) {
    std::string name = op.substr(4);
    auto spec = oracle::split(params.at("out"), ':');
    nf::array y = nf::zeros(oracle::parse_shape(spec.at(1)), oracle::parse_dtype(spec.at(0)));
    nf::array* returned = nullptr;
    if (auto u = unary_functions().find(name); u != unary_functions().end()) {
      returned = u->second.call_out(args.at(0).array(), y);
    } else if (auto b = binary_functions().find(name); b != binary_functions().end()) {
      returned = b->second.call_out(args.at(0).operand(), args.at(1).operand(), y);
    } else if (name == "round") {
      returned = &nf::round(args.at(0).array(), std::stoi(params.at("decimals")), nf::out(y));
    } else if (name == "clip") {
      returned = &nf::clip(args.at(0).array(), args.at(1).operand(), args.at(2).operand(), nf::out(y));
    } else {
      throw std::runtime_error("test: unknown out= op " + name);
    }
    if (returned != &y) throw std::runtime_error("out= form did not return a reference to its target");
    return y;
  }
  if (auto u = unary_functions().find(op); u != unary_functions().end())
    return u->second.call(args.at(0).array());
  if (auto b = binary_functions().find(op); b != binary_functions().end())
    return b->second.call(args.at(0).operand(), args.at(1).operand());
  if (op == "round") return nf::round(args.at(0).array(), std::stoi(params.at("decimals")));
  if (op == "around") return nf::around(args.at(0).array(), std::stoi(params.at("decimals")));
  if (op == "angle") return nf::angle(args.at(0).array(), params.at("deg") == "1");
  if (op == "clip") return nf::clip(args.at(0).array(), args.at(1).operand(), args.at(2).operand());
  if (op == "where") return nf::where(args.at(0).array(), args.at(1).operand(), args.at(2).operand());
  throw std::runtime_error("test: unknown op " + op);
}

struct group_result {
  int passed = 0;
  int failed = 0;
};

// Runs one manifest row; returns "" on success, else a readable description of the failure.
std::string run_case(const std::string& dir, const std::vector<std::string>& row) {
  const std::string& op = row.at(2);
  auto params = oracle::parse_params(row.at(3));
  const std::string& expect = row.at(5);
  std::vector<arg> args;
  for (const auto& token : oracle::split(row.at(4), ' ')) {
    arg a;
    a.token = token;
    if (oracle::is_scalar_token(token))
      a.value = oracle::parse_scalar(token);
    else
      a.arr = nf::load(dir + "/" + token);
    args.push_back(std::move(a));
  }
  if (expect.rfind("RAISES:", 0) == 0) {
    auto parts = oracle::split(expect, ':');
    std::string why = oracle::expect_throw(parts.at(1), [&] { return build(op, params, args); });
    return why.empty() ? "" : why + " (NumPy raises " + parts.at(2) + ")";
  }
  nf::host_array expected = oracle::read_npy(dir + "/" + expect);
  nf::array result = build(op, params, args);
  nf::host_array got = result.to_host();
  // On a mismatch, show the inputs behind the element: same-sized arrays by index, scalars as written.
  std::vector<std::optional<nf::host_array>> inputs(args.size());
  auto context = [&](std::size_t i) {
    std::string s = "  <- inputs";
    for (std::size_t k = 0; k < args.size(); ++k) {
      s += ' ';
      if (!args[k].arr) {
        s += args[k].token;
        continue;
      }
      if (!inputs[k]) inputs[k] = oracle::read_npy(dir + "/" + args[k].token);
      if (oracle::element_count(*inputs[k]) == oracle::element_count(expected)) {
        s += oracle::value_str(*inputs[k], i);
      } else {
        s += oracle::name_of(inputs[k]->dtype);
        s += oracle::numpy_shape(inputs[k]->shape);
      }
    }
    return s;
  };
  oracle::tolerance tol = oracle::tolerance_from(params);
  if (params.count("cond")) tol.condition = oracle::read_npy(dir + "/" + params.at("cond"));
  std::string diff = oracle::compare(got, expected, tol, context);
  if (diff.empty() && row.at(1) == "inplace") {
    // x = a; x op= b must leave a's value alone (value semantics).
    nf::host_array before = oracle::read_npy(dir + "/" + args.at(0).token);
    oracle::tolerance exact;
    exact.zero_sign = true;
    std::string changed = oracle::compare(args.at(0).array().to_host(), before, exact);
    if (!changed.empty()) diff = "the left operand's old handle changed after the in-place op: " + changed;
  }
  return diff;
}

group_result run_group(const std::string& dir, const std::string& group) {
  static const auto rows = oracle::read_manifest(dir);
  group_result result;
  for (const auto& row : rows) {
    if (row.size() != 6) FAIL("malformed manifest row: " << row.at(0));
    if (row.at(1) != group) continue;
    std::string failure;
    try {
      failure = run_case(dir, row);
    } catch (const std::exception& e) {
      failure = std::string("unexpected exception: ") + e.what();
    }
    if (failure.empty()) {
      ++result.passed;
    } else {
      ++result.failed;
      FAIL_CHECK("case " << row.at(0) << "\n  op " << row.at(2) << "  args " << row.at(4) << "  params "
                         << row.at(3) << "\n  " << failure);
    }
  }
  return result;
}

}  // namespace

#define ORACLE_GROUP(group)                                                                           \
  std::string dir = oracle::oracle_dir("ops");                                                        \
  if (dir.empty())                                                                                    \
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_ops.py writes it to $NDFUSE_ORACLE_DIR/ops"); \
  group_result r = run_group(dir, group);                                                             \
  INFO(group << ": " << r.passed << " cases passed, " << r.failed << " failed");                      \
  CHECK(r.failed == 0)

TEST_CASE("ops oracle: unary functions on every dtype, 0-d, empty and 2-d inputs", "[oracle][ops]") {
  ORACLE_GROUP("unary");
}
TEST_CASE("ops oracle: binary functions on same-dtype pairs, 0-d, empty and broadcast inputs",
          "[oracle][ops]") {
  ORACLE_GROUP("binary");
}
TEST_CASE("ops oracle: binary functions on mixed-dtype pairs", "[oracle][ops]") {
  ORACLE_GROUP("mixed");
}
TEST_CASE("ops oracle: weak C++ scalars on either side, out-of-range ints", "[oracle][ops]") {
  ORACLE_GROUP("scalar");
}
TEST_CASE("ops oracle: C++ operators", "[oracle][ops]") {
  ORACLE_GROUP("operator");
}
TEST_CASE("ops oracle: in-place operators (same_kind casting, fixed shape)", "[oracle][ops]") {
  ORACLE_GROUP("inplace");
}
TEST_CASE("ops oracle: out= forms", "[oracle][ops]") {
  ORACLE_GROUP("out");
}
TEST_CASE("ops oracle: round, angle, clip, where", "[oracle][ops]") {
  ORACLE_GROUP("special");
}
