// nf::jit in a build without the CUDA toolkit: jit/ is not compiled, so inspection says why.
#if !defined(NDFUSE_WITH_CUDA)
#include "ndfuse/jit.hpp"

namespace ndfuse::jit {

std::string source(const array&) {
  throw device_error("nf::jit::source: ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}
std::string standalone_source(const array&) {
  throw device_error("nf::jit::standalone_source: ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}
int compile_check(const array&, int) {
  throw device_error("nf::jit::compile_check: ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}

}  // namespace ndfuse::jit
#endif
