// nf::distributed::sharded_array. On the CPU (always): several shards on one device, so that the
// splitting, the per-shard fusion, the random draws' invariance to the shard count, the reductions
// and the products are checked against the same work on the unsplit array, in CI. On several GPUs
// (label multi_gpu; skipped with fewer than two, or without NCCL): one shard per GPU, the partial
// results joined by NCCL, against the same work on one GPU.
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace dist = nf::distributed;

namespace {

std::vector<nf::device> repeated(nf::device d, int n) {
  return std::vector<nf::device>(static_cast<std::size_t>(n), d);
}

std::vector<nf::device> every_gpu() {
  std::vector<nf::device> d;
  for (int i = 0; i < nf::cuda::device_count(); ++i) d.push_back(nf::device::cuda(i));
  return d;
}

// Bit for bit.
void same(const nf::array& got, const nf::array& want) {
  const auto g = got.to_host(), w = want.to_host();
  CHECK(g.dtype == w.dtype);
  CHECK(g.shape == w.shape);
  CHECK(g.bytes == w.bytes);
}

// Within a reordered sum's roundoff.
void close(const nf::array& got, const nf::array& want) {
  oracle::tolerance tol;
  tol.transcendental = true;
  CHECK(oracle::compare(got.to_host(), want.to_host(), tol) == "");
}

void seed_chain(dist::sharded_array& x) {
  x *= 5.0;
  x *= x;
  x += x;
}

void seed_chain(nf::array& x) {
  x *= 5.0;
  x *= x;
  x += x;
}

// The checks of a layout: `devices` for the shards, `home` where the unsplit reference runs.
void check_against_unsplit(const std::vector<nf::device>& devices, nf::device home) {
  const int n = static_cast<int>(devices.size());
  INFO(n << " shards on " << devices[0] << (devices.size() > 1 ? " ..." : ""));
  nf::device_scope on(home);

  // A random draw split before it is made: each shard draws its own part, equal to the whole's.
  const nf::array whole = nf::random::default_rng(7).standard_normal({1001});
  const auto draw = dist::sharded_array::split(nf::random::default_rng(7).standard_normal({1001}), devices);
  for (const auto& s : draw.shards()) CHECK_FALSE(s.is_evaluated());  // each its own lazy part
  same(draw.gather(home), whole);
  CHECK(draw.shards().size() == std::size_t(n));
  CHECK(draw.shape() == nf::shape_t{1001});
  CHECK(draw.shards()[0].shape()[0] == (1001 + n - 1) / n);  // np.array_split's sizes
  for (std::size_t i = 0; i < devices.size(); ++i) CHECK(draw.shards()[i].device() == devices[i]);
  // Along axis 1 of a 2-D draw, integers, and a distribution built from several draws.
  auto g2 = nf::random::default_rng(8);
  same(dist::sharded_array::split(nf::random::default_rng(8).random({6, 37}, nf::dtype::float32), devices, 1)
           .gather(home),
       g2.random({6, 37}, nf::dtype::float32));
  same(dist::sharded_array::split(nf::random::default_rng(9).integers(0, 100, {50}), devices).gather(home),
       nf::random::default_rng(9).integers(0, 100, {50}));
  same(dist::sharded_array::split(nf::random::default_rng(10).gamma(2.0, 1.0, nf::shape_t{40}), devices)
           .gather(home),
       nf::random::default_rng(10).gamma(2.0, 1.0, nf::shape_t{40}));

  // The seed chain, elementwise on each shard: bit for bit the unsplit chain's result.
  nf::array ref = nf::arange(1001) % 97 / 97.0;
  auto x = dist::sharded_array::split(nf::arange(1001) % 97 / 97.0, devices);
  seed_chain(x);
  seed_chain(ref);
  same(x.gather(home), ref);
  CHECK(x.shards()[0].device() == devices[0]);

  // Reductions: over every axis and the split axis replicated on every shard, over another axis
  // still split.
  close(dist::sum(x).shards().back().to(home), nf::sum(ref));
  CHECK(dist::sum(x).replicated());
  CHECK(dist::sum(x).shards().size() == std::size_t(n));
  close(dist::mean(x).gather(home), nf::mean(ref));
  same(dist::max(x).gather(home), nf::max(ref));
  same(dist::min(x).gather(home), nf::min(ref));
  close(dist::norm(x).gather(home), nf::linalg::norm(ref));
  const nf::array ints = nf::arange(1, 31).reshape({5, 6});
  const auto split_ints = dist::sharded_array::split(ints, devices, 1);
  same(dist::sum(split_ints, 1).gather(home), nf::sum(ints, 1));
  same(dist::sum(split_ints, 0).gather(home), nf::sum(ints, 0));
  CHECK(dist::sum(split_ints, 0).axis() == 0);
  same(dist::prod(dist::sharded_array::split(nf::arange(1, 8), devices)).gather(home),
       nf::prod(nf::arange(1, 8)));
  same(dist::mean(split_ints).gather(home), nf::mean(ints));
  // Shards of length 0 (3 elements over more shards) add nothing, even to a max.
  same(dist::max(dist::sharded_array::split(nf::arange(3.0), devices)).gather(home),
       nf::max(nf::arange(3.0)));

  // Products with one split operand, and with the contraction split.
  const nf::array a = nf::random::default_rng(11).standard_normal({9, 7});
  const nf::array b = nf::random::default_rng(12).standard_normal({7, 5});
  close(dist::matmul(dist::sharded_array::split(a, devices, 0), b).gather(home), nf::matmul(a, b));
  close(dist::matmul(a, dist::sharded_array::split(b, devices, 1)).gather(home), nf::matmul(a, b));
  const auto contraction =
      dist::matmul(dist::sharded_array::split(a, devices, 1), dist::sharded_array::split(b, devices, 0));
  CHECK(contraction.replicated());
  close(contraction.gather(home), nf::matmul(a, b));

  // A replicated result combines with the shards: x - mean(x).
  close((x - dist::mean(x)).gather(home), ref - nf::mean(ref));
  // Whole arrays broadcast against a sharded one, as NumPy broadcasts: a row (all of it to every
  // shard), a column and an array of the same shape (each shard gets its rows).
  const nf::array m = nf::random::default_rng(13).standard_normal({7, 4});
  const auto rows = dist::sharded_array::split(m, devices, 0);
  const nf::array row = nf::arange(4.0), column = nf::arange(7.0).reshape({7, 1});
  same((rows - row).gather(home), m - row);
  same((column * rows).gather(home), column * m);
  same((rows / m).gather(home), m / m);
  same((2.0 - rows).gather(home), 2.0 - m);
  CHECK_THROWS_AS(rows + nf::ones({5, 4}), nf::shape_error);
  // An evaluated input is cut and copied rather than regenerated.
  nf::array made = nf::arange(20.0) * 3.0;
  made.eval();
  same(dist::sharded_array::split(made, devices).gather(home), made);
}

}  // namespace

TEST_CASE("sharded arrays on one device equal the unsplit array's results", "[sharded]") {
  for (int n : {1, 2, 3, 5}) check_against_unsplit(repeated(nf::device::cpu(), n), nf::device::cpu());
}

TEST_CASE("each shard's elementwise work fuses into one kernel on its device", "[sharded]") {
  nf::device_scope on(nf::device::cpu());
  auto x = dist::sharded_array::split(nf::arange(1000.0), repeated(nf::device::cpu(), 4));
  x.eval();
  auto run = [&] {
    auto y = x;
    seed_chain(y);
    y.eval();
    nf::synchronize();
  };
  run();  // compiles
  nf::reset_stats();
  run();
  const auto launches = nf::stats().kernels_launched;
  CHECK(launches == 4);  // one kernel per shard
}

TEST_CASE("sharded arrays refuse mismatched layouts at the call", "[sharded]") {
  nf::device_scope on(nf::device::cpu());
  const auto cpu = nf::device::cpu();
  const auto a = dist::sharded_array::split(nf::arange(10.0), repeated(cpu, 2));
  const auto b = dist::sharded_array::split(nf::arange(10.0), repeated(cpu, 5));
  CHECK_THROWS_AS(a + b, nf::shape_error);
  const auto m = dist::sharded_array::split(nf::ones({4, 4}), repeated(cpu, 2), 0);
  CHECK_THROWS_AS(dist::sharded_array::split(nf::ones({4, 4}), repeated(cpu, 2), 2), nf::shape_error);
  CHECK_THROWS_AS(dist::sharded_array::split(nf::full({}, 1.0), repeated(cpu, 2)), nf::shape_error);
  CHECK_THROWS_AS(dist::sharded_array::split(nf::ones({4}), std::vector<nf::device>{}), nf::value_error);
  CHECK_THROWS_AS(a.map([](const nf::array& s) { return nf::sum(s); }), nf::shape_error);
  CHECK_THROWS_AS(dist::matmul(nf::ones({4, 4}), m), nf::value_error);  // b split along rows, a whole
  CHECK_THROWS_AS(dist::matmul(m, nf::ones({3, 2})), nf::shape_error);
  CHECK_THROWS_AS(dist::sum(dist::sharded_array()), nf::value_error);
  if (nf::cuda::device_count() == 0) {
    CHECK_THROWS_AS(dist::sharded_array::split(nf::ones({4}), {cpu, nf::device::cuda(0)}), nf::device_error);
  }
}

TEST_CASE("sharded over every GPU equals the unsplit array on one", "[sharded][multi_gpu]") {
  if (nf::cuda::device_count() < 2 || !dist::is_available())
    NDFUSE_SKIP("needs NCCL and two GPUs: " << dist::unavailable_reason());
  check_against_unsplit(every_gpu(), nf::device::cuda(0));
  // Several shards on one GPU, too.
  check_against_unsplit(repeated(nf::device::cuda(1), 3), nf::device::cuda(1));
}
