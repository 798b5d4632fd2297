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
