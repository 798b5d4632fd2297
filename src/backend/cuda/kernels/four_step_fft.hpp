// 1-d complex128 transforms of 2^23 and 2^24 points in two passes of ndfuse's own kernel
// (four_step_fft.cu), where cuFFT makes three: on an H100, 2^24 points took 554-566 us against
// cuFFT's 593-594, 2^23 points 282-289 against 298-299 (research/fft_two_pass.cu). Every
// other transform goes to cuFFT.
#pragma once
#include <cstdint>

#include "ndfuse/dtype.hpp"

namespace ndfuse::backend::cuda {

// Whether `batch` forward or inverse transforms of n points of dtype dt take four_step_fft;
// NDFUSE_FFT_FOUR_STEP=0 sends every transform to cuFFT.
bool four_step_fits(dtype dt, std::int64_t n, std::int64_t batch);

// Enqueues `batch` unnormalized transforms of n points from `in` to `out` (C order, the items back
// to back; out may be in) on this thread's current device and stream. The twiddle tables are made
// once per device and n, and counted in stats().fft_plans_created as cuFFT's plans are.
void four_step_fft(const void* in, void* out, std::int64_t n, std::int64_t batch, bool inverse);

}  // namespace ndfuse::backend::cuda
