// A user kernel (nf::elementwise_kernel) with every dtype resolved: what one kernel object makes
// for the argument dtypes of a call. The nodes it computes and the kernel IR that calls it share
// it; each backend turns it into code of its own (CUDA: spliced into the fused kernel; CPU: a block
// function compiled by the host compiler).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

struct user_param {
  std::string name;
  dtype dt = dtype::float64;
  // An array the body indexes itself (x[j], x.size()): its operand is the address of a C-order
  // buffer (a kernel input slot, not an SSA value), and its element count is one more operand.
  bool raw = false;
};

struct user_kernel {
  std::string name;      // the user's, a C identifier
  std::string body;      // the operation, CUDA C++ over the parameters' names and i
  std::string preamble;  // code placed before the kernel (helper functions, constants)
  std::vector<user_param> in, out;
  std::vector<std::pair<char, dtype>> placeholders;  // the typedefs the body may name (T)
  // Extra operands after the inputs, in this order: the element's int64 index i (the body reads
  // i), the loop's size for _ind.size() (an int64 scalar), then each raw input's element count.
  bool uses_index = false;
  bool uses_size = false;
  std::string fingerprint;  // 32 hex of everything above: compiled code is keyed on it
  std::uint64_t id = 0;     // unique per instance in the process: plans are keyed on it

  int raw_count() const {
    int n = 0;
    for (const auto& p : in) n += p.raw;
    return n;
  }
};

// Fills fingerprint and id.
std::shared_ptr<const user_kernel> finish_user_kernel(user_kernel k);

}  // namespace ndfuse::ir
