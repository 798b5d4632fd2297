// Shared helpers of the NumPy-oracle tests (test_ops, test_broadcast, test_promotion, test_creation):
// manifest and .npy reading, weak-scalar tokens, and per-dtype comparison with stated tolerances.
// Expected arrays are read here, independently of ndfuse's own loader, so a loader bug cannot hide
// a wrong result; inputs go through nf::load like user data.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <ndfuse/ndfuse.hpp>

#include "catch.hpp"

namespace oracle {

inline const char* const dtype_names[nf::dtype_count] = {
    "bool",   "int8",    "int16",   "int32",   "int64",     "uint8",      "uint16",  "uint32",
    "uint64", "float16", "float32", "float64", "complex64", "complex128", "bfloat16"};

inline std::string name_of(nf::dtype t) {
  return dtype_names[static_cast<int>(t)];
}

inline nf::dtype parse_dtype(const std::string& name) {
  for (int i = 0; i < nf::dtype_count; ++i)
    if (name == dtype_names[i]) return static_cast<nf::dtype>(i);
  throw std::runtime_error("oracle: unknown dtype name '" + name + "'");
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// The directory a generator wrote (NDFUSE_ORACLE_DIR/<sub>), or "" when there is no manifest: the
// caller then skips, since a missing oracle must never read as a pass.
inline std::string oracle_dir(const std::string& sub) {
  const char* root = std::getenv("NDFUSE_ORACLE_DIR");
  if (!root || !*root) return "";
  std::string dir = std::string(root) + "/" + sub;
  return std::ifstream(dir + "/manifest.tsv").good() ? dir : "";
}

// Rows of a tab-separated manifest. NDFUSE_ORACLE_FILTER=<substring> keeps only matching case ids.
inline std::vector<std::vector<std::string>> read_manifest(const std::string& dir) {
  std::ifstream in(dir + "/manifest.tsv");
  const char* filter = std::getenv("NDFUSE_ORACLE_FILTER");
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto fields = split(line, '\t');
    if (filter && *filter && fields[0].find(filter) == std::string::npos) continue;
    rows.push_back(std::move(fields));
  }
  return rows;
}

// "k=v;k=v" -> map
inline std::map<std::string, std::string> parse_params(const std::string& s) {
  std::map<std::string, std::string> out;
  if (s.empty() || s == "-") return out;
  for (const auto& kv : split(s, ';')) {
    auto eq = kv.find('=');
    out[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
  return out;
}

// "2,3" -> {2, 3}; "" -> {} (0-d)
inline nf::shape_t parse_shape(const std::string& s) {
  nf::shape_t out;
  if (s.empty()) return out;
  for (const auto& p : split(s, ',')) out.push_back(std::stoll(p));
  return out;
}

// Python's spelling of a shape tuple, "(2, 3)", "(3,)" or "()" -> {2, 3}, {3}, {}
inline nf::shape_t parse_numpy_shape(const std::string& s) {
  nf::shape_t out;
  for (const auto& p : split(s.substr(1, s.size() - 2), ','))
    if (p.find_first_not_of(' ') != std::string::npos) out.push_back(std::stoll(p));
  return out;
}

// NumPy's spelling of a shape: (2, 3), (3,), ()
inline std::string numpy_shape(const nf::shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// --- weak scalars: the C++ literal types a user writes -------------------------------------------------
using scalar_value = std::variant<bool, std::int64_t, std::uint64_t, double, std::complex<double>>;

inline bool is_scalar_token(const std::string& t) {
  return t.size() > 2 && t[1] == ':' && t.find('/') == std::string::npos;
}

inline scalar_value parse_scalar(const std::string& t) {
  std::string rest = t.substr(2);
  switch (t[0]) {
    case 'b':
      return rest == "1";
    case 'i':
      return static_cast<std::int64_t>(std::stoll(rest));
    case 'u':
      return static_cast<std::uint64_t>(std::stoull(rest));
    case 'f':
      return std::strtod(rest.c_str(), nullptr);
    case 'c': {
      auto parts = split(rest, ':');
      return std::complex<double>(std::strtod(parts.at(0).c_str(), nullptr),
                                  std::strtod(parts.at(1).c_str(), nullptr));
    }
  }
  throw std::runtime_error("oracle: bad scalar token '" + t + "'");
}

inline nf::scalar to_nf_scalar(const scalar_value& v) {
  return std::visit([](auto x) { return nf::scalar(x); }, v);
}

// --- .npy reading (expected arrays) ----------------------------------------------------------------------
inline nf::host_array read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("oracle: cannot open " + path);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
    throw std::runtime_error("oracle: not .npy: " + path);
  int major = static_cast<unsigned char>(data[6]);
  std::size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    header_start = 10;
  } else {
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= std::size_t(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    header_start = 12;
  }
  std::string header = data.substr(header_start, header_len);
  auto field = [&](const std::string& key) {
    auto pos = header.find("'" + key + "':");
    if (pos == std::string::npos) throw std::runtime_error("oracle: npy header lacks " + key + ": " + path);
    return header.substr(pos + key.size() + 3);
  };
  std::string descr = field("descr");
  descr = descr.substr(descr.find('\'') + 1);
  descr = descr.substr(0, descr.find('\''));
  std::string order = field("fortran_order");
  if (order.compare(order.find_first_not_of(' '), 5, "False") != 0)
    throw std::runtime_error("oracle: Fortran-order expected file " + path);
  static const std::map<std::string, nf::dtype> descrs = {
      {"|b1", nf::bool_},     {"|i1", nf::int8},       {"<i2", nf::int16},   {"<i4", nf::int32},
      {"<i8", nf::int64},     {"|u1", nf::uint8},      {"<u2", nf::uint16},  {"<u4", nf::uint32},
      {"<u8", nf::uint64},    {"<f2", nf::float16},    {"<f4", nf::float32}, {"<f8", nf::float64},
      {"<c8", nf::complex64}, {"<c16", nf::complex128}};
  auto it = descrs.find(descr);
  if (it == descrs.end()) throw std::runtime_error("oracle: unsupported descr " + descr + " in " + path);
  nf::host_array h;
  h.dtype = it->second;
  std::string shape = field("shape");
  shape = shape.substr(shape.find('(') + 1, shape.find(')') - shape.find('(') - 1);
  for (const auto& p : split(shape, ','))
    if (p.find_first_not_of(' ') != std::string::npos) h.shape.push_back(std::stoll(p));
  std::size_t count = 1;
  for (auto d : h.shape) count *= static_cast<std::size_t>(d);
  std::size_t nbytes = count * nf::itemsize(h.dtype), offset = header_start + header_len;
  if (data.size() < offset + nbytes) throw std::runtime_error("oracle: truncated " + path);
  h.bytes.resize(nbytes);
  if (nbytes) std::memcpy(h.bytes.data(), data.data() + offset, nbytes);  // empty: data() may be null
  return h;
}

// --- element access and formatting ------------------------------------------------------------------
inline double half_to_double(std::uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v = exponent == 0    ? std::ldexp(mantissa, -24)
             : exponent == 31 ? (mantissa ? NAN : INFINITY)
                              : std::ldexp(mantissa | 0x400, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

template <class T>
inline T element(const nf::host_array& h, std::size_t i) {
  T v;
  std::memcpy(&v, h.bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

// Real or complex value of element i, as complex<double> (exact for every float dtype).
inline std::complex<double> element_c(const nf::host_array& h, std::size_t i) {
  switch (h.dtype) {
    case nf::dtype::float16:
      return half_to_double(element<std::uint16_t>(h, i));
    case nf::dtype::float32:
      return element<float>(h, i);
    case nf::dtype::float64:
      return element<double>(h, i);
    case nf::dtype::complex64:
      return std::complex<double>(element<std::complex<float>>(h, i));
    case nf::dtype::complex128:
      return element<std::complex<double>>(h, i);
    default:
      return 0.0;
  }
}

inline std::string format_real(double v) {
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

inline std::string value_str(const nf::host_array& h, std::size_t i) {
  switch (h.dtype) {
    case nf::dtype::bool_:
      return element<std::uint8_t>(h, i) ? "True" : "False";
    case nf::dtype::int8:
      return std::to_string(element<std::int8_t>(h, i));
    case nf::dtype::int16:
      return std::to_string(element<std::int16_t>(h, i));
    case nf::dtype::int32:
      return std::to_string(element<std::int32_t>(h, i));
    case nf::dtype::int64:
      return std::to_string(element<std::int64_t>(h, i));
    case nf::dtype::uint8:
      return std::to_string(element<std::uint8_t>(h, i));
    case nf::dtype::uint16:
      return std::to_string(element<std::uint16_t>(h, i));
    case nf::dtype::uint32:
      return std::to_string(element<std::uint32_t>(h, i));
    case nf::dtype::uint64:
      return std::to_string(element<std::uint64_t>(h, i));
    case nf::dtype::complex64:
    case nf::dtype::complex128: {
      auto c = element_c(h, i);
      std::string s = "(";  // appended piecewise: GCC 12 misreports "literal" + string as -Wrestrict
      s += format_real(c.real());
      s += std::signbit(c.imag()) ? "" : "+";
      s += format_real(c.imag());
      return s + "j)";
    }
    default:
      return format_real(element_c(h, i).real());
  }
}

inline std::size_t element_count(const nf::host_array& h) {
  std::size_t n = 1;
  for (auto d : h.shape) n *= static_cast<std::size_t>(d);
  return n;
}

// --- comparison ---------------------------------------------------------------------------------------
// Integers and bools: exact. float16: within 1 ulp (NumPy computes half ops in float32 and rounds once;
// another correct implementation can land one ulp away). float32/float64: relative tolerance, tighter
// for correctly rounded arithmetic than for transcendental functions, plus the smallest normal as an
// absolute floor for the latter (denormal results). NaN must match NaN, infinities are exact, and with
// zero_sign the sign of a zero result must match (ops where NumPy defines it).
struct tolerance {
  bool transcendental = false;
  bool zero_sign = false;
  // The dtype the op computed in, when the result was then cast to a wider one (out= targets): a
  // float32 sin stored into float64 still carries float32 error.
  std::optional<nf::dtype> computed_in;
  // Per element, the error amplification the op itself has on those inputs (complex power:
  // |b*log(a)|), so NumPy's reference carries rounding error that much larger. None: 1 everywhere.
  std::optional<nf::host_array> condition;
};

inline tolerance tolerance_from(const std::map<std::string, std::string>& params) {
  tolerance t;
  auto it = params.find("tol");
  t.transcendental = it != params.end() && it->second == "transc";
  t.zero_sign = params.count("zsign") && params.at("zsign") == "1";
  if (params.count("prec")) t.computed_in = parse_dtype(params.at("prec"));
  return t;
}

// 0: half, 1: single, 2: double precision (integers and bools count as exact, i.e. double).
inline int precision_level(nf::dtype t) {
  if (t == nf::dtype::float16) return 0;
  if (t == nf::dtype::float32 || t == nf::dtype::complex64) return 1;
  return 2;
}
inline int precision_level(nf::dtype t, const tolerance& tol) {
  int level = precision_level(t);
  return tol.computed_in ? std::min(level, precision_level(*tol.computed_in)) : level;
}

inline double rtol_for(nf::dtype t, const tolerance& tol) {
  switch (precision_level(t, tol)) {
    case 0:
      return 1e-3;  // one float16 ulp
    case 1:
      return tol.transcendental ? 4e-6 : 1e-6;
    default:
      return tol.transcendental ? 1e-13 : 1e-15;
  }
}
inline double atol_for(nf::dtype t, const tolerance& tol) {
  if (!tol.transcendental) return 0.0;
  switch (precision_level(t, tol)) {  // the smallest normal: denormal results may differ
    case 0:
      return 6.103515625e-05;
    case 1:
      return 1.1754943508222875e-38;
    default:
      return 2.2250738585072014e-308;
  }
}

inline int half_ulps(std::uint16_t a, std::uint16_t b) {
  auto ordered = [](std::uint16_t h) { return (h & 0x8000) ? -int(h & 0x7fff) : int(h); };
  return std::abs(ordered(a) - ordered(b));
}

// One real component: true when `got` matches `expected`.
inline bool real_close(double got, double expected, double rtol, double atol, bool zero_sign) {
  if (std::isnan(expected)) return std::isnan(got);
  if (std::isinf(expected)) return got == expected;
  if (!std::isfinite(got)) return false;
  if (zero_sign && expected == 0) return got == 0 && std::signbit(got) == std::signbit(expected);
  return std::abs(got - expected) <= atol + rtol * std::abs(expected);
}

inline bool element_close(const nf::host_array& g, const nf::host_array& e, std::size_t i,
                          const tolerance& tol) {
  nf::dtype t = e.dtype;
  std::size_t size = nf::itemsize(t);
  switch (t) {
    case nf::dtype::bool_:
      return (element<std::uint8_t>(g, i) != 0) == (element<std::uint8_t>(e, i) != 0);
    case nf::dtype::float16: {
      auto gb = element<std::uint16_t>(g, i), eb = element<std::uint16_t>(e, i);
      double gv = half_to_double(gb), ev = half_to_double(eb);
      if (std::isnan(ev) || std::isinf(ev) || (tol.zero_sign && ev == 0) || !std::isfinite(gv))
        return real_close(gv, ev, 0, 0, tol.zero_sign);
      return gv == ev || half_ulps(gb, eb) <= 1;
    }
    case nf::dtype::float32:
    case nf::dtype::float64:
      return real_close(element_c(g, i).real(), element_c(e, i).real(), rtol_for(t, tol), atol_for(t, tol),
                        tol.zero_sign);
    case nf::dtype::complex64:
    case nf::dtype::complex128: {
      auto gv = element_c(g, i), ev = element_c(e, i);
      double cond = 1.0;
      if (tol.condition) std::memcpy(&cond, tol.condition->bytes.data() + i * sizeof(double), sizeof(double));
      double rtol = rtol_for(t, tol) * cond, atol = atol_for(t, tol);
      // Past total loss of precision only the class of the value (overflowed or not) is defined.
      if (rtol >= 1 && !std::isfinite(std::abs(ev))) return !std::isfinite(std::abs(gv));
      bool finite = std::isfinite(ev.real()) && std::isfinite(ev.imag()) && std::isfinite(gv.real()) &&
                    std::isfinite(gv.imag());
      if (!finite)  // component by component: NaN, inf and finite parts each as for reals
        return real_close(gv.real(), ev.real(), rtol, atol, tol.zero_sign) &&
               real_close(gv.imag(), ev.imag(), rtol, atol, tol.zero_sign);
      // Relative to |expected|: a small component next to a large one carries the large one's error.
      if (std::abs(gv - ev) > atol + rtol * std::abs(ev)) return false;
      if (tol.zero_sign) {
        if (ev.real() == 0 && (gv.real() != 0 || std::signbit(gv.real()) != std::signbit(ev.real())))
          return false;
        if (ev.imag() == 0 && (gv.imag() != 0 || std::signbit(gv.imag()) != std::signbit(ev.imag())))
          return false;
      }
      return true;
    }
    default:  // integers
      return std::memcmp(g.bytes.data() + i * size, e.bytes.data() + i * size, size) == 0;
  }
}

// "" when `got` matches `expected` (dtype, shape and every value); otherwise what differs, with up to
// five mismatching elements. `context(i)` may describe the inputs behind element i.
template <class Context>
inline std::string compare(const nf::host_array& got, const nf::host_array& expected, const tolerance& tol,
                           Context&& context, bool values = true) {
  if (got.dtype != expected.dtype)
    return "dtype: got " + name_of(got.dtype) + ", expected " + name_of(expected.dtype);
  if (got.shape != expected.shape)
    return "shape: got " + numpy_shape(got.shape) + ", expected " + numpy_shape(expected.shape);
  std::size_t n = element_count(expected);
  if (got.bytes.size() != n * nf::itemsize(expected.dtype))
    return "host_array holds " + std::to_string(got.bytes.size()) + " bytes for " + std::to_string(n) +
           " elements";
  if (!values) return "";
  std::string out;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (element_close(got, expected, i, tol)) continue;
    if (++bad <= 5)
      out += "\n  [" + std::to_string(i) + "] got " + value_str(got, i) + ", expected " +
             value_str(expected, i) + context(i);
  }
  if (!bad) return "";
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ" +
         (bad > 5 ? " (first 5)" : "") + out;
}

inline std::string compare(const nf::host_array& got, const nf::host_array& expected, const tolerance& tol) {
  return compare(got, expected, tol, [](std::size_t) { return std::string(); });
}

// --- expected exceptions --------------------------------------------------------------------------------
// Runs `build` (which must only build nodes) and returns "" when it throws the ndfuse exception that
// `kind` names (dtype_error, shape_error or index_error), else what happened instead.
template <class F>
inline std::string expect_throw(const std::string& kind, F&& build) {
  try {
    nf::array r = build();
    return "expected nf::" + kind + " at the call, but it returned an array of dtype " + name_of(r.dtype()) +
           " and shape " + numpy_shape(r.shape());
  } catch (const nf::dtype_error& e) {
    if (kind == "dtype_error") return "";
    return std::string("expected nf::") + kind + ", got nf::dtype_error: " + e.what();
  } catch (const nf::shape_error& e) {
    if (kind == "shape_error") return "";
    return std::string("expected nf::") + kind + ", got nf::shape_error: " + e.what();
  } catch (const nf::index_error& e) {
    if (kind == "index_error") return "";
    return std::string("expected nf::") + kind + ", got nf::index_error: " + e.what();
  } catch (const nf::value_error& e) {
    if (kind == "value_error") return "";
    return std::string("expected nf::") + kind + ", got nf::value_error: " + e.what();
  } catch (const nf::linalg_error& e) {
    if (kind == "linalg_error") return "";
    return std::string("expected nf::") + kind + ", got nf::linalg_error: " + e.what();
  } catch (const std::exception& e) {
    return std::string("expected nf::") + kind + ", got another exception: " + e.what();
  }
}

// The nf error a call threw, by the name the oracles' RAISES:<name>:... tokens use ("nothing" when it
// returned), so a test compares it with what NumPy raised.
inline std::string thrown_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const nf::shape_error&) {
    return "shape_error";
  } catch (const nf::dtype_error&) {
    return "dtype_error";
  } catch (const nf::index_error&) {
    return "index_error";
  } catch (const nf::value_error&) {
    return "value_error";
  } catch (const std::exception& e) {
    return std::string("another exception: ") + e.what();
  }
  return "nothing";
}

// The kernels the second build and read of an expression launches: the first compiles what it
// needs, so the count is the plan's launches alone (what fusion tests assert).
inline std::uint64_t kernels_launched_by(const std::function<nf::array()>& build) {
  (void)build().to_host();
  nf::reset_stats();
  (void)build().to_host();
  return nf::stats().kernels_launched;
}

// A table of calls by oracle id, each of the loaded inputs to its results (gen_composites.py's
// manifest: id, inputs, expected results or RAISES:<nf error>:<NumPy exception>).
using call_inputs = std::vector<nf::array>;
using call_fn = std::function<std::vector<nf::array>(const call_inputs&)>;

// Adds each call of `edge` as edge_<name>_empty and edge_<name>_0d: the oracles' EDGE_CALLS, made
// on an empty and a 0-d input.
inline void add_edge_calls(std::map<std::string, call_fn>& table,
                           const std::map<std::string, call_fn>& edge) {
  for (const auto& [name, f] : edge)
    for (const char* kind : {"empty", "0d"}) table["edge_" + name + "_" + kind] = f;
}

// Runs every row of the manifest in `dir` through its call: each result against NumPy's (with the
// transcendental tolerance where `transcendental(id)` says so), or the nf error NumPy's exception
// maps to. Returns the number of rows checked.
inline int check_call_table(const std::string& dir, const std::map<std::string, call_fn>& calls,
                            const std::function<bool(const std::string&)>& transcendental) {
  int checked = 0;
  for (const auto& row : read_manifest(dir)) {
    const std::string& id = row[0];
    INFO(id);
    const auto it = calls.find(id);
    REQUIRE(it != calls.end());
    call_inputs in;
    if (row[1] != "-")
      for (const auto& f : split(row[1], ',')) in.push_back(nf::load(dir + "/" + f));
    if (row[2].rfind("RAISES:", 0) == 0) {
      CHECK(thrown_error([&] {
              for (auto& r : it->second(in)) r.eval();
            }) == split(row[2], ':')[1]);
    } else {
      const std::vector<nf::array> got = it->second(in);
      const auto expected = split(row[2], ',');
      REQUIRE(got.size() == expected.size());
      tolerance tol;
      tol.transcendental = transcendental(id);
      for (std::size_t o = 0; o < got.size(); ++o)
        CHECK(compare(got[o].to_host(), read_npy(dir + "/" + expected[o]), tol) == "");
    }
    ++checked;
  }
  return checked;
}

}  // namespace oracle
