// nf::random: numpy.random's names over counter-based generators. A draw is a creation node: it
// fuses into its consumers (nf::sum(rng.standard_normal({n})) never writes the draw) and element i
// is a pure function of the generator's key, its counter at the draw and i, so the CPU and every GPU
// give the same bits whatever the grid. The generator's state lives on the host and advances by what
// each draw consumed.
//
// Bit generators: Philox is NumPy's (Philox4x64-10 seeded through SeedSequence): Generator(Philox(s))
// gives numpy.random.Generator(numpy.random.Philox(s))'s values for random, uniform and raw bits.
// Philox4x32 (Philox4x32-10, a quarter of Philox4x64's arithmetic) is default_rng's, as fast as
// the memory it fills. docs/numpy-differences.md lists where values differ from NumPy's.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse::random {

namespace detail {
struct engine;
}

// A bit generator's whole state, as NumPy's bit_generator.state: enough to resume its stream.
struct bit_generator_state {
  std::string bit_generator;             // "Philox" or "Philox4x32"
  std::array<std::uint64_t, 4> counter;  // Philox4x32: counter[0] (low) and counter[1] (high) only
  std::array<std::uint64_t, 2> key;      // Philox4x32: key[0] only
  int buffer_pos = 4;                    // Philox: NumPy's buffer position (4: spent)
  bool has_uint32 = false;               // Philox: a kept upper half waits for the next 32-bit draw
  std::uint32_t uinteger = 0;            // that half
};

// Shared by the generators made from it, as a Python bit generator object is.
class BitGenerator {
 public:
  bit_generator_state state() const;
  void set_state(const bit_generator_state& s);
  // Advances the counter by `delta` blocks, as NumPy's Philox.advance (a jump to a far substream).
  BitGenerator& advance(std::uint64_t delta);
  // Raw 64-bit words (NumPy's random_raw), uint64.
  array random_raw(const shape_t& size = {});

 protected:
  friend class Generator;
  explicit BitGenerator(std::shared_ptr<detail::engine> e) : engine_(std::move(e)) {}
  std::shared_ptr<detail::engine> engine_;
};

// NumPy's Philox. The seed goes through SeedSequence (no seed: the OS's entropy); from_key is
// Philox(key=..., counter=...).
class Philox : public BitGenerator {
 public:
  explicit Philox(std::optional<std::uint64_t> seed = std::nullopt);
  static Philox from_key(std::array<std::uint64_t, 2> key, std::array<std::uint64_t, 4> counter = {});

 private:
  struct from_engine {};
  Philox(from_engine, std::shared_ptr<detail::engine> e) : BitGenerator(std::move(e)) {}
};

// Philox4x32-10 (cuRAND's and PyTorch's Philox), keyed from SeedSequence's first 64-bit word.
class Philox4x32 : public BitGenerator {
 public:
  explicit Philox4x32(std::optional<std::uint64_t> seed = std::nullopt);
};

// A parameter that NumPy takes as a float or an array (loc, scale, p, ...): arrays broadcast.
using param = operand;

class Generator {
 public:
  explicit Generator(const BitGenerator& bit_generator);
  BitGenerator bit_generator() const;

  // Uniform floats in [0, 1): float64 or float32.
  array random(const shape_t& size = {}, dtype t = dtype::float64);
  // Integers in [low, high) (endpoint: [low, high]); high omitted: [0, low).
  array integers(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const shape_t& size = {},
                 dtype t = dtype::int64, bool endpoint = false);
  array uniform(const param& low = 0.0, const param& high = 1.0, std::optional<shape_t> size = std::nullopt);
  array standard_normal(const shape_t& size = {}, dtype t = dtype::float64);
  array normal(const param& loc = 0.0, const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array standard_exponential(const shape_t& size = {}, dtype t = dtype::float64);
  array exponential(const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array lognormal(const param& mean = 0.0, const param& sigma = 1.0,
                  std::optional<shape_t> size = std::nullopt);
  array laplace(const param& loc = 0.0, const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array logistic(const param& loc = 0.0, const param& scale = 1.0,
                 std::optional<shape_t> size = std::nullopt);
  array gumbel(const param& loc = 0.0, const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array weibull(const param& a, std::optional<shape_t> size = std::nullopt);
  array rayleigh(const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array pareto(const param& a, std::optional<shape_t> size = std::nullopt);
  array geometric(const param& p, std::optional<shape_t> size = std::nullopt);
  // The gamma family: each element loops on its own substream until it accepts (Marsaglia-Tsang).
  array standard_gamma(const param& shape, std::optional<shape_t> size = std::nullopt,
                       dtype t = dtype::float64);
  array gamma(const param& shape, const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
  array chisquare(const param& df, std::optional<shape_t> size = std::nullopt);
  array beta(const param& a, const param& b, std::optional<shape_t> size = std::nullopt);
  array standard_t(const param& df, std::optional<shape_t> size = std::nullopt);
  array f(const param& dfnum, const param& dfden, std::optional<shape_t> size = std::nullopt);
  // Counts (int64), exact samplers on a substream per element: poisson (Ahrens-Dieter and Knuth),
  // binomial (order statistics splitting the trials), negative_binomial (Poisson of a gamma),
  // multinomial (conditional binomials; its result adds an axis of len(pvals)).
  array poisson(const param& lam = 1.0, std::optional<shape_t> size = std::nullopt);
  array binomial(const param& n, const param& p, std::optional<shape_t> size = std::nullopt);
  array negative_binomial(const param& n, const param& p, std::optional<shape_t> size = std::nullopt);
  array multinomial(std::int64_t n, const array& pvals, std::optional<shape_t> size = std::nullopt);
  // Transforms NumPy writes in closed form, and mixtures of the samplers above.
  array standard_cauchy(const shape_t& size = {});
  array logseries(const param& p, std::optional<shape_t> size = std::nullopt);  // int64
  array zipf(const param& a, std::optional<shape_t> size = std::nullopt);       // int64
  array vonmises(const param& mu, const param& kappa, std::optional<shape_t> size = std::nullopt);
  array triangular(const param& left, const param& mode, const param& right,
                   std::optional<shape_t> size = std::nullopt);
  array power(const param& a, std::optional<shape_t> size = std::nullopt);
  array wald(const param& mean, const param& scale, std::optional<shape_t> size = std::nullopt);
  array noncentral_chisquare(const param& df, const param& nonc, std::optional<shape_t> size = std::nullopt);
  array noncentral_f(const param& dfnum, const param& dfden, const param& nonc,
                     std::optional<shape_t> size = std::nullopt);
  // Vectors: the result adds an axis of len(alpha) or len(mean).
  array dirichlet(const array& alpha, std::optional<shape_t> size = std::nullopt);
  array multivariate_normal(const array& mean, const array& cov, std::optional<shape_t> size = std::nullopt);

  // Samples of a (np.arange(n) for an integer n) along axis 0; p: their probabilities.
  array choice(std::int64_t n, std::optional<shape_t> size = std::nullopt, bool replace = true,
               const std::optional<array>& p = std::nullopt);
  array choice(const array& a, std::optional<shape_t> size = std::nullopt, bool replace = true,
               const std::optional<array>& p = std::nullopt);
  // A permutation of np.arange(n), or of x along axis 0 (a new array); shuffle permutes x's handle.
  array permutation(std::int64_t n);
  array permutation(const array& x);
  void shuffle(array& x);
  // `length` random bytes (NumPy's Generator.bytes: its 32-bit words, little-endian).
  std::string bytes(std::int64_t length);

 private:
  std::shared_ptr<detail::engine> engine_;
};

// np.random.default_rng: a Generator over Philox4x32 (no seed: the OS's entropy).
Generator default_rng(std::optional<std::uint64_t> seed = std::nullopt);

// --- The legacy functions, over one process-wide generator (np.random.seed, rand, ...) ---------------
void seed(std::optional<std::uint64_t> s = std::nullopt);
bit_generator_state get_state();
void set_state(const bit_generator_state& s);
Generator& global_generator();
array rand(const shape_t& dims = {});   // np.random.rand(d0, d1, ...): rand({d0, d1})
array randn(const shape_t& dims = {});  // standard normals
array random_sample(const shape_t& size = {});
array random(const shape_t& size = {});
// np.random.randint: [low, high), or [0, low) when high is omitted.
array randint(std::int64_t low, std::optional<std::int64_t> high = std::nullopt, const shape_t& size = {},
              dtype t = dtype::int64);
array uniform(const param& low = 0.0, const param& high = 1.0, std::optional<shape_t> size = std::nullopt);
array normal(const param& loc = 0.0, const param& scale = 1.0, std::optional<shape_t> size = std::nullopt);
array standard_normal(const shape_t& size = {});
array choice(std::int64_t n, std::optional<shape_t> size = std::nullopt, bool replace = true,
             const std::optional<array>& p = std::nullopt);
array choice(const array& a, std::optional<shape_t> size = std::nullopt, bool replace = true,
             const std::optional<array>& p = std::nullopt);
array permutation(std::int64_t n);
array permutation(const array& x);
void shuffle(array& x);

}  // namespace ndfuse::random
