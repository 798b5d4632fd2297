// NumPy's SeedSequence (numpy.random.SeedSequence): a seed of any size hashed into a pool of four
// 32-bit words, from which generate_state draws the words that key a bit generator. The same
// algorithm and constants as NumPy's (O'Neill's seed_seq design), so a seed gives NumPy's key.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace ndfuse::frontend {

class seed_sequence {
 public:
  // entropy: the seed as 32-bit words, least significant first (a Python int's words; {0} for 0).
  // spawn_key: the path of a spawned child (empty for a root sequence).
  explicit seed_sequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key = {});
  // An integer seed, as SeedSequence(seed).
  static seed_sequence from_integer(std::uint64_t seed);

  const std::vector<std::uint32_t>& pool() const { return pool_; }
  // generate_state(n_words, np.uint32) and generate_state(n_words, np.uint64).
  std::vector<std::uint32_t> generate_state32(std::size_t n_words) const;
  std::vector<std::uint64_t> generate_state64(std::size_t n_words) const;

 private:
  std::vector<std::uint32_t> pool_;
};

}  // namespace ndfuse::frontend
