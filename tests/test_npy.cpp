// nf::save and nf::load against NumPy 2: files ndfuse writes must np.load to arrays NumPy builds
// (tests/oracle/check_npy.py), files NumPy writes (tests/oracle/gen_npy.py) must nf::load to the
// values NumPy lists, and malformed files must throw nf::value_error (unreadable ones nf::io_error)
// naming the file.
#include <array>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "npy_support.hpp"

namespace nf = ndfuse;
namespace fs = std::filesystem;

using namespace npy_support;

namespace {

// A .npy file with the given header dict text, padded as NumPy pads it.
void write_npy_bytes(const fs::path& p, const std::string& dict, const std::string& payload, int major = 1) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  std::string text = dict;
  const std::size_t total = 8 + len_bytes + text.size() + 1;
  text.append((64 - total % 64) % 64, ' ');
  text += '\n';
  std::string out = std::string("\x93NUMPY", 6) + char(major) + '\0';
  for (std::size_t i = 0; i < len_bytes; ++i) out += char((text.size() >> (8 * i)) & 0xff);
  std::ofstream(p, std::ios::binary) << out << text << payload;
}

std::string load_error(const fs::path& p) {
  try {
    nf::load(p.string());
  } catch (const nf::dtype_error& e) {
    return std::string("dtype_error: ") + e.what();
  } catch (const nf::error& e) {
    return e.what();
  }
  return "no exception";
}

}  // namespace

TEST_CASE("nf::save writes .npy files that NumPy loads exactly", "[npy][oracle]") {
  const std::string py = numpy_python();
  if (py.empty()) NDFUSE_SKIP("NDFUSE_PYTHON is unset or has no NumPy 2");
  const fs::path dir = scratch_dir("npy_save");

  npy_support::make_check_npy_cases(
      [&](const std::string& name, const nf::array& a) { nf::save((dir / (name + ".npy")).string(), a); });

  const fs::path log = dir / "check.log";
  const std::string cmd = quoted(py) + " " + quoted(oracle_script("check_npy.py").string()) + " " +
                          quoted(dir.string()) + " > " + quoted(log.string()) + " 2>&1";
  const int rc = std::system(cmd.c_str());
  INFO(read_text(log));
  REQUIRE(rc == 0);
}

TEST_CASE("nf::load reads .npy files that NumPy wrote", "[npy][oracle]") {
  const std::string oracle = env_or_empty("NDFUSE_ORACLE_DIR");
  if (oracle.empty()) NDFUSE_SKIP("NDFUSE_ORACLE_DIR is not set");
  const fs::path dir = fs::path(oracle) / "npy";
  if (!fs::exists(dir / "manifest.txt"))
    NDFUSE_SKIP("no npy oracle in " << dir << " (oracle_npy did not run)");

  std::ifstream manifest(dir / "manifest.txt");
  std::string name, kind;
  int checked = 0;
  while (manifest >> name >> kind) {
    const std::string path = (dir / (name + ".npy")).string();
    INFO("case " << name);
    if (kind == "dtype_error") {
      CHECK_THROWS_AS(nf::load(path), nf::dtype_error);
      CHECK(load_error(path).find(path) != std::string::npos);
      ++checked;
      continue;
    }
    std::ifstream expected(dir / (name + ".expected"));
    check_expected(nf::load(path).to_host(), expected);
    ++checked;
  }
  CHECK(checked > 50);
}

// NumPy raises ValueError for a file that is not a valid .npy (nf::value_error) and OSError for one
// that cannot be opened (nf::io_error).
TEST_CASE("nf::load throws value_error or io_error naming the file for malformed input", "[npy]") {
  const fs::path dir = scratch_dir("npy_malformed");
  const std::string good_dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  const std::string payload(48, '\0');
  struct bad_case {
    std::string name;
    std::string dict;
    std::string payload;
    int major;
  };
  const std::vector<bad_case> cases = {
      {"truncated_data", good_dict, payload.substr(0, 40), 1},
      {"no_data", good_dict, "", 1},
      {"bad_version", good_dict, payload, 4},
      {"not_a_dict", "[1, 2, 3]", payload, 1},
      {"missing_key", "{'descr': '<f8', 'shape': (2, 3)}", payload, 1},
      {"extra_key", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", payload, 1},
      {"bad_literal", "{'descr': '<f8', 'fortran_order': Fals, 'shape': (2, 3)}", payload, 1},
      {"unterminated", "{'descr': '<f8, 'fortran_order': False, 'shape': (2, 3)}", payload, 1},
      {"negative_dim", "{'descr': '<f8', 'fortran_order': False, 'shape': (-2, 3)}", payload, 1},
      {"float_dim", "{'descr': '<f8', 'fortran_order': False, 'shape': (2.5, 3)}", payload, 1},
      {"shape_not_tuple", "{'descr': '<f8', 'fortran_order': False, 'shape': 6}", payload, 1},
      {"fortran_not_bool", "{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3)}", payload, 1},
      {"trailing_text", good_dict + " junk", payload, 1},
      {"huge_shape", "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", payload,
       1},
  };
  for (const auto& c : cases) {
    const fs::path p = dir / (c.name + ".npy");
    write_npy_bytes(p, c.dict, c.payload, c.major);
    INFO("case " << c.name);
    CHECK_THROWS_AS(nf::load(p.string()), nf::value_error);
    const std::string what = load_error(p);
    CHECK(what.find(p.string()) != std::string::npos);
    CHECK(what.rfind("dtype_error", 0) != 0);
  }

  auto raw = [&](const std::string& name, const std::string& bytes) {
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  };
  for (const auto& p :
       {raw("empty.npy", ""), raw("magic_only.npy", std::string("\x93NUMPY", 6)),
        raw("bad_magic.npy", std::string("\x93NUMPZ\x01\x00\x10\x00{}", 12) + std::string(60, ' ')),
        raw("short_header.npy", std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 17))}) {
    INFO("file " << p);
    CHECK_THROWS_AS(nf::load(p.string()), nf::value_error);
    CHECK(load_error(p).find(p.string()) != std::string::npos);
  }

  const fs::path missing = dir / "does_not_exist.npy";
  CHECK_THROWS_AS(nf::load(missing.string()), nf::io_error);
  CHECK(load_error(missing).find(missing.string()) != std::string::npos);
  CHECK_THROWS_AS(nf::load(dir.string()), nf::io_error);
}

TEST_CASE("nf::save round-trips every dtype and leaves no partial file when it fails", "[npy]") {
  const fs::path dir = scratch_dir("npy_roundtrip");
  for (int k = 0; k < nf::dtype_count; ++k) {
    const auto t = static_cast<nf::dtype>(k);
    INFO("dtype " << numpy_name(t));
    std::vector<std::byte> bytes(nf::itemsize(t) * 30);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i * 37 + 11);
    if (t == nf::dtype::bool_) {
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i % 3 == 0);
    }
    if (nf::is_inexact(t)) {
      // keep float patterns away from NaN payloads, which a conversion may canonicalize
      for (std::size_t i = 1; i < bytes.size(); i += 2) bytes[i] &= std::byte{0x3f};
    }
    const nf::array a = nf::array::from_host_copy(t, {2, 5, 3}, bytes.data());
    const std::string p = (dir / (std::string(numpy_name(t)) + ".npy")).string();
    if (t == nf::dtype::bfloat16) {
      // The .npy format has no bfloat16 (ml_dtypes writes anonymous 'V2' bytes): save refuses it at
      // the call and writes nothing.
      CHECK_THROWS_AS(nf::save(p, a), nf::dtype_error);
      CHECK_FALSE(fs::exists(p));
      continue;
    }
    nf::save(p, a);
    const nf::host_array back = nf::load(p).to_host();
    CHECK(back.dtype == t);
    CHECK(back.shape == nf::shape_t{2, 5, 3});
    CHECK(back.bytes == a.to_host().bytes);
    // The data starts at a multiple of 64 bytes.
    CHECK((fs::file_size(p) - bytes.size()) % 64 == 0);
  }

  const nf::array a = nf::asarray(std::vector<double>{1, 2, 3});
  CHECK_THROWS_AS(nf::save((dir / "no_such_dir" / "x.npy").string(), a), nf::io_error);
  // The target is a directory: the data is written to a temporary file, then the rename fails.
  fs::create_directories(dir / "occupied.npy");
  CHECK_THROWS_AS(nf::save((dir / "occupied.npy").string(), a), nf::io_error);
  for (const auto& entry : fs::directory_iterator(dir)) {
    INFO("left behind: " << entry.path());
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
  }
  // Overwriting an existing file replaces it whole.
  const std::string p = (dir / "float64.npy").string();
  nf::save(p, a);
  CHECK(nf::load(p).to_vector<double>() == std::vector<double>{1, 2, 3});
}
