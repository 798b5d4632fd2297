// Inspection of the CUDA kernels ndfuse generates. Works on any machine with the CUDA toolkit's
// NVRTC, with no GPU and no driver: it plans, renders and compiles, but never launches.
#pragma once
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse::jit {

// The CUDA source of the kernel(s) that would compute `a`, in plan order, each a complete NVRTC
// program (it includes the embedded prelude, jit/prelude/*.cuh). Runs nothing. For an evaluated
// array, a one-line comment saying there is nothing to compute. Throws nf::error in a build
// without CUDA.
std::string source(const array& a);

// Compiles those kernels with NVRTC to CUBIN for sm_<sm>, as a launch would; returns how many it
// compiled. Throws nf::compile_error (with NVRTC's log and the dumped source's path) on failure.
int compile_check(const array& a, int sm = 90);

}  // namespace ndfuse::jit
