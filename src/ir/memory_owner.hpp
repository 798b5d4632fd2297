// The allocator interface of ir::buffer.
#pragma once
#include <cstddef>

namespace ndfuse::ir {

// Where a buffer's memory comes from and goes back to: a backend (backend::device_backend is one),
// named here so that the IR needs nothing from the stages after it.
class memory_owner {
 public:
  virtual void* allocate(std::size_t nbytes) = 0;  // throws out_of_memory
  virtual void deallocate(void* p, std::size_t nbytes) = 0;

 protected:
  ~memory_owner() = default;
};

}  // namespace ndfuse::ir
