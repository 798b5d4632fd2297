// The plan memo (src/schedule/plan_memo.cpp): an evaluation whose DAG has the signature of an earlier
// one reuses that plan, rebound to its own nodes. What must hold: the loop of the seed chain reuses
// its plan; any difference the passes would see (a handle, a shape, a stride, sharing) gives a new
// plan, never a stale one. Expected values are NumPy's (the expression in a comment), exact here.
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

TEST_CASE("the seed chain in a loop plans once and reuses the plan", "[plan_memo]") {
  nf::array x = nf::ones({1000});
  x.eval();
  nf::reset_stats();
  for (int i = 0; i < 10; ++i) {
    x *= 2.0;
    x *= x;
    x += x;
    x.eval();
    x /= 8.0;  // back to ones: ((2*1)**2 * 2) / 8
    x.eval();
  }
  auto s = nf::stats();
  CHECK(s.evaluations == 20);
  CHECK(s.plans_reused >= 18);  // the first of each structure is planned (or both, reused from before)
  CHECK(s.kernels_launched == 20);
  CHECK(s.buffers_donated == 20);  // the reused plan still writes in place
  CHECK(x.to_vector<double>() == std::vector<double>(1000, 1.0));
}

TEST_CASE("a plan is not reused when a handle now holds the input", "[plan_memo]") {
  // The same expression twice; the second time a copy of the handle holds x's old buffer, so the
  // result must not be written over it.
  for (int round = 0; round < 2; ++round) {
    nf::array x = nf::arange(6).astype(nf::float64);
    x.eval();
    nf::array before = x;  // round 0 and 1 alike: a held input
    nf::array y = nf::arange(6).astype(nf::float64);
    y.eval();
    for (int i = 0; i < 3; ++i) {
      y *= 3.0;  // nobody else holds y: donated
      y.eval();
    }
    x *= 3.0;
    x.eval();
    // NumPy: np.arange(6.) * 3 and np.arange(6.) * 27
    CHECK(x.to_vector<double>() == std::vector<double>{0, 3, 6, 9, 12, 15});
    CHECK(before.to_vector<double>() == std::vector<double>{0, 1, 2, 3, 4, 5});
    CHECK(y.to_vector<double>() == std::vector<double>{0, 27, 54, 81, 108, 135});
  }
}

TEST_CASE("a held intermediate in one iteration and not the next gets its own plan", "[plan_memo]") {
  nf::array x = nf::arange(4).astype(nf::float64);
  x.eval();
  for (int i = 0; i < 4; ++i) {
    nf::array t = x + 1.0;
    nf::array y = t * 2.0;
    if (i % 2 == 0) {
      y.eval();  // t is held: written as a second output
      // NumPy: np.arange(4.) + 1, (np.arange(4.) + 1) * 2
      CHECK(t.to_vector<double>() == std::vector<double>{1, 2, 3, 4});
    } else {
      t = nf::array();  // released: one output
      y.eval();
    }
    CHECK(y.to_vector<double>() == std::vector<double>{2, 4, 6, 8});
  }
}

TEST_CASE("views, strides and sharing are part of the signature", "[plan_memo]") {
  nf::array a = nf::arange(12).astype(nf::float64).reshape({3, 4});
  a.eval();
  nf::array at = a.T();
  const nf::array& ca = a;
  for (int i = 0; i < 2; ++i) {
    nf::array r1 = a * 1.0 + a;  // shared leaf
    nf::array r2 = at * 1.0 + at;
    nf::array r3 = a * 1.0 + ca(nf::slice(0, 3), nf::slice(0, 4));
    nf::eval(r1, r2, r3);
    // NumPy: a = np.arange(12.).reshape(3, 4); a * 1 + a, (a.T * 1 + a.T)
    CHECK(r1.to_vector<double>() == std::vector<double>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22});
    CHECK(r2.to_vector<double>() == std::vector<double>{0, 8, 16, 2, 10, 18, 4, 12, 20, 6, 14, 22});
    CHECK(r3.to_vector<double>() == r1.to_vector<double>());
  }
}

TEST_CASE("reductions reuse plans, and different axes do not share one", "[plan_memo]") {
  nf::array a = nf::arange(6).astype(nf::float64).reshape({2, 3});
  a.eval();
  nf::reset_stats();
  for (int i = 0; i < 3; ++i) {
    nf::array r0 = nf::sum(a * 2.0, 0);
    nf::array r1 = nf::sum(a * 2.0, 1);
    // NumPy: (np.arange(6.).reshape(2, 3) * 2).sum(0) and .sum(1)
    CHECK(r0.to_vector<double>() == std::vector<double>{6, 10, 14});
    CHECK(r1.to_vector<double>() == std::vector<double>{6, 24});
  }
  CHECK(nf::stats().plans_reused >= 4);
}

// Event counts live in per-thread shards (src/runtime/stats.cpp): counts made on threads that have
// exited, and on threads running now, are all in stats(); reset_stats() zeroes the total.
TEST_CASE("stats() sums the counts of every thread, exited ones included", "[plan_memo]") {
  auto loop = [](int steps) {
    nf::array x = nf::ones({100});
    x.eval();
    for (int i = 0; i < steps; ++i) {
      x *= 2.0;
      x *= x;
      x += x;
      x /= 8.0;  // NumPy: ((2 * 1) ** 2 * 2) / 8 == 1
      x.eval();
    }
    return x.to_vector<double>() == std::vector<double>(100, 1.0);
  };
  loop(1);  // plans (and compiles) outside the counts
  nf::reset_stats();
  for (int t = 0; t < 3; ++t) {  // one after another: a new thread takes an exited one's shard
    bool ok = false;
    std::thread th([&] { ok = loop(5); });
    th.join();
    CHECK(ok);
  }
  bool ok_a = false, ok_b = false;
  std::thread a([&] { ok_a = loop(4); });
  std::thread b([&] { ok_b = loop(6); });
  a.join();
  b.join();
  CHECK(ok_a);
  CHECK(ok_b);
  CHECK(loop(2));
  // Each loop: one evaluation for the ones() and one per step, one kernel each.
  auto s = nf::stats();
  CHECK(s.evaluations == 3 * 6 + 5 + 7 + 3);
  CHECK(s.kernels_launched == 3 * 6 + 5 + 7 + 3);
  nf::reset_stats();
  s = nf::stats();
  CHECK(s.evaluations == 0);
  CHECK(s.kernels_launched == 0);
  CHECK(s.plans_reused == 0);
}
