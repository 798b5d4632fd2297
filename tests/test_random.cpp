// nf::random: Generator(Philox(seed)) against NumPy's Generator(Philox(seed)) bit for bit
// (tests/oracle/gen_random.py writes $NDFUSE_ORACLE_DIR/random), Philox4x32-10's known answers,
// every distribution's moments and distribution against its closed form at a fixed seed, fusion
// (a draw adds no kernel and no buffer), eager and fused giving the same values, the CPU and the
// GPU giving the same bits (where the cuda backend is active), and the errors NumPy raises.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <set>

#include "backend/cpu/prelude_host.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "fuzz_program.hpp"
#include "oracle_support.hpp"

namespace fs = std::filesystem;
namespace rnd = nf::random;

namespace {

std::uint64_t parse_u64(const std::string& s) {
  return std::stoull(s);
}

nf::host_array host(const nf::array& a) {
  return a.to_host();
}

// Bit-for-bit equality of an ndfuse result and NumPy's array (dtype, shape, bytes).
std::string bits_differ(const nf::array& got, const nf::host_array& expected) {
  const nf::host_array g = host(got);
  if (g.dtype != expected.dtype)
    return "dtype " + std::string(nf::dtype_name(g.dtype)) + " vs " +
           std::string(nf::dtype_name(expected.dtype));
  if (g.shape != expected.shape)
    return "shape " + nf::shape_str(g.shape) + " vs " + nf::shape_str(expected.shape);
  const std::size_t item = nf::itemsize(g.dtype);
  for (std::size_t i = 0; i * item < g.bytes.size(); ++i)
    if (std::memcmp(g.bytes.data() + i * item, expected.bytes.data() + i * item, item) != 0)
      return "element " + std::to_string(i) + ": " + oracle::value_str(g, i) + " vs NumPy's " +
             oracle::value_str(expected, i);
  return "";
}

nf::array state_as_array(const rnd::bit_generator_state& s) {
  std::vector<std::uint64_t> v(s.counter.begin(), s.counter.end());
  v.insert(v.end(), s.key.begin(), s.key.end());
  v.push_back(static_cast<std::uint64_t>(s.buffer_pos));
  v.push_back(s.has_uint32 ? 1 : 0);
  v.push_back(s.uinteger);
  return nf::asarray(v);
}

// Kolmogorov-Smirnov distance of a sample from a continuous CDF.
template <class Cdf>
double ks_distance(std::vector<double> x, Cdf cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// The KS test at the 0.001 level: D * sqrt(n) < 1.95 (Kolmogorov's distribution), for n samples.
constexpr std::int64_t samples = 200000;
const double ks_limit = 1.95 / std::sqrt(double(samples));

double mean_of(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}
double variance_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size());
}

double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

// The sample mean within 5 standard errors of `mean`, the variance within 5% of `variance`.
void check_moments(const std::vector<double>& x, double mean, double variance) {
  const double se = std::sqrt(variance / static_cast<double>(x.size()));
  CHECK(std::abs(mean_of(x) - mean) < 5 * se);
  CHECK(std::abs(variance_of(x) / variance - 1) < 0.05);
}

}  // namespace

TEST_CASE("Generator(Philox(seed)) gives NumPy's draws bit for bit, over any sequence", "[random][oracle]") {
  const std::string dir = oracle::oracle_dir("random");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle for random (run CTest, or tests/oracle/gen_random.py)");
  std::optional<rnd::Generator> g;
  int steps = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    const auto op = oracle::split(row[2], ':');
    INFO(id << " " << row[2]);
    auto expected = [&] { return oracle::read_npy(dir + "/" + row[4]); };
    if (op[0] == "seed") {
      g.emplace(rnd::Philox(parse_u64(op[1])));
    } else if (op[0] == "key") {
      g.emplace(rnd::Philox::from_key({parse_u64(op[1]), parse_u64(op[2])}, {parse_u64(op[3]), 0, 0, 0}));
    } else if (op[0] == "random") {
      CHECK(bits_differ(g->random({std::stoll(op[1])}, oracle::parse_dtype(op[2])), expected()) == "");
    } else if (op[0] == "uniform") {
      CHECK(bits_differ(g->uniform(std::stod(op[1]), std::stod(op[2]), nf::shape_t{std::stoll(op[3])}),
                        expected()) == "");
    } else if (op[0] == "raw") {
      CHECK(bits_differ(g->bit_generator().random_raw({std::stoll(op[1])}), expected()) == "");
    } else if (op[0] == "bytes") {
      const std::string b = g->bytes(std::stoll(op[1]));
      CHECK(bits_differ(nf::asarray(std::vector<std::uint8_t>(b.begin(), b.end())), expected()) == "");
    } else if (op[0] == "choice") {
      const nf::array p = nf::load(dir + "/" + row[3]);
      CHECK(bits_differ(g->choice(std::stoll(op[1]), nf::shape_t{std::stoll(op[2])}, true, p), expected()) ==
            "");
    } else if (op[0] == "state") {
      CHECK(bits_differ(state_as_array(g->bit_generator().state()), expected()) == "");
    } else if (op[0] == "set_state") {
      const auto v = nf::load(dir + "/" + row[3]).to_vector<std::uint64_t>();
      rnd::bit_generator_state s;
      s.bit_generator = "Philox";
      s.counter = {v[0], v[1], v[2], v[3]};
      s.key = {v[4], v[5]};
      s.buffer_pos = static_cast<int>(v[6]);
      s.has_uint32 = v[7] != 0;
      s.uinteger = static_cast<std::uint32_t>(v[8]);
      g->bit_generator().set_state(s);
    } else if (op[0] == "advance") {
      g->bit_generator().advance(parse_u64(op[1]));
    } else {
      FAIL("unknown step " << row[2]);
    }
    ++steps;
  }
  CHECK(steps > 70);
}

TEST_CASE("Philox4x32-10 gives Random123's known answers", "[random]") {
  auto block = [](std::array<std::uint32_t, 4> c, std::uint32_t k0, std::uint32_t k1) {
    const nf_u32x4 b = nf_philox4x32_10({{c[0], c[1], c[2], c[3]}}, k0, k1);
    return std::array<std::uint32_t, 4>{b.v[0], b.v[1], b.v[2], b.v[3]};
  };
  // Random123 v1.14.0, tests/kat_vectors, "philox4x32 10" lines.
  CHECK(block({0, 0, 0, 0}, 0, 0) ==
        std::array<std::uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(block({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u) ==
        std::array<std::uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(block({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0) ==
        std::array<std::uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("a Philox4x32 draw's elements are its blocks' words, a draw advancing by whole blocks",
          "[random]") {
  // default_rng(7)'s key is SeedSequence(7).generate_state(1, np.uint64)[0] (NumPy 2.4.6).
  constexpr std::uint64_t key = 0xead0f7017c326e58ull;
  rnd::Generator g = rnd::default_rng(7);
  CHECK(g.bit_generator().state().key[0] == key);
  const auto first = g.bit_generator().random_raw({3}).to_vector<std::uint64_t>();
  const auto next = g.random({5}, nf::float32).to_vector<float>();
  const auto k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  auto words = [&](std::uint32_t ctr) {
    const nf_u32x4 b = nf_philox4x32_10({{ctr, 0, 0, 0}}, k0, k1);
    return std::array<std::uint32_t, 4>{b.v[0], b.v[1], b.v[2], b.v[3]};
  };
  // 64-bit words: two per block, high word first; three of them take blocks 0 and 1.
  CHECK(first[0] == (std::uint64_t(words(0)[0]) << 32 | words(0)[1]));
  CHECK(first[1] == (std::uint64_t(words(0)[2]) << 32 | words(0)[3]));
  CHECK(first[2] == (std::uint64_t(words(1)[0]) << 32 | words(1)[1]));
  // float32: four per block from block 2 on, NumPy's next_float of each word.
  for (int i = 0; i < 5; ++i) CHECK(next[i] == float(words(2 + i / 4)[i % 4] >> 8) * (1.0f / 16777216.0f));
  CHECK(g.bit_generator().state().counter[0] == 4);
}

TEST_CASE("every distribution matches its closed form at a fixed seed", "[random]") {
  rnd::Generator g = rnd::default_rng(20261128);
  const nf::shape_t n{samples};
  auto sample = [](const nf::array& a) { return a.to_vector<double>(); };
  SECTION("random and uniform") {
    auto u = sample(g.random(n));
    CHECK(*std::min_element(u.begin(), u.end()) >= 0.0);
    CHECK(*std::max_element(u.begin(), u.end()) < 1.0);
    check_moments(u, 0.5, 1.0 / 12);
    CHECK(ks_distance(u, [](double x) { return x; }) < ks_limit);
    auto f = sample(g.random(n, nf::float32).astype(nf::float64));
    CHECK(ks_distance(f, [](double x) { return x; }) < ks_limit);
    auto v = sample(g.uniform(-2.0, 3.0, n));
    check_moments(v, 0.5, 25.0 / 12);
    CHECK(ks_distance(v, [](double x) { return (x + 2) / 5; }) < ks_limit);
  }
  SECTION("normal, lognormal") {
    auto z = sample(g.standard_normal(n));
    check_moments(z, 0, 1);
    CHECK(ks_distance(z, normal_cdf) < ks_limit);
    auto zf = sample(g.standard_normal(n, nf::float32).astype(nf::float64));
    CHECK(ks_distance(zf, normal_cdf) < ks_limit);
    auto x = sample(g.normal(3.0, 2.0, n));
    check_moments(x, 3, 4);
    CHECK(ks_distance(x, [](double v) { return normal_cdf((v - 3) / 2); }) < ks_limit);
    auto l = sample(g.lognormal(0.5, 0.25, n));
    const double s2 = 0.0625;
    check_moments(l, std::exp(0.5 + s2 / 2), (std::exp(s2) - 1) * std::exp(1 + s2));
    CHECK(ks_distance(l, [](double v) { return normal_cdf((std::log(v) - 0.5) / 0.25); }) < ks_limit);
  }
  SECTION("exponential family") {
    auto e = sample(g.standard_exponential(n));
    check_moments(e, 1, 1);
    CHECK(ks_distance(e, [](double x) { return -std::expm1(-x); }) < ks_limit);
    auto ef = sample(g.standard_exponential(n, nf::float32).astype(nf::float64));
    CHECK(ks_distance(ef, [](double x) { return -std::expm1(-x); }) < ks_limit);
    auto s = sample(g.exponential(2.5, n));
    check_moments(s, 2.5, 6.25);
    auto w = sample(g.weibull(1.5, n));
    const double g1 = std::tgamma(1 + 1 / 1.5), g2 = std::tgamma(1 + 2 / 1.5);
    check_moments(w, g1, g2 - g1 * g1);
    CHECK(ks_distance(w, [](double x) { return -std::expm1(-std::pow(x, 1.5)); }) < ks_limit);
    auto r = sample(g.rayleigh(2.0, n));
    check_moments(r, 2 * std::sqrt(M_PI / 2), (4 - M_PI) / 2 * 4);
    CHECK(ks_distance(r, [](double x) { return -std::expm1(-x * x / 8); }) < ks_limit);
    auto p = sample(g.pareto(5.0, n));  // NumPy's Pareto II (Lomax): 1 - (1 + x)^-a
    check_moments(p, 1.0 / 4, 5.0 / (16 * 3));
    CHECK(ks_distance(p, [](double x) { return 1 - std::pow(1 + x, -5.0); }) < ks_limit);
  }
  SECTION("laplace, logistic, gumbel") {
    auto l = sample(g.laplace(1.0, 2.0, n));
    check_moments(l, 1, 8);
    CHECK(ks_distance(l, [](double x) {
            return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2);
          }) < ks_limit);
    auto lo = sample(g.logistic(-1.0, 0.5, n));
    check_moments(lo, -1, 0.25 * M_PI * M_PI / 3);
    CHECK(ks_distance(lo, [](double x) { return 1 / (1 + std::exp(-(x + 1) / 0.5)); }) < ks_limit);
    auto gu = sample(g.gumbel(0.5, 2.0, n));
    check_moments(gu, 0.5 + 2 * 0.57721566490153286, M_PI * M_PI / 6 * 4);
    CHECK(ks_distance(gu, [](double x) { return std::exp(-std::exp(-(x - 0.5) / 2)); }) < ks_limit);
  }
  SECTION("the gamma family") {
    // Erlang(3): CDF 1 - e^-x (1 + x + x^2 / 2).
    auto g3 = sample(g.standard_gamma(3.0, n));
    check_moments(g3, 3, 3);
    CHECK(ks_distance(g3, [](double x) { return 1 - std::exp(-x) * (1 + x + x * x / 2); }) < ks_limit);
    auto small = sample(g.gamma(0.3, 2.0, n));  // shape below 1: boosted by u^(1 / shape)
    check_moments(small, 0.6, 1.2);
    auto one = sample(g.standard_gamma(1.0, n, nf::float32).astype(nf::float64));
    CHECK(ks_distance(one, [](double x) { return -std::expm1(-x); }) < ks_limit);
    auto c4 = sample(g.chisquare(4.0, n));  // chi-square(4) = Erlang(2) of scale 2
    check_moments(c4, 4, 8);
    CHECK(ks_distance(c4, [](double x) { return 1 - std::exp(-x / 2) * (1 + x / 2); }) < ks_limit);
    auto b = sample(g.beta(2.0, 3.0, n));  // I_x(2, 3) = sum_{j=2..4} C(4, j) x^j (1 - x)^(4 - j)
    check_moments(b, 0.4, 6.0 / (25 * 6));
    CHECK(ks_distance(b, [](double x) {
            return 6 * x * x * (1 - x) * (1 - x) + 4 * x * x * x * (1 - x) + x * x * x * x;
          }) < ks_limit);
    auto t1 = sample(g.standard_t(1.0, n));  // Cauchy
    CHECK(ks_distance(t1, [](double x) { return 0.5 + std::atan(x) / M_PI; }) < ks_limit);
    auto t2 = sample(g.standard_t(2.0, n));  // CDF 1/2 + x / (2 sqrt(2 + x^2))
    CHECK(ks_distance(t2, [](double x) { return 0.5 + x / (2 * std::sqrt(2 + x * x)); }) < ks_limit);
    auto t5 = sample(g.standard_t(5.0, n));
    CHECK(std::abs(mean_of(t5)) < 5 * std::sqrt(5.0 / 3 / samples));
    CHECK(std::abs(variance_of(t5) / (5.0 / 3) - 1) < 0.05);
    auto f = sample(g.f(5.0, 10.0, n));  // mean d2 / (d2 - 2), F(2, 2): CDF x / (1 + x)
    CHECK(std::abs(mean_of(f) - 1.25) < 0.02);
    auto f22 = sample(g.f(2.0, 2.0, n));
    CHECK(ks_distance(f22, [](double x) { return x / (1 + x); }) < ks_limit);
    const auto zero = g.standard_gamma(0.0, nf::shape_t{3}).to_vector<double>();
    CHECK(zero == std::vector<double>{0, 0, 0});
    // Array parameters broadcast: one column per shape.
    const auto cols = g.standard_gamma(nf::asarray(std::vector<double>{0.5, 50.0}), nf::shape_t{20000, 2})
                          .to_vector<double>();
    double m0 = 0, m1 = 0;
    for (int r = 0; r < 20000; ++r) m0 += cols[2 * r], m1 += cols[2 * r + 1];
    CHECK(std::abs(m0 / 20000 - 0.5) < 0.03);
    CHECK(std::abs(m1 / 20000 - 50) < 0.3);
  }
  SECTION("counts: poisson, binomial, negative_binomial, multinomial") {
    // Frequencies of 0..K-1 and the tail against the probabilities `pmf` (chi-square at the 0.001
    // level, bins with fewer than 5 expected merged into the tail).
    auto chi2_of = [](const std::vector<std::int64_t>& x, auto pmf, int K) {
      std::vector<double> observed(K + 1, 0);
      for (auto v : x) observed[std::min<std::int64_t>(std::max<std::int64_t>(v, 0), K)] += 1;
      double chi2 = 0, tail = 1, total = double(x.size());
      int dof = 0;
      for (int j = 0; j < K; ++j) {
        const double pj = pmf(j);
        tail -= pj;
        if (pj * total < 5) {
          observed[K] += observed[j];
          tail += pj;
          continue;
        }
        chi2 += (observed[j] - total * pj) * (observed[j] - total * pj) / (total * pj);
        ++dof;
      }
      if (tail * total >= 5)
        chi2 += (observed[K] - total * tail) * (observed[K] - total * tail) / (total * tail);
      return std::make_pair(chi2, dof);
    };
    auto log_pmf_poisson = [](double lam) {
      return [lam](int j) { return std::exp(j * std::log(lam) - lam - std::lgamma(j + 1.0)); };
    };
    for (double lam : {0.7, 3.5, 25.0}) {
      INFO("lam = " << lam);
      const auto x = g.poisson(lam, n).to_vector<std::int64_t>();
      const auto [chi2, dof] = chi2_of(x, log_pmf_poisson(lam), 60);
      CHECK(dof >= 3);
      CHECK(chi2 < 2 * dof + 30);  // well past the 0.001 quantile for dof <= 40 (at most 73.4)
      std::vector<double> d(x.begin(), x.end());
      check_moments(d, lam, lam);
    }
    const auto big = g.poisson(1e6, nf::shape_t{20000}).to_vector<std::int64_t>();
    check_moments(std::vector<double>(big.begin(), big.end()), 1e6, 1e6);
    for (auto [trials, p] : {std::pair{10.0, 0.3}, std::pair{40.0, 0.5}, std::pair{200.0, 0.05}}) {
      INFO("binomial " << trials << " " << p);
      const auto x = g.binomial(trials, p, n).to_vector<std::int64_t>();
      CHECK(*std::min_element(x.begin(), x.end()) >= 0);
      CHECK(*std::max_element(x.begin(), x.end()) <= trials);
      auto pmf = [=](int j) {
        if (j > trials) return 0.0;
        return std::exp(std::lgamma(trials + 1) - std::lgamma(j + 1.0) - std::lgamma(trials - j + 1) +
                        j * std::log(p) + (trials - j) * std::log1p(-p));
      };
      const auto [chi2, dof] = chi2_of(x, pmf, 60);
      CHECK(chi2 < 2 * dof + 30);
      check_moments(std::vector<double>(x.begin(), x.end()), trials * p, trials * p * (1 - p));
    }
    const auto huge = g.binomial(1e12, 0.25, nf::shape_t{20000}).to_vector<std::int64_t>();
    check_moments(std::vector<double>(huge.begin(), huge.end()), 2.5e11, 1e12 * 0.25 * 0.75);
    CHECK(g.binomial(7, 1.0, nf::shape_t{4}).to_vector<std::int64_t>() == std::vector<std::int64_t>(4, 7));
    CHECK(g.binomial(7, 0.0, nf::shape_t{4}).to_vector<std::int64_t>() == std::vector<std::int64_t>(4, 0));
    for (double p : {0.3, 0.9}) {
      INFO("logseries " << p);
      const auto x = g.logseries(p, n).to_vector<std::int64_t>();
      CHECK(*std::min_element(x.begin(), x.end()) >= 1);
      auto pmf = [=](int j) { return j == 0 ? 0.0 : -std::pow(p, j) / (j * std::log1p(-p)); };
      const auto [chi2, dof] = chi2_of(x, pmf, 60);
      CHECK(dof >= 3);
      CHECK(chi2 < 2 * dof + 30);
    }
    {
      // zeta(2.5) = 1.341487257250917 (the pmf's normalizer).
      const auto x = g.zipf(2.5, n).to_vector<std::int64_t>();
      CHECK(*std::min_element(x.begin(), x.end()) >= 1);
      auto pmf = [](int j) { return j == 0 ? 0.0 : std::pow(double(j), -2.5) / 1.341487257250917; };
      const auto [chi2, dof] = chi2_of(x, pmf, 60);
      CHECK(dof >= 10);
      CHECK(chi2 < 2 * dof + 30);
    }
    const auto nb = g.negative_binomial(3.0, 0.4, n).to_vector<std::int64_t>();
    check_moments(std::vector<double>(nb.begin(), nb.end()), 3 * 0.6 / 0.4, 3 * 0.6 / 0.16);
    const nf::array pv = nf::asarray(std::vector<double>{0.2, 0.5, 0.3});
    const nf::array m = g.multinomial(20, pv, nf::shape_t{50000});
    CHECK(m.shape() == nf::shape_t{50000, 3});
    CHECK(m.dtype() == nf::int64);
    const auto mv = m.to_vector<std::int64_t>();
    double sums[3] = {0, 0, 0};
    for (int r = 0; r < 50000; ++r) {
      REQUIRE(mv[3 * r] + mv[3 * r + 1] + mv[3 * r + 2] == 20);
      for (int j = 0; j < 3; ++j) sums[j] += double(mv[3 * r + j]);
    }
    CHECK(std::abs(sums[0] / 50000 - 4) < 0.03);
    CHECK(std::abs(sums[1] / 50000 - 10) < 0.04);
    CHECK(std::abs(sums[2] / 50000 - 6) < 0.03);
  }
  SECTION("closed-form transforms, mixtures and vectors") {
    auto c = sample(g.standard_cauchy(n));
    CHECK(ks_distance(c, [](double x) { return 0.5 + std::atan(x) / M_PI; }) < ks_limit);
    auto t = sample(g.triangular(-1.0, 0.5, 2.0, n));  // CDF (x - l)^2 / ((r - l)(m - l)) below m
    check_moments(t, (-1 + 0.5 + 2) / 3.0, (1 + 0.25 + 4 - (-0.5) - (-2) - 1) / 18.0);
    CHECK(ks_distance(t, [](double x) {
            return x <= 0.5 ? (x + 1) * (x + 1) / (3 * 1.5) : 1 - (2 - x) * (2 - x) / (3 * 1.5);
          }) < ks_limit);
    // von Mises: angles in [-pi, pi], E[cos(x - mu)] = I1(kappa) / I0(kappa), E[sin(x - mu)] = 0.
    auto bessel = [](int order, double x) {  // I_order(x) by its power series
      double term = std::pow(x / 2, order) / std::tgamma(order + 1.0), total = 0;
      for (int m = 0; m < 60; ++m) {
        total += term;
        term *= (x / 2) * (x / 2) / ((m + 1.0) * (m + 1.0 + order));
      }
      return total;
    };
    for (double kappa : {0.5, 2.0, 50.0}) {
      INFO("vonmises kappa " << kappa);
      const auto v = sample(g.vonmises(1.0, kappa, n));
      double c = 0, s = 0, widest = 0;
      for (double x : v) {
        widest = std::max(widest, std::abs(x));
        c += std::cos(x - 1.0);
        s += std::sin(x - 1.0);
      }
      CHECK(widest <= M_PI);
      CHECK(std::abs(c / samples - bessel(1, kappa) / bessel(0, kappa)) < 0.005);
      CHECK(std::abs(s / samples) < 0.005);
    }
    auto p = sample(g.power(3.0, n));  // CDF x^3
    CHECK(ks_distance(p, [](double x) { return x * x * x; }) < ks_limit);
    auto w = sample(g.wald(2.0, 5.0, n));  // inverse Gaussian: mean mu, variance mu^3 / lambda
    check_moments(w, 2.0, 8.0 / 5.0);
    CHECK(ks_distance(w, [](double x) {
            const double a = std::sqrt(5.0 / x);
            return normal_cdf(a * (x / 2 - 1)) + std::exp(2 * 5.0 / 2) * normal_cdf(-a * (x / 2 + 1));
          }) < ks_limit);
    auto nc = sample(g.noncentral_chisquare(3.0, 2.0, n));  // mean df + nonc, variance 2 (df + 2 nonc)
    check_moments(nc, 5.0, 14.0);
    auto nc_small = sample(g.noncentral_chisquare(0.5, 1.0, n));
    check_moments(nc_small, 1.5, 5.0);
    auto nf_ = sample(g.noncentral_f(5.0, 20.0, 3.0, n));  // mean dfden (dfnum + nonc) / (dfnum (dfden - 2))
    CHECK(std::abs(mean_of(nf_) / (20.0 * 8.0 / (5.0 * 18.0)) - 1) < 0.01);
    const nf::array alpha = nf::asarray(std::vector<double>{0.5, 2.0, 7.5});
    const nf::array d = g.dirichlet(alpha, nf::shape_t{100000});
    CHECK(d.shape() == nf::shape_t{100000, 3});
    const auto dv = d.to_vector<double>();
    double col[3] = {0, 0, 0};
    for (int r = 0; r < 100000; ++r) {
      REQUIRE(std::abs(dv[3 * r] + dv[3 * r + 1] + dv[3 * r + 2] - 1) < 1e-12);
      for (int j = 0; j < 3; ++j) col[j] += dv[3 * r + j];
    }
    CHECK(std::abs(col[0] / 100000 - 0.05) < 0.002);
    CHECK(std::abs(col[1] / 100000 - 0.2) < 0.003);
    CHECK(std::abs(col[2] / 100000 - 0.75) < 0.003);
    // multivariate_normal: the sample covariance of 200000 draws against cov.
    const std::vector<double> cov{4.0, 1.2, 0.0, 1.2, 1.0, -0.3, 0.0, -0.3, 0.5};
    const nf::array mv = g.multivariate_normal(nf::asarray(std::vector<double>{1.0, -2.0, 0.0}),
                                               nf::asarray(cov, {3, 3}), nf::shape_t{samples});
    CHECK(mv.shape() == nf::shape_t{samples, 3});
    const auto m = mv.to_vector<double>();
    const double mu[3] = {1.0, -2.0, 0.0};
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        double s = 0;
        for (std::int64_t r = 0; r < samples; ++r) s += (m[3 * r + a] - mu[a]) * (m[3 * r + b] - mu[b]);
        INFO("cov[" << a << "][" << b << "]");
        CHECK(std::abs(s / samples - cov[3 * a + b]) < 0.03);
      }
    }
  }
  SECTION("geometric: frequencies against (1 - p)^(k - 1) p") {
    for (double p : {0.05, 0.3, 0.7, 1.0}) {
      INFO("p = " << p);
      const auto k = g.geometric(p, n).to_vector<std::int64_t>();
      CHECK(*std::min_element(k.begin(), k.end()) >= 1);
      // Chi-square over k = 1..K and the tail, against its 0.001 critical value.
      const int K = p >= 1.0 ? 1 : 8;
      std::vector<double> observed(K + 1, 0);
      for (auto v : k) observed[std::min<std::int64_t>(v, K + 1) - 1] += 1;
      double chi2 = 0, tail = 1;
      for (int j = 1; j <= K; ++j) {
        const double pj = std::pow(1 - p, j - 1) * p;
        tail -= pj;
        chi2 += (observed[j - 1] - samples * pj) * (observed[j - 1] - samples * pj) / (samples * pj);
      }
      if (tail > 1e-12)
        chi2 += (observed[K] - samples * tail) * (observed[K] - samples * tail) / (samples * tail);
      else
        CHECK(observed[K] == 0);
      CHECK(chi2 < 27.88);  // chi-square, 8 degrees of freedom, 0.001
    }
  }
  SECTION("integers: range, endpoint, uniformity") {
    const auto a = g.integers(-3, 7, n).to_vector<std::int64_t>();
    std::vector<double> counts(10, 0);
    for (auto v : a) {
      REQUIRE(v >= -3);
      REQUIRE(v < 7);
      counts[v + 3] += 1;
    }
    double chi2 = 0;
    for (double c : counts) chi2 += (c - samples / 10.0) * (c - samples / 10.0) / (samples / 10.0);
    CHECK(chi2 < 27.88);  // 9 degrees of freedom, 0.001
    const auto e = g.integers(0, 3, {3000}, nf::int8, true).to_vector<std::int8_t>();
    CHECK(std::set<std::int8_t>(e.begin(), e.end()) == std::set<std::int8_t>{0, 1, 2, 3});
    CHECK(g.integers(5, std::nullopt, {4}).dtype() == nf::int64);
    const auto big = g.integers(INT64_MIN, INT64_MAX, {1000}, nf::int64, true).to_vector<std::int64_t>();
    CHECK(std::count_if(big.begin(), big.end(), [](auto v) { return v < 0; }) > 400);
    const auto u = g.integers(0, 256, {20000}, nf::uint8).to_vector<std::uint8_t>();
    CHECK(std::set<std::uint8_t>(u.begin(), u.end()).size() == 256);
  }
  SECTION("choice, permutation, shuffle") {
    auto perm = g.permutation(1000).to_vector<std::int64_t>();
    std::sort(perm.begin(), perm.end());
    for (std::int64_t i = 0; i < 1000; ++i) CHECK(perm[i] == i);
    const auto pick = g.choice(50, nf::shape_t{20}, false).to_vector<std::int64_t>();
    CHECK(std::set<std::int64_t>(pick.begin(), pick.end()).size() == 20);
    // Weighted, without replacement: item 0 (weight 0.5) is in almost every sample of 2.
    const nf::array p = nf::asarray(std::vector<double>{0.5, 0.3, 0.2, 0.0});
    int with_zero = 0;
    for (int t = 0; t < 200; ++t) {
      const auto s = g.choice(4, nf::shape_t{2}, false, p).to_vector<std::int64_t>();
      CHECK(s[0] != s[1]);
      CHECK(s[0] != 3);
      CHECK(s[1] != 3);
      with_zero += s[0] == 0 || s[1] == 0;
    }
    CHECK(with_zero > 150);  // P(0 drawn) = 0.5 + 0.3 * 0.5 / 0.7 + 0.2 * 0.5 / 0.8 = 0.839
    nf::array x = nf::arange(12).reshape({6, 2});
    const nf::array before = x;
    g.shuffle(x);
    auto rows = x.to_vector<std::int64_t>();
    CHECK(before.to_vector<std::int64_t>() == nf::arange(12).to_vector<std::int64_t>());  // value semantics
    for (int r = 0; r < 6; ++r) CHECK(rows[2 * r + 1] == rows[2 * r] + 1);
    std::sort(rows.begin(), rows.end());
    CHECK(rows == nf::arange(12).to_vector<std::int64_t>());
    const auto bytes = g.bytes(10);
    CHECK(bytes.size() == 10);
  }
}

TEST_CASE("array parameters broadcast as NumPy's do", "[random]") {
  rnd::Generator g = rnd::default_rng(3);
  const nf::array mu = nf::asarray(std::vector<double>{-100.0, 0.0, 100.0});
  const auto x = g.normal(mu, 1.0, nf::shape_t{4, 3}).to_vector<double>();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) CHECK(std::abs(x[3 * r + c] - (c - 1) * 100.0) < 6);
  CHECK(g.normal(mu, nf::asarray(std::vector<double>{1.0, 2.0, 3.0})).shape() == nf::shape_t{3});
  CHECK(g.uniform(nf::zeros({2, 1}), nf::ones({3})).shape() == nf::shape_t{2, 3});
  CHECK(g.exponential(1.0).shape() == nf::shape_t{});
  CHECK_THROWS_AS(g.normal(mu, 1.0, nf::shape_t{2}), nf::value_error);
}

TEST_CASE("a draw fuses: it adds no kernel and no buffer", "[random][fusion]") {
  rnd::Generator g = rnd::default_rng(11);
  nf::array x = nf::ones({100000});
  x.eval();
  nf::reset_stats();
  nf::array s = nf::sum(g.standard_normal({1 << 20}));
  nf::array y = x + g.random(x.shape());
  CHECK(nf::stats().kernels_launched == 0);  // drawing does no work
  // Nor does checking scalar parameters (they are compared on the host).
  nf::array scaled = g.normal(0.0, 2.0, nf::shape_t{8}) + g.uniform(-1.0, 1.0, nf::shape_t{8}) +
                     g.gamma(2.0, 3.0, nf::shape_t{8}) + g.binomial(5, 0.5, nf::shape_t{8});
  CHECK(nf::stats().kernels_launched == 0);
  s.eval();
  CHECK(nf::stats().kernels_launched == 1);
  y.eval();
  CHECK(nf::stats().kernels_launched == 2);
  // The sum's output and y: no buffer for either draw (2^20 float64 would be 8 MiB).
  CHECK(nf::stats().bytes_allocated < 100000 * 8 + (1 << 16));
  CHECK(std::abs(s.item<double>()) < 5 * 1024);  // sqrt(2^20) = 1024
}

TEST_CASE("the same seed gives the same values eager and fused; successive draws differ", "[random]") {
  auto values = [](bool eager) {
    std::optional<nf::eager_scope> scope;
    if (eager) scope.emplace();
    rnd::Generator g = rnd::default_rng(5);
    nf::array a = g.normal(1.0, 2.0, nf::shape_t{1000}) * 3 + g.random({1000});
    nf::array b = g.random({1000});
    return std::make_pair(a.to_vector<double>(), b.to_vector<double>());
  };
  const auto fused = values(false), eager = values(true);
  CHECK(fused.first == eager.first);
  CHECK(fused.second == eager.second);
  CHECK(fused.second != std::vector<double>(fused.first.begin(), fused.first.end()));
  rnd::Generator g = rnd::default_rng(5);
  CHECK(g.random({8}).to_vector<double>() != g.random({8}).to_vector<double>());
}

TEST_CASE("a loop that draws afresh each step reuses its plan and gets each draw's values", "[random]") {
  for (bool philox64 : {false, true}) {
    INFO((philox64 ? "Philox" : "Philox4x32"));
    auto make = [&] { return philox64 ? rnd::Generator(rnd::Philox(8)) : rnd::default_rng(8); };
    rnd::Generator looped = make(), alone = make();
    nf::array base = nf::arange(12).astype(nf::float64).reshape({3, 4});
    base.eval();
    nf::reset_stats();
    for (int step = 0; step < 6; ++step) {
      INFO("step " << step);
      // A view with an offset: the draw's elements from the second on, through a transpose.
      nf::array y = base + nf::transpose(looped.random(
                               {5, 3}, step % 2 ? nf::float32 : nf::float64)(nf::slice(1, nf::none)));
      const auto got = y.to_vector<double>();
      const auto whole =
          alone.random({5, 3}, step % 2 ? nf::float32 : nf::float64).astype(nf::float64).to_vector<double>();
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) CHECK(got[4 * r + c] == double(4 * r + c) + whole[3 * (c + 1) + r]);
    }
    CHECK(nf::stats().plans_reused >= 4);
  }
}

TEST_CASE("views of a draw read its elements", "[random]") {
  for (bool philox64 : {false, true}) {
    rnd::Generator g = philox64 ? rnd::Generator(rnd::Philox(4)) : rnd::default_rng(4);
    rnd::Generator h = philox64 ? rnd::Generator(rnd::Philox(4)) : rnd::default_rng(4);
    const auto whole = g.random({7, 5}).to_vector<double>();
    const nf::array d = h.random({7, 5});
    const auto t =
        nf::transpose(d)(nf::slice(1, nf::none), nf::slice(nf::none, nf::none, -2)).to_vector<double>();
    std::size_t k = 0;
    for (int c = 1; c < 5; ++c)
      for (int r = 6; r >= 0; r -= 2) CHECK(t[k++] == whole[5 * r + c]);
  }
}

TEST_CASE("global generator: seed, rand, randn, randint, state", "[random]") {
  rnd::seed(42);
  const auto a = rnd::rand({3, 2}).to_vector<double>();
  const rnd::bit_generator_state s = rnd::get_state();
  const auto b = rnd::randn({4}).to_vector<double>();
  rnd::seed(42);
  CHECK(rnd::rand({3, 2}).to_vector<double>() == a);
  CHECK(rnd::randn({4}).to_vector<double>() == b);
  rnd::set_state(s);
  CHECK(rnd::randn({4}).to_vector<double>() == b);
  const auto i = rnd::randint(10, 20, {100}).to_vector<std::int64_t>();
  CHECK(*std::min_element(i.begin(), i.end()) >= 10);
  CHECK(*std::max_element(i.begin(), i.end()) < 20);
  CHECK(rnd::random_sample({2}).shape() == nf::shape_t{2});
  CHECK(rnd::uniform(1.0, 2.0, nf::shape_t{3}).shape() == nf::shape_t{3});
  CHECK(rnd::permutation(5).shape() == nf::shape_t{5});
}

TEST_CASE("bad parameters raise NumPy's errors at the call", "[random][errors]") {
  rnd::Generator g = rnd::default_rng(1);
  CHECK_THROWS_AS(g.integers(5, 5), nf::value_error);
  CHECK_THROWS_AS(g.integers(0), nf::value_error);
  CHECK_THROWS_AS(g.integers(6, 5, {}, nf::int64, true), nf::value_error);
  CHECK_THROWS_AS(g.integers(0, 300, {}, nf::uint8), nf::value_error);
  CHECK_THROWS_AS(g.integers(-1, 3, {}, nf::uint8), nf::value_error);
  CHECK_THROWS_AS(g.integers(0, 3, {}, nf::float64), nf::dtype_error);
  CHECK_THROWS_AS(g.random({-1}), nf::value_error);
  CHECK_THROWS_AS(g.random({2}, nf::int32), nf::dtype_error);
  CHECK_THROWS_AS(g.standard_normal({2}, nf::float16), nf::dtype_error);
  CHECK_THROWS_AS(g.normal(0.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.normal(0.0, nf::asarray(std::vector<double>{1.0, -1.0})), nf::value_error);
  CHECK_THROWS_AS(g.exponential(-2.0), nf::value_error);
  CHECK_THROWS_AS(g.pareto(0.0), nf::value_error);
  CHECK_THROWS_AS(g.weibull(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.geometric(0.0), nf::value_error);
  CHECK_THROWS_AS(g.geometric(1.5), nf::value_error);
  CHECK_THROWS_AS(g.uniform(-1e308, 1e308), nf::value_error);
  CHECK_THROWS_AS(g.standard_gamma(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.gamma(1.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.chisquare(0.0), nf::value_error);
  CHECK_THROWS_AS(g.beta(1.0, 0.0), nf::value_error);
  CHECK_THROWS_AS(g.standard_t(nf::asarray(std::vector<double>{1.0, -2.0})), nf::value_error);
  CHECK_THROWS_AS(g.f(1.0, 0.0), nf::value_error);
  CHECK_THROWS_AS(g.standard_gamma(1.0, std::nullopt, nf::int32), nf::dtype_error);
  CHECK_THROWS_AS(g.poisson(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.poisson(1e19), nf::value_error);
  CHECK_THROWS_AS(g.binomial(-1, 0.5), nf::value_error);
  CHECK_THROWS_AS(g.binomial(5, 1.5), nf::value_error);
  CHECK_THROWS_AS(g.negative_binomial(0.0, 0.5), nf::value_error);
  CHECK_THROWS_AS(g.multinomial(5, nf::asarray(std::vector<double>{0.8, 0.7, 0.1})), nf::value_error);
  CHECK_THROWS_AS(g.multinomial(-1, nf::asarray(std::vector<double>{0.5, 0.5})), nf::value_error);
  CHECK_THROWS_AS(g.triangular(1.0, 0.0, 2.0), nf::value_error);
  CHECK_THROWS_AS(g.triangular(0.0, 3.0, 2.0), nf::value_error);
  CHECK_THROWS_AS(g.triangular(1.0, 1.0, 1.0), nf::value_error);
  CHECK_THROWS_AS(g.power(0.0), nf::value_error);
  CHECK_THROWS_AS(g.logseries(1.0), nf::value_error);
  CHECK_THROWS_AS(g.zipf(1.0), nf::value_error);
  CHECK_THROWS_AS(g.vonmises(0.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.wald(0.0, 1.0), nf::value_error);
  CHECK_THROWS_AS(g.noncentral_chisquare(1.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.dirichlet(nf::asarray(std::vector<double>{1.0, 0.0})), nf::value_error);
  CHECK_THROWS_AS(g.multivariate_normal(nf::zeros({2}), nf::eye(3)), nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, true, nf::asarray(std::vector<double>{0.5, 0.6, 0.1})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, true, nf::asarray(std::vector<double>{1.5, -0.5, 0.0})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(2, nf::shape_t{3}, false), nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, false, nf::asarray(std::vector<double>{1.0, 0.0, 0.0})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(0, nf::shape_t{1}), nf::value_error);
  CHECK_THROWS_AS(g.permutation(nf::full({}, 3.0)), nf::value_error);
  rnd::bit_generator_state s = g.bit_generator().state();
  s.bit_generator = "Philox";
  CHECK_THROWS_AS(g.bit_generator().set_state(s), nf::value_error);
  // A failed call leaves the generator where it was.
  rnd::Generator h = rnd::default_rng(1);
  CHECK(g.random({4}).to_vector<double>() == h.random({4}).to_vector<double>());
}

// --- The CPU and the GPU agree bit for bit ------------------------------------------------------------

namespace {

void save_draws(const fs::path& dir) {
  fs::create_directories(dir);
  for (bool philox64 : {false, true}) {
    const std::string tag = philox64 ? "p64_" : "p32_";
    rnd::Generator g = philox64 ? rnd::Generator(rnd::Philox(9)) : rnd::default_rng(9);
    g.random({3});  // an odd start: buffered words on Philox, a partly used block on Philox4x32
    nf::save((dir / (tag + "random64.npy")).string(), g.random({100003}));
    nf::save((dir / (tag + "random32.npy")).string(), g.random({1, 70001}, nf::float32));
    nf::save((dir / (tag + "normal64.npy")).string(), g.standard_normal({50001}));
    nf::save((dir / (tag + "normal32.npy")).string(), g.standard_normal({50003}, nf::float32));
    nf::save((dir / (tag + "raw.npy")).string(), g.bit_generator().random_raw({1001}));
    nf::save((dir / (tag + "integers.npy")).string(), g.integers(-7, 1000, {4099}));
    nf::save((dir / (tag + "strided.npy")).string(),
             nf::transpose(g.random({301, 7}))(nf::slice(1, nf::none)));
    nf::save((dir / (tag + "uniform.npy")).string(), g.uniform(-3.0, 5.0, nf::shape_t{999}));
    nf::save((dir / (tag + "gamma.npy")).string(),
             g.standard_gamma(nf::asarray(std::vector<double>{0.2, 1.0, 7.5}), nf::shape_t{3001, 3}));
    nf::save((dir / (tag + "beta.npy")).string(), g.beta(0.5, 2.5, nf::shape_t{2001}));
    nf::save((dir / (tag + "poisson.npy")).string(),
             g.poisson(nf::asarray(std::vector<double>{0.5, 30.0, 1e7}), nf::shape_t{1001, 3}));
    nf::save((dir / (tag + "binomial.npy")).string(), g.binomial(1e9, 0.3, nf::shape_t{1001}));
  }
}

}  // namespace

TEST_CASE("random child: write draws", "[.random_child]") {
  if (!ndfuse_test::is_child("random")) return;
  save_draws(std::getenv("NDFUSE_RANDOM_DIR"));
}

TEST_CASE("the CPU and the GPU draw the same bits", "[random][cuda]") {
  if (!ndfuse_test::cuda_backend_active()) NDFUSE_SKIP("the cuda backend is not active");
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  const fs::path root = fs::path(tmp ? tmp : fs::temp_directory_path().string()) / "random_backends";
  fs::remove_all(root);
  for (const char* backend : {"cpu", "cuda"}) {
    INFO("child on " << backend);
    REQUIRE(ndfuse_test::run_self("random child: write draws",
                                  {std::string("NDFUSE_BACKEND=") + backend, "NDFUSE_TEST_CHILD=random",
                                   "NDFUSE_RANDOM_DIR=" + (root / backend).string()}) == 0);
  }
  int files = 0;
  for (const auto& f : fs::directory_iterator(root / "cpu")) {
    INFO(f.path().filename());
    const nf::host_array cpu = oracle::read_npy(f.path().string());
    const nf::host_array gpu = oracle::read_npy((root / "cuda" / f.path().filename()).string());
    CHECK(cpu.shape == gpu.shape);
    CHECK(cpu.bytes == gpu.bytes);
    ++files;
  }
  CHECK(files == 24);
}
