// Pieces the elementwise renderers (render.cpp, render_tiled.cpp) and the reduction renderer
// (render_reduce.cpp) share: SSA value names, instruction expressions and the kernel signature.
#pragma once
#include <sstream>
#include <string>

#include "ir/kernel_ir.hpp"
#include "jit/cuda_ops.hpp"
#include "jit/cuda_tuning.hpp"

namespace ndfuse::jit {

bool is_flat(ir::index_class c);
void check_identifier(const std::string& name);
std::string one_line(std::string s);  // origins are free text: keep each on its comment line
std::string value(int v);             // "v12"
// The right-hand side of one instruction (op_code::reduced reads the variable `reduced`).
std::string expression(const tuned_ir& k, const ir::instr& in);
// Instructions [first, last) as `const T vN = ...;` lines, their origin comments aligned.
void write_instructions(std::ostringstream& os, const tuned_ir& k, int first, int last);
std::string kernel_signature(const tuned_ir& k, const std::string& name);
// Input i as an element-function parameter (its value, or a guarded input's address), and the
// argument passing it: flat inputs at `linear`, others at their offset o<i>.
std::string input_param(const tuned_ir& k, int i);
std::string input_arg(const tuned_ir& k, int i, const std::string& linear);
std::string include_line();
// User kernels (render_user.cpp): the device functions of a kernel's user calls, to place before
// its element function, and the expression reading one output of a call.
std::string user_functions(const tuned_ir& k);
std::string user_expression(const tuned_ir& k, const ir::instr& in);
// The device function of a reduction kernel's reduce expression (defined by user_functions).
std::string user_combine_name(const ir::user_kernel& combine);
std::string reduction_kernel_code(const tuned_ir& k, const std::string& name);
// The body of a tiled elementwise kernel (tuned_ir::tile_dim >= 0): render_tiled.cpp.
std::string tiled_body(const tuned_ir& k, const std::string& name, const std::string& idx,
                       const std::string& off);

// Arguments of one element-function call; `load` gives the expression reading input i, `affine`
// the affine index of iota i.
template <class Load, class Out, class Affine>
std::string element_call(const tuned_ir& k, const std::string& name, Out&& out, Load&& load,
                         Affine&& affine) {
  std::string s = name + "_element(";
  bool first = true;
  auto arg = [&](const std::string& a) {
    s += (first ? "" : ", ") + a;
    first = false;
  };
  for (std::size_t o = 0; o < k.outputs.size(); ++o) arg(out(int(o)));
  for (std::size_t i = 0; i < k.inputs.size(); ++i) arg(load(int(i)));
  for (std::size_t i = 0; i < k.scalars.size(); ++i) arg(numbered("s", i));
  for (std::size_t i = 0; i < k.iotas.size(); ++i) {
    arg(numbered("it", i));
    arg(affine(int(i)));
  }
  return s + ")";
}

}  // namespace ndfuse::jit
