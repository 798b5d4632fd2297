#include "frontend/philox_stream.hpp"

namespace ndfuse::frontend {

namespace {

// ctr + n, carried across the four words (least significant first), as nf_counter_add does it on a
// device.
u64x4 add(u64x4 ctr, std::uint64_t n) {
  ctr[0] += n;
  if (ctr[0] < n)
    for (int w = 1; w < 4 && ++ctr[w] == 0; ++w) {
    }
  return ctr;
}

}  // namespace

word_draw philox_stream::draw_words(std::uint64_t n) {
  const word_draw d{key_, ctr_, static_cast<std::uint64_t>(buffer_pos_)};
  if (n == 0) return d;
  // The last word read is s = buffer_pos + n - 1: its block is ctr + s / 4, its place s % 4.
  const std::uint64_t last = static_cast<std::uint64_t>(buffer_pos_) + n - 1;
  ctr_ = add(ctr_, last / 4);
  buffer_pos_ = static_cast<int>(last % 4) + 1;
  return d;
}

half_draw philox_stream::draw_halves(std::uint64_t n) {
  half_draw d;
  d.pending = has_uint32_ && n > 0;
  d.pending_word = uinteger_;
  d.pending_half = uinteger_value_;
  const std::uint64_t halves = n - (d.pending ? 1 : 0);
  d.words = draw_words((halves + 1) / 2);
  if (d.pending) has_uint32_ = false;
  // NumPy keeps the upper half of every word a 32-bit draw reads (uinteger); after an odd count
  // of new halves the last one waits for the next 32-bit draw.
  const std::uint64_t words = (halves + 1) / 2;
  if (words > 0) {
    uinteger_ = {d.words.key, d.words.ctr, d.words.first + words - 1};
    uinteger_value_.reset();
    kept_any_ = true;
  }
  if (halves % 2 == 1) has_uint32_ = true;
  return d;
}

void philox_stream::set(u64x2 key, u64x4 counter, int buffer_pos, bool has_uint32, std::uint32_t uinteger) {
  key_ = key;
  ctr_ = counter;
  buffer_pos_ = buffer_pos;
  has_uint32_ = has_uint32;
  uinteger_value_ = uinteger;
  kept_any_ = true;
}

void philox_stream::advance(std::uint64_t blocks) {
  ctr_ = add(ctr_, blocks);
  buffer_pos_ = 4;
  has_uint32_ = false;
  uinteger_value_ = 0;  // NumPy's advance resets uinteger too
}

}  // namespace ndfuse::frontend
