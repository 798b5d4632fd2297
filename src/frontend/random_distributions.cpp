// nf::random's gamma family (standard_gamma, gamma, chisquare, beta, standard_t, f), counts (poisson,
// binomial, negative_binomial, multinomial, logseries, zipf), vonmises, the closed-form transforms
// (standard_cauchy, triangular, power, wald, noncentral_chisquare, noncentral_f) and the vector
// distributions (dirichlet, multivariate_normal). Rejection samplers run per element on a substream
// keyed by bits drawn from the generator (the prelude's internal random_* ops), so a draw is one
// fused node like the uniform ones.
#include "frontend/random_common.hpp"
#include "ndfuse/linalg.hpp"

namespace ndfuse::random {

using namespace detail;

array Generator::standard_gamma(const param& shape, std::optional<shape_t> size, dtype t) {
  const char* op = "Generator.standard_gamma";
  float_dtype(t, op);
  check(shape, op, "shape < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&shape}, op);
  return gamma_variates(*engine_, as_array(shape), out).astype(t);
}

array Generator::gamma(const param& shape, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.gamma";
  check(shape, op, "shape < 0", [](const auto& x) { return less(x, 0.0); });
  check(scale, op, "scale < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&shape, &scale}, op);
  return multiply(as_array(scale), gamma_variates(*engine_, as_array(shape), out));
}

array Generator::chisquare(const param& df, std::optional<shape_t> size) {
  const char* op = "Generator.chisquare";
  check(df, op, "df <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&df}, op);
  // NumPy's random_chisquare: 2 * standard_gamma(df / 2).
  return multiply(2.0, gamma_variates(*engine_, divide(as_array(df), 2.0), out));
}

array Generator::beta(const param& a, const param& b, std::optional<shape_t> size) {
  const char* op = "Generator.beta";
  check(a, op, "a <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(b, op, "b <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&a, &b}, op);
  // X / (X + Y) of two gamma variates (NumPy switches to Johnk's method below a, b = 1, the same
  // distribution).
  const array x = gamma_variates(*engine_, as_array(a), out), y = gamma_variates(*engine_, as_array(b), out);
  return divide(x, add(x, y));
}

array Generator::standard_t(const param& df, std::optional<shape_t> size) {
  const char* op = "Generator.standard_t";
  check(df, op, "df <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&df}, op);
  // NumPy's random_standard_t: sqrt(df / 2) * N / sqrt(G(df / 2)).
  const array half = divide(as_array(df), 2.0);
  const array z = draw(*engine_, random_form::normal_double, out);
  return divide(multiply(sqrt(half), z), sqrt(gamma_variates(*engine_, half, out)));
}

array Generator::f(const param& dfnum, const param& dfden, std::optional<shape_t> size) {
  const char* op = "Generator.f";
  check(dfnum, op, "dfnum <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(dfden, op, "dfden <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&dfnum, &dfden}, op);
  // NumPy's random_f: (chisquare(dfnum) * dfden) / (chisquare(dfden) * dfnum).
  const array n = as_array(dfnum), d = as_array(dfden);
  const array num = multiply(2.0, gamma_variates(*engine_, divide(n, 2.0), out));
  const array den = multiply(2.0, gamma_variates(*engine_, divide(d, 2.0), out));
  return divide(multiply(num, d), multiply(den, n));
}

array Generator::poisson(const param& lam, std::optional<shape_t> size) {
  const char* op = "Generator.poisson";
  // NumPy's POISSON_LAM_MAX: larger means can overflow int64.
  check(lam, op, "lam < 0, lam value too large or lam is NaN", [](const auto& x) {
    return logical_not(logical_and(greater_equal(x, 0.0), less(x, 9.223372006484771e18)));
  });
  const shape_t out = draw_shape(std::move(size), {&lam}, op);
  return poisson_counts(*engine_, as_array(lam), out).astype(dtype::int64);
}

array Generator::binomial(const param& n, const param& p, std::optional<shape_t> size) {
  const char* op = "Generator.binomial";
  check(n, op, "n < 0", [](const auto& x) { return less(x, 0.0); });
  check(p, op, "p < 0, p > 1 or p is NaN",
        [](const auto& x) { return logical_not(logical_and(greater_equal(x, 0.0), less_equal(x, 1.0))); });
  const shape_t out = draw_shape(std::move(size), {&n, &p}, op);
  return binomial_counts(*engine_, whole(n), as_array(p), out).astype(dtype::int64);
}

array Generator::negative_binomial(const param& n, const param& p, std::optional<shape_t> size) {
  const char* op = "Generator.negative_binomial";
  check(n, op, "n <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(p, op, "p < 0, p > 1 or p is NaN",
        [](const auto& x) { return logical_not(logical_and(greater_equal(x, 0.0), less_equal(x, 1.0))); });
  const shape_t out = draw_shape(std::move(size), {&n, &p}, op);
  // NumPy's random_negative_binomial: Poisson(Gamma(n, (1 - p) / p)); p = 1 gives 0.
  const array q = as_array(p);
  const array rate = multiply(gamma_variates(*engine_, as_array(n), out), divide(subtract(1.0, q), q));
  return where(equal(q, 1.0), 0.0, poisson_counts(*engine_, rate, out)).astype(dtype::int64);
}

array Generator::multinomial(std::int64_t n, const array& pvals, std::optional<shape_t> size) {
  const char* op = "Generator.multinomial";
  if (n < 0) throw value_error(std::string(op) + ": n < 0");
  if (pvals.ndim() != 1) throw value_error(std::string(op) + ": pvals must be a 1-d sequence");
  const std::int64_t k = pvals.shape()[0];
  if (k == 0) throw value_error(std::string(op) + ": pvals must have at least 1 entry");
  const auto p = pvals.to_vector<double>();
  double head = 0;
  for (std::int64_t j = 0; j < k; ++j) {
    if (!(p[j] >= 0 && p[j] <= 1))
      throw value_error(std::string(op) + ": pvals < 0, pvals > 1 or pvals contains NaNs");
    if (j + 1 < k) head += p[j];
  }
  if (head > 1.0 + 1e-12) throw value_error(std::string(op) + ": sum(pvals[:-1]) > 1.0");
  const shape_t out = size ? checked(*size, op) : shape_t{};
  // NumPy's method: category j takes Binomial(left, p_j / (what the earlier ones left of 1)).
  std::vector<array> counts;
  array left = full(out, double(n));
  double rest = 1.0;
  for (std::int64_t j = 0; j + 1 < k; ++j) {
    const double q = rest > 0 ? std::min(p[j] / rest, 1.0) : 0.0;
    const array c = binomial_counts(*engine_, left, full({}, q), out);
    counts.push_back(c);
    left = subtract(left, c);
    rest -= p[j];
  }
  counts.push_back(left);
  return stack(counts, -1).astype(dtype::int64);
}

array Generator::logseries(const param& p, std::optional<shape_t> size) {
  const char* op = "Generator.logseries";
  check(p, op, "p < 0, p >= 1 or p is NaN",
        [](const auto& x) { return logical_not(logical_and(greater_equal(x, 0.0), less(x, 1.0))); });
  const shape_t out = draw_shape(std::move(size), {&p}, op);
  const array q = as_array(p);
  // p = 0 gives 1, as NumPy's.
  const array k = frontend::binary(ir::op_code::random_logseries, substream_keys(*engine_, out), q);
  return where(equal(q, 0.0), 1.0, k).astype(dtype::int64);
}

array Generator::zipf(const param& a, std::optional<shape_t> size) {
  const char* op = "Generator.zipf";
  check(a, op, "a <= 1 or a is NaN", [](const auto& x) { return logical_not(greater(x, 1.0)); });
  const shape_t out = draw_shape(std::move(size), {&a}, op);
  return frontend::binary(ir::op_code::random_zipf, substream_keys(*engine_, out), as_array(a))
      .astype(dtype::int64);
}

array Generator::vonmises(const param& mu, const param& kappa, std::optional<shape_t> size) {
  const char* op = "Generator.vonmises";
  check(kappa, op, "kappa < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&mu, &kappa}, op);
  return array(
      frontend::make_node(ir::op_code::random_vonmises, dtype::float64,
                          {substream_keys(*engine_, out).node(), broadcast_to(as_array(mu), out).node(),
                           broadcast_to(as_array(kappa), out).node()},
                          out));
}

array Generator::standard_cauchy(const shape_t& size) {
  checked(size, "Generator.standard_cauchy");
  // NumPy's random_standard_cauchy: the ratio of two normals.
  return divide(draw(*engine_, random_form::normal_double, size),
                draw(*engine_, random_form::normal_double, size));
}

array Generator::triangular(const param& left, const param& mode, const param& right,
                            std::optional<shape_t> size) {
  const char* op = "Generator.triangular";
  const array l = as_array(left), m = as_array(mode), r = as_array(right);
  if (any_of(greater(l, m))) throw value_error(std::string(op) + ": left > mode");
  if (any_of(greater(m, r))) throw value_error(std::string(op) + ": mode > right");
  if (any_of(equal(l, r))) throw value_error(std::string(op) + ": left == right");
  const shape_t out = draw_shape(std::move(size), {&left, &mode, &right}, op);
  // NumPy's random_triangular: the inverse CDF on each side of the mode.
  const array base = subtract(r, l), left_base = subtract(m, l);
  const array u = draw(*engine_, random_form::unit_double, out);
  return where(less_equal(u, divide(left_base, base)), add(l, sqrt(multiply(u, multiply(left_base, base)))),
               subtract(r, sqrt(multiply(subtract(1.0, u), multiply(subtract(r, m), base)))));
}

array Generator::power(const param& a, std::optional<shape_t> size) {
  const char* op = "Generator.power";
  check(a, op, "a <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&a}, op);
  // NumPy's random_power: (1 - e^-E)^(1 / a).
  return ndfuse::power(negative(expm1(negative(standard_exponential(out)))), divide(1.0, as_array(a)));
}

array Generator::wald(const param& mean, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.wald";
  check(mean, op, "mean <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(scale, op, "scale <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&mean, &scale}, op);
  // NumPy's random_wald (Michael, Schucany and Haas): a normal, a root, then a uniform choosing
  // between the root and its reflection.
  const array mu = as_array(mean), lambda = as_array(scale);
  const array z = draw(*engine_, random_form::normal_double, out);
  const array y = multiply(mu, multiply(z, z));
  const array x =
      add(mu, multiply(divide(mu, multiply(2.0, lambda)),
                       subtract(y, sqrt(add(multiply(multiply(4.0, lambda), y), multiply(y, y))))));
  const array u = draw(*engine_, random_form::unit_double, out);
  return where(less_equal(u, divide(mu, add(mu, x))), x, divide(multiply(mu, mu), x));
}

array Generator::noncentral_chisquare(const param& df, const param& nonc, std::optional<shape_t> size) {
  const char* op = "Generator.noncentral_chisquare";
  check(df, op, "df <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(nonc, op, "nonc < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&df, &nonc}, op);
  // The Poisson mixture: chisquare(df + 2 Poisson(nonc / 2)) (NumPy adds a shifted normal's square
  // for df > 1; the same distribution).
  const array i = poisson_counts(*engine_, divide(as_array(nonc), 2.0), out);
  return multiply(2.0, gamma_variates(*engine_, add(divide(as_array(df), 2.0), i), out));
}

array Generator::noncentral_f(const param& dfnum, const param& dfden, const param& nonc,
                              std::optional<shape_t> size) {
  const char* op = "Generator.noncentral_f";
  check(dfnum, op, "dfnum <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(dfden, op, "dfden <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  check(nonc, op, "nonc < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t out = draw_shape(std::move(size), {&dfnum, &dfden, &nonc}, op);
  // NumPy's random_noncentral_f: (noncentral_chisquare(dfnum, nonc) dfden) / (chisquare(dfden) dfnum).
  const array n = as_array(dfnum), d = as_array(dfden);
  const array t = multiply(noncentral_chisquare(dfnum, nonc, out), d);
  return divide(t, multiply(multiply(2.0, gamma_variates(*engine_, divide(d, 2.0), out)), n));
}

array Generator::dirichlet(const array& alpha, std::optional<shape_t> size) {
  const char* op = "Generator.dirichlet";
  if (alpha.ndim() != 1) throw value_error(std::string(op) + ": alpha must be a 1-d sequence");
  const array a = alpha.astype(dtype::float64);
  if (any_of(isnan(a))) throw value_error(std::string(op) + ": alpha contains NaN");
  if (any_of(less_equal(a, 0.0))) throw value_error(std::string(op) + ": alpha <= 0");
  shape_t out = size ? checked(*size, op) : shape_t{};
  out.push_back(alpha.shape()[0]);
  // Gamma variates normalized along the last axis (NumPy switches to stick-breaking betas when
  // every alpha is below 0.1, where all the gammas of a row can underflow).
  const array g = gamma_variates(*engine_, a, out);
  return divide(g, sum(g, {-1}, true));
}

array Generator::multivariate_normal(const array& mean, const array& cov, std::optional<shape_t> size) {
  const char* op = "Generator.multivariate_normal";
  if (mean.ndim() != 1) throw value_error(std::string(op) + ": mean must be 1 dimensional");
  const std::int64_t k = mean.shape()[0];
  if (cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1])
    throw value_error(std::string(op) + ": cov must be 2 dimensional and square");
  if (cov.shape()[0] != k) throw value_error(std::string(op) + ": mean and cov must have same length");
  shape_t out = size ? checked(*size, op) : shape_t{};
  out.push_back(k);
  // NumPy's default method: cov = U S V^H, x = mean + z (sqrt(S) V^H) with z standard normal rows.
  const auto [u, s, vh] = linalg::svd(cov.astype(dtype::float64));
  (void)u;
  const array factor = multiply(reshape(sqrt(s), {k, 1}), vh);
  const array z = draw(*engine_, random_form::normal_double, out);
  return add(mean.astype(dtype::float64), matmul(z, factor));
}

}  // namespace ndfuse::random
