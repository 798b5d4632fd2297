// The seed chain's step, x *= s; x *= x; x += x; x.eval(), shared by the CPU and CUDA seed
// benchmarks: lazy (one fused kernel) or in nf::eager_scope (one kernel per op).
#pragma once
#include <optional>

#include "ndfuse/ndfuse.hpp"

namespace bench_seed {

inline void seed_step(ndfuse::array& x, bool eager, double s = 5) {
  std::optional<ndfuse::eager_scope> scope;
  if (eager) scope.emplace();
  x *= s;
  x *= x;
  x += x;
  x.eval();
}

}  // namespace bench_seed
