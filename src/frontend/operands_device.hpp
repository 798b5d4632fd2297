// Ops on existing arrays run on their arrays' device, whatever the current device is (DESIGN.md
// §10). A composite also makes arrays of its own (coordinates, the zero it pads with, an identity,
// a scalar result), and the creation ops it calls place them on the thread's current device. This
// scope makes the operands' device current while a composite is built, so its own arrays land
// beside its operands, and restores the previous one after. The first operand with a place decides
// (a C++ scalar has none); operands on other devices still throw when they meet, as in any op.
#pragma once
#include <optional>
#include <vector>

#include "ir/node.hpp"
#include "ir/placement.hpp"
#include "ndfuse/array.hpp"

namespace ndfuse::frontend {

class operands_device {
 public:
  template <class... Operands>
  explicit operands_device(const Operands&... operands) {
    (consider(operands), ...);
    if (found_) previous_ = ir::set_thread_placement(place_);
  }
  ~operands_device() {
    if (found_) ir::set_thread_placement(previous_);
  }
  operands_device(const operands_device&) = delete;
  operands_device& operator=(const operands_device&) = delete;

 private:
  void consider(const array& a) {
    if (found_ || !a.node() || a.node()->place.kind == ir::placement::anywhere) return;
    place_ = a.node()->place;
    found_ = true;
  }
  void consider(const std::vector<array>& arrays) {
    for (const auto& a : arrays) consider(a);
  }
  void consider(const std::optional<array>& a) {
    if (a) consider(*a);
  }

  bool found_ = false;
  ir::placement place_;
  ir::placement previous_;
};

}  // namespace ndfuse::frontend
