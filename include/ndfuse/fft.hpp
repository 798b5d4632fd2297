// Discrete Fourier transforms with numpy.fft's names, defaults and results (NumPy 2): cuFFT on the
// CUDA backend, FFTW on the CPU backend (or, built with NDFUSE_WITH_FFTW=OFF, a small built-in FFT).
//
// Each transform is a library call computing the unnormalized DFT; the norm's scale is a lazy
// elementwise multiply, fused into the kernel that writes the transform's operand when that operand
// is computed anyway, else into whatever consumes the result. So `nf::abs(nf::fft::fft(x, {}, -1,
// "ortho"))` of an evaluated x runs one library call and one kernel.
//
// dtypes, as NumPy 2: float16, float32 and complex64 inputs transform in single precision
// (complex64 results; irfft and hfft return float32, or float16 for a float16 input); everything
// else (float64, complex128, integers, bool) in double precision. rfft and ihfft reject complex
// input (dtype_error). A length n < 1, given or implied, throws value_error; a bad norm throws
// value_error; an axis out of range throws shape_error (NumPy's AxisError; see
// docs/numpy-differences.md).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ndfuse/array.hpp"

namespace ndfuse::fft {

// NumPy's norm=: which direction is divided by n ("backward": the inverse; "forward": the forward
// transform; "ortho": both by sqrt(n)).
enum class norm_mode : std::uint8_t { backward, ortho, forward };
norm_mode parse_norm(std::string_view norm);  // throws value_error naming the bad value

// A norm= argument: NumPy's string ("backward", "ortho", "forward"; another one throws value_error
// at the call) or a norm_mode, so every transform takes either without a second overload.
class norm_arg {
 public:
  norm_arg(norm_mode m = norm_mode::backward) : mode_(m) {}
  norm_arg(std::string_view s) : mode_(parse_norm(s)) {}
  norm_arg(const char* s) : mode_(parse_norm(s)) {}
  norm_arg(const std::string& s) : mode_(parse_norm(s)) {}
  operator norm_mode() const { return mode_; }

 private:
  norm_mode mode_;
};

// ---- one axis -----------------------------------------------------------------------------------
// n: the transform length (input cropped or zero-padded along axis); default the axis length, or
// for irfft and hfft 2 * (m - 1) where m is the input's axis length.
array fft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});
array ifft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});
array rfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});
array irfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});
array hfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});
array ihfft(const array& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1, norm_arg norm = {});

// ---- several axes -------------------------------------------------------------------------------
// NumPy's s=: none (`{}` or std::nullopt) or one output length per transformed axis ({8, 8}).
class sizes {
 public:
  sizes() = default;
  sizes(std::nullopt_t) {}
  sizes(std::initializer_list<std::int64_t> s) : s_(shape_t(s)) {}
  sizes(const shape_t& s) : s_(s) {}
  sizes(std::optional<shape_t> s) : s_(std::move(s)) {}
  const std::optional<shape_t>& get() const { return s_; }

 private:
  std::optional<shape_t> s_;
};

// s: the output length along each of `axes` (-1: the input's length); axes: default every axis, or
// the last len(s) when s is given (NumPy's deprecated but still working form). A repeated axis is
// transformed again, as NumPy does. irfftn's default s[-1] is 2 * (m - 1).
array fftn(const array& a, sizes s = {}, ndfuse::axes axes = {}, norm_arg norm = {});
array ifftn(const array& a, sizes s = {}, ndfuse::axes axes = {}, norm_arg norm = {});
array rfftn(const array& a, sizes s = {}, ndfuse::axes axes = {}, norm_arg norm = {});
array irfftn(const array& a, sizes s = {}, ndfuse::axes axes = {}, norm_arg norm = {});
array fft2(const array& a, sizes s = {}, ndfuse::axes axes = {-2, -1}, norm_arg norm = {});
array ifft2(const array& a, sizes s = {}, ndfuse::axes axes = {-2, -1}, norm_arg norm = {});
array rfft2(const array& a, sizes s = {}, ndfuse::axes axes = {-2, -1}, norm_arg norm = {});
array irfft2(const array& a, sizes s = {}, ndfuse::axes axes = {-2, -1}, norm_arg norm = {});

// ---- helpers ------------------------------------------------------------------------------------
// The sample frequencies (float64, lazy: a fused iota, never written unless asked for):
// fftfreq: [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (n*d); rfftfreq: [0, 1, ..., n/2] / (n*d).
// n < 1 or n*d == 0 throws value_error.
array fftfreq(std::int64_t n, double d = 1.0);
array rfftfreq(std::int64_t n, double d = 1.0);
// The zero frequency moved to the centre (fftshift) and back (ifftshift) along `axes` (default
// every axis): rolls, which fuse into their consumer.
array fftshift(const array& x, ndfuse::axes axes = {});
array ifftshift(const array& x, ndfuse::axes axes = {});

}  // namespace ndfuse::fft
