// Storing a scalar NumPy refuses raises as NumPy does, instead of storing INT64_MIN or the real part.
// Expected behaviour from NumPy 2.4.6, x = np.zeros(3, dtype); x[0] = v:
//   int64  nan      ValueError cannot convert float NaN to integer          (nf::value_error)
//   int64  inf      OverflowError cannot convert float infinity to integer (nf::dtype_error, as ndfuse's
//                   other OverflowErrors: int8 + 300)
//   int8   300.0    OverflowError Python integer 300 out of bounds for int8
//   int8   -129.5   OverflowError Python integer -129 out of bounds for int8
//   int64  2.0**63  OverflowError Python int too large to convert to C long
//   uint64 1.8e19   stores 18000000000000000000
//   int8   3.7      stores 3;   int8 -3.7 stores -3;   bool 2.5 stores True;   bool 1j stores True
//   int32  1j, 3+0j TypeError int() argument must be ... not 'complex'      (nf::dtype_error)
//   float32 1+0j    TypeError float() argument must be ... not 'complex'
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("storing a float NumPy cannot convert into an integer array raises", "[assignment]") {
  nf::array x = nf::zeros({3}, nf::dtype::int64);
  CHECK_THROWS_AS(x(0) = not_a_number, nf::value_error);
  CHECK_THROWS_AS(x(nf::slice(nf::none)) = not_a_number, nf::value_error);
  CHECK_THROWS_AS(x(0) = infinity, nf::dtype_error);
  CHECK_THROWS_AS(x(0) = -infinity, nf::dtype_error);
  CHECK_THROWS_AS(x(0) = 9223372036854775808.0, nf::dtype_error);
  nf::array small = nf::zeros({3}, nf::dtype::int8);
  CHECK_THROWS_AS(small(0) = 300.0, nf::dtype_error);
  CHECK_THROWS_AS(small(0) = -129.5, nf::dtype_error);
  nf::array u = nf::zeros({3}, nf::dtype::uint8);
  CHECK_THROWS_AS(u(0) = -1.0, nf::dtype_error);
  // Every failed store left the array as it was.
  CHECK(x.to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 0, 0});
  CHECK(small.to_vector<std::int8_t>() == std::vector<std::int8_t>{0, 0, 0});
}

TEST_CASE("floats NumPy converts are truncated toward zero, as Python's int()", "[assignment]") {
  nf::array small = nf::zeros({3}, nf::dtype::int8);
  small(0) = 3.7;
  small(1) = -3.7;
  small(2) = -128.9;
  CHECK(small.to_vector<std::int8_t>() == std::vector<std::int8_t>{3, -3, -128});
  nf::array big = nf::zeros({2}, nf::dtype::uint64);
  big(0) = 1.8e19;
  big(1) = -0.5;  // int(-0.5) is 0, which fits uint64
  CHECK(big.to_vector<std::uint64_t>() == std::vector<std::uint64_t>{18000000000000000000ull, 0});
  nf::array x = nf::zeros({1}, nf::dtype::int64);
  x(0) = -9223372036854775808.0;
  CHECK(x.item<std::int64_t>() == std::numeric_limits<std::int64_t>::min());
  nf::array b = nf::zeros({2}, nf::dtype::bool_);
  b(0) = 2.5;
  b(1) = std::complex<double>(0, 1);
  CHECK(b.to_vector<bool>() == std::vector<bool>{true, true});
}

TEST_CASE("storing a complex scalar into a real array raises", "[assignment]") {
  nf::array i = nf::zeros({3}, nf::dtype::int32);
  CHECK_THROWS_AS(i(0) = std::complex<double>(0, 1), nf::dtype_error);
  CHECK_THROWS_AS(i(0) = std::complex<double>(3, 0), nf::dtype_error);
  nf::array f = nf::zeros({3}, nf::dtype::float32);
  CHECK_THROWS_AS(f(0) = std::complex<double>(1, 0), nf::dtype_error);
  nf::array c = nf::zeros({2}, nf::dtype::complex64);
  c(0) = std::complex<double>(1, 2);
  CHECK(c.to_vector<std::complex<float>>()[0] == std::complex<float>(1, 2));
  CHECK(f.to_vector<float>() == std::vector<float>{0, 0, 0});
}
