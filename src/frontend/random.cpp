// nf::random: the bit generators' host state and the Generator's distributions. Every draw is one
// random node (frontend::random_draw) holding the stream position the generator handed out;
// distributions are fused ops over it (NumPy's formulas where NumPy transforms uniforms, parallel
// transforms where NumPy rejects), so they build no work and fuse into their consumers. Parameters
// are checked at the call, as NumPy checks them: an array parameter is read for that.
#include "ndfuse/random.hpp"

#include <cmath>
#include <limits>
#include <mutex>
#include <random>

#include "frontend/build.hpp"
#include "frontend/philox_stream.hpp"
#include "frontend/seed_sequence.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse::random {

namespace detail {

// One bit generator's state. A Generator and the BitGenerator it came from share it; draws from
// several threads take turns on the lock (the values then depend on the order, as in NumPy).
struct engine {
  ir::random_engine kind = ir::random_engine::philox4x32;
  std::mutex m;
  frontend::philox_stream philox{{0, 0}, {0, 0, 0, 0}};  // Philox
  std::uint64_t key32 = 0;                               // Philox4x32: two 32-bit key words
  std::uint64_t ctr_lo = 0, ctr_hi = 0;                  // Philox4x32: the next block

  // The stream of a draw of n elements of `form`, and the state advanced past it.
  ir::random_stream take(ir::random_form form, std::uint64_t n);
};

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

// NumPy's size argument: no negative dimension (value_error, as NumPy's ValueError), a size that fits.
const shape_t& checked(const shape_t& size, const char* op) {
  for (auto d : size)
    if (d < 0) throw value_error(std::string(op) + ": negative dimensions are not allowed");
  ir::checked_size(size, 8, op);
  return size;
}

// The values of an integer (or bool) dtype, in 128 bits.
std::pair<__int128, __int128> integer_range(dtype t) {
  if (t == dtype::bool_) return {0, 1};
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (is_unsigned_integer(t)) return {0, (static_cast<__int128>(1) << bits) - 1};
  return {-(static_cast<__int128>(1) << (bits - 1)), (static_cast<__int128>(1) << (bits - 1)) - 1};
}

std::uint64_t count(const shape_t& size) {
  return static_cast<std::uint64_t>(ir::shape_size(size));
}

array draw(engine& e, random_form form, const shape_t& size) {
  return frontend::random_draw(size, e.take(form, count(size)));
}

// A distribution's parameter as a float64 array (NumPy converts each to a double array).
array as_array(const param& p) {
  if (p.arr) return p.arr->dtype() == dtype::float64 ? *p.arr : p.arr->astype(dtype::float64);
  if (p.value.kind == dtype_kind::complex)
    throw dtype_error("nf::random: a complex parameter (NumPy's TypeError: can't convert complex to float)");
  return full({}, p.value, dtype::float64);
}

shape_t shape_of(const param& p) {
  return p.arr ? p.arr->shape() : shape_t{};
}

// Whether `bad` (a bool array over a parameter) holds anywhere: NumPy checks array parameters
// before drawing, so this reads them.
bool any_of(const array& bad) {
  return any(bad).item<bool>();
}

// Raises value_error "<op>: <name> <rule>" where the parameter breaks the rule (scale < 0, ...).
// A parameter's value as a double: the host form of a scalar parameter.
double host_value(const scalar& v) {
  if (v.kind == dtype_kind::bool_) return double(v.b);
  if (v.kind == dtype_kind::int_) return v.is_big_unsigned ? double(v.u) : double(v.i);
  return v.c.real();
}

// The comparisons of a rule on a host double, so that a scalar parameter is checked without
// building or running anything (an array parameter takes ndfuse's ops of the same names).
bool less(double a, double b) {
  return a < b;
}
bool less_equal(double a, double b) {
  return a <= b;
}
bool greater(double a, double b) {
  return a > b;
}
bool greater_equal(double a, double b) {
  return a >= b;
}
bool logical_and(bool a, bool b) {
  return a && b;
}
bool logical_not(bool a) {
  return !a;
}

// Raises value_error "<op>: <message>" where the parameter breaks the rule. `bad` is written once,
// generically: on the host double of a scalar, or on an array (which this reads, as NumPy does).
template <class Bad>
void check(const param& p, const char* op, const char* message, Bad bad) {
  const bool broken = p.arr ? any_of(bad(as_array(p))) : bool(bad(host_value(p.value)));
  if (broken) throw value_error(std::string(op) + ": " + message);
}

// The shape of a draw over broadcast parameters: `size` when given (the parameters must broadcast
// to it), else their broadcast shape.
shape_t draw_shape(std::optional<shape_t> size, std::initializer_list<const param*> params, const char* op) {
  shape_t b;
  for (const param* p : params) b = broadcast_shapes(b, shape_of(*p), op);
  if (!size) return b;
  checked(*size, op);
  shape_t both;
  try {
    both = broadcast_shapes(b, *size, op);
  } catch (const shape_error&) {
    both.clear();
    both.push_back(-1);
  }
  if (both != *size)
    throw value_error(std::string(op) + ": shape mismatch: the parameters' shape " + shape_str(b) +
                      " does not broadcast to size " + shape_str(*size));
  return *size;
}

void float_dtype(dtype t, const char* op) {
  if (t != dtype::float64 && t != dtype::float32)
    throw dtype_error(std::string(op) + ": unsupported dtype " + std::string(dtype_name(t)) +
                      " (float64 or float32, as NumPy)");
}

// NumPy's rejection of u == 0 where a transform takes its logarithm: the smallest double above 0 of
// the 53-bit grid's halfway, a probability of 2^-53 moved by 2^-54.
array nonzero_unit(const array& u) {
  return where(equal(u, 0.0), std::ldexp(1.0, -54), u);
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

namespace {
// Standard gamma variates of `shape` (a float64 array broadcast to `out`): each element's sampler
// rejects on its own substream, keyed by 53 bits it draws from the generator.
// Keys of per-element substreams: 53 random bits each, as exact float64 integers.
array substream_keys(engine& e, const shape_t& out) {
  return right_shift(draw(e, random_form::bits64, out), 11).astype(dtype::float64);
}

array gamma_variates(engine& e, const array& shape, const shape_t& out) {
  return frontend::binary(ir::op_code::random_gamma, substream_keys(e, out), shape);
}

array poisson_counts(engine& e, const array& lam, const shape_t& out) {
  return frontend::binary(ir::op_code::random_poisson, substream_keys(e, out), lam);
}

// Binomial(n, p) counts as float64 integers; n and p float64, broadcast to `out`.
array binomial_counts(engine& e, const array& n, const array& p, const shape_t& out) {
  return array(frontend::make_node(
      ir::op_code::random_binomial, dtype::float64,
      {substream_keys(e, out).node(), broadcast_to(n, out).node(), broadcast_to(p, out).node()}, out));
}

// A count parameter as float64 (NumPy casts n to int64: fractions are dropped).
array whole(const param& n) {
  return trunc(as_array(n));
}
}  // namespace

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
