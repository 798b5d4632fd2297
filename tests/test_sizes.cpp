// Sizes never overflow: every shape a call would build is checked at the call, in NumPy's terms.
// The expected exceptions are NumPy 2's (2.4.6, run by hand): ValueError "array is too big;
// `arr.size * arr.dtype.itemsize` is larger than the maximum possible size." for shapes whose bytes
// pass INT64_MAX (nf::value_error), "Maximum allowed size exceeded" for arange, "cannot reshape
// array of size 4 into shape" for reshape (nf::shape_error, ndfuse's ValueError of shapes).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

constexpr std::int64_t big = std::int64_t{1} << 62;
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const nf::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("shapes whose bytes pass INT64_MAX raise value_error at the call", "[sizes]") {
  const nf::array kept = nf::arange(5);  // every array made before a failed call stays intact
  CHECK_THROWS_AS(nf::zeros({std::int64_t{1} << 61}), nf::value_error);  // 2^61 float64: 2^64 bytes
  CHECK_THROWS_AS(nf::zeros({big + 1, 4}), nf::value_error);
  CHECK_THROWS_AS(nf::zeros({big, 4, 0}), nf::value_error);  // NumPy counts the non-zero dims' bytes
  CHECK_THROWS_AS(nf::ones({std::int64_t{1} << 60}, nf::dtype::complex128), nf::value_error);
  CHECK_THROWS_AS(nf::full({int64_max}, 1.0), nf::value_error);
  CHECK_THROWS_AS(nf::eye(std::int64_t{1} << 32), nf::value_error);
  CHECK_THROWS_AS(nf::indices({std::int64_t{1} << 31, std::int64_t{1} << 31}), nf::value_error);
  CHECK(message_of([] { nf::zeros({std::int64_t{1} << 61}); }).find("array is too big") != std::string::npos);
  CHECK(kept.to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 2, 3, 4});
}

TEST_CASE("sizes at the edge: empty arrays of huge dims, and the largest shapes that fit", "[sizes]") {
  CHECK(nf::zeros({std::int64_t{1} << 40, 0}).size() == 0);  // 2^43 bytes of non-zero dims: fits
  CHECK(nf::zeros({0, std::int64_t{1} << 59}).shape() == nf::shape_t{0, std::int64_t{1} << 59});
  // int8 of 2^62 elements fits the byte limit; it is built (not evaluated) without error.
  CHECK(nf::zeros({big}, nf::dtype::int8).size() == big);
  CHECK(nf::zeros({int64_max}, nf::dtype::int8).size() == int64_max);  // NumPy: MemoryError at allocation
}

TEST_CASE("broadcasting, reshape, repeat, tile and pad check what they compute", "[sizes]") {
  const nf::array col = nf::zeros({std::int64_t{1} << 40, 1}, nf::dtype::int8);
  const nf::array row = nf::zeros({1, std::int64_t{1} << 40}, nf::dtype::int8);
  CHECK_THROWS_AS(col + row, nf::value_error);  // 2^80 elements
  CHECK_THROWS_AS(nf::outer(nf::ravel(col), nf::ravel(row)), nf::value_error);
  // The product of the new shape wraps to 4 in 64 bits; NumPy: cannot reshape array of size 4.
  CHECK_THROWS_AS(nf::arange(4).reshape({big + 1, 4}), nf::shape_error);
  CHECK_THROWS_AS(nf::arange(4).reshape({-1, big, 4}), nf::shape_error);
  CHECK_THROWS_AS(nf::repeat(nf::ones({4}), big), nf::value_error);
  CHECK_THROWS_AS(nf::tile(nf::ones({4}), big), nf::value_error);
  CHECK_THROWS_AS(nf::pad(nf::ones({2}), int64_max / 2), nf::value_error);
  CHECK_THROWS_AS(nf::pad(nf::ones({2}), int64_max), nf::value_error);
}

TEST_CASE("arange and linspace lengths", "[sizes]") {
  CHECK(message_of([] { nf::arange(0.0, 1e19); }).find("Maximum allowed size exceeded") != std::string::npos);
  CHECK_THROWS_AS(nf::arange(0.0, 1e19), nf::value_error);
  CHECK_THROWS_AS(nf::arange(std::numeric_limits<std::int64_t>::min(), int64_max), nf::value_error);
  CHECK_THROWS_AS(nf::arange(0.0, std::numeric_limits<double>::infinity()), nf::value_error);
  CHECK_THROWS_AS(nf::arange(0, 10, 0), nf::value_error);  // NumPy: ZeroDivisionError
  CHECK_THROWS_AS(nf::linspace(0.0, 1.0, int64_max), nf::value_error);
  CHECK_THROWS_AS(nf::linspace(0.0, 1.0, -1), nf::value_error);
  // Lengths near the int64 ends are computed exactly (np.arange(2**63 - 3, 2**63 - 1)).
  CHECK(nf::arange(int64_max - 2, int64_max).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{int64_max - 2, int64_max - 1});
  CHECK(nf::arange(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min() + 6, 3)
            .to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::min() + 3});
  constexpr std::int64_t p60 = std::int64_t{1} << 60;  // past float64's 2^53: computed in int64
  CHECK(nf::arange(p60, p60 + 10, 3).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{p60, p60 + 3, p60 + 6, p60 + 9});
  CHECK(nf::arange(p60 + 1, p60 - 5, -2).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{p60 + 1, p60 - 1, p60 - 3});
  CHECK(nf::arange(5, 0).size() == 0);
  CHECK(nf::arange(0.0, -1e19).size() == 0);
}
