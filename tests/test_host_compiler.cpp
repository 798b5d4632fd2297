// The CPU device's compiler of user kernels (src/backend/cpu/host_compiler): C++ source compiled by
// the host compiler into a shared object, loaded, cached on disk for the next process, and failures
// reported with the compiler's log at the user's own line (#line) and the kept source's path.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "backend/cpu/host_compiler.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "ndfuse/error.hpp"
#include "support/disk_cache.hpp"

namespace fs = std::filesystem;
namespace cpu = ndfuse::backend::cpu;
using ndfuse::support::disk_cache;
using ndfuse_test::is_child;
using ndfuse_test::run_self;

namespace {

fs::path fresh_dir(const std::string& name) {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(tmp && *tmp ? tmp : fs::temp_directory_path().string()) / ("host_compiler_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

const std::string affine = R"(extern "C" long long affine(long long x) { return 3 * x + 1; }
// A product and the difference to its rounded value: 0 unless the compiler contracts it into an FMA.
extern "C" double product_error(double a, double b) {
  double p = a * b;
  return a * b - p;
}
)";

}  // namespace

TEST_CASE("a host module compiles, loads and runs; the next process finds it on disk", "[host_compiler]") {
  const fs::path dir = fresh_dir("cache");
  disk_cache cache(dir.string());
  auto cold = cpu::compile_host(affine, "affine", cache);
  CHECK_FALSE(cold->from_disk_cache());
  auto f = reinterpret_cast<long long (*)(long long)>(cold->symbol("affine"));
  CHECK(f(4) == 13);
  CHECK(f(-7) == -20);
  // 1 + 2^-30 squared needs 61 bits: NumPy's (a * b) - rounded(a * b) is 0.0; an FMA would give 2^-60.
  auto e = reinterpret_cast<double (*)(double, double)>(cold->symbol("product_error"));
  const double a = 1.0 + 0x1p-30;
  CHECK(e(a, a) == 0.0);

  disk_cache other(dir.string());  // what another process sees
  auto warm = cpu::compile_host(affine, "affine", other);
  CHECK(warm->from_disk_cache());
  CHECK(reinterpret_cast<long long (*)(long long)>(warm->symbol("affine"))(4) == 13);
  CHECK_THROWS_AS(warm->symbol("not_there"), ndfuse::compile_error);
}

TEST_CASE("a source that does not compile throws compile_error at the user's line, keeping the source",
          "[host_compiler]") {
  const fs::path dir = fresh_dir("error");
  disk_cache cache(dir.string());
  const std::string source =
      "extern \"C\" int broken(int x) {\n"
      "#line 1 \"my_kernel\"\n"
      "  int y = x;\n"
      "  return y +* ;\n"
      "}\n";
  try {
    cpu::compile_host(source, "broken", cache);
    FAIL("no compile_error");
  } catch (const ndfuse::compile_error& e) {
    const std::string what = e.what();
    CHECK(what.find("my_kernel:2") != std::string::npos);
    const auto at = what.rfind("source: ");
    REQUIRE(at != std::string::npos);
    const fs::path kept = what.substr(at + 8);
    CHECK(fs::exists(kept));
    fs::remove_all(kept.parent_path());
  }
}

TEST_CASE("a host compiler that does not run throws device_error", "[host_compiler]") {
  CHECK(run_self("host compiler child: a missing compiler",
                 {"NDFUSE_HOST_CXX=/nonexistent/c++", "NDFUSE_TEST_CHILD=missing_cxx"}) == 0);
}

TEST_CASE("host compiler child: a missing compiler", "[.][host_compiler_child]") {
  if (!is_child("missing_cxx")) NDFUSE_SKIP("runs only as a child process of another test case");
  disk_cache cache("");
  CHECK(cpu::host_compiler() == "/nonexistent/c++");
  CHECK_THROWS_AS(cpu::compile_host(affine, "affine", cache), ndfuse::device_error);
}

TEST_CASE("modules loaded from the disk cache stay apart", "[host_compiler]") {
  const fs::path dir = fresh_dir("apart");
  disk_cache cache(dir.string());
  const std::string one = "extern \"C\" int which() { return 1; }\n";
  const std::string two = "extern \"C\" int which() { return 2; }\n";
  cpu::compile_host(one, "one", cache);
  cpu::compile_host(two, "two", cache);
  disk_cache other(dir.string());
  auto a = cpu::compile_host(one, "one", other);
  REQUIRE(a->from_disk_cache());
  {
    auto b = cpu::compile_host(two, "two", other);
    CHECK(reinterpret_cast<int (*)()>(b->symbol("which"))() == 2);
  }
  // Loaded after another cached module was released: its own code, not a module loaded before.
  auto c = cpu::compile_host(two, "two", other);
  CHECK(reinterpret_cast<int (*)()>(a->symbol("which"))() == 1);
  CHECK(reinterpret_cast<int (*)()>(c->symbol("which"))() == 2);
}
