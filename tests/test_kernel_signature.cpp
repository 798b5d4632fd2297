// User kernels' parameter lists (CuPy's ElementwiseKernel grammar) and the dtypes a call gives
// them. The expected behaviour is CuPy 14's (cupy/_core/_kernel.pyx: ParameterInfo and
// _decide_params_type_core): the same lists parse, the same mismatches are refused; where CuPy
// cannot type a placeholder that only scalars meet, ndfuse takes their promoted default dtype, as
// NumPy's np.result_type(1, 2.0) is float64.
#include <vector>

#include "catch.hpp"
#include "frontend/kernel_signature.hpp"
#include "ndfuse/error.hpp"

namespace {

using ndfuse::frontend::kernel_argument;
using ndfuse::frontend::parse_signature;
using ndfuse::frontend::resolve_types;
namespace nf = ndfuse;

kernel_argument array(nf::dtype t) {
  return {false, t};
}
kernel_argument scalar(nf::dtype t) {
  return {true, t};
}

}  // namespace

TEST_CASE("seed 003's kernel signature parses", "[kernel_signature]") {
  const auto s = parse_signature("float32 x, float32 y", "float32 z", "my_kernel");
  REQUIRE(s.in.size() == 2);
  REQUIRE(s.out.size() == 1);
  CHECK(s.in[0].name == "x");
  CHECK(s.in[1].name == "y");
  CHECK(s.out[0].name == "z");
  CHECK(s.in[0].type == nf::dtype::float32);
  CHECK_FALSE(s.in[0].raw);
}

TEST_CASE("placeholders, raw and spacing", "[kernel_signature]") {
  const auto s = parse_signature("  raw T  x ,T y,int64 n", "T z", "k");
  REQUIRE(s.in.size() == 3);
  CHECK(s.in[0].raw);
  CHECK_FALSE(s.in[0].type.has_value());
  CHECK(s.in[0].placeholder == 'T');
  CHECK(s.in[1].placeholder == 'T');
  CHECK(s.in[2].type == nf::dtype::int64);
  CHECK(s.out[0].placeholder == 'T');
  CHECK(parse_signature("", "float64 z", "k").in.empty());
}

TEST_CASE("malformed lists throw at construction", "[kernel_signature]") {
  CHECK_THROWS_AS(parse_signature("float32", "float32 z", "k"), nf::value_error);          // no name
  CHECK_THROWS_AS(parse_signature("float32 x,", "float32 z", "k"), nf::value_error);       // empty item
  CHECK_THROWS_AS(parse_signature("const float32 x", "float32 z", "k"), nf::value_error);  // keyword
  CHECK_THROWS_AS(parse_signature("float33 x", "float32 z", "k"), nf::dtype_error);        // unknown dtype
  CHECK_THROWS_AS(parse_signature("float32 2x", "float32 z", "k"), nf::value_error);  // not an identifier
  CHECK_THROWS_AS(parse_signature("float32 i", "float32 z", "k"), nf::value_error);   // reserved
  CHECK_THROWS_AS(parse_signature("float32 x", "float32 x", "k"), nf::value_error);   // twice
  CHECK_THROWS_AS(parse_signature("float32 x", "", "k"), nf::value_error);            // no output
  CHECK_THROWS_AS(parse_signature("1 x", "float32 z", "k"), nf::value_error);         // placeholder
  try {
    parse_signature("float33 x", "float32 z", "my_kernel");
  } catch (const nf::dtype_error& e) {
    const std::string what = e.what();
    CHECK(what.find("my_kernel") != std::string::npos);
    CHECK(what.find("float33") != std::string::npos);
  }
}

TEST_CASE("placeholders take the arrays' dtype and must agree", "[kernel_signature]") {
  const auto s = parse_signature("T x, T y", "T z", "k");
  const std::vector<kernel_argument> f32{array(nf::dtype::float32), array(nf::dtype::float32)};
  auto r = resolve_types(s, f32, {}, "k");
  CHECK(r.in == std::vector<nf::dtype>{nf::dtype::float32, nf::dtype::float32});
  CHECK(r.out == std::vector<nf::dtype>{nf::dtype::float32});
  REQUIRE(r.placeholders.size() == 1);
  CHECK(r.placeholders[0] == std::pair<char, nf::dtype>{'T', nf::dtype::float32});
  // CuPy: TypeError("Type is mismatched"); arrays are never cast.
  const std::vector<kernel_argument> mixed{array(nf::dtype::float32), array(nf::dtype::float64)};
  CHECK_THROWS_AS(resolve_types(s, mixed, {}, "k"), nf::dtype_error);
  const auto fixed = parse_signature("float32 x", "float32 z", "k");
  const std::vector<kernel_argument> f64{array(nf::dtype::float64)};
  CHECK_THROWS_AS(resolve_types(fixed, f64, {}, "k"), nf::dtype_error);
}

TEST_CASE("scalars take their parameter's type; alone they take their default dtype", "[kernel_signature]") {
  const auto s = parse_signature("T x, T y", "T z", "k");
  // An array decides T; the scalar is converted to it (float32 here, not float64).
  const std::vector<kernel_argument> a{array(nf::dtype::float32), scalar(nf::dtype::float64)};
  CHECK(resolve_types(s, a, {}, "k").out == std::vector<nf::dtype>{nf::dtype::float32});
  const std::vector<kernel_argument> b{scalar(nf::dtype::int64), array(nf::dtype::int16)};
  CHECK(resolve_types(s, b, {}, "k").in == std::vector<nf::dtype>{nf::dtype::int16, nf::dtype::int16});
  // Only scalars: np.result_type(1, 2.0) is float64, np.result_type(1, 2) int64.
  const std::vector<kernel_argument> c{scalar(nf::dtype::int64), scalar(nf::dtype::float64)};
  CHECK(resolve_types(s, c, {}, "k").out == std::vector<nf::dtype>{nf::dtype::float64});
  const std::vector<kernel_argument> d{scalar(nf::dtype::int64), scalar(nf::dtype::int64)};
  CHECK(resolve_types(s, d, {}, "k").out == std::vector<nf::dtype>{nf::dtype::int64});
  // A fixed parameter takes any scalar.
  const auto fixed = parse_signature("float32 x, int8 n", "float32 z", "k");
  const std::vector<kernel_argument> e{array(nf::dtype::float32), scalar(nf::dtype::int64)};
  CHECK(resolve_types(fixed, e, {}, "k").in == std::vector<nf::dtype>{nf::dtype::float32, nf::dtype::int8});
}

TEST_CASE("given outputs decide placeholders first and must match", "[kernel_signature]") {
  const auto s = parse_signature("T x", "U z", "k");
  const std::vector<kernel_argument> in{array(nf::dtype::float32)};
  // Nothing decides U without an output array.
  CHECK_THROWS_AS(resolve_types(s, in, {}, "k"), nf::dtype_error);
  const std::vector<nf::dtype> out{nf::dtype::int32};
  const auto r = resolve_types(s, in, out, "k");
  CHECK(r.out == std::vector<nf::dtype>{nf::dtype::int32});
  CHECK(r.placeholders.size() == 2);
  // An output that binds T first makes a differing input array a mismatch.
  const auto same = parse_signature("T x", "T z", "k");
  const std::vector<nf::dtype> f64{nf::dtype::float64};
  CHECK_THROWS_AS(resolve_types(same, in, f64, "k"), nf::dtype_error);
  const auto fixed = parse_signature("T x", "float32 z", "k");
  CHECK_THROWS_AS(resolve_types(fixed, in, f64, "k"), nf::dtype_error);
}

TEST_CASE("argument counts are checked", "[kernel_signature]") {
  const auto s = parse_signature("T x, T y", "T z", "k");
  const std::vector<kernel_argument> one{array(nf::dtype::float32)};
  CHECK_THROWS_AS(resolve_types(s, one, {}, "k"), nf::value_error);
  const std::vector<kernel_argument> two{array(nf::dtype::float32), array(nf::dtype::float32)};
  const std::vector<nf::dtype> outs{nf::dtype::float32, nf::dtype::float32};
  CHECK_THROWS_AS(resolve_types(s, two, outs, "k"), nf::value_error);
}
