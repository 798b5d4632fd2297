// The CUDA side of the one op table: each registry op's expression, a call of its prelude body
// nf_<name>, plus the C++ spelling of each dtype in generated code.
#pragma once
#include <string>
#include <string_view>

#include "ir/op_code.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::jit {

// The template of a registry op, e.g. "nf_add({0}, {1})"; throws for structural op codes (buffer,
// scalar, iota, cast, where), which the renderer writes itself.
std::string_view cuda_template(ir::op_code op);

// Fills {0}, {1}, {2} of a template with the operand expressions.
std::string fill_template(std::string_view tmpl, const std::string* operands, int count);

// The storage type of a dtype in generated code ("double", "nf_float16", "nf_complex128", ...),
// matching jit/prelude/nf_types.cuh.
const char* cuda_type(dtype t);

// A generated name: prefix and number, such as "in0" or "v12".
std::string numbered(const char* prefix, long long i);

}  // namespace ndfuse::jit
