// What test_npy.cpp and test_npz.cpp share: the oracle's paths and Python, the arrays that
// check_npy.py expects, and the comparison with gen_npy.py's .expected texts.
#pragma once
#include <array>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace npy_support {

namespace nf = ndfuse;
namespace fs = std::filesystem;

// NumPy's names, in ndfuse's dtype enum order (bfloat16: ml_dtypes' name; NumPy has none).
inline constexpr std::array<const char*, nf::dtype_count> numpy_names = {
    "bool",   "int8",    "int16",   "int32",   "int64",     "uint8",      "uint16",  "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128", "bfloat16"};
inline const char* numpy_name(nf::dtype t) {
  return numpy_names[static_cast<std::size_t>(t)];
}

inline std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

inline fs::path scratch_dir(const std::string& sub) {
  const std::string base = env_or_empty("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(base.empty() ? fs::temp_directory_path().string() : base) / sub;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Empty when NDFUSE_PYTHON is unset or cannot import NumPy 2.
inline std::string numpy_python() {
  const std::string py = env_or_empty("NDFUSE_PYTHON");
  if (py.empty()) return {};
  const std::string cmd =
      quoted(py) +
      " -c 'import numpy, sys; sys.exit(int(numpy.__version__.split(\".\")[0]) < 2)' > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? py : std::string();
}

inline fs::path oracle_script(const std::string& name) {
  const std::string src = env_or_empty("NDFUSE_SOURCE_DIR");
  return (src.empty() ? fs::path(__FILE__).parent_path() : fs::path(src) / "tests") / "oracle" / name;
}

inline std::uint16_t half_bits(float f) {
  return nf::float16_t(f).bits;
}

// Receives each named case array: nf::save writes it to a file, nf::savez collects it.
using case_sink = std::function<void(const std::string& name, const nf::array& a)>;

template <class T>
inline void save_case(const case_sink& sink, const std::string& name, nf::dtype t,
                      const std::vector<T>& values, const nf::shape_t& shape) {
  static const T placeholder{};  // empty arrays still pass a valid pointer
  sink(name, nf::array::from_host_copy(t, shape, values.empty() ? &placeholder : values.data()));
}

// Makes special_, scalar_, empty_, empty3_ and cube_ cases of one dtype (see check_npy.py).
// cube(i) gives element i of the (2, 3, 4) case.
template <class T, class Cube>
inline void save_dtype_cases(const case_sink& dir, nf::dtype t, const std::vector<T>& special, Cube cube) {
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
inline void save_int_cases(const case_sink& dir) {
  using lim = std::numeric_limits<I>;
  std::vector<I> special = std::is_signed_v<I> ? std::vector<I>{lim::min(), I(-1), 0, 1, lim::max()}
                                               : std::vector<I>{0, 1, lim::max()};
  save_dtype_cases(dir, nf::dtype_of<I>, special,
                   [](int i) { return static_cast<I>(std::is_signed_v<I> ? i * 7 - 50 : i * 7); });
}

template <class F>
inline void save_float_cases(const case_sink& dir) {
  using lim = std::numeric_limits<F>;
  const std::vector<F> special = {
      lim::quiet_NaN(), lim::infinity(),   -lim::infinity(), F(-0.0), F(0.0), lim::max(),
      -lim::max(),      lim::denorm_min(), lim::min(),       F(1),    F(0.1)};
  save_dtype_cases(dir, nf::dtype_of<F>, special, [](int i) { return F((i - 11.5) / 4); });
}

template <class F>
inline void save_complex_cases(const case_sink& dir) {
  using lim = std::numeric_limits<F>;
  using C = std::complex<F>;
  const std::vector<C> special = {C(lim::quiet_NaN(), 0),           C(0, lim::infinity()),
                                  C(-lim::infinity(), F(-0.0)),     C(F(-0.0), F(1.5)),
                                  C(lim::max(), lim::denorm_min()), C(F(1.5), F(-0.1))};
  save_dtype_cases(dir, nf::dtype_of<C>, special, [](int i) { return C(F((i - 11.5) / 4), F(i / 8.0)); });
}

// Compares an element of loaded host data with one line of a gen_npy.py .expected file.
inline bool float_matches(double got, const std::string& field) {
  const double want = std::strtod(field.c_str(), nullptr);
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

inline bool element_matches(const nf::host_array& h, std::size_t i, const std::string& line) {
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
    case nf::dtype::bfloat16:
      return false;  // the .npy format has no bfloat16
  }
  return false;
}
// Every array check_npy.py expects (its expected_cases()), by name.
inline void make_check_npy_cases(const case_sink& sink) {
  save_dtype_cases(sink, nf::dtype::bool_, std::vector<std::uint8_t>{1, 0, 1, 1},
                   [](int i) { return std::uint8_t(i % 3 == 0); });
  save_int_cases<std::int8_t>(sink);
  save_int_cases<std::int16_t>(sink);
  save_int_cases<std::int32_t>(sink);
  save_int_cases<std::int64_t>(sink);
  save_int_cases<std::uint8_t>(sink);
  save_int_cases<std::uint16_t>(sink);
  save_int_cases<std::uint32_t>(sink);
  save_int_cases<std::uint64_t>(sink);
  // float16 by bit pattern: nan, inf, -inf, -0, 0, max, -max, smallest subnormal, smallest normal, 1, 0.1
  const std::vector<std::uint16_t> half_special = {0x7e00, 0x7c00, 0xfc00, 0x8000, 0x0000, 0x7bff,
                                                   0xfbff, 0x0001, 0x0400, 0x3c00, 0x2e66};
  save_dtype_cases(sink, nf::dtype::float16, half_special,
                   [](int i) { return half_bits(float((i - 11.5) / 4)); });
  save_float_cases<float>(sink);
  save_float_cases<double>(sink);
  save_complex_cases<float>(sink);
  save_complex_cases<double>(sink);
  // save evaluates a lazy expression first.
  nf::array x = nf::asarray(std::vector<double>{0, 1, 2, 3, 4, 5}, {2, 3});
  sink("lazy_times_two", x * 2.0);
}

// Checks loaded host data against a gen_npy.py .expected text: dtype, shape, each element.
inline void check_expected(const nf::host_array& h, std::istream& expected) {
  std::string dtype_line, shape_line;
  std::getline(expected, dtype_line);
  std::getline(expected, shape_line);
  nf::shape_t shape;
  std::istringstream shape_fields(shape_line);
  for (std::int64_t d; shape_fields >> d;) shape.push_back(d);
  CHECK(std::string(numpy_name(h.dtype)) == dtype_line);
  CHECK(nf::shape_str(h.shape) == nf::shape_str(shape));
  if (std::string(numpy_name(h.dtype)) != dtype_line || h.shape != shape) return;
  std::size_t count = 1;
  for (auto d : shape) count *= static_cast<std::size_t>(d);
  REQUIRE(h.bytes.size() == count * nf::itemsize(h.dtype));
  std::string line;
  for (std::size_t i = 0; i < count; ++i) {
    std::getline(expected, line);
    if (!element_matches(h, i, line)) {
      FAIL_CHECK("element " << i << ": expected " << line);
      return;
    }
  }
}

}  // namespace npy_support
