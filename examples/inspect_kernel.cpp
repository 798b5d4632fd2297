// Shows the CUDA source ndfuse generates for the seed chain x *= 5; x *= x; x += x. Rendering needs
// a CUDA build (NVRTC's headers are not needed to render, only the jit/ module), not a GPU.
#include <iostream>

#include <ndfuse/ndfuse.hpp>

int main() {
  nf::array x = nf::ones({1 << 20});
  x.eval();
  x *= 5;
  x *= x;
  x += x;
  std::cout << nf::explain(x) << '\n';
  try {
    std::cout << nf::jit::source(x);
  } catch (const nf::error& e) {
    std::cout << "no CUDA source: " << e.what() << '\n';
  }
  return 0;
}
