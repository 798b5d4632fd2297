// The CUDA device prelude (jit/prelude/*.cuh) compiled as host C++ and checked against the CPU
// backend's loops (the host functors of src/ir/ops/*.hpp) on special and ordinary values: for
// every op x dtype loop, every cast pair and iota. Ops NumPy defines exactly must agree bit for bit
// (NaN payloads aside); complex transcendental functions, which the prelude implements itself where
// the host calls glibc, must agree to a few ulp of the result's magnitude. Needs no CUDA at all:
// on the GPU the same functions run, with libdevice in place of glibc for real transcendentals.
#include <math.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backend/cpu/loops.hpp"
#include "catch.hpp"
#include "ir/host_types.hpp"
#include "ir/op_registry.hpp"

// Host shims for the few CUDA spellings the prelude uses.
#define __device__
#define __forceinline__ inline
struct uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
#include "../jit/prelude/nf_prelude.cuh"
#undef __device__
#undef __forceinline__

float nf_half_to_float(nf_float16 h) {
  return ndfuse::ir::half_to_float(h.bits);
}
nf_float16 nf_half_from(float f) {
  return {ndfuse::ir::float_to_half(f)};
}
nf_float16 nf_half_from(double d) {
  return {ndfuse::ir::double_to_half(d)};
}

namespace {

namespace ir = ndfuse::ir;
namespace hana = boost::hana;
using ndfuse::dtype;
namespace nf = ndfuse;

// The prelude's storage type of each dtype (what generated code declares).
template <dtype D>
struct dev;
template <>
struct dev<dtype::bool_> {
  using type = bool;
};
template <>
struct dev<dtype::int8> {
  using type = nf_int8;
};
template <>
struct dev<dtype::int16> {
  using type = nf_int16;
};
template <>
struct dev<dtype::int32> {
  using type = nf_int32;
};
template <>
struct dev<dtype::int64> {
  using type = nf_int64;
};
template <>
struct dev<dtype::uint8> {
  using type = nf_uint8;
};
template <>
struct dev<dtype::uint16> {
  using type = nf_uint16;
};
template <>
struct dev<dtype::uint32> {
  using type = nf_uint32;
};
template <>
struct dev<dtype::uint64> {
  using type = nf_uint64;
};
template <>
struct dev<dtype::float16> {
  using type = nf_float16;
};
template <>
struct dev<dtype::bfloat16> {
  using type = nf_bfloat16;
};
template <>
struct dev<dtype::float32> {
  using type = float;
};
template <>
struct dev<dtype::float64> {
  using type = double;
};
template <>
struct dev<dtype::complex64> {
  using type = nf_complex64;
};
template <>
struct dev<dtype::complex128> {
  using type = nf_complex128;
};
template <dtype D>
using dvt = typename dev<D>::type;

// Each op's prelude function, as its CUDA template names it ("nf_<op>(...)", checked below).
template <class Op>
struct dev_fn;
#define NDFUSE_DEV_FN(name, arity) \
  template <>                      \
  struct dev_fn<ir::ops::name> {   \
    template <class... A>          \
    static auto call(A... a) {     \
      return nf_##name(a...);      \
    }                              \
  };
NDFUSE_ELEMENTWISE_OPS(NDFUSE_DEV_FN)
#undef NDFUSE_DEV_FN

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

const std::vector<double> real_values = {0.0,    -0.0, 1.0,   -1.0,  0.5,    -0.5, 1.5,   2.5,    -2.5,
                                         3.0,    -7.0, 0.1,   1e-3,  100.0,  1e30, -1e30, 1e-310, inf,
                                         -inf,   nan,  65504, 1e5,   0.75,   2.0,  -3.5,  10.0,   709.5,
                                         -745.0, 88.5, 1e-8,  0.999, 1.0001, -40.0};
const std::vector<double> complex_parts = {0.0,  -0.0, 1.0,  -1.0, 0.5, 2.5,  -3.0, 1e-10,
                                           1e10, inf,  -inf, nan,  0.9, 30.0, -1e-3};
const std::vector<std::int64_t> int_values = {0,
                                              1,
                                              -1,
                                              2,
                                              -2,
                                              3,
                                              7,
                                              -7,
                                              8,
                                              31,
                                              32,
                                              33,
                                              63,
                                              64,
                                              100,
                                              -100,
                                              127,
                                              128,
                                              -128,
                                              255,
                                              256,
                                              32767,
                                              -32768,
                                              65535,
                                              12345,
                                              -54321,
                                              2147483647,
                                              -2147483648LL,
                                              4294967295LL,
                                              INT64_MAX,
                                              INT64_MIN};

// Ordinary values over many magnitudes (fixed seed): where the complex formulas' accuracy shows.
std::vector<double> random_magnitudes(int n, std::uint64_t seed) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const double u = double(seed >> 11) * 0x1p-53;  // [0, 1)
    const double sign = (seed >> 3) & 1 ? -1.0 : 1.0;
    out.push_back(sign * std::pow(10.0, -8.0 + 16.0 * u));
  }
  return out;
}

// Host storage of dtype D in vectors: bool as its byte (std::vector<bool> packs bits).
template <dtype D>
using store_t = std::conditional_t<D == dtype::bool_, unsigned char, ir::storage_t<D>>;

// The test values of dtype D.
template <dtype D>
std::vector<store_t<D>> values() {
  using S = ir::storage_t<D>;
  std::vector<store_t<D>> out;
  if constexpr (D == dtype::bool_) {
    out = {0, 1};
  } else if constexpr (ir::is_complex_v<S>) {
    using R = typename S::value_type;
    for (double re : complex_parts)
      for (double im : complex_parts) out.emplace_back(static_cast<R>(re), static_cast<R>(im));
    const auto re = random_magnitudes(300, 1), im = random_magnitudes(300, 2);
    for (std::size_t i = 0; i < re.size(); ++i)
      out.emplace_back(static_cast<R>(re[i]), static_cast<R>(im[i]));
    for (std::size_t i = 0; i < 40; ++i)
      out.emplace_back(static_cast<R>(re[i] / 1e8 + 1.0), static_cast<R>(im[i] / 1e8));
  } else if constexpr (D == dtype::float16) {
    std::vector<std::uint16_t> bits;
    for (double v : real_values) bits.push_back(ir::double_to_half(v));
    for (std::uint16_t b : {0x0001, 0x03ff, 0x7bff, 0x8400, 0x3c01})
      bits.push_back(b);  // subnormals, extremes
    for (std::uint16_t b : bits) {
      nf::float16_t h;
      h.bits = b;
      out.push_back(h);
    }
  } else if constexpr (D == dtype::bfloat16) {
    std::vector<std::uint16_t> bits;
    for (double v : real_values) bits.push_back(ir::double_to_bfloat16(v));
    for (std::uint16_t b : {0x0001, 0x007f, 0x7f7f, 0x8080, 0x3f81})
      bits.push_back(b);  // subnormals, extremes
    for (std::uint16_t b : bits) out.push_back(nf::bfloat16_t::from_bits(b));
  } else if constexpr (std::is_floating_point_v<S>) {
    for (double v : real_values) out.push_back(static_cast<S>(v));
    for (double v : random_magnitudes(40, 3)) out.push_back(static_cast<S>(v));
  } else {
    for (std::int64_t v : int_values) out.push_back(static_cast<S>(v));
  }
  return out;
}

template <class T>
T from_bytes(const void* p) {
  T v;
  std::memcpy(static_cast<void*>(&v), p, sizeof v);
  return v;
}

// One real component: equal bits, or both NaN; with a tolerance, also close relative to `scale`.
bool same_real(double host, double device, double tol, double scale) {
  if (std::isnan(host) || std::isnan(device)) return std::isnan(host) && std::isnan(device);
  if (tol == 0) return std::memcmp(&host, &device, sizeof host) == 0;
  if (std::isinf(host) || std::isinf(device)) return host == device;
  return std::fabs(host - device) <= tol * std::max(scale, std::numeric_limits<double>::min());
}

// Compares results of dtype D; returns a description of the difference, or "".
template <dtype D>
std::string compare(const void* host, const void* device, double tol) {
  using S = ir::storage_t<D>;
  auto show = [](auto... v) {
    std::string s;
    ((s += std::to_string(static_cast<double>(v)) + " "), ...);
    return s;
  };
  if constexpr (ir::is_complex_v<S>) {
    const S h = from_bytes<S>(host), d = from_bytes<S>(device);
    // Errors are measured against |result| (a component may be tiny next to the other one).
    double scale = 0;
    for (double part : {double(h.real()), double(h.imag())})
      if (std::isfinite(part)) scale = std::max(scale, std::fabs(part));
    if (same_real(h.real(), d.real(), tol, scale) && same_real(h.imag(), d.imag(), tol, scale)) return "";
    return "host " + show(h.real(), h.imag()) + "device " + show(d.real(), d.imag());
  } else if constexpr (ir::narrow_float_v<D> || std::is_floating_point_v<S>) {
    double h, d;
    if constexpr (D == dtype::float16) {
      h = ir::half_to_float(from_bytes<std::uint16_t>(host));
      d = ir::half_to_float(from_bytes<std::uint16_t>(device));
    } else if constexpr (D == dtype::bfloat16) {
      h = ir::bfloat16_to_float(from_bytes<std::uint16_t>(host));
      d = ir::bfloat16_to_float(from_bytes<std::uint16_t>(device));
    } else {
      h = from_bytes<S>(host);
      d = from_bytes<S>(device);
    }
    if (same_real(h, d, tol, std::fabs(h))) return "";
    return "host " + show(h) + "device " + show(d);
  } else {
    if (std::memcmp(host, device, sizeof(S)) == 0) return "";
    return "host " + show(from_bytes<S>(host)) + "device " + show(from_bytes<S>(device));
  }
}

template <dtype D>
std::string show_input(const store_t<D>& v) {
  if constexpr (ir::is_complex_v<ir::storage_t<D>>)
    return "(" + std::to_string(v.real()) + ", " + std::to_string(v.imag()) + ")";
  else if constexpr (D == dtype::float16)
    return std::to_string(ir::half_to_float(v.bits));
  else if constexpr (D == dtype::bfloat16)
    return std::to_string(ir::bfloat16_to_float(v.bits));
  else
    return std::to_string(static_cast<double>(v));
}

// Complex functions the prelude computes itself (the host calls glibc's c* functions).
bool approximate(ir::op_code op, dtype in) {
  if (!nf::is_complex(in)) return false;
  switch (op) {
    case ir::op_code::op_code_add:
    case ir::op_code::op_code_subtract:
    case ir::op_code::op_code_multiply:
    case ir::op_code::op_code_true_divide:
    case ir::op_code::op_code_negative:
    case ir::op_code::op_code_positive:
    case ir::op_code::op_code_absolute:
    case ir::op_code::op_code_sign:
    case ir::op_code::op_code_square:
    case ir::op_code::op_code_reciprocal:
    case ir::op_code::op_code_rint:
    case ir::op_code::op_code_conjugate:
      return false;
    default:
      return true;  // exp, log, sqrt, power, trigonometric and hyperbolic functions
  }
}

}  // namespace

TEST_CASE("prelude ops match the host functors on every op x dtype loop", "[prelude]") {
  hana::for_each(ir::all_ops, [&](auto op_type) {
    using op = typename decltype(op_type)::type;
    CHECK(op::cuda.substr(0, 3 + std::string_view(ir::op_name(op::code)).size()) ==
          "nf_" + std::string(ir::op_name(op::code)));
    hana::for_each(ir::all_dtypes, [&](auto in_c) {
      constexpr dtype in = decltype(in_c)::value;
      constexpr auto out_opt = ir::loop_output(op::types, in);
      if constexpr (out_opt.has_value()) {
        constexpr dtype out = *out_opt;
        using HI = store_t<in>;
        using HO = store_t<out>;
        const auto vals = values<in>();
        std::vector<HI> a, b;
        for (std::size_t i = 0; i < vals.size(); ++i)
          for (std::size_t j = 0; j < (op::arity == 2 ? vals.size() : 1); ++j) {
            a.push_back(vals[i]);
            b.push_back(vals[j]);
          }
        std::vector<HO> host(a.size()), device(a.size());
        const void* args[3] = {a.data(), b.data(), nullptr};
        ndfuse::backend::cpu::op_loop(op::code, in)(host.data(), args, static_cast<std::int64_t>(a.size()));
        for (std::size_t i = 0; i < a.size(); ++i) {
          const auto x = from_bytes<dvt<in>>(&a[i]);
          if constexpr (op::arity == 1) {
            auto r = dev_fn<op>::call(x);
            static_assert(std::is_same_v<decltype(r), dvt<out>>, "prelude result type != loop output dtype");
            std::memcpy(static_cast<void*>(&device[i]), &r, sizeof r);
          } else {
            auto r = dev_fn<op>::call(x, from_bytes<dvt<in>>(&b[i]));
            static_assert(std::is_same_v<decltype(r), dvt<out>>, "prelude result type != loop output dtype");
            std::memcpy(static_cast<void*>(&device[i]), &r, sizeof r);
          }
        }
        // 16 ulp of |result|; power, whose error grows with |b log a|, gets more.
        const double eps = nf::itemsize(in) == 8 ? 0x1p-23 : 0x1p-52;
        const double tol = !approximate(op::code, in)               ? 0.0
                           : op::code == ir::op_code::op_code_power ? 1e3 * eps
                                                                    : 16 * eps;
        int failures = 0;
        for (std::size_t i = 0; i < a.size() && failures < 5; ++i) {
          // a**b = exp(b log a) magnifies the error of log a by |b|: a large exponent's result has
          // no reproducible digits to compare.
          if constexpr (op::code == ir::op_code::op_code_power && ir::is_complex_v<HI>)
            if (std::abs(b[i]) > 10 && tol > 0) continue;
          const std::string diff = compare<out>(&host[i], &device[i], tol);
          if (diff.empty()) continue;
          ++failures;
          FAIL_CHECK(ir::op_name(op::code)
                     << " on " << nf::dtype_name(in) << "(" << show_input<in>(a[i])
                     << (op::arity == 2 ? ", " + show_input<in>(b[i]) : std::string()) << "): " << diff);
        }
      }
    });
  });
}

TEST_CASE("prelude casts match the host casts for every dtype pair", "[prelude]") {
  hana::for_each(ir::all_dtypes, [&](auto from_c) {
    constexpr dtype from = decltype(from_c)::value;
    const auto vals = values<from>();
    hana::for_each(ir::all_dtypes, [&](auto to_c) {
      constexpr dtype to = decltype(to_c)::value;
      std::vector<store_t<to>> host(vals.size()), device(vals.size());
      const void* args[1] = {vals.data()};
      ndfuse::backend::cpu::cast_loop(from, to)(host.data(), args, static_cast<std::int64_t>(vals.size()));
      int failures = 0;
      for (std::size_t i = 0; i < vals.size() && failures < 3; ++i) {
        auto r = nf_cast<dvt<to>>(from_bytes<dvt<from>>(&vals[i]));
        static_assert(std::is_same_v<decltype(r), dvt<to>>);
        std::memcpy(static_cast<void*>(&device[i]), &r, sizeof r);
        const std::string diff = compare<to>(&host[i], &device[i], 0.0);
        if (diff.empty()) continue;
        ++failures;
        FAIL_CHECK("cast " << nf::dtype_name(from) << " -> " << nf::dtype_name(to) << " of "
                           << show_input<from>(vals[i]) << ": " << diff);
      }
    });
  });
}

TEST_CASE("prelude iota matches the host iota for every dtype", "[prelude]") {
  struct params {
    std::complex<double> start, step;
    std::int64_t offset;
    bool equals;
  };
  const std::vector<params> cases = {{0.0, 1.0, 0, false},   {2.5, 0.5, 0, false},
                                     {-3.0, 2.0, 1, false},  {{1.0, -2.0}, {0.25, 3.0}, 0, false},
                                     {1e10, 3.0, -4, false}, {0.0, 0.1, 0, false},
                                     {0.0, 0.0, -3, true},   {7.9, -1.5, 0, false}};
  hana::for_each(ir::all_dtypes, [&](auto d_c) {
    constexpr dtype d = decltype(d_c)::value;
    for (const auto& c : cases) {
      std::vector<std::int64_t> affine;
      for (std::int64_t i = -3; i < 40; ++i) affine.push_back(i);
      ir::iota_params p;
      p.start = c.start;
      p.step = c.step;
      p.offset = c.offset;
      p.equals = c.equals;
      std::vector<store_t<d>> host(affine.size()), device(affine.size());
      ndfuse::backend::cpu::iota_loop(d)(host.data(), affine.data(), static_cast<std::int64_t>(affine.size()),
                                         p);
      // As jit/kernel_abi.cpp packs it.
      nf_iota_params dp{c.start.real(),
                        c.start.imag(),
                        c.step.real(),
                        c.step.imag(),
                        static_cast<long long>(c.start.real()),
                        static_cast<long long>(c.step.real()),
                        c.offset,
                        c.equals ? 1 : 0};
      for (std::size_t i = 0; i < affine.size(); ++i) {
        auto r = nf_iota<dvt<d>>(dp, affine[i]);
        std::memcpy(static_cast<void*>(&device[i]), &r, sizeof r);
        const std::string diff = compare<d>(&host[i], &device[i], 0.0);
        if (!diff.empty())
          FAIL_CHECK("iota " << nf::dtype_name(d) << " start " << c.start << " step " << c.step << " at "
                             << affine[i] << ": " << diff);
      }
    }
  });
}
