// Monte Carlo estimate of pi with nf::random: two uniform draws, a comparison and a count. The draws
// are temporaries, never written to memory: each batch is one fused reduction kernel. (A draw held
// by a named array is written, as every held array is.) The same seed gives the same estimate on
// the CPU and on any GPU.
#include <cmath>
#include <iostream>
#include <ndfuse/ndfuse.hpp>

int main() {
  auto rng = nf::random::default_rng(2026);  // np.random.default_rng(2026)
  const std::int64_t batch = 1'000'000;
  double inside = 0;
  nf::reset_stats();
  for (int b = 0; b < 8; ++b) {
    // x^2 + y^2 < 1 for a batch of points (x, y) uniform in the unit square.
    nf::array in_circle = nf::square(rng.random({batch})) + nf::square(rng.random({batch})) < 1.0;
    inside +=
        nf::count_nonzero(std::move(in_circle)).item<std::int64_t>();  // moved: not held, so not written
  }
  const double pi = 4 * inside / (8.0 * batch);
  std::cout << "pi ~ " << pi << " (error " << std::abs(pi - M_PI) << "), " << nf::stats().kernels_launched
            << " kernel launches\n";
  return std::abs(pi - M_PI) < 0.01 ? 0 : 1;
}
