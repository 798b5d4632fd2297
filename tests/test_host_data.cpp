// Host data is checked: asarray compares the data's length with the shape (NumPy 2:
// np.asarray([1, 2, 3]).reshape(4) raises ValueError "cannot reshape array of size 3 into shape
// (4,)"), and a null pointer with elements to read raises rather than being read.
#include <cstdint>
#include <span>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

TEST_CASE("asarray compares the host data's length with the shape", "[host_data]") {
  const std::vector<double> three{1, 2, 3};
  CHECK_THROWS_AS(nf::asarray(three, {4}), nf::value_error);
  CHECK_THROWS_AS(nf::asarray(three, {3, 10000000}), nf::value_error);
  CHECK_THROWS_AS(nf::asarray(three, {2}),
                  nf::value_error);  // fewer elements than the data: NumPy raises too
  CHECK_THROWS_AS(nf::asarray(three, {3, -1}), nf::shape_error);
  CHECK_THROWS_AS(nf::asarray(std::span<const double>(three), {std::int64_t{1} << 61}), nf::value_error);
  CHECK(nf::asarray(three, {3, 1}).to_vector<double>() == three);
  CHECK(nf::asarray(three, {1, 3}).shape() == nf::shape_t{1, 3});
  CHECK(nf::asarray(std::vector<float>{}, {0, 4}).shape() == nf::shape_t{0, 4});
}

TEST_CASE("a null host pointer raises when there is something to read", "[host_data]") {
  CHECK_THROWS_AS(nf::array::from_host_copy(nf::dtype::float64, {2}, nullptr), nf::value_error);
  CHECK_THROWS_AS(nf::asarray(std::span<const double>(static_cast<const double*>(nullptr), 2), {2}),
                  nf::value_error);
  CHECK(nf::array::from_host_copy(nf::dtype::float64, {0}, nullptr).size() == 0);
}

TEST_CASE("asarray of a host_array checks its bytes against its shape and dtype", "[host_data]") {
  nf::host_array h;
  h.dtype = nf::dtype::float64;
  h.shape = {2};
  h.bytes.resize(12);  // one and a half float64
  CHECK_THROWS_AS(nf::asarray(h), nf::value_error);
  h.bytes.resize(24);  // three float64 under a shape of two
  CHECK_THROWS_AS(nf::asarray(h), nf::value_error);
  h.bytes.resize(16);
  CHECK(nf::asarray(h).shape() == nf::shape_t{2});
}
