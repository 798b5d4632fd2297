// Broadcasting against NumPy 2 (tests/oracle/gen_ops.py writes $NDFUSE_ORACLE_DIR/broadcast): valid shape
// pairs, 0-size dimensions and 0-d arrays give np.broadcast_shapes and the values of a + b; invalid pairs
// throw nf::shape_error when the node is built, with a message naming the op and both shapes.
#include "catch.hpp"
#include "oracle_support.hpp"

namespace {

std::string check_valid(const std::string& dir, const std::vector<std::string>& row) {
  nf::shape_t sa = oracle::parse_numpy_shape(row.at(1)), sb = oracle::parse_numpy_shape(row.at(2));
  nf::shape_t expected_shape = oracle::parse_numpy_shape(row.at(3));
  std::string out;
  auto note = [&](const std::string& s) {
    if (!s.empty()) out += "\n  " + s;
  };
  nf::shape_t got = nf::broadcast_shapes(sa, sb);
  if (got != expected_shape)
    note("nf::broadcast_shapes: got " + oracle::numpy_shape(got) + ", expected " + row.at(3));
  nf::array a = nf::load(dir + "/" + row.at(4)), b = nf::load(dir + "/" + row.at(5));
  nf::host_array expected = oracle::read_npy(dir + "/" + row.at(6));
  oracle::tolerance exact;
  exact.zero_sign = true;
  std::string d = oracle::compare((a + b).to_host(), expected, exact);
  if (!d.empty()) note("a + b: " + d);
  d = oracle::compare((b + a).to_host(), expected, exact);
  if (!d.empty()) note("b + a: " + d);
  nf::array m = nf::multiply(a, b);
  if (m.shape() != expected_shape) note("nf::multiply(a, b).shape(): got " + oracle::numpy_shape(m.shape()));
  return out;
}

std::string check_invalid(const std::string& dir, const std::vector<std::string>& row) {
  nf::shape_t sa = oracle::parse_numpy_shape(row.at(1)), sb = oracle::parse_numpy_shape(row.at(2));
  std::string out;
  auto note = [&](const std::string& s) {
    if (!s.empty()) out += "\n  " + s;
  };
  // The message must let the user find the bad call: the op and both shapes as NumPy prints them.
  auto check_message = [&](const std::string& what, const std::string& op, auto&& build) {
    try {
      build();
      note(what + ": no exception at the call (NumPy raises ValueError)");
    } catch (const nf::shape_error& e) {
      std::string msg = e.what();
      for (const std::string& part : {op, oracle::numpy_shape(sa), oracle::numpy_shape(sb)})
        if (msg.find(part) == std::string::npos) note(what + ": the message lacks '" + part + "': " + msg);
    } catch (const std::exception& e) {
      note(what + ": expected nf::shape_error, got: " + e.what());
    }
  };
  check_message("nf::broadcast_shapes(a, b, \"my_op\")", "my_op",
                [&] { return nf::broadcast_shapes(sa, sb, "my_op"); });
  nf::array a = nf::load(dir + "/" + row.at(4)), b = nf::load(dir + "/" + row.at(5));
  check_message("a + b", "add", [&] { return a + b; });
  check_message("(a * 2.0) + b, an unevaluated left operand", "add", [&] { return (a * 2.0) + b; });
  check_message("nf::multiply(a, b)", "multiply", [&] { return nf::multiply(a, b); });
  check_message("a < b", "less", [&] { return a < b; });
  check_message("nf::where(a > 0, a, b)", "where", [&] { return nf::where(a > 0, a, b); });
  return out;
}

}  // namespace

TEST_CASE("broadcast oracle: shapes and values of a + b against np.broadcast_shapes", "[oracle][broadcast]") {
  std::string dir = oracle::oracle_dir("broadcast");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_ops.py writes $NDFUSE_ORACLE_DIR/broadcast");
  int valid = 0, invalid = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    bool raises = row.at(3).rfind("RAISES:", 0) == 0;
    (raises ? invalid : valid) += 1;
    std::string failure;
    try {
      failure = raises ? check_invalid(dir, row) : check_valid(dir, row);
    } catch (const std::exception& e) {
      failure = std::string("\n  unexpected exception: ") + e.what();
    }
    if (!failure.empty()) FAIL_CHECK("case " << row.at(0) << failure);
  }
  CHECK(valid > 10);
  CHECK(invalid > 5);
}
