// What nf::elementwise_kernel and nf::reduction_kernel do alike with a call's arguments: split the
// inputs from the nf::out targets, read their dtypes for resolve_types, broadcast the loop's shape,
// and make the operand nodes.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "frontend/build.hpp"
#include "frontend/kernel_signature.hpp"
#include "ndfuse/user_kernel.hpp"

namespace ndfuse::frontend {

struct call_arguments {
  std::vector<const operand*> inputs;
  std::vector<array*> targets;  // nf::out(z) arguments, after every input
  // What each input says about its parameter's dtype, for resolve_types.
  std::vector<kernel_argument> kinds() const;
  std::vector<dtype> target_dtypes() const;
  bool any_input_array() const;
};

// Throws value_error for an input after an nf::out(...) argument.
call_arguments split_arguments(std::initializer_list<kernel_arg> all, const std::string& kernel);

// The broadcast of the arrays, raw inputs aside and targets included (a target must have it:
// shape_error). A raw parameter given a scalar, or no array at all, throws value_error (CuPy:
// "Loop size is undecided").
shape_t loop_shape(const kernel_signature& s, const call_arguments& a, const std::string& kernel);

// One node per input: the array (in C order for a raw parameter, which the body indexes), or a
// scalar of its parameter's dtype.
std::vector<node_ptr> operand_nodes(const kernel_signature& s, const call_arguments& a,
                                    const std::vector<dtype>& in_types, const std::string& kernel);

// The CPU device names no 16-bit float in host code: dtype_error at the call when `n` (a node of
// the call) is on the CPU and one of `types` is float16 or bfloat16.
void check_host_dtypes(const ir::node& n, const std::vector<dtype>& types, const std::string& kernel);

}  // namespace ndfuse::frontend
