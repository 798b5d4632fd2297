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
#include "frontend/philox_stream.hpp"
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

// NumPy 2.4.6, g = np.random.Generator(np.random.Philox(12345)), one draw after another:
//   g.random(3)                    0x1.aeda3b178221ep-2 0x1.4e6c6cd33a931p-1 0x1.bb8f3bed12eecp-2
//   g.random(5, dtype=np.float32)  0x1.eb1798p-3 0x1.13edcp-1 0x1.a95ac8p-2 0x1.68612cp-1 0x1.0fe9cp-5
//   g.random(1)                    0x1.68c485f78f700p-9
//   g.random(3, dtype=np.float32)  0x1.a3845p-3 0x1.e6b438p-3 0x1.31ef1cp-2  (the first: the upper half
//                                  the float32 draw before left, though a float64 draw came between)
//   g.uniform(-2.0, 3.0, 2)        -0x1.6552f1f4730e8p-3 0x1.348286985aceep+1
// np.random.Philox(12345).random_raw(6): 6bb68ec5e0887940 a73636699d498901 6ee3cefb44bbb152
//   89f6e0013d62f3db b43096c46a56b28e 34708a31087f4ee4
// g = np.random.Generator(np.random.Philox(0)); g.random(1000003) at 0, 1, 4, 999999, 1000002:
//   0x1.ccf2d9115c140p-7 0x1.07f42307c03cep-2 0x1.f5511e00551a6p-1 0x1.d6c3eefa834e4p-3
//   0x1.c1efa1931dc80p-7; then g.random(5, dtype=np.float32): 0x1.db059p-3 0x1.2d79b4p-2
//   0x1.6f3804p-2 0x1.d42bdp-3 0x1.447234p-1
namespace {

using ndfuse::frontend::half_draw;
using ndfuse::frontend::philox_stream;
using ndfuse::frontend::word_draw;

philox_stream numpy_philox(std::uint64_t seed) {
  const auto key = ndfuse::frontend::seed_sequence::from_integer(seed).generate_state64(2);
  return philox_stream({key[0], key[1]}, {0, 0, 0, 0});
}

// Element i of a draw as a backend computes it: the prelude's functions, on the host here.
u64 word(const word_draw& d, std::uint64_t i) {
  return nf_philox_word({{d.key[0], d.key[1]}}, {{d.ctr[0], d.ctr[1], d.ctr[2], d.ctr[3]}}, d.first + i);
}
double unit_double(const word_draw& d, std::uint64_t i) {
  return nf_unit_double(word(d, i));
}
float unit_float(const half_draw& d, std::uint64_t i) {
  if (d.pending && i == 0) return nf_unit_float(static_cast<std::uint32_t>(word(d.pending_word, 0) >> 32));
  const std::uint64_t k = i - (d.pending ? 1 : 0);
  const u64 w = word(d.words, k / 2);
  return nf_unit_float(static_cast<std::uint32_t>(k % 2 ? w >> 32 : w));
}

}  // namespace

TEST_CASE("a sequence of draws of any sizes gives NumPy's Philox stream", "[random]") {
  philox_stream raw = numpy_philox(12345);
  const word_draw r = raw.draw_words(6);
  const std::vector<u64> raw_expected = {0x6bb68ec5e0887940, 0xa73636699d498901, 0x6ee3cefb44bbb152,
                                         0x89f6e0013d62f3db, 0xb43096c46a56b28e, 0x34708a31087f4ee4};
  for (std::uint64_t i = 0; i < 6; ++i) CHECK(word(r, i) == raw_expected[i]);

  philox_stream g = numpy_philox(12345);
  const word_draw a = g.draw_words(3);
  CHECK(unit_double(a, 0) == 0x1.aeda3b178221ep-2);
  CHECK(unit_double(a, 1) == 0x1.4e6c6cd33a931p-1);
  CHECK(unit_double(a, 2) == 0x1.bb8f3bed12eecp-2);
  const half_draw b = g.draw_halves(5);
  const std::vector<float> b_expected = {0x1.eb1798p-3f, 0x1.13edcp-1f, 0x1.a95ac8p-2f, 0x1.68612cp-1f,
                                         0x1.0fe9cp-5f};
  for (std::uint64_t i = 0; i < 5; ++i) CHECK(unit_float(b, i) == b_expected[i]);
  CHECK(g.has_uint32());
  const word_draw c = g.draw_words(1);
  CHECK(unit_double(c, 0) == 0x1.68c485f78f700p-9);
  CHECK(g.has_uint32());  // a 64-bit draw leaves NumPy's kept half alone
  const half_draw d = g.draw_halves(3);
  CHECK(d.pending);
  CHECK(unit_float(d, 0) == 0x1.a3845p-3f);
  CHECK(unit_float(d, 1) == 0x1.e6b438p-3f);
  CHECK(unit_float(d, 2) == 0x1.31ef1cp-2f);
  CHECK_FALSE(g.has_uint32());
  const word_draw e = g.draw_words(2);  // uniform(-2, 3): low + (high - low) * u, as NumPy rounds it
  CHECK(-2.0 + 5.0 * unit_double(e, 0) == -0x1.6552f1f4730e8p-3);
  CHECK(-2.0 + 5.0 * unit_double(e, 1) == 0x1.348286985aceep+1);

  philox_stream big = numpy_philox(0);
  const word_draw f = big.draw_words(1000003);
  CHECK(unit_double(f, 0) == 0x1.ccf2d9115c140p-7);
  CHECK(unit_double(f, 1) == 0x1.07f42307c03cep-2);
  CHECK(unit_double(f, 4) == 0x1.f5511e00551a6p-1);
  CHECK(unit_double(f, 999999) == 0x1.d6c3eefa834e4p-3);
  CHECK(unit_double(f, 1000002) == 0x1.c1efa1931dc80p-7);
  const half_draw h = big.draw_halves(5);
  const std::vector<float> h_expected = {0x1.db059p-3f, 0x1.2d79b4p-2f, 0x1.6f3804p-2f, 0x1.d42bdp-3f,
                                         0x1.447234p-1f};
  for (std::uint64_t i = 0; i < 5; ++i) CHECK(unit_float(h, i) == h_expected[i]);
}

// NumPy 2.4.6: p = np.random.Philox(counter=np.array([2**64 - 1, 0, 0, 0], np.uint64),
// key=np.array([1, 2], np.uint64)); p.random_raw(5) is 93baf02a9b6e1e64 c291f37088c2bdef
// b1363d2ce37f4eae f20b54a1cecf0a14 57bf6a7a1189e4da, after which its counter is [1, 1, 0, 0] and
// buffer_pos 1: the first block's counter, 2^64, carried into the second word.
TEST_CASE("the stream's counter carries across words, as NumPy's does", "[random]") {
  constexpr u64 ones = ~u64(0);
  philox_stream s({1, 2}, {ones, 0, 0, 0});
  const word_draw d = s.draw_words(5);
  const std::vector<u64> expected = {0x93baf02a9b6e1e64, 0xc291f37088c2bdef, 0xb1363d2ce37f4eae,
                                     0xf20b54a1cecf0a14, 0x57bf6a7a1189e4da};
  for (std::uint64_t i = 0; i < 5; ++i) CHECK(word(d, i) == expected[i]);
  CHECK(s.counter() == ndfuse::frontend::u64x4{1, 1, 0, 0});
  CHECK(s.buffer_pos() == 1);
}
