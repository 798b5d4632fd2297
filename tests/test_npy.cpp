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

namespace nf = ndfuse;
namespace fs = std::filesystem;

namespace {

// NumPy's names, in ndfuse's dtype enum order (bfloat16: ml_dtypes' name; NumPy has none).
constexpr std::array<const char*, nf::dtype_count> numpy_names = {
    "bool",   "int8",    "int16",   "int32",   "int64",     "uint8",      "uint16",  "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128", "bfloat16"};
const char* numpy_name(nf::dtype t) {
  return numpy_names[static_cast<std::size_t>(t)];
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

fs::path scratch_dir(const std::string& sub) {
  const std::string base = env_or_empty("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(base.empty() ? fs::temp_directory_path().string() : base) / sub;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Empty when NDFUSE_PYTHON is unset or cannot import NumPy 2.
std::string numpy_python() {
  const std::string py = env_or_empty("NDFUSE_PYTHON");
  if (py.empty()) return {};
  const std::string cmd =
      quoted(py) +
      " -c 'import numpy, sys; sys.exit(int(numpy.__version__.split(\".\")[0]) < 2)' > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? py : std::string();
}

fs::path oracle_script(const std::string& name) {
  const std::string src = env_or_empty("NDFUSE_SOURCE_DIR");
  return (src.empty() ? fs::path(__FILE__).parent_path() : fs::path(src) / "tests") / "oracle" / name;
}

std::uint16_t half_bits(float f) {
  return nf::float16_t(f).bits;
}

template <class T>
void save_case(const fs::path& dir, const std::string& name, nf::dtype t, const std::vector<T>& values,
               const nf::shape_t& shape) {
  static const T placeholder{};  // empty arrays still pass a valid pointer
  nf::save((dir / (name + ".npy")).string(),
           nf::array::from_host_copy(t, shape, values.empty() ? &placeholder : values.data()));
}

// Writes special_, scalar_, empty_, empty3_ and cube_ cases of one dtype (see check_npy.py).
// cube(i) gives element i of the (2, 3, 4) case.
template <class T, class Cube>
void save_dtype_cases(const fs::path& dir, nf::dtype t, const std::vector<T>& special, Cube cube) {
  const std::string d = numpy_name(t);
  save_case(dir, "special_" + d, t, special, {std::int64_t(special.size())});
  save_case(dir, "scalar_" + d, t, std::vector<T>{special.back()}, {});
  save_case(dir, "empty_" + d, t, std::vector<T>{}, {0});
  save_case(dir, "empty3_" + d, t, std::vector<T>{}, {2, 0, 3});
  std::vector<T> c;
  for (int i = 0; i < 24; ++i) c.push_back(cube(i));
  save_case(dir, "cube_" + d, t, c, {2, 3, 4});
}

template <class I>
void save_int_cases(const fs::path& dir) {
  using lim = std::numeric_limits<I>;
  std::vector<I> special = std::is_signed_v<I> ? std::vector<I>{lim::min(), I(-1), 0, 1, lim::max()}
                                               : std::vector<I>{0, 1, lim::max()};
  save_dtype_cases(dir, nf::dtype_of<I>, special,
                   [](int i) { return static_cast<I>(std::is_signed_v<I> ? i * 7 - 50 : i * 7); });
}

template <class F>
void save_float_cases(const fs::path& dir) {
  using lim = std::numeric_limits<F>;
  const std::vector<F> special = {
      lim::quiet_NaN(), lim::infinity(),   -lim::infinity(), F(-0.0), F(0.0), lim::max(),
      -lim::max(),      lim::denorm_min(), lim::min(),       F(1),    F(0.1)};
  save_dtype_cases(dir, nf::dtype_of<F>, special, [](int i) { return F((i - 11.5) / 4); });
}

template <class F>
void save_complex_cases(const fs::path& dir) {
  using lim = std::numeric_limits<F>;
  using C = std::complex<F>;
  const std::vector<C> special = {C(lim::quiet_NaN(), 0),           C(0, lim::infinity()),
                                  C(-lim::infinity(), F(-0.0)),     C(F(-0.0), F(1.5)),
                                  C(lim::max(), lim::denorm_min()), C(F(1.5), F(-0.1))};
  save_dtype_cases(dir, nf::dtype_of<C>, special, [](int i) { return C(F((i - 11.5) / 4), F(i / 8.0)); });
}

// Compares an element of loaded host data with one line of a gen_npy.py .expected file.
bool float_matches(double got, const std::string& field) {
  const double want = std::strtod(field.c_str(), nullptr);
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

bool element_matches(const nf::host_array& h, std::size_t i, const std::string& line) {
  const std::byte* p = h.bytes.data() + i * nf::itemsize(h.dtype);
  auto load = [p]<class T>(T*) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  std::istringstream fields(line);
  std::string a, b;
  fields >> a >> b;
  switch (h.dtype) {
    case nf::dtype::bool_:
      return std::to_string(int(std::to_integer<int>(*p))) == a;
    case nf::dtype::int8:
      return std::to_string(load((std::int8_t*)nullptr)) == a;
    case nf::dtype::int16:
      return std::to_string(load((std::int16_t*)nullptr)) == a;
    case nf::dtype::int32:
      return std::to_string(load((std::int32_t*)nullptr)) == a;
    case nf::dtype::int64:
      return std::to_string(load((std::int64_t*)nullptr)) == a;
    case nf::dtype::uint8:
      return std::to_string(load((std::uint8_t*)nullptr)) == a;
    case nf::dtype::uint16:
      return std::to_string(load((std::uint16_t*)nullptr)) == a;
    case nf::dtype::uint32:
      return std::to_string(load((std::uint32_t*)nullptr)) == a;
    case nf::dtype::uint64:
      return std::to_string(load((std::uint64_t*)nullptr)) == a;
    case nf::dtype::float16: {
      nf::float16_t v;
      v.bits = load((std::uint16_t*)nullptr);
      return float_matches(static_cast<float>(v), a);
    }
    case nf::dtype::float32:
      return float_matches(load((float*)nullptr), a);
    case nf::dtype::float64:
      return float_matches(load((double*)nullptr), a);
    case nf::dtype::complex64: {
      const auto c = load((std::complex<float>*)nullptr);
      return float_matches(c.real(), a) && float_matches(c.imag(), b);
    }
    case nf::dtype::complex128: {
      const auto c = load((std::complex<double>*)nullptr);
      return float_matches(c.real(), a) && float_matches(c.imag(), b);
    }
  }
  return false;
}

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

  save_dtype_cases(dir, nf::dtype::bool_, std::vector<std::uint8_t>{1, 0, 1, 1},
                   [](int i) { return std::uint8_t(i % 3 == 0); });
  save_int_cases<std::int8_t>(dir);
  save_int_cases<std::int16_t>(dir);
  save_int_cases<std::int32_t>(dir);
  save_int_cases<std::int64_t>(dir);
  save_int_cases<std::uint8_t>(dir);
  save_int_cases<std::uint16_t>(dir);
  save_int_cases<std::uint32_t>(dir);
  save_int_cases<std::uint64_t>(dir);
  // float16 by bit pattern: nan, inf, -inf, -0, 0, max, -max, smallest subnormal, smallest normal, 1, 0.1
  const std::vector<std::uint16_t> half_special = {0x7e00, 0x7c00, 0xfc00, 0x8000, 0x0000, 0x7bff,
                                                   0xfbff, 0x0001, 0x0400, 0x3c00, 0x2e66};
  save_dtype_cases(dir, nf::dtype::float16, half_special,
                   [](int i) { return half_bits(float((i - 11.5) / 4)); });
  save_float_cases<float>(dir);
  save_float_cases<double>(dir);
  save_complex_cases<float>(dir);
  save_complex_cases<double>(dir);
  // save evaluates a lazy expression first.
  nf::array x = nf::asarray(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  nf::save((dir / "lazy_times_two.npy").string(), x * 2.0);

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
    std::string dtype_line, shape_line;
    std::getline(expected, dtype_line);
    std::getline(expected, shape_line);
    nf::shape_t shape;
    std::istringstream shape_fields(shape_line);
    for (std::int64_t d; shape_fields >> d;) shape.push_back(d);

    const nf::host_array h = nf::load(path).to_host();
    CHECK(std::string(numpy_name(h.dtype)) == dtype_line);
    CHECK(nf::shape_str(h.shape) == nf::shape_str(shape));
    if (std::string(numpy_name(h.dtype)) != dtype_line || h.shape != shape) continue;
    std::size_t count = 1;
    for (auto d : shape) count *= static_cast<std::size_t>(d);
    REQUIRE(h.bytes.size() == count * nf::itemsize(h.dtype));
    std::string line;
    for (std::size_t i = 0; i < count; ++i) {
      std::getline(expected, line);
      if (!element_matches(h, i, line)) {
        FAIL_CHECK("element " << i << ": expected " << line);
        break;
      }
    }
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
