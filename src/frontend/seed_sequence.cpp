#include "frontend/seed_sequence.hpp"

namespace ndfuse::frontend {

namespace {

constexpr std::size_t pool_size = 4;
constexpr std::uint32_t init_a = 0x43b0d7e5, mult_a = 0x931e8875;
constexpr std::uint32_t init_b = 0x8b51f9dd, mult_b = 0x58f38ded;
constexpr std::uint32_t mix_mult_l = 0xca01f9dd, mix_mult_r = 0x4973f715;
constexpr int xshift = 16;  // half of 32 bits

std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= mult_a;
  value *= hash_const;
  value ^= value >> xshift;
  return value;
}

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = mix_mult_l * x - mix_mult_r * y;
  result ^= result >> xshift;
  return result;
}

}  // namespace

seed_sequence::seed_sequence(std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key)
    : pool_(pool_size) {
  // The run entropy, padded to the pool's size when a spawn key follows, then the spawn key.
  if (!spawn_key.empty() && entropy.size() < pool_size) entropy.resize(pool_size, 0);
  entropy.insert(entropy.end(), spawn_key.begin(), spawn_key.end());
  std::uint32_t hash_const = init_a;
  for (std::size_t i = 0; i < pool_size; ++i)
    pool_[i] = hashmix(i < entropy.size() ? entropy[i] : 0, hash_const);
  for (std::size_t src = 0; src < pool_size; ++src)
    for (std::size_t dst = 0; dst < pool_size; ++dst)
      if (src != dst) pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hash_const));
  for (std::size_t src = pool_size; src < entropy.size(); ++src)
    for (std::size_t dst = 0; dst < pool_size; ++dst)
      pool_[dst] = mix(pool_[dst], hashmix(entropy[src], hash_const));
}

seed_sequence seed_sequence::from_integer(std::uint64_t seed) {
  std::vector<std::uint32_t> words;
  do {
    words.push_back(static_cast<std::uint32_t>(seed));
    seed >>= 32;
  } while (seed != 0);
  return seed_sequence(std::move(words));
}

std::vector<std::uint32_t> seed_sequence::generate_state32(std::size_t n_words) const {
  std::vector<std::uint32_t> state(n_words);
  std::uint32_t hash_const = init_b;
  for (std::size_t i = 0; i < n_words; ++i) {
    std::uint32_t value = pool_[i % pool_size];
    value ^= hash_const;
    hash_const *= mult_b;
    value *= hash_const;
    value ^= value >> xshift;
    state[i] = value;
  }
  return state;
}

std::vector<std::uint64_t> seed_sequence::generate_state64(std::size_t n_words) const {
  const std::vector<std::uint32_t> words = generate_state32(2 * n_words);
  std::vector<std::uint64_t> state(n_words);
  for (std::size_t i = 0; i < n_words; ++i)  // little-endian pairs, as NumPy's view as uint64
    state[i] = words[2 * i] | std::uint64_t(words[2 * i + 1]) << 32;
  return state;
}

}  // namespace ndfuse::frontend
