// Devices at run time: a node's placement resolved to a device (the process default named), and the
// check that an op's operands share one (the frontend's door to devices).
#pragma once
#include "ir/node.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse::runtime {

device resolve(ir::placement p);
inline device device_of(const ir::node& n) {
  return resolve(n.place);
}

// Throws device_error unless d is a device of this process.
void check_exists(device d);

// Gives n the device of its operands (C++ scalar operands, placement::anywhere, go with any; a
// node of those only keeps this thread's current device). Operands on two devices throw device_error naming
// the op, both devices and the move that fixes it.
void settle_device(ir::node& n);

}  // namespace ndfuse::runtime
