// Fourier transforms of the CPU backend (library_op::fft): FFTW (fftw.cpp), or with
// NDFUSE_WITH_FFTW=OFF the built-in FFT (fft_builtin.cpp); CMake compiles exactly one of the two.
// The twin of src/backend/cuda/vendor/cufft.cpp.
#pragma once
#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cpu {

// inputs[0] and out as ir/library.hpp's library_op::fft describes them; the result is unnormalized.
void fft(const ir::library_call& c, const std::vector<const void*>& inputs, void* out);

// A c2r call's input copied (complex-to-real routines overwrite their input, which is read-only
// here) with the imaginary part of the zero and, for even n, the Nyquist frequency cleared: NumPy's
// irfft reads only their real parts, and FFTW and cuFFT leave non-Hermitian input unspecified.
template <class Real>
void hermitian_copy(const std::complex<Real>* in, std::complex<Real>* out, std::int64_t batch,
                    std::int64_t n) {
  const std::int64_t half = n / 2 + 1;
  std::copy(in, in + batch * half, out);
  for (std::int64_t b = 0; b < batch; ++b) {
    out[b * half] = {out[b * half].real(), Real(0)};
    if (n % 2 == 0) out[b * half + n / 2] = {out[b * half + n / 2].real(), Real(0)};
  }
}

}  // namespace ndfuse::backend::cpu
