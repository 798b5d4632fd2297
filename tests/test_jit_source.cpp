// What a user copies out of nf::jit compiles without ndfuse: nf::jit::standalone_source(x) with nvcc
// alone, and nf::jit::source(x) with nvcc and the prelude's folder (the installed package ships it
// under include/ndfuse/prelude/; here the source tree's jit/prelude/). Compile only: no GPU needed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch_dir() {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(tmp ? tmp : fs::temp_directory_path().string()) / "jit_source";
  fs::create_directories(dir);
  return dir;
}

// nvcc's exit status for `source` written to `stem`.cu and compiled to a CUBIN for sm_90.
int nvcc_cubin(const std::string& source, const std::string& stem, const std::string& extra_flags) {
  const fs::path dir = scratch_dir();
  const fs::path cu = dir / (stem + ".cu");
  const fs::path cubin = dir / (stem + ".cubin");
  std::ofstream(cu) << source;
  fs::remove(cubin);
  const std::string cmd = std::string("\"") + NDFUSE_TEST_NVCC + "\" -arch=sm_90 -cubin " + extra_flags +
                          " -o \"" + cubin.string() + "\" \"" + cu.string() + "\"";
  INFO(cmd);
  const int rc = std::system(cmd.c_str());
  if (rc == 0) CHECK(fs::file_size(cubin) > 0);
  return rc;
}

nf::array seed_chain() {
  nf::array x = nf::ones({1000, 1000});
  x *= 5;
  x *= x;
  x += x;
  return x;
}

}  // namespace

TEST_CASE("jit::standalone_source inlines the prelude once, in place of its include", "[nvrtc]") {
#if !defined(NDFUSE_WITH_CUDA)
  NDFUSE_SKIP("built without CUDA: nf::jit needs NVRTC");
#else
  const std::string plain = nf::jit::source(seed_chain());
  const std::string whole = nf::jit::standalone_source(seed_chain());
  CHECK(plain.find("#include \"nf_prelude.cuh\"") != std::string::npos);
  CHECK(whole.find("#include \"nf_") == std::string::npos);
  for (const char* file :
       {"nf_types.cuh", "nf_arith.cuh", "nf_math.cuh", "nf_reduce.cuh", "nf_prelude.cuh"}) {
    const std::string mark = std::string("// ---- ") + file + " (ndfuse's device prelude) ----";
    const auto first = whole.find(mark);
    CHECK(first != std::string::npos);
    CHECK(whole.find(mark, first + 1) == std::string::npos);
  }
  // The kernel itself follows, unchanged: its header comment first, then the prelude, then the code.
  CHECK(whole.rfind("// ndfuse kernel", 0) == 0);
  CHECK(whole.find("extern \"C\"") > whole.find("// ---- end of nf_prelude.cuh ----"));
#endif
}

TEST_CASE("kernels from jit::source and jit::standalone_source compile with nvcc", "[nvrtc]") {
#if !defined(NDFUSE_WITH_CUDA)
  NDFUSE_SKIP("built without CUDA: nf::jit needs NVRTC");
#else
  if (std::string(NDFUSE_TEST_NVCC).empty()) NDFUSE_SKIP("no nvcc in this build");
  nf::array y = nf::ones({256, 300}, nf::dtype::float32);
  const nf::array reduced = nf::sum(nf::sqrt(y * 2.0f + 1.0f), 1);  // a reduction kernel, its own driver
  CHECK(nvcc_cubin(nf::jit::standalone_source(seed_chain()), "seed_standalone", "") == 0);
  CHECK(nvcc_cubin(nf::jit::standalone_source(reduced), "sum_standalone", "") == 0);
  const char* source_dir = std::getenv("NDFUSE_SOURCE_DIR");
  REQUIRE(source_dir != nullptr);
  const std::string prelude_dir = std::string(source_dir) + "/jit/prelude";
  CHECK(nvcc_cubin(nf::jit::source(seed_chain()), "seed_included", "-I \"" + prelude_dir + "\"") == 0);
#endif
}
