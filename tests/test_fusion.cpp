// The fuser's contract, shown through nf::stats(): one kernel per elementwise chain, held nodes
// written as extra outputs, donation, bounded DAG growth, and a structure-only kernel cache.
// Expected values are NumPy's (given as the NumPy expression in a comment) and are exact here.
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ir/node.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

nf::array evaluated_arange(std::int64_t n) {
  nf::array x = nf::arange(n).astype(nf::float64);
  x.eval();
  return x;
}

}  // namespace

TEST_CASE("seed chain compiles and launches exactly one kernel", "[fusion]") {
  nf::array x = evaluated_arange(10);
  nf::clear_kernel_cache();
  nf::reset_stats();
  x *= 5;
  x *= x;
  x += x;
  CHECK(nf::stats().kernels_launched == 0);  // building does no work
  x.eval();
  auto s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.kernels_compiled + s.cache_hits_disk == 1);  // CUDA may find it in its disk cache
  CHECK(s.evaluations == 1);
  CHECK(s.buffers_donated == 1);  // nobody else holds the input: the output reuses it
  // NumPy: x = np.arange(10.); x *= 5; x *= x; x += x
  std::vector<double> expected = {0, 50, 200, 450, 800, 1250, 1800, 2450, 3200, 4050};
  CHECK(x.to_vector<double>() == expected);
}

TEST_CASE("a copy taken before an in-place op keeps its value and blocks donation", "[fusion]") {
  nf::array x = evaluated_arange(4);
  nf::array before = x;
  nf::reset_stats();
  x *= 2;
  x.eval();
  CHECK(nf::stats().buffers_donated == 0);
  CHECK(before.to_vector<double>() == std::vector<double>{0, 1, 2, 3});
  CHECK(x.to_vector<double>() == std::vector<double>{0, 2, 4, 6});
}

TEST_CASE("a held intermediate is written by the same kernel, never recomputed", "[fusion]") {
  nf::array x = evaluated_arange(6);
  nf::array y = x * 2 + 1;  // held by a handle
  nf::array z = y * y;
  nf::reset_stats();
  z.eval();
  CHECK(nf::stats().kernels_launched == 1);
  CHECK(y.is_evaluated());  // extra output of that one kernel
  nf::reset_stats();
  CHECK(y.to_vector<double>() == std::vector<double>{1, 3, 5, 7, 9, 11});  // NumPy: np.arange(6.)*2+1
  CHECK(nf::stats().kernels_launched == 0);
  CHECK(z.to_vector<double>() == std::vector<double>{1, 9, 25, 49, 81, 121});
}

TEST_CASE("nf::eval of several results runs one plan, one kernel per iteration shape", "[fusion]") {
  nf::array x = evaluated_arange(6);
  nf::array col = nf::asarray(std::vector<double>{1, 2}, {2, 1});
  nf::array a = x + 1;
  nf::array b = x * 3;
  nf::array c = col * 10 + x;  // shape (2, 6): a second iteration space
  nf::reset_stats();
  nf::eval(a, b, c);
  CHECK(nf::stats().evaluations == 1);
  CHECK(nf::stats().kernels_launched == 2);
  CHECK(a.to_vector<double>() == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(b.to_vector<double>() == std::vector<double>{0, 3, 6, 9, 12, 15});
  // NumPy: np.array([[1.],[2.]])*10 + np.arange(6.)
  CHECK(c.to_vector<double>() == std::vector<double>{10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25});
}

TEST_CASE("a held node of a smaller shape gets its own kernel first and is read back", "[fusion]") {
  nf::array col = nf::asarray(std::vector<float>{1, 2, 3}, {3, 1});
  nf::array row = nf::asarray(std::vector<float>{10, 20}, {1, 2});
  nf::array t = col * 2;  // held, shape (3, 1)
  nf::array r = t + row;  // shape (3, 2)
  nf::reset_stats();
  r.eval();
  CHECK(nf::stats().kernels_launched == 2);
  CHECK(t.is_evaluated());
  CHECK(t.to_vector<float>() == std::vector<float>{2, 4, 6});
  CHECK(r.to_vector<float>() == std::vector<float>{12, 22, 14, 24, 16, 26});
}

TEST_CASE("creation ops consumed by a kernel are never written", "[fusion]") {
  nf::reset_stats();
  nf::array y = nf::ones({1000}) * 3 + nf::arange(1000);
  y.eval();
  auto s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.bytes_allocated == 1000 * sizeof(double));  // the result only
  CHECK(y.to_vector<double>()[999] == 1002.0);        // NumPy: (np.ones(1000)*3 + np.arange(1000))[999]
}

TEST_CASE("a loop over changing scalars compiles one kernel structure", "[fusion]") {
  nf::array x = nf::ones({64});
  x.eval();
  nf::clear_kernel_cache();
  nf::reset_stats();
  for (int i = 0; i < 1000; ++i) {
    x *= double(i % 3 == 0 ? 1.0 : -1.0);
    x.eval();
  }
  auto s = nf::stats();
  CHECK(s.kernels_compiled + s.cache_hits_disk == 1);
  CHECK(s.kernels_launched == 1000);
  CHECK(s.cache_hits_memory == 999);
  // 1000 factors: i%3==0 gives +1 (334 times), others -1 (666 times): (-1)**666 == 1
  CHECK(x.to_vector<double>() == std::vector<double>(64, 1.0));
}

// A remembered plan keeps the compiled kernel its step ran (kernel_ref), skipping the kernel cache's
// lookup; clear_kernel_cache must still make the next evaluation compile (or load) afresh, never run
// the freed kernel.
TEST_CASE("a remembered plan's kernel is dropped by clear_kernel_cache", "[fusion]") {
  nf::array x = nf::ones({64});
  x.eval();
  auto step = [&](double s) {
    x *= s;
    x += 1.0;
    x.eval();
  };
  step(2.0);  // x's leaf came from ones(): a DAG of its own
  step(3.0);  // planned, remembered, compiled
  step(4.0);  // the remembered plan, with its kernel
  nf::clear_kernel_cache();
  nf::reset_stats();
  step(0.5);
  auto s = nf::stats();
  CHECK(s.plans_reused == 1);
  CHECK(s.kernels_compiled + s.cache_hits_disk == 1);
  CHECK(s.cache_hits_memory == 0);
  step(2.0);
  CHECK(nf::stats().cache_hits_memory == 1);
  CHECK(nf::stats().kernels_compiled + nf::stats().cache_hits_disk == 1);
  // NumPy: x = np.ones(64); for s in (2, 3, 4, 0.5, 2): x *= s; x += 1  ->  x[0] == 44.0
  CHECK(x.to_vector<double>() == std::vector<double>(64, 44.0));
}

// The remembered kernel is checked against the cache's generation, then launched; a clear on
// another thread in between must not free it under the launch (ASan, in scripts/sanitize, sees it).
TEST_CASE("clear_kernel_cache on another thread never frees a kernel a step is launching", "[fusion]") {
  nf::array x = nf::ones({64});
  x.eval();
  std::atomic<bool> done{false};
  std::thread clearer([&] {
    while (!done.load()) {
      nf::clear_kernel_cache();
      std::this_thread::yield();
    }
  });
  constexpr int steps = 300;
  for (int i = 0; i < steps; ++i) {
    x *= 1.0;
    x += 1.0;
    x.eval();
  }
  done = true;
  clearer.join();
  // NumPy: x = np.ones(64); for _ in range(300): x *= 1.0; x += 1.0  ->  every element 301.0
  CHECK(x.to_vector<double>() == std::vector<double>(64, 301.0));
}

TEST_CASE("the same structure over different sizes of one rank reuses the kernel", "[fusion]") {
  nf::clear_kernel_cache();
  nf::reset_stats();
  for (std::int64_t n : {10, 1000, 100000}) {
    nf::array x = evaluated_arange(n);
    nf::array y = nf::sqrt(x) + 1.5;
    y.eval();
  }
  // the arange kernel and the sqrt kernel, each compiled once (or found in the CUDA disk cache)
  CHECK(nf::stats().kernels_compiled + nf::stats().cache_hits_disk == 2);
}

TEST_CASE("an unbounded loop of in-place adds runs in bounded memory", "[fusion]") {
  nf::array x = nf::zeros({256});
  x.eval();
  nf::reset_stats();
  std::uint64_t max_in_use = 0;
  for (int i = 0; i < 100000; ++i) {
    x += 1.0;
    max_in_use = std::max(max_in_use, nf::stats().bytes_in_use);
    REQUIRE(x.node()->pending_ops <= 256);  // the DAG never grows past its bound
  }
  CHECK(nf::stats().automatic_splits > 0);
  CHECK(max_in_use <= 4 * 256 * sizeof(double));
  CHECK(x.to_vector<double>() == std::vector<double>(256, 100000.0));
}

TEST_CASE("a recurrence that reuses its last two values stays one kernel", "[fusion]") {
  // Counted per path, the DAG of a(k+1) = a(k) + a(k-1) doubles with each step; counted per node it
  // grows by one, so 60 steps stay within the bound and fuse.
  nf::array x = nf::ones({16});
  x.eval();
  nf::reset_stats();
  nf::array prev = x, cur = x;  // F(1), F(2)
  for (int k = 3; k <= 60; ++k) {
    nf::array next = cur + prev;
    prev = cur;
    cur = next;
  }
  const auto values = cur.to_vector<double>();
  CHECK(nf::stats().kernels_launched == 1);
  CHECK(nf::stats().automatic_splits == 0);
  CHECK(values == std::vector<double>(16, 1548008755920.0));  // the 60th Fibonacci number
}

TEST_CASE("eager mode launches one kernel per op through the same path", "[fusion]") {
  nf::array x = evaluated_arange(8);
  nf::reset_stats();
  {
    nf::eager_scope eager;
    x *= 5;
    x *= x;
    x += x;
  }
  CHECK(nf::stats().kernels_launched == 3);
  CHECK(x.is_evaluated());
  CHECK(x.to_vector<double>() == std::vector<double>{0, 50, 200, 450, 800, 1250, 1800, 2450});
}

TEST_CASE("explain shows the plan without running it", "[fusion]") {
  nf::array x = evaluated_arange(5);
  nf::array y = nf::exp(x) * 2;
  nf::reset_stats();
  std::string plan = nf::explain(y);
  CHECK(nf::stats().kernels_launched == 0);
  CHECK(plan.find("1 kernel") != std::string::npos);
  CHECK(plan.find("exp(") != std::string::npos);
  CHECK(plan.find("multiply(") != std::string::npos);
  CHECK(!y.is_evaluated());
}

TEST_CASE("broadcast, strided and flat inputs get their index class", "[fusion]") {
  nf::array m = nf::asarray(std::vector<double>(12, 1.0), {3, 4});
  nf::array r = nf::asarray(std::vector<double>{1, 2, 3, 4}, {4});
  m.eval();
  std::string plan = nf::explain(m + r);
  CHECK(plan.find("flat") != std::string::npos);
  CHECK(plan.find("broadcast") != std::string::npos);
  // NumPy: np.ones((3,4)) + np.array([1.,2,3,4])
  CHECK((m + r).to_vector<double>() == std::vector<double>{2, 3, 4, 5, 2, 3, 4, 5, 2, 3, 4, 5});
}

TEST_CASE("errors are raised where the node is built and leave arrays unchanged", "[fusion]") {
  nf::array x = nf::ones({3}, nf::int32);
  nf::array y = nf::ones({2, 3});
  CHECK_THROWS_AS(x += y, nf::dtype_error);  // float64 -> int32 is not same_kind
  CHECK_THROWS_AS(x += nf::ones({2, 3}, nf::int32), nf::shape_error);
  CHECK_THROWS_AS(nf::ones({3}) + nf::ones({4}), nf::shape_error);
  CHECK(x.shape() == nf::shape_t{3});
  CHECK(x.dtype() == nf::int32);
  CHECK(x.to_vector<std::int32_t>() == std::vector<std::int32_t>{1, 1, 1});
  // NumPy: np.power(np.ones(3, np.int32), -1) raises ValueError
  CHECK_THROWS_AS(nf::power(nf::ones({3}, nf::int32), -1), nf::dtype_error);
  nf::array empty_handle;
  CHECK_THROWS_AS(empty_handle + 1, nf::error);
}

TEST_CASE("a buffer that an unevaluated node outside the plan still reads is not donated", "[fusion]") {
  // b = a * 2 is read by c (evaluated now) and by d (later, through b, which nobody holds):
  // c must not take over a's buffer, or d would read c's values.
  nf::array d;
  nf::array c;
  {
    nf::array a = nf::asarray(std::vector<double>{1, 2, 3});
    a.eval();
    nf::array b = a * 2.0;
    d = nf::sum(b);
    c = b + 1.0;
  }  // a and b are held only through c's and d's nodes now
  c.eval();
  CHECK(c.to_vector<double>() == std::vector<double>{3, 5, 7});
  CHECK(d.item<double>() == 12.0);
}

TEST_CASE("temporaries of the evaluated expression are not written as held results", "[fusion]") {
  nf::array x = evaluated_arange(1000);
  nf::reset_stats();
  // sin(x) and sin(x) * 2 are temporaries alive until the end of this statement: each op that reads
  // one drops its handle, so only the result is written.
  const double first = (nf::sin(x) * 2.0 + 1.0).eval().to_vector<double>()[1];
  auto s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.bytes_allocated == 1000 * sizeof(double));
  CHECK(first == Approx(2.682941969615793).epsilon(1e-14));  // NumPy: np.sin(1.0) * 2 + 1

  nf::reset_stats();
  const double dot = nf::sum(x * x).item<double>();  // x * x is a temporary: not written
  s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.bytes_allocated == sizeof(double));
  CHECK(dot == 332833500.0);  // NumPy: (np.arange(1000.) ** 2).sum()

  nf::reset_stats();
  const double m = nf::max(-nf::abs(x - 500.0)).item<double>();  // unary ops on temporaries too
  CHECK(nf::stats().kernels_launched == 1);
  CHECK(m == 0.0);  // NumPy: (-np.abs(np.arange(1000.) - 500)).max()
}

TEST_CASE("a temporary held elsewhere is still written, and std::move empties a handle", "[fusion]") {
  nf::array x = evaluated_arange(4);
  nf::array t = x * 3.0;
  nf::array t_copy = t;  // a second handle: t's node stays held when t is moved into the op
  nf::reset_stats();
  nf::array y = std::move(t) + 1.0;
  CHECK(!t.node());  // NumPy has no equivalent; C++'s std::move: t is consumed
  y.eval();
  CHECK(nf::stats().bytes_allocated == 2 * 4 * sizeof(double));          // y and the held t_copy
  CHECK(t_copy.to_vector<double>() == std::vector<double>{0, 3, 6, 9});  // NumPy: np.arange(4.) * 3
  CHECK(y.to_vector<double>() == std::vector<double>{1, 4, 7, 10});
}

TEST_CASE("arrays built on one thread are evaluated and freed on others (node free lists)", "[fusion]") {
  // Nodes come from a per-thread free list, and a node freed on another thread joins that thread's
  // list: build on the main thread, evaluate and drop on workers that then exit (draining their
  // lists), and build again from what the main thread kept.
  for (int round = 0; round < 3; ++round) {
    std::vector<nf::array> built;
    for (int i = 0; i < 200; ++i) built.push_back(nf::arange(8).astype(nf::float64) * (i + 1) + 1);
    std::vector<double> sums(built.size());
    std::thread worker([&] {
      for (std::size_t i = 0; i < built.size(); ++i) {
        sums[i] = nf::sum(built[i]).item<double>();
        built[i] = nf::array();
      }
    });
    worker.join();
    for (std::size_t i = 0; i < sums.size(); ++i)
      CHECK(sums[i] ==
            28.0 * static_cast<double>(i + 1) + 8.0);  // NumPy: (np.arange(8.) * (i + 1) + 1).sum()
  }
  nf::array x = nf::arange(4).astype(nf::float64);
  x *= 2;
  CHECK(x.to_vector<double>() == std::vector<double>{0, 2, 4, 6});  // NumPy: np.arange(4.) * 2
}
