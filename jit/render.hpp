// Render: kernel IR -> CUDA C++ source, meant to be read. The first of jit/'s three pieces (render,
// compile, load). Op expressions come from the one op table (jit/cuda_ops.hpp); everything
// structural (loads, stores, casts, where, iota, index math) is written here. Parameters follow
// jit/kernel_abi.hpp.
//
// A rendered kernel has: a header comment (name, operands, index scheme), an element function with
// one line per SSA instruction commented with the DAG node it computes, and an extern "C"
// __global__ kernel running a grid-stride loop: 16-byte vector loads and stores plus a scalar tail
// when every input is flat, 32 x 32 shared-memory tiles when some input is transposed
// (render_tiled.cpp), multi-indices over the collapsed shape otherwise.
#pragma once
#include <string>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "jit/cuda_tuning.hpp"

namespace ndfuse::jit {

// The prelude header every rendered program includes (jit/prelude/nf_prelude.cuh).
inline constexpr const char* prelude_header = "nf_prelude.cuh";

// One complete NVRTC program computing kernel `k` under the name `name` (a C identifier, such as
// the plan step's k_<16 hex digits>).
std::string render(const tuned_ir& k, const std::string& name);

// Several kernels in one program, the prelude included once (tests compile many kernels at once).
struct named_kernel {
  const tuned_ir* kernel = nullptr;
  std::string name;
};
std::string render_program(const std::vector<named_kernel>& kernels);

}  // namespace ndfuse::jit
