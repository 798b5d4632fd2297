// Backend selection: NDFUSE_BACKEND, else cuda when a device is present, else cpu.
#include <cstdlib>
#include <iostream>
#include <string>

#include "backend/backend.hpp"
#include "backend/cpu/cpu_backend.hpp"

namespace ndfuse::backend {

device_backend& current() {
  static const std::unique_ptr<device_backend> chosen = [] {
    const char* env = std::getenv("NDFUSE_BACKEND");
    std::string want = env ? env : "";
    if (want == "cuda")
      std::cerr << "[ndfuse] NDFUSE_BACKEND=cuda: the CUDA backend is not built yet; using cpu\n";
    else if (!want.empty() && want != "cpu")
      std::cerr << "[ndfuse] NDFUSE_BACKEND=" << want << " is not a backend (cpu|cuda); using cpu\n";
    return cpu::make_backend();
  }();
  return *chosen;
}

}  // namespace ndfuse::backend
