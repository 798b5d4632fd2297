// User kernels: CuPy's ElementwiseKernel, written in C++ and fused.
//
//   nf::elementwise_kernel k("float32 x, float32 y", "float32 z",
//                            "if (x - 2 > y) { z = x * y; } else { z = x + y; }", "my_kernel");
//   nf::array z = k(x, y);           // a lazy node, like x + y
//   nf::array s = nf::sum(k(x * 2, y) + 1);  // one fused kernel
//
// Parameter lists follow CuPy: `[raw] <type> <name>`, comma-separated; <type> is a dtype name or a
// one-letter placeholder (`T x, T y`) that the call resolves from its arguments. The body sees each
// input as a value, each output as a reference to write, and `i`, the element's index in the
// output (C order); `_ind.size()` is the number of elements. Arguments broadcast like NumPy's; a
// C++ scalar takes its parameter's type; nf::out(z) arguments receive the outputs. Arrays are never cast: an
// array whose dtype is not its parameter's throws dtype_error (astype it first).
//
// Where it runs: the body is spliced into the kernel of the ops around it, on the arguments'
// device. On the CPU device it is compiled by the host compiler (NDFUSE_HOST_CXX) once per
// dtype combination, cached on disk; docs/user-kernels.md says what is not there yet.
#pragma once
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse {

struct kernel_options {
  std::string preamble;  // code before the kernel: helper functions and constants the body calls
  // An elementwise kernel's code before its body (CuPy's loop_prep): run before the body for each
  // element, its declarations visible to the body.
  std::string loop_prep;
};

// One argument of a user kernel's call: an input (array or C++ scalar), or nf::out(z), an array
// the output is written to (z then holds the result; other handles of z's old value keep it).
struct kernel_arg {
  kernel_arg(const array& a) : in(a) {}
  template <scalar_type T>
  kernel_arg(T v) : in(v) {}
  kernel_arg(scalar v) : in(v) {}
  kernel_arg(out o) : in(scalar(0)), target(&o.target) {}
  operand in;
  array* target = nullptr;
};

class elementwise_kernel {
 public:
  // Checks the lists, the name (a C identifier) and the parameters' names now: value_error or
  // dtype_error (an unknown type name).
  elementwise_kernel(std::string_view in_params, std::string_view out_params, std::string operation,
                     std::string name = "kernel", kernel_options options = {});

  // The output, for a kernel of one output (value_error otherwise: use outputs()). Arguments are
  // arrays and C++ scalars, one per input parameter, then optionally one nf::out(z) per output
  // (CuPy's output arguments: their dtypes decide placeholders first, their shapes must be the
  // call's).
  template <class... Args>
  array operator()(const Args&... args) const {
    return call_one({kernel_arg(args)...});
  }
  // Every output, in the order of the output list.
  template <class... Args>
  std::vector<array> outputs(const Args&... args) const {
    return call({kernel_arg(args)...});
  }

  const std::string& name() const;

 private:
  array call_one(std::initializer_list<kernel_arg> args) const;
  std::vector<array> call(std::initializer_list<kernel_arg> args) const;
  struct state;
  std::shared_ptr<state> s_;
};

// CuPy's ReductionKernel: map_expr gives each element's value (over the input names), reduce_expr
// folds two values a and b, post_map_expr writes the output from the folded a, and identity (a
// number) is the fold of nothing. The values fold in reduce_type (a dtype name or a placeholder;
// default: the output's type).
//
//   nf::reduction_kernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   nf::array n = l2norm(x);                  // over every axis
//   nf::array rows = l2norm.reduce({x}, 1);   // over axis 1 (keepdims as the third argument)
//
// The map fuses with the ops that produce the inputs and the post-map with those that read the
// result, as for the built-in reductions; the fold order is fixed, so results repeat exactly.
// Several output parameters: the post-map assigns each from the folded a (outputs() returns them),
// and the default reduce type is the first output's. nf::out(z) arguments after the inputs receive
// the outputs (their shape: the reduction's result's; their dtypes decide placeholders first).
class reduction_kernel {
 public:
  reduction_kernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                   std::string reduce_expr, std::string post_map_expr, std::string identity,
                   std::string name = "reduce_kernel", std::string reduce_type = "",
                   kernel_options options = {});

  // The reduction over every axis of the arguments (one per input parameter).
  template <class... Args>
  array operator()(const Args&... args) const {
    return reduce({kernel_arg(args)...}, axes{}, false);
  }
  array reduce(std::initializer_list<kernel_arg> args, const axes& axis, bool keepdims = false) const;
  // Every output, in the order of the output list (reduce and operator() take kernels of one).
  std::vector<array> outputs(std::initializer_list<kernel_arg> args, const axes& axis = {},
                             bool keepdims = false) const;

  const std::string& name() const;

 private:
  struct state;
  std::shared_ptr<state> s_;
};

}  // namespace ndfuse
