// FNV-1a over bytes, 64 bits: stable across runs, platforms and compilers, which is what kernel names
// (k_<hash>), the disk cache's keys and its checksums need; not a defence against a chosen collision.
#pragma once
#include <cstdint>
#include <string_view>

namespace ndfuse::support {

inline constexpr std::uint64_t fnv1a_basis = 0xcbf29ce484222325ull;

// The hash of `data`, continuing from `seed` (the standard offset basis for a fresh hash).
constexpr std::uint64_t fnv1a(std::string_view data, std::uint64_t seed = fnv1a_basis) {
  std::uint64_t h = seed;
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace ndfuse::support
