// The seed workflow: a lazy elementwise chain that runs as ONE fused kernel.
#include <iostream>

#include <ndfuse/ndfuse.hpp>

int main() {
  std::cout << "ndfuse quickstart on the " << nf::backend_name() << " backend\n\n";

  nf::array x = nf::linspace(0.0, 1.0, 1'000'000);  // float64, as in NumPy
  x.eval();
  x *= 5;  // three nodes; nothing runs yet
  x *= x;
  x += x;
  std::cout << "x *= 5; x *= x; x += x;  builds this plan:\n" << nf::explain(x) << '\n';

  nf::reset_stats();
  x.eval();  // one fused kernel
  auto s = nf::stats();
  std::cout << "x.eval(): " << s.kernels_launched << " kernel launched, " << s.kernels_compiled
            << " compiled, " << s.buffers_donated << " buffer donated (in place)\n";
  std::cout << "x = " << x << "\n\n";

  nf::array a = nf::asarray(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  nf::array b = nf::array({10.0f, 20.0f, 30.0f});
  nf::array c = nf::where(a > 2, a * b, -a);  // broadcasting, weak scalars keep float32
  std::cout << "a = " << a << "\nb = " << b << "\nwhere(a > 2, a * b, -a) = " << c << '\n';
  return 0;
}
