// The counter-based engine behind nf::random: the prelude's Philox4x64-10 block function (run here as
// the CPU backend runs it, compiled as host C++) and NumPy's SeedSequence. Expected values from
// NumPy 2.4.6:
//   Philox4x64-10 blocks: np.random.Philox(counter=c - 1, key=k).random_raw(4), counter and key given
//   as np.uint64 arrays, least significant word first (NumPy increments the counter before each
//   block), for Random123's three known-answer vectors: (c, k) = (0, 0), (2^256 - 1, 2^128 - 1) and
//   (0x082efa98ec4e6c89a4093822299f31d013198a2e03707344243f6a8885a308d3,
//   0xbe5466cf34e90c6c452821e638d01377);
//   SeedSequence(s).pool, .generate_state(4, np.uint64), .generate_state(3) for the seeds below, and
//   np.random.Philox(s).state['state']['key'] == generate_state(2, np.uint64).
#include <array>
#include <cstdint>
#include <vector>

#include "backend/cpu/prelude_host.hpp"
#include "catch.hpp"
#include "frontend/seed_sequence.hpp"

namespace {

using u64 = std::uint64_t;
constexpr u64 all_ones = ~u64(0);

std::array<u64, 4> block(std::array<u64, 4> ctr, std::array<u64, 2> key) {
  const nf_u64x4 out = nf_philox4x64_10({{ctr[0], ctr[1], ctr[2], ctr[3]}}, {{key[0], key[1]}});
  return {out.v[0], out.v[1], out.v[2], out.v[3]};
}

}  // namespace

TEST_CASE("Philox4x64-10 gives NumPy's (and Random123's) blocks", "[random]") {
  CHECK(block({0, 0, 0, 0}, {0, 0}) ==
        std::array<u64, 4>{0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b});
  CHECK(block({all_ones, all_ones, all_ones, all_ones}, {all_ones, all_ones}) ==
        std::array<u64, 4>{0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0});
  CHECK(block({0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89},
              {0x452821e638d01377, 0xbe5466cf34e90c6c}) ==
        std::array<u64, 4>{0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6});
}

TEST_CASE("SeedSequence hashes a seed into NumPy's pool and state", "[random]") {
  using ndfuse::frontend::seed_sequence;
  struct expected {
    seed_sequence seq;
    std::vector<std::uint32_t> pool;
    std::vector<u64> state64;
    std::vector<std::uint32_t> state32;
  };
  const std::vector<expected> cases = {
      {seed_sequence::from_integer(0),
       {0xfe40eb07, 0x4f363a36, 0x4eb2009d, 0xc89a7aa7},
       {0xdb2cd7e7b0f478be, 0xabf4641a2c71ba49, 0x20c6ed6d9d7b8d41, 0x2c4099de223c39d4},
       {0xb0f478be, 0xdb2cd7e7, 0x2c71ba49}},
      {seed_sequence::from_integer(12345),
       {0xf293d734, 0xfd668225, 0xf94ff895, 0x872090a0},
       {0xb5ae6482a03d837c, 0xbbe2996ffa1f7a2f, 0x64e39a9f37158f94, 0x3ebb0f96a013fd73},
       {0xa03d837c, 0xb5ae6482, 0xfa1f7a2f}},
      {seed_sequence::from_integer((u64(1) << 40) + 7),
       {0xcef14fb5, 0x8e3f6082, 0xb865038b, 0x6aed4368},
       {0x0d8672e10e3d1a15, 0x9aef4ada4ecfa161, 0x999c1c3b83dba903, 0x408927dc0dc8a316},
       {0x0e3d1a15, 0x0d8672e1, 0x4ecfa161}},
      // 2^100 + 3, a seed wider than 64 bits: its 32-bit words, least significant first.
      {seed_sequence({3, 0, 0, 16}),
       {0x60cdf50f, 0x4fdae4b5, 0x7c2cf860, 0x0c886dbd},
       {0xba00485c0977d4f5, 0xcdb10e7d95efa46a, 0x6c83aecf953b85c9, 0x5327889b3e6230c7},
       {0x0977d4f5, 0xba00485c, 0x95efa46a}},
  };
  for (const auto& c : cases) {
    CHECK(c.seq.pool() == c.pool);
    CHECK(c.seq.generate_state64(4) == c.state64);
    CHECK(c.seq.generate_state32(3) == c.state32);
    // Philox's key: the first two 64-bit words.
    CHECK(c.seq.generate_state64(2) == std::vector<u64>(c.state64.begin(), c.state64.begin() + 2));
  }
}
