// The CPU backend's thread pool: NDFUSE_THREADS is bounded, and a thread the system refuses to start
// raises nf::device_error instead of ending or hanging the process.
#include <sys/resource.h>

#include <cstdlib>
#include <thread>

#include "backend/cpu/thread_pool.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "ndfuse/ndfuse.hpp"

using ndfuse::backend::cpu::pool_size;
using ndfuse::backend::cpu::thread_pool;

TEST_CASE("NDFUSE_THREADS: unset, valid, too large or not a number", "[thread_pool]") {
  CHECK(pool_size(nullptr, 16) == 16);
  CHECK(pool_size("", 16) == 16);
  CHECK(pool_size("3", 16) == 3);
  CHECK(pool_size("64", 16) == 64);
  CHECK(pool_size("65", 16) == 64);      // capped at 4 x the hardware threads
  CHECK(pool_size("100000", 16) == 64);  // (started 32,442 threads before the cap)
  CHECK(pool_size("99999999999999999999", 16) == 64);
  CHECK(pool_size("0", 16) == 16);
  CHECK(pool_size("-4", 16) == 16);
  CHECK(pool_size("8 threads", 16) == 16);
  CHECK(pool_size("4", 0) == 4);  // hardware_concurrency() may say 0 (unknown): 1 is assumed
  CHECK(pool_size(nullptr, 0) == 1);
}

TEST_CASE("a pool runs every part of a parallel_for, and joins its threads when destroyed", "[thread_pool]") {
  thread_pool pool(4);
  CHECK(pool.size() == 4);
  std::vector<int> hits(1000, 0);
  pool.parallel_for(1000, [&](unsigned, std::int64_t b, std::int64_t e) {
    for (auto i = b; i < e; ++i) ++hits[static_cast<std::size_t>(i)];
  });
  for (int h : hits) REQUIRE(h == 1);
}

// Runs in a child process (a memory limit would starve the test runner's own threads): under an
// address-space limit too small for a thousand thread stacks, the pool's constructor raises.
TEST_CASE("thread_pool child: a refused thread start raises device_error", "[.][thread_pool_child]") {
  if (!ndfuse_test::is_child("thread_pool")) NDFUSE_SKIP("runs in a child process of the next test case");
  rlimit before{};
  REQUIRE(getrlimit(RLIMIT_AS, &before) == 0);
  rlimit limit = before;
  limit.rlim_cur = rlim_t{512} << 20;  // 512 MiB: room for the process, not for 1000 x 8 MiB stacks
  REQUIRE(setrlimit(RLIMIT_AS, &limit) == 0);
  CHECK_THROWS_AS(thread_pool(1000), nf::device_error);
  REQUIRE(setrlimit(RLIMIT_AS, &before) == 0);
  thread_pool small(2);  // the failed pool stopped and joined what it had started
  CHECK(small.size() == 2);
}

TEST_CASE("a thread the system refuses to start raises device_error, in a child process", "[thread_pool]") {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  NDFUSE_SKIP("sanitizers reserve more address space than the limit this test sets");
#else
  CHECK(ndfuse_test::run_self("thread_pool child: a refused thread start raises device_error",
                              {"NDFUSE_TEST_CHILD=thread_pool"}) == 0);
#endif
}
