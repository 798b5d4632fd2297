// Slices with extreme starts, stops and steps give Python's slice.indices result, as NumPy does.
// Expected values from NumPy 2.4.6 with x = np.arange(10.) and M = 2**63 - 1:
//   x[::M] [0.]   x[::-M-1] [9.]   x[::-M] [9.]   x[3::M] [3.]   x[-M-1:M:M] [0.]
//   x[M:-M-1:-M-1] [9.]   x[5:2:M] []   x[-M-1:] and x[:M] the whole of x
#include <cstdint>
#include <limits>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {
constexpr std::int64_t M = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t m = std::numeric_limits<std::int64_t>::min();

std::vector<double> values(const nf::array& a) {
  return a.to_vector<double>();
}
}  // namespace

TEST_CASE("slices with steps, starts and stops at the ends of int64", "[slices]") {
  const nf::array x = nf::arange(10.0);
  using v = std::vector<double>;
  CHECK(values(x(nf::slice(nf::none, nf::none, M))) == v{0});
  CHECK(values(x(nf::slice(nf::none, nf::none, m))) == v{9});
  CHECK(values(x(nf::slice(nf::none, nf::none, -M))) == v{9});
  CHECK(values(x(nf::slice(3, nf::none, M))) == v{3});
  CHECK(values(x(nf::slice(m, M, M))) == v{0});
  CHECK(values(x(nf::slice(M, m, m))) == v{9});
  CHECK(values(x(nf::slice(5, 2, M))).empty());
  CHECK(values(x(nf::slice(m, nf::none))) == values(x));
  CHECK(values(x(nf::slice(nf::none, M))) == values(x));
  // The same on a lazy array (an index remap inside the fused kernel) and in two dimensions.
  const nf::array lazy = x * 2.0;
  CHECK(values(lazy(nf::slice(nf::none, nf::none, M))) == v{0});
  CHECK(values(lazy(nf::slice(nf::none, nf::none, m))) == v{18});
  const nf::array grid = nf::arange(12.0).reshape({3, 4});
  CHECK(values(grid(nf::slice(nf::none, nf::none, M), nf::slice(nf::none, nf::none, m))) == v{3});
  // Assignment through such a slice writes the one element it selects.
  nf::array y = nf::arange(4.0);
  y(nf::slice(nf::none, nf::none, m)) = -1.0;
  CHECK(values(y) == v{0, 1, 2, -1});
}
