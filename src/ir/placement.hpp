// Where a node lives. A creation op stamps this thread's current device on its node; ops inherit
// their operands'. "The process default" stays unresolved here, so that building a node never
// asks which devices exist (the runtime resolves it: runtime/device.hpp). "Anywhere" marks a
// C++ scalar operand (the 2.0 of x * 2.0): it holds no data, so it goes with whichever device its
// op runs on, where nf::full and the other creation ops make arrays of a device.
#pragma once
#include <cstdint>

#include "ndfuse/device.hpp"

namespace ndfuse::ir {

struct placement {
  enum : std::uint8_t { process_default, cpu, cuda, anywhere } kind = process_default;
  std::int16_t index = 0;

  static placement any() { return {anywhere, 0}; }
  static placement of(device d) { return {d.is_cpu() ? cpu : cuda, static_cast<std::int16_t>(d.index())}; }
  std::uint32_t bits() const { return std::uint32_t(kind) << 16 | std::uint16_t(index); }
  static placement from_bits(std::uint32_t b) {
    return {static_cast<decltype(kind)>(b >> 16), static_cast<std::int16_t>(b & 0xffff)};
  }
  friend bool operator==(placement a, placement b) { return a.kind == b.kind && a.index == b.index; }
};

// This thread's current placement (process_default outside every device scope), and the setter the
// scopes use; it returns the previous one.
placement thread_placement();
placement set_thread_placement(placement p);

}  // namespace ndfuse::ir
