// The host-side state of NumPy's Philox bit generator, and the draws it hands out. A draw is a
// description, not values: element i of a draw of words is word p + i of the stream that continues
// from block `ctr` (nf_philox_word in jit/prelude/nf_random.cuh), so any thread on any device
// computes it alone; the state advances by what the draw consumed, exactly as NumPy's sequential
// philox_next does, buffered words and the pending half of a 32-bit draw included.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

namespace ndfuse::frontend {

using u64x4 = std::array<std::uint64_t, 4>;
using u64x2 = std::array<std::uint64_t, 2>;

// Elements 0..n-1 of a draw of 64-bit words: word first + i of the stream from block ctr.
struct word_draw {
  u64x2 key;
  u64x4 ctr;
  std::uint64_t first = 0;
};

// A draw of 32-bit halves (NumPy's next_uint32): when `pending`, element 0 is the upper half of the
// word `pending_word` names (NumPy keeps it from the last such draw); element pending + 2j is word
// first + j's lower half and pending + 2j + 1 its upper half.
struct half_draw {
  word_draw words;
  bool pending = false;
  word_draw pending_word;                     // its word `first`
  std::optional<std::uint32_t> pending_half;  // the half itself, where a set state gave it
};

class philox_stream {
 public:
  // NumPy's state after Philox(key=..., counter=...): no block generated yet, the buffer empty.
  philox_stream(u64x2 key, u64x4 counter) : key_(key), ctr_(counter) {}

  word_draw draw_words(std::uint64_t n);
  half_draw draw_halves(std::uint64_t n);
  // NumPy's state assignment (bit_generator.state = ...) and Philox.advance(delta).
  void set(u64x2 key, u64x4 counter, int buffer_pos, bool has_uint32, std::uint32_t uinteger);
  void advance(std::uint64_t blocks);
  // The kept half's origin, when it is a word of the stream rather than a set value.
  const word_draw& pending_word() const { return uinteger_; }
  const std::optional<std::uint32_t>& pending_half() const { return uinteger_value_; }
  // Whether any half was ever kept: NumPy's state reports the last one (uinteger) even once used.
  bool kept_any() const { return kept_any_; }

  const u64x2& key() const { return key_; }
  const u64x4& counter() const { return ctr_; }   // NumPy's state['state']['counter']
  int buffer_pos() const { return buffer_pos_; }  // NumPy's buffer_pos: 4 when the buffer is spent
  bool has_uint32() const { return has_uint32_; }

 private:
  u64x2 key_;
  u64x4 ctr_;
  int buffer_pos_ = 4;
  bool has_uint32_ = false;
  word_draw uinteger_;                           // where NumPy's kept upper half (uinteger) comes from
  std::optional<std::uint32_t> uinteger_value_;  // or the half itself, after set()
  bool kept_any_ = false;
};

}  // namespace ndfuse::frontend
