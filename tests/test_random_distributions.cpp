// nf::random's distributions at a fixed seed: each one's moments against its closed form and its
// sample against its CDF (Kolmogorov-Smirnov) or, for counts, its pmf (chi-square), with the
// thresholds stated beside each check; integers: range, endpoint and uniformity.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace rnd = nf::random;

namespace {

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
