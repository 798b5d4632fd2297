// Builds against the installed headers and library only; exits nonzero when the result is wrong.
#include <exception>
#include <iostream>
#include <vector>

#include <ndfuse/ndfuse.hpp>

int main() {
  try {
    nf::array a({1.0, 2.0, 3.0});
    auto b = a * 2 + 1;
    std::vector<double> got = b.to_vector<double>();
    if (got != std::vector<double>{3.0, 5.0, 7.0}) {
      std::cerr << "ndfuse_consumer: a*2+1 gave " << b << ", expected [3, 5, 7]\n";
      return 1;
    }
    std::cout << "ndfuse_consumer: ok, " << b << " on " << nf::backend_name() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ndfuse_consumer: " << e.what() << "\n";
    return 2;
  }
}
