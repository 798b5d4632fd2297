// The device prelude (jit/prelude/*.cuh), embedded into the library at build time by
// jit/embed_prelude.cmake. NVRTC receives these files as in-memory headers.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ndfuse::jit {

// Both views point at null-terminated string literals.
struct prelude_file {
  std::string_view name;  // as in #include "<name>"
  std::string_view text;
};
const std::vector<prelude_file>& prelude_files();

// `source` with each `#include` of a prelude file replaced by the file's text (once each), so that
// nvcc compiles it with no include path (nf::jit::standalone_source).
std::string inline_prelude(std::string_view source);

}  // namespace ndfuse::jit
