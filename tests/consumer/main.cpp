// Builds against the installed headers and library only; exits nonzero when the result is wrong.
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <ndfuse/ndfuse.hpp>

// argv[1], if given: where to write the CUDA source of the chain (nf::jit::source), for run.cmake to
// compile with nvcc; not written when ndfuse was built without CUDA.
int main(int argc, char** argv) {
  try {
    nf::array a({1.0, 2.0, 3.0});
    auto b = a * 2 + 1;
    std::vector<double> got = b.to_vector<double>();
    if (got != std::vector<double>{3.0, 5.0, 7.0}) {
      std::cerr << "ndfuse_consumer: a*2+1 gave " << b << ", expected [3, 5, 7]\n";
      return 1;
    }
    std::cout << "ndfuse_consumer: ok, " << b << " on " << nf::backend_name() << "\n";
    if (argc > 1) {
      std::string source;
      try {
        source = nf::jit::source(a * 2 + 1);
      } catch (const nf::error& e) {
        std::cout << "ndfuse_consumer: no kernel source (" << e.what() << ")\n";
        return 0;
      }
      std::ofstream(argv[1]) << source;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ndfuse_consumer: " << e.what() << "\n";
    return 2;
  }
}
