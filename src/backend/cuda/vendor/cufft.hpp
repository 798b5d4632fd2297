// cuFFT calls of the CUDA backend: the twin of src/backend/cpu/fftw.cpp.
#pragma once
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cuda {

// library_op::fft on this thread's current device and stream; waits for nothing.
void fft(const ir::library_call& c, const std::vector<const void*>& inputs, void* out);

}  // namespace ndfuse::backend::cuda
