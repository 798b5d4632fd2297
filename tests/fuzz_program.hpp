// The random-program generator shared by the fuzz test (fused against eager) and the cross-backend
// test (cpu against cuda): random DAGs of elementwise, broadcast, reduction and scan ops over
// random inputs, fully determined by a seed.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ndfuse/ndfuse.hpp"

namespace ndfuse_test {

using builder = std::function<nf::array(const nf::array&, const nf::array&, double)>;

inline const std::vector<std::pair<const char*, builder>>& ops() {
  static const std::vector<std::pair<const char*, builder>> table = {
      {"add", [](auto& a, auto& b, double) { return a + b; }},
      {"subtract", [](auto& a, auto& b, double) { return a - b; }},
      {"multiply", [](auto& a, auto& b, double) { return a * b; }},
      {"true_divide", [](auto& a, auto& b, double) { return a / b; }},
      {"floor_divide", [](auto& a, auto& b, double) { return nf::floor_divide(a, b); }},
      {"remainder", [](auto& a, auto& b, double) { return a % b; }},
      {"maximum", [](auto& a, auto& b, double) { return nf::maximum(a, b); }},
      {"fmin", [](auto& a, auto& b, double) { return nf::fmin(a, b); }},
      {"less", [](auto& a, auto& b, double) { return a < b; }},
      {"equal", [](auto& a, auto& b, double) { return a == b; }},
      {"bitwise_xor", [](auto& a, auto& b, double) { return a ^ b; }},
      {"where", [](auto& a, auto& b, double) { return nf::where(a > b, a, b); }},
      {"arctan2", [](auto& a, auto& b, double) { return nf::arctan2(a, b); }},
      {"scalar_mul", [](auto& a, auto&, double s) { return a * s; }},
      {"scalar_add_int", [](auto& a, auto&, double s) { return a + std::int64_t(s); }},
      {"rscalar_sub", [](auto& a, auto&, double s) { return s - a; }},
      {"negative", [](auto& a, auto&, double) { return -a; }},
      {"abs", [](auto& a, auto&, double) { return nf::abs(a); }},
      {"sqrt", [](auto& a, auto&, double) { return nf::sqrt(a); }},
      {"exp", [](auto& a, auto&, double) { return nf::exp(a); }},
      {"sin", [](auto& a, auto&, double) { return nf::sin(a); }},
      {"square", [](auto& a, auto&, double) { return nf::square(a); }},
      {"floor", [](auto& a, auto&, double) { return nf::floor(a); }},
      {"isnan", [](auto& a, auto&, double) { return nf::isnan(a); }},
      {"to_float32", [](auto& a, auto&, double) { return a.astype(nf::float32); }},
      {"to_int32", [](auto& a, auto&, double) { return nf::clip(a, -1000, 1000).astype(nf::int32); }},
      {"to_float64", [](auto& a, auto&, double) { return a.astype(nf::float64); }},
      {"in_place_add",
       [](auto& a, auto& b, double) {
         nf::array c = a;
         c += b;
         return c;
       }},
      {"clip", [](auto& a, auto&, double s) { return nf::clip(a, -s, s); }},
      // Reductions and scans: keepdims keeps later broadcasting meaningful; a bad axis or an empty
      // max throws at the call, which the generator records and skips.
      {"sum_last_keep", [](auto& a, auto&, double) { return nf::sum(a, -1, true); }},
      {"mean_all", [](auto& a, auto&, double) { return nf::mean(a); }},
      {"max_first_keep", [](auto& a, auto&, double) { return nf::max(a, 0, true); }},
      {"argmin_last_keep", [](auto& a, auto&, double) { return nf::argmin(a, -1, true); }},
      {"prod_all_keep", [](auto& a, auto&, double) { return nf::prod(a, nf::none, true); }},
      {"any_first_keep", [](auto& a, auto&, double) { return nf::any(a, 0, true); }},
      {"var_last_keep", [](auto& a, auto&, double) { return nf::var(a, -1, 1.0, true); }},
      {"nansum_first_keep", [](auto& a, auto&, double) { return nf::nansum(a, 0, true); }},
      {"norm", [](auto& a, auto&, double) { return nf::linalg::norm(a); }},
      {"cumsum_last", [](auto& a, auto&, double) { return nf::cumsum(a, -1); }},
      {"sum_of_product", [](auto& a, auto& b, double) { return nf::sum(a * b, 0, true); }},
      // Views, joins, gathers and library calls: index remaps inside the kernel that reads them.
      {"flip_last", [](auto& a, auto&, double) { return nf::flip(a, -1); }},
      {"transpose", [](auto& a, auto&, double) { return nf::transpose(a); }},
      {"every_other_reversed", [](auto& a, auto&, double) { return a(nf::ellipsis, nf::slice(nf::none, nf::none, -2)); }},
      {"drop_first", [](auto& a, auto&, double) { return a(nf::slice(1, nf::none)); }},
      // Steps and bounds at the ends of int64: Python's slice.indices, one element or all of them.
      {"step_int64_max",
       [](auto& a, auto&, double) { return a(nf::slice(nf::none, nf::none, INT64_MAX)); }},
      {"step_int64_min",
       [](auto& a, auto&, double) { return a(nf::ellipsis, nf::slice(INT64_MAX, INT64_MIN, INT64_MIN)); }},
      {"bounds_int64", [](auto& a, auto&, double) { return a(nf::slice(INT64_MIN, INT64_MAX)); }},
      // A shape past what an offset can address: throws value_error at the call, which the
      // generator records and skips, every array before it intact.
      {"broadcast_too_big",
       [](auto& a, auto&, double) {
         nf::shape_t huge = a.shape();
         huge.insert(huge.begin(), {std::int64_t{1} << 40, std::int64_t{1} << 40});
         return nf::broadcast_to(a, huge);
       }},
      {"ravel_reshape", [](auto& a, auto&, double) { return a.T().ravel().reshape(a.shape()); }},
      {"roll", [](auto& a, auto&, double) { return nf::roll(a, 1, 0); }},
      {"concatenate", [](auto& a, auto& b, double) { return nf::concatenate({a, b}, -1); }},
      {"gather_rows", [](auto& a, auto&, double) { return a(nf::asarray(std::vector<std::int64_t>{-1, 0, 0})); }},
      {"take_reversed",
       [](auto& a, auto&, double) { return nf::take(a, nf::arange(a.size() - 1, -1, -1)); }},
      {"set_nan_zero",
       [](auto& a, auto&, double) {
         nf::array c = a;
         c(nf::isnan(a)) = 0;
         return c;
       }},
      {"set_rows",
       [](auto& a, auto& b, double) {
         nf::array c = a;
         c(nf::asarray(std::vector<std::int64_t>{0, -1})) = b;
         return c;
       }},
      {"argsort_last", [](auto& a, auto&, double) { return nf::argsort(a, -1); }},
  };
  return table;
}

// Whether a program's op log (outcome::log) ran a reduction or a scan: their fold order differs
// between backends (never between fused and eager on one backend), so cross-backend comparisons
// of such floats allow rounding differences.
inline bool uses_reduction(const std::string& log) {
  for (const char* name :
       {"sum_", "mean_", "max_", "argmin_", "prod_", "any_", "var_", "nansum_", "norm", "cumsum_"})
    if (log.find(std::string(" ") + name) != std::string::npos || log.rfind(name, 0) == 0) return true;
  return false;
}

inline const nf::dtype input_dtypes[] = {nf::float64, nf::float32, nf::int32,   nf::int64,
                                         nf::uint8,   nf::bool_,   nf::float16, nf::complex128};

inline nf::shape_t random_shape(std::mt19937_64& rng, const nf::shape_t& base) {
  nf::shape_t s;
  std::size_t drop = rng() % (base.size() + 1);
  for (std::size_t i = drop; i < base.size(); ++i) s.push_back(rng() % 3 == 0 ? 1 : base[i]);
  return s;
}

inline nf::array random_input(std::mt19937_64& rng, const nf::shape_t& shape, nf::dtype t) {
  static const double floats[] = {-3.5, -1.0,  -0.0, 0.0, 0.5,      2.0,
                                  7.25, 100.0, 1e-3, NAN, INFINITY, -INFINITY};
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    if (nf::is_inexact(t))
      x = floats[rng() % std::size(floats)];
    else if (t == nf::bool_)
      x = double(rng() % 2);
    else if (t == nf::uint8)
      x = double(rng() % 256);
    else
      x = double(static_cast<std::int64_t>(rng() % 101) - 50);
  }
  nf::array a = nf::asarray(v, shape).astype(t);
  a.eval();
  return a;
}

// Where two results first differ, for a failure message: "[i] a vs b" with both read as float64.
inline std::string first_difference(const nf::host_array& a, const nf::host_array& b) {
  if (a.dtype != b.dtype || a.bytes.size() != b.bytes.size()) return "dtype or size differs";
  auto as_f64 = [](const nf::host_array& h) {  // complex: the real part
    nf::array v = nf::asarray(h);
    return (nf::is_complex(h.dtype) ? nf::real(v) : v).astype(nf::float64);
  };
  const nf::array x = as_f64(a), y = as_f64(b);
  const auto xs = x.to_vector<double>(), ys = y.to_vector<double>();
  const std::size_t item = nf::itemsize(a.dtype);
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (std::memcmp(a.bytes.data() + i * item, b.bytes.data() + i * item, item) != 0 &&
        !(std::isnan(xs[i]) && std::isnan(ys[i]))) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "[%zu of %zu] %.17g vs %.17g", i, xs.size(), xs[i], ys[i]);
      return buf;
    }
  return "no element differs";
}

// Bit-identical, except that any two NaNs match: the sign and payload of a NaN carry no meaning in
// NumPy, and a compiler may produce either when it fuses (e.g. -sqrt(-1)).
inline bool same_values(const nf::host_array& a, const nf::host_array& b) {
  if (a.bytes == b.bytes) return true;
  if (a.bytes.size() != b.bytes.size()) return false;
  auto compare = [&](auto tag) {
    using T = decltype(tag);
    std::size_t n = a.bytes.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
      T x, y;
      std::memcpy(&x, a.bytes.data() + i * sizeof(T), sizeof(T));
      std::memcpy(&y, b.bytes.data() + i * sizeof(T), sizeof(T));
      if (std::memcmp(&x, &y, sizeof(T)) != 0 && !(std::isnan(x) && std::isnan(y))) return false;
    }
    return true;
  };
  switch (a.dtype) {
    case nf::float32:
    case nf::complex64:
      return compare(float{});
    case nf::float64:
    case nf::complex128:
      return compare(double{});
    case nf::float16: {
      // NaN halves: exponent all ones and a nonzero mantissa.
      std::size_t n = a.bytes.size() / 2;
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t x, y;
        std::memcpy(&x, a.bytes.data() + 2 * i, 2);
        std::memcpy(&y, b.bytes.data() + 2 * i, 2);
        bool nan_x = (x & 0x7c00) == 0x7c00 && (x & 0x3ff), nan_y = (y & 0x7c00) == 0x7c00 && (y & 0x3ff);
        if (x != y && !(nan_x && nan_y)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

struct outcome {
  std::vector<nf::host_array> results;
  std::string log;
};

// Transcendental ops round differently on the two backends (libdevice against glibc, a few ulps),
// and a later floor, remainder or comparison can turn one ulp into any difference: programs compared
// across backends leave them out (the op x dtype part of that test covers them with a tolerance).
inline bool transcendental(const std::string& name) {
  return name == "exp" || name == "sin" || name == "arctan2";
}

inline outcome run_program(std::uint64_t seed, bool eager, bool exact_ops_only = false) {
  std::mt19937_64 rng(seed);
  std::optional<nf::eager_scope> scope;
  if (eager) scope.emplace();
  nf::shape_t base;
  std::size_t nd = rng() % 4;
  for (std::size_t i = 0; i < nd; ++i)
    base.push_back(static_cast<std::int64_t>(rng() % 5) + (rng() % 8 == 0 ? 0 : 1));
  std::vector<nf::array> pool;
  for (int i = 0; i < 3; ++i)
    pool.push_back(random_input(rng, random_shape(rng, base), input_dtypes[rng() % std::size(input_dtypes)]));
  outcome out;
  int n_ops = 3 + static_cast<int>(rng() % 14);
  for (int k = 0; k < n_ops; ++k) {
    const auto& [name, build] = ops()[rng() % ops().size()];
    if (exact_ops_only && transcendental(name)) continue;
    std::size_t ia = rng() % pool.size(), ib = rng() % pool.size();
    double s = static_cast<double>(rng() % 7) - 2.5;
    bool replace = rng() % 2 == 0;  // drops a handle: that node must then fuse, not be written
    try {
      nf::array r = build(pool[ia], pool[ib], s);
      out.log += std::string(name) + " ";
      if (replace)
        pool[ia] = r;
      else
        pool.push_back(r);
    } catch (const nf::error& e) {  // dtype_error, or shape_error from an in-place op
      out.log += std::string("(") + name + ") ";
    }
  }
  std::vector<nf::array> results = {pool.back(), pool[rng() % pool.size()], pool[rng() % pool.size()]};
  if (!eager) nf::eval(results[0], results[1], results[2]);
  for (auto& r : results) out.results.push_back(r.to_host());
  return out;
}

}  // namespace ndfuse_test
