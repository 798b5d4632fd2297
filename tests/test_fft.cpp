// nf::fft against NumPy 2 (tests/oracle/gen_fft.py writes the cases): every transform over float32,
// float64, complex64, complex128, integer, bool and float16 inputs, 1-d to 4-d, batched, lengths 1,
// odd, even and prime, cropped and zero-padded, other and negative axes, repeated axes, all three
// norms, transposed and unevaluated operands; fftfreq, rfftfreq, fftshift and ifftshift; and the
// errors NumPy raises, which must throw the matching nf:: exception when the node is built.
//
// Tolerance: dtype and shape exactly; every element within rtol * max|expected| (an FFT's rounding
// error grows with the largest value it sums, not with each output), rtol 1e-12 (float64,
// complex128), 1e-5 (float32, complex64), 2e-3 (float16). Integer results (fftshift) are exact.
//
// The stats cases check that plans are cached (a second transform of one shape makes no plan), that
// the norm's scale costs no kernel of its own, and that the helpers fuse; their expected values are
// direct DFT sums computed here on the host, independently of ndfuse.
#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <optional>
#include <span>
#include <vector>

#include "catch.hpp"
#include "frontend/view.hpp"
#include "oracle_support.hpp"

namespace {

std::vector<int> ints32(const std::string& s) {
  std::vector<int> out;
  for (const auto& p : oracle::split(s, ','))
    if (!p.empty()) out.push_back(std::stoi(p));
  return out;
}

nf::shape_t ints64(const std::string& s) {
  nf::shape_t out;
  for (const auto& p : oracle::split(s, ','))
    if (!p.empty()) out.push_back(std::stoll(p));
  return out;
}

nf::array apply_view(const nf::array& x, const std::string& v) {
  if (v == "-") return x;
  if (v == "T") return x.swapaxes(-2, -1);
  if (v == "lazy") return nf::frontend::lazy_copy(x);
  throw std::runtime_error("test: unknown view " + v);
}

// The call the manifest row names, with NumPy's defaults where a parameter is absent.
nf::array run_op(const std::string& op, const nf::array& x, const std::map<std::string, std::string>& p) {
  auto get = [&](const char* k) -> std::optional<std::string> {
    auto it = p.find(k);
    return it == p.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const std::string norm = get("norm").value_or("backward");
  std::optional<std::int64_t> n;
  if (auto v = get("n")) n = std::stoll(*v);
  const int axis = get("axis") ? std::stoi(*get("axis")) : -1;
  std::optional<nf::shape_t> s;
  if (auto v = get("s")) s = ints64(*v);
  const auto axes_or = [&](nf::axes fallback) {
    return get("axes") ? nf::axes(ints32(*get("axes"))) : fallback;
  };

  if (op == "fft") return nf::fft::fft(x, n, axis, norm);
  if (op == "ifft") return nf::fft::ifft(x, n, axis, norm);
  if (op == "rfft") return nf::fft::rfft(x, n, axis, norm);
  if (op == "irfft") return nf::fft::irfft(x, n, axis, norm);
  if (op == "hfft") return nf::fft::hfft(x, n, axis, norm);
  if (op == "ihfft") return nf::fft::ihfft(x, n, axis, norm);
  if (op == "fftn") return nf::fft::fftn(x, s, axes_or({}), norm);
  if (op == "ifftn") return nf::fft::ifftn(x, s, axes_or({}), norm);
  if (op == "rfftn") return nf::fft::rfftn(x, s, axes_or({}), norm);
  if (op == "irfftn") return nf::fft::irfftn(x, s, axes_or({}), norm);
  if (op == "fft2") return nf::fft::fft2(x, s, axes_or({-2, -1}), norm);
  if (op == "ifft2") return nf::fft::ifft2(x, s, axes_or({-2, -1}), norm);
  if (op == "rfft2") return nf::fft::rfft2(x, s, axes_or({-2, -1}), norm);
  if (op == "irfft2") return nf::fft::irfft2(x, s, axes_or({-2, -1}), norm);
  const double d = get("d") ? std::stod(*get("d")) : 1.0;
  if (op == "fftfreq") return nf::fft::fftfreq(*n, d);
  if (op == "rfftfreq") return nf::fft::rfftfreq(*n, d);
  if (op == "fftshift") return nf::fft::fftshift(x, axes_or({}));
  if (op == "ifftshift") return nf::fft::ifftshift(x, axes_or({}));
  throw std::runtime_error("test: unknown op " + op);
}

double rtol_for(nf::dtype t) {
  switch (t) {
    case nf::dtype::float16:
      return 2e-3;
    case nf::dtype::float32:
    case nf::dtype::complex64:
      return 1e-5;
    default:
      return 1e-12;
  }
}

// "" when `got` matches `expected` within rtol(dtype) * max|expected| (exactly for integer results).
std::string compare_transform(const nf::host_array& got, const nf::host_array& expected) {
  const auto no_context = [](std::size_t) { return std::string(); };
  const std::string problem =
      oracle::compare(got, expected, oracle::tolerance{}, no_context, /*values=*/false);
  if (!problem.empty()) return problem;
  if (!nf::is_inexact(expected.dtype)) return oracle::compare(got, expected, oracle::tolerance{});
  const std::size_t n = oracle::element_count(expected);
  double largest = 0;
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, std::abs(oracle::element_c(expected, i)));
  const double bound = rtol_for(expected.dtype) * largest;
  std::string out;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = std::abs(oracle::element_c(got, i) - oracle::element_c(expected, i));
    if (err <= bound) continue;  // (false for NaN)
    if (++bad <= 5)
      out += "\n  [" + std::to_string(i) + "] got " + oracle::value_str(got, i) + ", expected " +
             oracle::value_str(expected, i) + " (|error| " + oracle::format_real(err) + " > bound " +
             oracle::format_real(bound) + ")";
  }
  if (!bad) return "";
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ" +
         (bad > 5 ? " (first 5)" : "") + out;
}

nf::array evaluated(nf::array a) {
  a.eval();
  return a;
}

// x[j] = (j % 7 - 3) / 4 + i (j % 5 - 2) / 8 and its DFT summed directly in long double.
std::vector<std::complex<double>> signal(std::int64_t n) {
  std::vector<std::complex<double>> x(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) x[j] = {double(j % 7 - 3) / 4, double(j % 5 - 2) / 8};
  return x;
}
std::vector<std::complex<double>> direct_dft(const std::vector<std::complex<double>>& x) {
  const auto n = static_cast<std::int64_t>(x.size());
  std::vector<std::complex<double>> out(x.size());
  for (std::int64_t k = 0; k < n; ++k) {
    std::complex<long double> s = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const long double angle = -2 * std::numbers::pi_v<long double> * ((j * k) % n) / n;
      s += std::complex<long double>(x[j].real(), x[j].imag()) * std::polar(1.0L, angle);
    }
    out[k] = {double(s.real()), double(s.imag())};
  }
  return out;
}

}  // namespace

TEST_CASE("fft oracle: numpy.fft against NumPy", "[oracle][fft]") {
  const std::string dir = oracle::oracle_dir("fft");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_fft.py writes it to $NDFUSE_ORACLE_DIR/fft");
  int passed = 0, failed = 0;
  std::string failed_ids;
  for (const auto& row : oracle::read_manifest(dir)) {
    if (row.size() != 5) FAIL("manifest row with " << row.size() << " fields: " << row[0]);
    const std::string& id = row[0];
    const std::string& op = row[1];
    const std::string& expect = row[4];
    const auto params = oracle::parse_params(row[3]);
    std::string problem;
    try {
      nf::array loaded, operand;
      if (row[2] != "-") {
        loaded = nf::load(dir + "/" + row[2]);
        operand = apply_view(loaded, params.count("view") ? params.at("view") : "-");
      }
      if (expect.rfind("RAISES:", 0) == 0) {
        problem =
            oracle::expect_throw(oracle::split(expect, ':')[1], [&] { return run_op(op, operand, params); });
      } else {
        const nf::array got = run_op(op, operand, params);
        problem = compare_transform(got.to_host(), oracle::read_npy(dir + "/" + expect));
        // The operand is unchanged (complex-to-real transforms work on a copy).
        if (problem.empty() && row[2] != "-") {
          problem =
              oracle::compare(loaded.to_host(), oracle::read_npy(dir + "/" + row[2]), oracle::tolerance{});
          if (!problem.empty()) problem = "operand changed: " + problem;
        }
      }
    } catch (const std::exception& e) {
      problem = std::string("threw: ") + e.what();
    }
    if (problem.empty()) {
      ++passed;
    } else {
      ++failed;
      if (failed <= 30) UNSCOPED_INFO(id << ": " << problem);
      failed_ids += "\n  " + id;
    }
  }
  INFO(passed << " cases passed, " << failed << " failed" << (failed ? ":" : "") << failed_ids);
  CHECK(failed == 0);
}

namespace {

// The operand of gen_fft.py's large cases (its hashed_operand), rebuilt from the same formula.
nf::array hashed_operand(const nf::shape_t& shape) {
  std::int64_t count = 1;
  for (auto d : shape) count *= d;
  std::vector<std::complex<double>> x(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j) {
    std::uint64_t h = static_cast<std::uint64_t>(j) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    x[static_cast<std::size_t>(j)] = {double(h >> 11) / 0x1p52 - 1, double(h & 0xFFFFFFFFull) / 0x1p31 - 1};
  }
  return nf::asarray(std::span<const std::complex<double>>(x), shape);
}

}  // namespace

// 2^22 to 2^24 points: on the CUDA backend, 2^23 and 2^24 take the two-pass kernel
// (src/backend/cuda/kernels/four_step_fft.cu) rather than cuFFT. The oracle keeps NumPy's result at 4112
// indices and its largest magnitude. The tolerance, 1e-14 * max|expected|, is a hundredth of the one above:
// these transforms are what twiddles a few ulps off would spoil (FFTW and the two-pass kernel both stay near
// 3e-16
// * max). Each size's second transform makes no plan and gives the same values.
TEST_CASE("fft oracle: 2^22 to 2^24 complex128 points against NumPy, sampled", "[oracle][fft]") {
  const std::string dir = oracle::oracle_dir("fft_large");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_fft.py writes it to $NDFUSE_ORACLE_DIR/fft_large");
  for (const auto& row : oracle::read_manifest(dir)) {
    REQUIRE(row.size() == 7);
    INFO(row[0]);
    const nf::shape_t shape = ints64(row[2]);
    const auto params = oracle::parse_params(row[3]);
    const nf::array x = evaluated(hashed_operand(shape));
    const nf::array first = evaluated(run_op(row[1], x, params));
    const auto plans = nf::stats().fft_plans_created;
    const nf::host_array got = run_op(row[1], x, params).to_host();
    CHECK(nf::stats().fft_plans_created == plans);
    CHECK(got.dtype == nf::complex128);
    CHECK(got.shape == shape);
    const nf::host_array indices = oracle::read_npy(dir + "/" + row[4]);
    const nf::host_array expected = oracle::read_npy(dir + "/" + row[5]);
    const double bound = 1e-14 * std::stod(row[6]);
    const auto at = indices.values<std::int64_t>();
    const auto same = first.to_host();  // the first transform gave the same values
    std::size_t bad = 0, differ = 0;
    double worst = 0;
    for (std::size_t i = 0; i < at.size(); ++i) {
      const auto k = static_cast<std::size_t>(at[i]);
      const double err = std::abs(oracle::element_c(got, k) - oracle::element_c(expected, i));
      worst = std::max(worst, err);
      if (!(err <= bound)) ++bad;
      if (oracle::element_c(same, k) != oracle::element_c(got, k)) ++differ;
    }
    INFO("largest |error| " << worst << " against the bound " << bound);
    CHECK(bad == 0);
    CHECK(differ == 0);
  }
}

TEST_CASE("fft plans are cached: a second transform of one shape makes no plan, a new shape makes one",
          "[fft][stats]") {
  // Lengths no other test uses, so the cache state before this test does not matter.
  const nf::array a = evaluated(nf::asarray(signal(1237), {1237}));
  const nf::array b = evaluated(nf::asarray(signal(1239), {1239}));
  nf::reset_stats();
  nf::fft::fft(a).eval();
  const auto first = nf::stats().fft_plans_created;
  CHECK(first == 1);
  nf::fft::fft(a).eval();
  nf::fft::fft(a * 2.0).eval();  // another array of the same shape
  CHECK(nf::stats().fft_plans_created == first);
  nf::fft::fft(b).eval();
  CHECK(nf::stats().fft_plans_created == first + 1);
  CHECK(nf::stats().library_calls == 4);
}

TEST_CASE("the norm scale of an fft of an evaluated array fuses into its consumer: 1 library call + 1 kernel",
          "[fft][fusion]") {
  const std::int64_t n = 96;
  const auto host = signal(n);
  const nf::array x = evaluated(nf::asarray(host, {n}));
  nf::fft::fft(x, std::nullopt, -1, "ortho").eval();  // make the plan before counting
  nf::reset_stats();
  nf::array y = nf::abs(nf::fft::fft(x, std::nullopt, -1, "ortho"));
  y.eval();
  const nf::stats_t s = nf::stats();
  CHECK(s.library_calls == 1);
  CHECK(s.kernels_launched == 1);  // abs(scale * X): the scale adds no pass
  REQUIRE(y.dtype() == nf::dtype::float64);
  const auto got = y.to_vector<double>();
  const auto want = direct_dft(host);
  for (std::int64_t k = 0; k < n; ++k)
    CHECK(got[k] == Approx(std::abs(want[k]) / std::sqrt(double(n))).epsilon(1e-12));
}

TEST_CASE("the norm scale of an fft of a lazy operand fuses into the kernel that writes the operand",
          "[fft][fusion]") {
  const std::int64_t n = 80;
  const auto host = signal(n);
  const nf::array x = evaluated(nf::asarray(host, {n}));
  std::uint64_t kernels[2] = {0, 0};
  const char* norms[2] = {"backward", "forward"};
  nf::array results[2];
  for (int k = 0; k < 2; ++k) {
    nf::fft::fft(x * 2.0, std::nullopt, -1, norms[k]).eval();
    nf::reset_stats();
    results[k] = nf::fft::fft(x * 2.0, std::nullopt, -1, norms[k]);  // x * 2 is written by a kernel
    results[k].eval();
    kernels[k] = nf::stats().kernels_launched;
    CHECK(nf::stats().library_calls == 1);
  }
  CHECK(kernels[0] == 1);
  CHECK(kernels[1] == kernels[0]);  // forward's 1/n rode along in that kernel
  const auto want = direct_dft(host);
  const auto plain = results[0].to_vector<std::complex<double>>();
  const auto scaled = results[1].to_vector<std::complex<double>>();
  for (std::int64_t k = 0; k < n; ++k) {
    CHECK(std::abs(plain[k] - 2.0 * want[k]) < 1e-12 * 2 * n);
    CHECK(std::abs(scaled[k] - 2.0 * want[k] / double(n)) < 1e-12 * 2);
  }
}

TEST_CASE("fft: single precision stays single precision and the norm_mode overloads match the strings",
          "[fft]") {
  const nf::array x = evaluated(nf::asarray(signal(16), {16}).astype(nf::dtype::complex64));
  const nf::array by_string = nf::fft::ifft(x, std::nullopt, -1, "ortho");
  const nf::array by_enum = nf::fft::ifft(x, std::nullopt, -1, nf::fft::norm_mode::ortho);
  CHECK(by_string.dtype() == nf::dtype::complex64);
  CHECK(nf::fft::irfft(x).dtype() == nf::dtype::float32);
  CHECK(nf::fft::rfft(nf::real(x)).dtype() == nf::dtype::complex64);
  CHECK(by_string.to_vector<std::complex<float>>() == by_enum.to_vector<std::complex<float>>());
  CHECK_THROWS_AS(nf::fft::parse_norm("none"), nf::value_error);
}

TEST_CASE("fftfreq and fftshift fuse into their consumer: one kernel, no library call", "[fft][fusion]") {
  const nf::array x = evaluated(nf::asarray(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}, {9}));
  nf::reset_stats();
  nf::array y = nf::fft::fftshift(x) + nf::fft::fftfreq(9, 0.5);
  y.eval();
  CHECK(nf::stats().kernels_launched == 1);
  CHECK(nf::stats().library_calls == 0);
  // fftshift: [5 6 7 8 0 1 2 3 4]; fftfreq(9, 0.5): [0 1 2 3 4 -4 -3 -2 -1] / 4.5
  const std::vector<double> shifted{5, 6, 7, 8, 0, 1, 2, 3, 4};
  const std::vector<double> k{0, 1, 2, 3, 4, -4, -3, -2, -1};
  const auto got = y.to_vector<double>();
  for (std::size_t i = 0; i < 9; ++i) CHECK(got[i] == shifted[i] + k[i] * (1.0 / 4.5));
}
