// Printing against NumPy 2's repr: tests/oracle/gen_repr.py saves each case's array and the exact
// string repr() gives; the array is loaded with nf::load, printed, and the strings must be equal.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace nf = ndfuse;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The oracle directory, or a reason it cannot be used.
fs::path repr_oracle(std::string& why_not) {
  const char* dir = std::getenv("NDFUSE_ORACLE_DIR");
  if (!dir || !*dir) {
    why_not = "NDFUSE_ORACLE_DIR is not set";
    return {};
  }
  const fs::path root = fs::path(dir) / "repr";
  if (fs::exists(root / "SKIP")) {
    why_not = read_file(root / "SKIP");
    return {};
  }
  if (!fs::exists(root / "shapes.txt")) {
    why_not = "no repr oracle in " + root.string() + " (oracle_repr did not run)";
    return {};
  }
  return root;
}

}  // namespace

TEST_CASE("repr and operator<< print arrays exactly as NumPy 2 does", "[repr][oracle]") {
  std::string why_not;
  const fs::path root = repr_oracle(why_not);
  if (root.empty()) NDFUSE_SKIP(why_not);

  std::ifstream manifest(root / "manifest.txt");
  int checked = 0;
  for (std::string name; std::getline(manifest, name);) {
    if (name.empty()) continue;
    const std::string expected = read_file(root / (name + ".txt"));
    const nf::array a = nf::load((root / (name + ".npy")).string());
    INFO("case " << name << "\nexpected:\n" << expected);
    CHECK(nf::repr(a) == expected);
    std::ostringstream os;
    os << a;
    CHECK(os.str() == expected);
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("array_str, array2string and print options print as NumPy 2 does", "[repr][oracle]") {
  std::string why_not;
  const fs::path root = repr_oracle(why_not);
  if (root.empty()) NDFUSE_SKIP(why_not);

  std::ifstream manifest(root / "manifest.txt");
  int checked = 0;
  for (std::string name; std::getline(manifest, name);) {
    if (name.empty()) continue;
    const nf::array a = nf::load((root / (name + ".npy")).string());
    INFO("case " << name);
    CHECK(nf::str(a) == read_file(root / (name + ".str.txt")));
    CHECK(nf::array_str(a) == read_file(root / (name + ".str.txt")));
    CHECK(nf::array2string(a, 50, 4, true, "; ", "value = ") == read_file(root / (name + ".a2s.txt")));
    {
      // gen_repr.py's OPTIONS, for this scope only.
      nf::printoptions scope(
          {.precision = 3, .threshold = 20, .edgeitems = 2, .linewidth = 60, .suppress = true});
      CHECK(nf::array_repr(a) == read_file(root / (name + ".opt.txt")));
    }
    CHECK(nf::array_repr(a) == read_file(root / (name + ".txt")));  // the defaults are back
    ++checked;
  }
  CHECK(checked > 100);
  CHECK_THROWS_AS(nf::set_printoptions({.precision = -1}), nf::value_error);
  CHECK(nf::get_printoptions().precision == 8);
}

TEST_CASE("shape_str prints shapes as Python prints tuples", "[repr][oracle]") {
  std::string why_not;
  const fs::path root = repr_oracle(why_not);
  if (root.empty()) NDFUSE_SKIP(why_not);

  std::ifstream shapes(root / "shapes.txt");
  int checked = 0;
  for (std::string line; std::getline(shapes, line);) {
    const auto bar = line.find('|');
    REQUIRE(bar != std::string::npos);
    nf::shape_t shape;
    std::istringstream sizes(line.substr(0, bar));
    for (std::int64_t d; sizes >> d;) shape.push_back(d);
    CHECK(nf::shape_str(shape) == line.substr(bar + 1));
    std::ostringstream os;
    os << shape;  // found by argument-dependent lookup: no `using` needed
    CHECK(os.str() == line.substr(bar + 1));
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("repr prints a lazy expression after evaluating it", "[repr][oracle]") {
  std::string why_not;
  const fs::path root = repr_oracle(why_not);
  if (root.empty()) NDFUSE_SKIP(why_not);

  const nf::array x = nf::load((root / "lazy_input.npy").string()) * 2.0;
  CHECK(nf::repr(x) == read_file(root / "lazy_times_two.txt"));
}
