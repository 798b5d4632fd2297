// Views, joins and index assignment fuse (DESIGN.md §3): shown through nf::stats(). Expected values
// are closed forms of the inputs, computed here on the host.
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

nf::array evaluated(nf::array a) {
  a.eval();
  return a;
}

std::vector<double> ramp(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = double((i * 7919) % 1001) - 3.0;
  return v;
}

}  // namespace

TEST_CASE("the stencil (a[:-1] + a[1:]) * 0.5 of a lazy a is one kernel", "[views][fusion]") {
  const std::int64_t n = 10000;
  const auto host = ramp(n);
  nf::array base = evaluated(nf::asarray(host));
  nf::array a = base * 3.0;  // lazy
  nf::reset_stats();
  nf::array s = (a(nf::slice(0, n - 1)) + a(nf::slice(1, n))) * 0.5;
  CHECK(nf::stats().kernels_launched == 0);
  a = nf::array();  // nobody holds a: it is recomputed at both offsets inside the one kernel
  const auto got = s.to_vector<double>();
  CHECK(nf::stats().kernels_launched == 1);
  REQUIRE(got.size() == std::size_t(n - 1));
  for (std::int64_t i = 0; i < n - 1; ++i) REQUIRE(got[i] == (3.0 * host[i] + 3.0 * host[i + 1]) * 0.5);
}

TEST_CASE("concatenate({x*2, y+1}) is one kernel", "[views][fusion]") {
  const auto hx = ramp(1000), hy = ramp(700);
  nf::array x = evaluated(nf::asarray(hx)), y = evaluated(nf::asarray(hy));
  nf::reset_stats();
  nf::array c = nf::concatenate({x * 2, y + 1});
  const auto got = c.to_vector<double>();
  CHECK(nf::stats().kernels_launched == 1);
  REQUIRE(got.size() == 1700);
  for (std::size_t i = 0; i < 1000; ++i) REQUIRE(got[i] == hx[i] * 2);
  for (std::size_t i = 0; i < 700; ++i) REQUIRE(got[1000 + i] == hy[i] + 1);
}

TEST_CASE("views of evaluated arrays copy nothing and launch nothing", "[views][fusion]") {
  nf::array m = evaluated(nf::asarray(ramp(12 * 10), {12, 10}));
  nf::reset_stats();
  nf::array v =
      m(nf::slice(1, nf::none, 2), nf::slice(nf::none, nf::none, -1)).T()(nf::newaxis, nf::ellipsis);
  nf::array r = nf::broadcast_to(m(3), {4, 10}).reshape({2, 2, 10});
  CHECK(v.is_evaluated());
  CHECK(r.is_evaluated());
  CHECK(nf::stats().kernels_launched == 0);
  CHECK(nf::stats().bytes_allocated == 0);
  CHECK(v.shape() == nf::shape_t{1, 10, 6});
}

TEST_CASE("assignment through an index rebinds x in one fused kernel; earlier views keep their values",
          "[views][fusion]") {
  const auto h = ramp(100);
  nf::array u = evaluated(nf::asarray(h));
  nf::array before = u(nf::slice(0, 10));
  nf::reset_stats();
  u(nf::slice(1, -1)) = (u(nf::slice(0, -2)) + u(nf::slice(2, nf::none))) * 0.5;  // Jacobi step
  u(0) = 7.0;
  u(nf::slice(90, 80, -1)) += 1;  // (a step past 1 spreads the value first: one more kernel)
  const auto got = u.to_vector<double>();
  CHECK(nf::stats().kernels_launched == 1);
  std::vector<double> want = h;
  for (std::size_t i = 1; i + 1 < 100; ++i) want[i] = (h[i - 1] + h[i + 1]) * 0.5;
  want[0] = 7.0;
  for (std::size_t i = 81; i <= 90; ++i) want[i] += 1;
  CHECK(got == want);
  const auto b = before.to_vector<double>();
  CHECK(std::equal(b.begin(), b.end(), h.begin()));
}

TEST_CASE("bad indices throw at the call", "[views]") {
  nf::array x = nf::zeros({3, 4});
  CHECK_THROWS_AS(x(3), nf::index_error);
  CHECK_THROWS_AS(x(0, -5), nf::index_error);
  CHECK_THROWS_AS(x(0, 0, 0), nf::index_error);
  CHECK_THROWS_AS(x(nf::ellipsis, 0, nf::ellipsis), nf::index_error);
  CHECK_THROWS_AS(x(nf::slice(0, 3, 0)), nf::index_error);
  CHECK_THROWS_AS(x(nf::slice(0, 2)) = nf::zeros({3}), nf::shape_error);
  CHECK_THROWS_AS(x.reshape({5, -1}), nf::shape_error);
}

TEST_CASE("bad advanced indices throw at the call and leave x unchanged", "[views]") {
  nf::array x = nf::arange(12.0).reshape({3, 4});
  x.eval();
  const nf::array mask_wrong = nf::asarray(std::vector<std::uint8_t>{1, 0}).astype(nf::dtype::bool_);
  CHECK_THROWS_AS(x(mask_wrong), nf::index_error);  // mask of the wrong shape
  CHECK_THROWS_AS(x(nf::asarray(std::vector<std::int64_t>{0, 3})), nf::index_error);  // out of range
  CHECK_THROWS_AS(x(nf::asarray(std::vector<std::int64_t>{-4})), nf::index_error);
  CHECK_THROWS_AS(x(nf::all, nf::asarray(std::vector<std::int64_t>{4})), nf::index_error);
  CHECK_THROWS_AS(x(0, 0, nf::asarray(std::vector<std::int64_t>{0})), nf::index_error);  // too many
  CHECK_THROWS_AS(x(nf::asarray(std::vector<double>{0.0})), nf::index_error);            // float indices
  CHECK_THROWS_AS(
      x(nf::asarray(std::vector<std::int64_t>{0, 1}), nf::asarray(std::vector<std::int64_t>{0, 1, 2})),
      nf::index_error);  // index arrays that do not broadcast
  CHECK_THROWS_AS(x(nf::asarray(std::vector<std::int64_t>{0, 7})) = 1.0, nf::index_error);
  CHECK_THROWS_AS(x(nf::asarray(std::vector<std::int64_t>{0, 1})) = nf::zeros({3}), nf::shape_error);
  CHECK_THROWS_AS(nf::take(x, nf::asarray(std::vector<std::int64_t>{12})), nf::index_error);
  CHECK_THROWS_AS(nf::bincount(nf::asarray(std::vector<std::int64_t>{1, -1})), nf::value_error);
  const auto v = x.to_vector<double>();
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(v[i] == double(i));
}

TEST_CASE("a gather fuses with its producers and consumers", "[views][fusion]") {
  const std::int64_t n = 1000;
  const auto host = ramp(n);
  nf::array a = evaluated(nf::asarray(host));
  std::vector<std::int64_t> hidx;
  for (std::int64_t i = 0; i < 300; ++i) hidx.push_back((i * 37) % n - (i % 2 ? n : 0));  // some negative
  nf::array idx = evaluated(nf::asarray(hidx));
  nf::reset_stats();
  nf::array first = a(idx) * 2.0 + 1.0;  // checks idx's range once (two small reductions)
  const std::uint64_t checks = nf::stats().kernels_launched;
  CHECK(checks <= 2);
  auto got = first.to_vector<double>();
  CHECK(nf::stats().kernels_launched == checks + 1);  // the gather, the wrap and the arithmetic: one kernel
  for (std::size_t i = 0; i < hidx.size(); ++i) {
    const std::int64_t j = hidx[i] < 0 ? hidx[i] + n : hidx[i];
    REQUIRE(got[i] == host[j] * 2.0 + 1.0);
  }
  // A second gather with the same index array checks nothing again; a lazy source is written first.
  nf::reset_stats();
  nf::array lazy_source = a * 3.0;
  got = nf::take(lazy_source, idx).to_vector<double>();
  CHECK(nf::stats().kernels_launched == 2);
  for (std::size_t i = 0; i < hidx.size(); ++i) {
    const std::int64_t j = hidx[i] < 0 ? hidx[i] + n : hidx[i];
    REQUIRE(got[i] == host[j] * 3.0);
  }
}

TEST_CASE("x(mask) = scalar is one kernel and counts nothing; x(idx) = v is one scatter call",
          "[views][fusion]") {
  const auto host = ramp(64);
  nf::array x = evaluated(nf::asarray(host, {8, 8}));
  const nf::array before = x;
  nf::reset_stats();
  x(x > 100.0) = 0.0;
  auto got = x.to_vector<double>();
  // The mask, the where and the write: one kernel. (Building x(mask) as a view would count the mask;
  // assignment alone does not need to.)
  CHECK(nf::stats().library_calls <= 1);
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(got[i] == (host[i] > 100.0 ? 0.0 : host[i]));
  nf::reset_stats();
  nf::array y = before;
  y(nf::asarray(std::vector<std::int64_t>{1, 6}), nf::slice(0, 2)) = -1.0;
  got = y.to_vector<double>();
  CHECK(nf::stats().library_calls == 1);
  for (std::size_t i = 0; i < host.size(); ++i) {
    const bool hit = (i / 8 == 1 || i / 8 == 6) && i % 8 < 2;
    REQUIRE(got[i] == (hit ? -1.0 : host[i]));
  }
  const auto unchanged = before.to_vector<double>();
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(unchanged[i] == host[i]);
}

TEST_CASE("a view of a reduction's epilogue value is read from memory, not from the epilogue",
          "[views][fusion]") {
  // m = max over axis 0; y = m * 2 would join m's epilogue; flip(y) + m reads y at other indices,
  // so it must read y once written, not recompute it from the reduction's value at its own index.
  const std::vector<double> host{3, 9, 1, 7, 4, 2, 8, 5};  // (2, 4)
  nf::array x = evaluated(nf::asarray(host, {2, 4}));
  nf::array m = nf::max(x, 0);
  nf::array z = nf::flip(m * 2.0, 0) + m;
  const std::vector<double> mh{4, 9, 8, 7};
  const auto got = z.to_vector<double>();
  REQUIRE(got.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) REQUIRE(got[i] == mh[3 - i] * 2.0 + mh[i]);
}

TEST_CASE("a transposed operand fuses into arithmetic: one tiled kernel, exact values", "[views][fusion]") {
  // Ragged edges on both tile dims (32-wide tiles), and an inner dim left over by the 3-d case.
  const std::int64_t r = 70, c = 45;
  const auto ha = ramp(r * c), hb = ramp(c * r);
  nf::array a = evaluated(nf::asarray(ha, {r, c}));
  nf::array b = evaluated(nf::asarray(hb, {c, r}));
  nf::reset_stats();
  nf::array y = a.T() * 2.0 + b;
#if defined(NDFUSE_WITH_CUDA)  // the tiles are the CUDA backend's tuning (jit/cuda_tuning.cpp)
  CHECK(nf::jit::source(y).find("32 x 32 tiles") != std::string::npos);
#endif
  const auto got = y.to_vector<double>();
  CHECK(nf::stats().kernels_launched == 1);
  REQUIRE(got.size() == std::size_t(r * c));
  for (std::int64_t i = 0; i < c; ++i)
    for (std::int64_t j = 0; j < r; ++j) REQUIRE(got[i * r + j] == ha[j * c + i] * 2.0 + hb[i * r + j]);

  // z[i, j, k] = x[i, k, n2 - 1 - j]: the unit stride of x is along z's dim 1, reversed.
  const std::int64_t n0 = 3, n1 = 50, n2 = 33;
  const auto hx = ramp(n0 * n1 * n2);
  nf::array x = evaluated(nf::asarray(hx, {n0, n1, n2}));
  nf::array z = nf::transpose(x, {0, 2, 1})(nf::all, nf::slice(nf::none, nf::none, -1)) - 1.0;
#if defined(NDFUSE_WITH_CUDA)
  CHECK(nf::jit::source(z).find("32 x 32 tiles") != std::string::npos);
#endif
  const auto gz = z.to_vector<double>();
  REQUIRE(gz.size() == std::size_t(n0 * n1 * n2));
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < n2; ++j)
      for (std::int64_t k = 0; k < n1; ++k)
        REQUIRE(gz[(i * n2 + j) * n1 + k] == hx[(i * n1 + k) * n2 + (n2 - 1 - j)] - 1.0);

  // A small transpose stays a plain strided read: tiles of 32 would leave most threads idle.
  nf::array s = evaluated(nf::asarray(ramp(12), {3, 4}));
  CHECK(nf::explain(s.T() + 1.0).find("transposed") == std::string::npos);
}

TEST_CASE("a 0-d boolean index adds an axis of length 1 where true and 0 where false", "[views]") {
  // NumPy: x[np.True_].shape == (1, 3, 4), x[np.False_].shape == (0, 3, 4).
  nf::array x = evaluated(nf::asarray(ramp(12), {3, 4}));
  const nf::array t = nf::array({true}).reshape({});
  const nf::array f = nf::array({false}).reshape({});
  CHECK(x(t).shape() == nf::shape_t{1, 3, 4});
  CHECK(x(f).shape() == nf::shape_t{0, 3, 4});
  CHECK(x(t).to_vector<double>() == ramp(12));
}

TEST_CASE("sorting one evaluated row is its library call alone; an identity transpose is the array",
          "[views][fusion]") {
  // Sorting along the last axis moves the axis onto itself twice (moveaxis there and back). Those
  // identity orders are the array itself: as view nodes over the call's lazy result, they were
  // evaluated as a copy of it (a 1e8-element argsort spent 0.5 ms of 6.1 on an H100 copying).
  const std::vector<double> host{3.5, -1.0, 2.0, 8.0, -4.5, 2.0, 0.25};
  const nf::array x = evaluated(nf::asarray(host));
  CHECK(nf::transpose(x).node() == x.node());
  CHECK(nf::moveaxis(x, 0, -1).node() == x.node());
  const nf::array m = evaluated(nf::asarray(host, {7, 1}));
  CHECK(nf::transpose(m, {0, 1}).node() == m.node());
  CHECK(nf::swapaxes(m, 1, 1).node() == m.node());
  CHECK(nf::transpose(m).node() != m.node());

  nf::reset_stats();
  nf::array s = nf::sort(x), a = nf::argsort(x);
  nf::eval(s, a);
  CHECK(nf::stats().kernels_launched == 0);
  CHECK(nf::stats().library_calls == 2);
  // NumPy: np.sort(host), np.argsort(host, kind="stable")
  CHECK(s.to_vector<double>() == std::vector<double>{-4.5, -1.0, 0.25, 2.0, 2.0, 3.5, 8.0});
  CHECK(a.to_vector<std::int64_t>() == std::vector<std::int64_t>{4, 1, 6, 2, 5, 0, 3});
}
