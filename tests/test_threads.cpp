// Threads: handles may be shared across threads, and concurrent evaluations of shared nodes are safe
// and compute each node once (docs/architecture.md, "Threads"). Expected values are closed forms of
// exact float64 arithmetic. CI also runs this file under ThreadSanitizer (scripts/tsan).
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

constexpr int threads = 8;

// Runs body(t) on `threads` threads at once (a barrier releases them together); the number of
// bodies that threw.
template <class Body>
int run_together(Body body) {
  std::atomic<int> waiting{threads}, failed{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      try {
        body(t);
      } catch (...) {
        failed.fetch_add(1);
      }
    });
  for (auto& th : pool) th.join();
  return failed.load();
}

}  // namespace

TEST_CASE("one unevaluated array read by eight threads at once", "[threads]") {
  for (int round = 0; round < 20; ++round) {
    const std::int64_t n = 1000;
    const nf::array a = nf::arange(n).astype(nf::float64) * 2.0 + 1.0;  // a_i = 2i + 1, sum n^2
    std::vector<double> got(threads);
    CHECK(run_together([&](int t) { got[t] = nf::sum(a * double(t) + a).item<double>(); }) == 0);
    for (int t = 0; t < threads; ++t) CHECK(got[t] == double(t + 1) * double(n * n));
    CHECK(a.is_evaluated());  // computed once, as an extra output of the first plan that reached it
  }
}

TEST_CASE("threads build long chains on a shared lazy array and evaluate them together", "[threads]") {
  const nf::array base = nf::ones({64, 64}) * 3.0;  // lazy, shared
  std::vector<double> got(threads);
  CHECK(run_together([&](int t) {
          nf::array x = base;
          for (int i = 0; i < 200; ++i) x = x + double(t);  // past the DAG growth bound: automatic splits
          got[t] = nf::sum(x).item<double>();
        }) == 0);
  for (int t = 0; t < threads; ++t) CHECK(got[t] == 4096.0 * (3.0 + 200.0 * t));
}

TEST_CASE("shared lazy operands of matrix products, reductions and host reads", "[threads]") {
  const nf::array a = nf::ones({32, 16}) * 2.0;  // lazy: the product reads it through its inputs
  const nf::array b = nf::ones({32, 8});
  std::vector<double> products(threads), means(threads);
  std::vector<std::string> plans(threads);
  CHECK(run_together([&](int t) {
          products[t] = nf::sum(a.T().dot(b) * double(t + 1)).item<double>();  // every entry 64 (t + 1)
          means[t] = nf::mean(a + double(t)).item<double>();
          plans[t] = nf::explain(a * 2.0);
        }) == 0);
  for (int t = 0; t < threads; ++t) {
    CHECK(products[t] == 16.0 * 8.0 * 64.0 * (t + 1));
    CHECK(means[t] == 2.0 + t);
    CHECK(!plans[t].empty());
  }
}

TEST_CASE("an index array used by several threads for the first time", "[threads]") {
  const nf::array x = nf::arange(100).astype(nf::float64);
  const nf::array idx = nf::asarray(std::vector<std::int64_t>{99, 0, 50, -1});
  std::vector<std::vector<double>> got(threads);
  CHECK(run_together([&](int t) { got[t] = (x(idx) + double(t)).to_vector<double>(); }) == 0);
  for (int t = 0; t < threads; ++t)
    CHECK(got[t] == std::vector<double>{99.0 + t, 0.0 + t, 50.0 + t, 99.0 + t});
}

TEST_CASE("arrays made on one thread, evaluated on others, freed on a third", "[threads]") {
  std::vector<nf::array> made;
  for (int t = 0; t < threads; ++t) made.push_back(nf::full({100}, double(t)) * 2.0);
  std::vector<double> got(threads);
  CHECK(run_together([&](int t) {
          got[t] = nf::sum(made[(t + 1) % threads]).item<double>();
          made[(t + 1) % threads] = nf::array();  // freed on a thread other than the one that made it
        }) == 0);
  for (int t = 0; t < threads; ++t) CHECK(got[t] == 200.0 * ((t + 1) % threads));
}
