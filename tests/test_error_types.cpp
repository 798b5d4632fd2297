// Errors name the problem: the subclass of nf::error matching NumPy's exception, at the call.
// NumPy 2's exceptions for the same calls: ValueError for a size-3 array's item(), an unknown pad
// mode, searchsorted's side, meshgrid's indexing and arange's zero step (ZeroDivisionError there);
// ndfuse's empty handle has no NumPy twin and is a value_error too.
#include <cstdint>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

TEST_CASE("bad arguments raise value_error, not the bare nf::error", "[error_types]") {
  const nf::array x = nf::arange(3.0);
  CHECK_THROWS_AS(x.item<double>(), nf::value_error);
  CHECK_THROWS_AS(nf::pad(x, 1, "wrap"), nf::value_error);
  CHECK_THROWS_AS(nf::searchsorted(x, x, "middle"), nf::value_error);
  CHECK_THROWS_AS(nf::meshgrid({x, x}, "yx"), nf::value_error);
  CHECK_THROWS_AS(nf::arange(0, 5, 0), nf::value_error);
  CHECK_THROWS_AS(nf::linspace(0.0, 1.0, -2), nf::value_error);
}

TEST_CASE("an empty (default-constructed) handle raises value_error wherever it is used", "[error_types]") {
  const nf::array empty;
  CHECK_THROWS_AS(nf::sum(empty), nf::value_error);
  CHECK_THROWS_AS(empty + 1.0, nf::value_error);
  CHECK_THROWS_AS(nf::explain(empty), nf::value_error);
  nf::array e2;
  CHECK_THROWS_AS(e2.eval(), nf::value_error);
#if defined(NDFUSE_WITH_CUDA)
  CHECK_THROWS_AS(nf::jit::source(empty), nf::value_error);
#else
  CHECK_THROWS_AS(nf::jit::source(empty), nf::device_error);  // no NVRTC in this build at all
#endif
}

// NumPy raises at the call for a negative integer exponent, scalar or array (ValueError "Integers to
// negative integer powers are not allowed"; ndfuse's dtype_error, as for the scalar). np.power of
// np.arange(4) and [1, 2, 0, 1] is [0, 1, 1, 3].
TEST_CASE("integer power with an array exponent holding a negative value raises at the call",
          "[error_types]") {
  const nf::array base = nf::arange(4);
  const nf::array exps = nf::asarray(std::vector<std::int64_t>{-1, 2, 0, 1});
  CHECK_THROWS_AS(nf::power(base, exps), nf::dtype_error);
  CHECK_THROWS_AS(nf::power(base, exps * 1 - 1), nf::dtype_error);  // a lazy exponent too
  CHECK(nf::power(base, nf::abs(exps)).to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 1, 3});
  CHECK(nf::power(base.astype(nf::float64), exps).to_vector<double>()[2] == 1.0);  // float base: fine
  CHECK(nf::power(base, nf::asarray(std::vector<std::uint8_t>{1, 2, 0, 1})).size() == 4);
}

TEST_CASE("a size past the addressable names the call that asked for it", "[error_types]") {
  const auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const nf::value_error& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message([] { nf::linspace(0.0, 1.0, std::int64_t{1} << 62); }).rfind("linspace", 0) == 0);
  CHECK(message([] { nf::eye(std::int64_t{1} << 32); }).rfind("eye", 0) == 0);
  CHECK(message([] { nf::arange(std::int64_t{1} << 62); }).rfind("arange", 0) == 0);
}
