// The same chain run fused (one kernel) and eager (one kernel per op), with the counters that show
// the difference. Wall-clock times here are indicative only; bench/ measures properly.
#include <chrono>
#include <iostream>

#include <ndfuse/ndfuse.hpp>

namespace {

template <class F>
double time_ms(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void chain(nf::array& x) {
  x *= 5;
  x *= x;
  x += x;
  x = nf::sqrt(x) - 1.0;
  x.eval();
}

}  // namespace

int main() {
  const std::int64_t n = 10'000'000;
  for (bool eager : {false, true}) {
    nf::array x = nf::ones({n});
    x.eval();
    chain(x);  // warm-up: compiles the kernels
    nf::reset_stats();
    double ms = time_ms([&] {
      if (eager) {
        nf::eager_scope scope;
        chain(x);
      } else {
        chain(x);
      }
      x.to_host();
    });
    auto s = nf::stats();
    std::cout << (eager ? "eager: " : "fused: ") << s.kernels_launched << " kernel launches, "
              << s.buffers_donated << " buffers reused in place, peak " << s.peak_bytes / 1e6 << " MB, " << ms
              << " ms on " << nf::backend_name() << "\n";
  }
  return 0;
}
