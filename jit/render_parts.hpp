// Pieces the elementwise renderer (render.cpp) and the reduction renderer (render_reduce.cpp)
// share: SSA value names, instruction expressions and the kernel signature.
#pragma once
#include <sstream>
#include <string>

#include "ir/kernel_ir.hpp"

namespace ndfuse::jit {

bool is_flat(ir::index_class c);
void check_identifier(const std::string& name);
std::string one_line(std::string s);  // origins are free text: keep each on its comment line
std::string value(int v);             // "v12"
// The right-hand side of one instruction (op_code_reduced reads the variable `reduced`).
std::string expression(const ir::kernel_ir& k, const ir::instr& in);
// Instructions [first, last) as `const T vN = ...;` lines, their origin comments aligned.
void write_instructions(std::ostringstream& os, const ir::kernel_ir& k, int first, int last);
std::string kernel_signature(const ir::kernel_ir& k, const std::string& name);
// Input i as an element-function parameter (its value, or a guarded input's address), and the
// argument passing it: flat inputs at `linear`, others at their offset o<i>.
std::string input_param(const ir::kernel_ir& k, int i);
std::string input_arg(const ir::kernel_ir& k, int i, const std::string& linear);
std::string include_line();
std::string reduction_kernel_code(const ir::kernel_ir& k, const std::string& name);

}  // namespace ndfuse::jit
