#include "ir/placement.hpp"

namespace ndfuse::ir {

namespace {
thread_local placement current;
}  // namespace

placement thread_placement() {
  return current;
}

placement set_thread_placement(placement p) {
  const placement previous = current;
  current = p;
  return previous;
}

}  // namespace ndfuse::ir
