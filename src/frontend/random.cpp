// nf::random: the bit generators' host state, the uniform and closed-form distributions, choice and
// the legacy functions (random_distributions.cpp has the rest). Every draw is one random node
// (frontend::random_draw) holding the stream position the generator handed out;
// distributions are fused ops over it (NumPy's formulas where NumPy transforms uniforms, parallel
// transforms where NumPy rejects), so they build no work and fuse into their consumers. Parameters
// are checked at the call, as NumPy checks them: an array parameter is read for that.
#include "ndfuse/random.hpp"

#include <limits>
#include <random>

#include "frontend/random_common.hpp"
#include "frontend/seed_sequence.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse::random {

namespace detail {

ir::random_stream engine::take(ir::random_form form, std::uint64_t n) {
  std::lock_guard lock(m);
  ir::random_stream s;
  s.engine = kind;
  s.form = form;
  if (kind == ir::random_engine::philox4x32) {
    s.key = {key32, 0};
    s.ctr = {ctr_lo, ctr_hi, 0, 0};
    const std::uint64_t per = static_cast<std::uint64_t>(ir::random_per_block(form));
    const std::uint64_t blocks = n / per + (n % per != 0);
    const std::uint64_t lo = ctr_lo + blocks;
    ctr_hi += lo < ctr_lo;
    ctr_lo = lo;
    return s;
  }
  using f = ir::random_form;
  if (form == f::bits32 || form == f::unit_float) {
    const frontend::half_draw d = philox.draw_halves(n);
    s.key = d.words.key;
    s.ctr = d.words.ctr;
    s.first = d.words.first;
    if (d.pending) {
      if (d.pending_half) {
        s.carries = 2;
        s.carried = *d.pending_half;
      } else {
        // Words from the kept word to the draw's first: (ctr - ctr') * 4 + first - first'.
        s.carries = 1;
        s.carried = (d.words.ctr[0] - d.pending_word.ctr[0]) * 4 + d.words.first - d.pending_word.first;
      }
    }
    return s;
  }
  // Box-Muller pairs read two words each.
  const std::uint64_t words = form == f::normal_double || form == f::normal_float ? n + n % 2 : n;
  const frontend::word_draw d = philox.draw_words(words);
  s.key = d.key;
  s.ctr = d.ctr;
  s.first = d.first;
  return s;
}

}  // namespace detail

using namespace detail;

namespace {

using detail::engine;
using ir::random_form;

std::vector<std::uint32_t> os_entropy() {
  std::random_device rd;
  return {rd(), rd(), rd(), rd()};
}

frontend::seed_sequence seeds(std::optional<std::uint64_t> seed) {
  return seed ? frontend::seed_sequence::from_integer(*seed) : frontend::seed_sequence(os_entropy());
}

std::shared_ptr<engine> philox_engine(std::array<std::uint64_t, 2> key,
                                      std::array<std::uint64_t, 4> counter) {
  auto e = std::make_shared<engine>();
  e->kind = ir::random_engine::philox4x64;
  e->philox = frontend::philox_stream(key, counter);
  return e;
}

std::shared_ptr<engine> philox32_engine(std::optional<std::uint64_t> seed) {
  auto e = std::make_shared<engine>();
  e->kind = ir::random_engine::philox4x32;
  e->key32 = seeds(seed).generate_state64(1)[0];
  return e;
}

}  // namespace

// --- Bit generators ---------------------------------------------------------------------------------

bit_generator_state BitGenerator::state() const {
  std::lock_guard lock(engine_->m);
  bit_generator_state s{};
  if (engine_->kind == ir::random_engine::philox4x32) {
    s.bit_generator = "Philox4x32";
    s.counter = {engine_->ctr_lo, engine_->ctr_hi, 0, 0};
    s.key = {engine_->key32, 0};
    return s;
  }
  const auto& p = engine_->philox;
  s.bit_generator = "Philox";
  s.counter = p.counter();
  s.key = p.key();
  s.buffer_pos = p.buffer_pos();
  s.has_uint32 = p.has_uint32();
  if (p.kept_any()) {
    if (p.pending_half()) {
      s.uinteger = *p.pending_half();
    } else {
      // The kept half is the upper half of a word the stream can name: one element, read back.
      ir::random_stream w;
      w.engine = ir::random_engine::philox4x64;
      w.form = random_form::bits64;
      w.key = p.pending_word().key;
      w.ctr = p.pending_word().ctr;
      w.first = p.pending_word().first;
      s.uinteger = static_cast<std::uint32_t>(frontend::random_draw({}, w).item<std::uint64_t>() >> 32);
    }
  }
  return s;
}

void BitGenerator::set_state(const bit_generator_state& s) {
  const bool philox32 = engine_->kind == ir::random_engine::philox4x32;
  if (s.bit_generator != (philox32 ? "Philox4x32" : "Philox"))
    throw value_error("BitGenerator.state: a state of " + s.bit_generator + " given to a " +
                      (philox32 ? "Philox4x32" : "Philox") + " generator");
  if (!philox32 && (s.buffer_pos < 0 || s.buffer_pos > 4))
    throw value_error("BitGenerator.state: buffer_pos must be in [0, 4]");
  std::lock_guard lock(engine_->m);
  if (philox32) {
    engine_->ctr_lo = s.counter[0];
    engine_->ctr_hi = s.counter[1];
    engine_->key32 = s.key[0];
  } else {
    engine_->philox.set(s.key, s.counter, s.buffer_pos, s.has_uint32, s.uinteger);
  }
}

BitGenerator& BitGenerator::advance(std::uint64_t delta) {
  std::lock_guard lock(engine_->m);
  if (engine_->kind == ir::random_engine::philox4x32) {
    const std::uint64_t lo = engine_->ctr_lo + delta;
    engine_->ctr_hi += lo < engine_->ctr_lo;
    engine_->ctr_lo = lo;
  } else {
    engine_->philox.advance(delta);
  }
  return *this;
}

array BitGenerator::random_raw(const shape_t& size) {
  checked(size, "BitGenerator.random_raw");
  return draw(*engine_, random_form::bits64, size);
}

Philox::Philox(std::optional<std::uint64_t> seed) : BitGenerator(std::shared_ptr<detail::engine>()) {
  const auto words = seeds(seed).generate_state64(2);
  engine_ = philox_engine({words[0], words[1]}, {0, 0, 0, 0});
}

Philox Philox::from_key(std::array<std::uint64_t, 2> key, std::array<std::uint64_t, 4> counter) {
  return Philox(from_engine{}, philox_engine(key, counter));
}

Philox4x32::Philox4x32(std::optional<std::uint64_t> seed) : BitGenerator(philox32_engine(seed)) {}

// --- Generator ----------------------------------------------------------------------------------------

Generator::Generator(const BitGenerator& bit_generator) : engine_(bit_generator.engine_) {}

BitGenerator Generator::bit_generator() const {
  struct shared : BitGenerator {
    explicit shared(std::shared_ptr<detail::engine> e) : BitGenerator(std::move(e)) {}
  };
  return shared(engine_);
}

array Generator::random(const shape_t& size, dtype t) {
  float_dtype(t, "Generator.random");
  checked(size, "Generator.random");
  return draw(*engine_, t == dtype::float64 ? random_form::unit_double : random_form::unit_float, size);
}

array Generator::integers(std::int64_t low, std::optional<std::int64_t> high, const shape_t& size, dtype t,
                          bool endpoint) {
  const char* op = "Generator.integers";
  if (kind_of(t) != dtype_kind::int_ && t != dtype::bool_)
    throw dtype_error(std::string(op) + ": unsupported dtype " + std::string(dtype_name(t)) +
                      " (an integer or bool dtype)");
  if (!high) {
    if (low <= 0 && !endpoint) throw value_error(std::string(op) + ": high <= 0");
    high = low;
    low = 0;
  }
  // The inclusive top, in 128 bits: high - 1 may pass below INT64_MIN.
  const __int128 top = static_cast<__int128>(*high) - (endpoint ? 0 : 1);
  if (static_cast<__int128>(low) > top)
    throw value_error(std::string(op) + (endpoint ? ": low > high" : ": low >= high"));
  const auto [lo_limit, hi_limit] = integer_range(t);
  if (static_cast<__int128>(low) < lo_limit)
    throw value_error(std::string(op) + ": low is out of bounds for " + std::string(dtype_name(t)));
  if (top > hi_limit)
    throw value_error(std::string(op) + ": high is out of bounds for " + std::string(dtype_name(t)));
  checked(size, op);
  // low + (64 random bits mod the range): NumPy's Lemire rejection made parallel; the modulo's bias
  // is below range / 2^64 (docs/numpy-differences.md).
  const __int128 range = top - low + 1;  // 2^64 for the whole 64-bit range: the bits themselves
  array bits = draw(*engine_, random_form::bits64, size);
  if (range < (static_cast<__int128>(1) << 64))
    bits = remainder(bits, scalar(static_cast<std::uint64_t>(range)));
  return add(bits.astype(dtype::int64), low).astype(t);
}

array Generator::uniform(const param& low, const param& high, std::optional<shape_t> size) {
  const char* op = "Generator.uniform";
  const shape_t shape = draw_shape(size, {&low, &high}, op);
  const array lo = as_array(low), hi = as_array(high);
  const array range = subtract(hi, lo);
  const bool finite = low.arr || high.arr ? !any_of(logical_not(isfinite(range)))
                                          : std::isfinite(host_value(high.value) - host_value(low.value));
  if (!finite) throw value_error(std::string(op) + ": high - low range exceeds valid bounds");
  // NumPy's low + (high - low) * u, rounded twice (no FMA on either backend).
  return add(lo, multiply(range, draw(*engine_, random_form::unit_double, shape)));
}

array Generator::standard_normal(const shape_t& size, dtype t) {
  float_dtype(t, "Generator.standard_normal");
  checked(size, "Generator.standard_normal");
  return draw(*engine_, t == dtype::float64 ? random_form::normal_double : random_form::normal_float, size);
}

array Generator::normal(const param& loc, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.normal";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&loc, &scale}, op);
  return add(as_array(loc), multiply(as_array(scale), draw(*engine_, random_form::normal_double, shape)));
}

array Generator::standard_exponential(const shape_t& size, dtype t) {
  float_dtype(t, "Generator.standard_exponential");
  checked(size, "Generator.standard_exponential");
  // The inverse CDF, -log(1 - u), where NumPy uses its ziggurat.
  return negative(log1p(negative(
      draw(*engine_, t == dtype::float64 ? random_form::unit_double : random_form::unit_float, size))));
}

array Generator::exponential(const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.exponential";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&scale}, op);
  return multiply(as_array(scale), standard_exponential(shape));
}

array Generator::lognormal(const param& mean, const param& sigma, std::optional<shape_t> size) {
  const char* op = "Generator.lognormal";
  check(sigma, op, "sigma < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&mean, &sigma}, op);
  return exp(
      add(as_array(mean), multiply(as_array(sigma), draw(*engine_, random_form::normal_double, shape))));
}

array Generator::laplace(const param& loc, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.laplace";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&loc, &scale}, op);
  // NumPy's random_laplace: u >= 0.5: loc - scale log(2 - 2u); else loc + scale log(2u).
  const array u = nonzero_unit(draw(*engine_, random_form::unit_double, shape));
  const array m = as_array(loc), s = as_array(scale);
  return where(greater_equal(u, 0.5), subtract(m, multiply(s, log(subtract(2.0, add(u, u))))),
               add(m, multiply(s, log(add(u, u)))));
}

array Generator::logistic(const param& loc, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.logistic";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&loc, &scale}, op);
  // NumPy's random_logistic: loc + scale log(u / (1 - u)).
  const array u = nonzero_unit(draw(*engine_, random_form::unit_double, shape));
  return add(as_array(loc), multiply(as_array(scale), log(divide(u, subtract(1.0, u)))));
}

array Generator::gumbel(const param& loc, const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.gumbel";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&loc, &scale}, op);
  // NumPy's random_gumbel: U = 1 - u in (0, 1); loc - scale log(-log U).
  const array one_minus = subtract(1.0, nonzero_unit(draw(*engine_, random_form::unit_double, shape)));
  return subtract(as_array(loc), multiply(as_array(scale), log(negative(log(one_minus)))));
}

array Generator::weibull(const param& a, std::optional<shape_t> size) {
  const char* op = "Generator.weibull";
  check(a, op, "a < 0", [](const auto& x) { return less(x, 0.0); });
  const shape_t shape = draw_shape(size, {&a}, op);
  // NumPy's random_weibull: 0 where a == 0, else E^(1/a).
  const array k = as_array(a);
  return where(equal(k, 0.0), 0.0, ndfuse::power(standard_exponential(shape), divide(1.0, k)));
}

array Generator::rayleigh(const param& scale, std::optional<shape_t> size) {
  const char* op = "Generator.rayleigh";
  check(scale, op, "scale < 0", [](const auto& s) { return less(s, 0.0); });
  const shape_t shape = draw_shape(size, {&scale}, op);
  return multiply(as_array(scale), sqrt(multiply(2.0, standard_exponential(shape))));
}

array Generator::pareto(const param& a, std::optional<shape_t> size) {
  const char* op = "Generator.pareto";
  check(a, op, "a <= 0", [](const auto& x) { return less_equal(x, 0.0); });
  const shape_t shape = draw_shape(size, {&a}, op);
  return expm1(divide(standard_exponential(shape), as_array(a)));
}

array Generator::geometric(const param& p, std::optional<shape_t> size) {
  const char* op = "Generator.geometric";
  check(p, op, "p <= 0, p > 1 or p contains NaNs",
        [](const auto& x) { return logical_not(logical_and(greater(x, 0.0), less_equal(x, 1.0))); });
  const shape_t shape = draw_shape(size, {&p}, op);
  // The inversion ceil(-E / log(1 - p)), at least 1 (NumPy searches for p >= 1/3 instead).
  const array q = as_array(p);
  const array k = ceil(divide(negative(standard_exponential(shape)), log1p(negative(q))));
  return where(equal(q, 1.0), 1.0, maximum(k, 1.0)).astype(dtype::int64);
}

array Generator::choice(std::int64_t n, std::optional<shape_t> size, bool replace,
                        const std::optional<array>& p) {
  if (n < 0) throw value_error("Generator.choice: a must be a positive integer unless no samples are taken");
  return choice(arange(n), std::move(size), replace, p);
}

array Generator::choice(const array& a, std::optional<shape_t> size, bool replace,
                        const std::optional<array>& p) {
  const char* op = "Generator.choice";
  if (a.ndim() == 0)
    throw value_error(std::string(op) + ": a must be a sequence or an integer, not a 0-d array");
  const std::int64_t n = a.shape()[0];
  const shape_t shape = size ? checked(*size, op) : shape_t{};
  const std::int64_t k = ir::shape_size(shape);
  if (n == 0 && k > 0) throw value_error(std::string(op) + ": a cannot be empty unless no samples are taken");
  std::optional<array> weights;
  if (p) {
    if (p->ndim() != 1) throw value_error(std::string(op) + ": p must be 1-dimensional");
    if (p->shape()[0] != n) throw value_error(std::string(op) + ": a and p must have same size");
    const auto w = p->to_vector<double>();
    double total = 0;
    for (double x : w) {
      if (!(x >= 0)) throw value_error(std::string(op) + ": probabilities are not non-negative");
      total += x;
    }
    if (std::abs(total - 1.0) > std::sqrt(std::numeric_limits<double>::epsilon()))
      throw value_error(std::string(op) + ": probabilities do not sum to 1");
    weights = p->astype(dtype::float64);
  }
  array index;
  if (replace) {
    if (weights) {
      // NumPy's own method: the uniform draws searched in the normalized CDF.
      array cdf = cumsum(*weights);
      cdf = divide(cdf, take(cdf, full({}, n - 1, dtype::int64)));
      index = searchsorted(cdf, random(shape), "right");
    } else {
      index = integers(0, n, shape);
    }
  } else {
    if (k > n)
      throw value_error(std::string(op) +
                        ": cannot take a larger sample than population when replace is False");
    array keys;
    if (weights) {
      std::int64_t nonzero = 0;
      for (double x : p->to_vector<double>()) nonzero += x > 0;
      if (nonzero < k) throw value_error(std::string(op) + ": fewer non-zero entries in p than size");
      // Efraimidis and Spirakis: the k smallest E_i / p_i are a weighted sample without replacement.
      keys = divide(standard_exponential({n}), *weights);
    } else {
      keys = draw(*engine_, random_form::bits64, {n});
    }
    index = reshape(take(argsort(keys), arange(k)), shape);
  }
  return take(a, index, 0);
}

array Generator::permutation(std::int64_t n) {
  if (n < 0) throw value_error("Generator.permutation: n must be non-negative");
  // The order of n random 64-bit keys (a stable sort: equal keys, at 2^-64 a pair, keep their order).
  return argsort(draw(*engine_, random_form::bits64, {n}));
}

array Generator::permutation(const array& x) {
  if (x.ndim() == 0)
    throw value_error("Generator.permutation: x must be an integer or at least 1-dimensional");
  return take(x, permutation(x.shape()[0]), 0);
}

void Generator::shuffle(array& x) {
  if (x.ndim() == 0) throw value_error("Generator.shuffle: x must be at least 1-dimensional");
  x = permutation(x);
}

std::string Generator::bytes(std::int64_t length) {
  if (length < 0) throw value_error("Generator.bytes: negative length");
  const std::int64_t words = (length + 3) / 4;
  const auto w = draw(*engine_, random_form::bits32, {words}).to_vector<std::uint32_t>();
  std::string out(static_cast<std::size_t>(length), '\0');
  for (std::int64_t i = 0; i < length; ++i)
    out[static_cast<std::size_t>(i)] =
        static_cast<char>(w[static_cast<std::size_t>(i / 4)] >> (8 * (i % 4)) & 0xff);
  return out;
}

Generator default_rng(std::optional<std::uint64_t> seed) {
  return Generator(Philox4x32(seed));
}

// --- The legacy functions -----------------------------------------------------------------------------

namespace {
std::mutex global_lock;
std::optional<Generator>& global_slot() {
  static std::optional<Generator> g;
  return g;
}
}  // namespace

Generator& global_generator() {
  std::lock_guard lock(global_lock);
  auto& g = global_slot();
  if (!g) g.emplace(default_rng());
  return *g;
}

void seed(std::optional<std::uint64_t> s) {
  Generator fresh = default_rng(s);
  std::lock_guard lock(global_lock);
  global_slot().emplace(std::move(fresh));
}

bit_generator_state get_state() {
  return global_generator().bit_generator().state();
}

void set_state(const bit_generator_state& s) {
  global_generator().bit_generator().set_state(s);
}

array rand(const shape_t& dims) {
  return global_generator().random(dims);
}
array randn(const shape_t& dims) {
  return global_generator().standard_normal(dims);
}
array random_sample(const shape_t& size) {
  return global_generator().random(size);
}
array random(const shape_t& size) {
  return global_generator().random(size);
}
array randint(std::int64_t low, std::optional<std::int64_t> high, const shape_t& size, dtype t) {
  return global_generator().integers(low, high, size, t);
}
array uniform(const param& low, const param& high, std::optional<shape_t> size) {
  return global_generator().uniform(low, high, std::move(size));
}
array normal(const param& loc, const param& scale, std::optional<shape_t> size) {
  return global_generator().normal(loc, scale, std::move(size));
}
array standard_normal(const shape_t& size) {
  return global_generator().standard_normal(size);
}
array choice(std::int64_t n, std::optional<shape_t> size, bool replace, const std::optional<array>& p) {
  return global_generator().choice(n, std::move(size), replace, p);
}
array choice(const array& a, std::optional<shape_t> size, bool replace, const std::optional<array>& p) {
  return global_generator().choice(a, std::move(size), replace, p);
}
array permutation(std::int64_t n) {
  return global_generator().permutation(n);
}
array permutation(const array& x) {
  return global_generator().permutation(x);
}
void shuffle(array& x) {
  global_generator().shuffle(x);
}

}  // namespace ndfuse::random
