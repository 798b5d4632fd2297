// Raw modules in a build without the CUDA toolkit: each entry point says why it cannot run.
#if !defined(NDFUSE_WITH_CUDA)
#include "backend/raw_program.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::detail {

namespace {
[[noreturn]] void unavailable() {
  throw device_error("raw kernels need a GPU: ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}
}  // namespace

raw_program::~raw_program() = default;
int current_sm() {
  unavailable();
}
void compile(raw_program& p, int) {
  if (p.from_source()) unavailable();  // a file's image has nothing to compile
}
std::string lowered_name(raw_program& p, const std::string& name, int) {
  for (const auto& e : p.name_expressions)
    if (e == name) unavailable();
  return name;
}
void launch(raw_program&, const std::string&, int, const raw_launch&, void**) {
  unavailable();
}

}  // namespace ndfuse::detail
#endif
