// Inspection of the CUDA kernels ndfuse generates. Works on any machine with the CUDA toolkit's
// NVRTC, with no GPU and no driver: it plans, renders and compiles, but never launches.
#pragma once
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse::jit {

// The CUDA source of the kernel(s) that would compute `a`, in plan order, each a complete NVRTC
// program that includes the device prelude (nf_prelude.cuh, installed under include/ndfuse/prelude/).
// Runs nothing. For an evaluated array, a one-line comment saying there is nothing to compute.
// Throws nf::device_error in a build without CUDA.
std::string source(const array& a);

// source(a) with the prelude pasted in place of its #include, so that `nvcc -arch=sm_90 -cubin`
// compiles it with no include path. (The installed package also ships the prelude, under
// include/ndfuse/prelude/, for source(a) and `nvcc -I`.)
std::string standalone_source(const array& a);

// Compiles those kernels with NVRTC to CUBIN for sm_<sm>, as a launch would; returns how many it
// compiled. Throws nf::compile_error (with NVRTC's log and the dumped source's path) on failure.
int compile_check(const array& a, int sm = 90);

}  // namespace ndfuse::jit
