// Shared by the FFT experiments (fft_paths.cu, fft_exec_calls.cu, fft_patient_jit.cu; eigh_large.cu
// borrows the timing): cuFFT's error check and bench/README.md's timing of one call (a 512 MiB device
// copy keeps the GPU busy while the call is queued, CUDA events around it).
#pragma once
#include <cufft.h>

#include "reduce_common.cuh"

#define FFT_CHECK(x)                                                           \
  do {                                                                         \
    cufftResult status_ = (x);                                                 \
    if (status_ != CUFFT_SUCCESS) {                                            \
      std::printf("%s:%d cufft error %d\n", __FILE__, __LINE__, int(status_)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

// The first line of every FFT experiment's output: which GPU, which cuFFT.
inline void print_gpu_and_cufft() {
  int version = 0;
  cufftGetVersion(&version);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, cuFFT %d\n", prop.name, version);
}

struct busy_copy {
  static constexpr std::size_t bytes = std::size_t{512} << 20;
  void *src = nullptr, *dst = nullptr;

  busy_copy() {
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMalloc(&dst, bytes));
    CHECK(cudaMemset(src, 1, bytes));
  }
  void enqueue() const { CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0)); }
};

// One call timed after a busy copy, in ms.
inline float timed_once(const busy_copy& busy, const std::function<void()>& call, cudaEvent_t a,
                        cudaEvent_t b) {
  busy.enqueue();
  CHECK(cudaEventRecord(a, 0));
  call();
  CHECK(cudaEventRecord(b, 0));
  CHECK(cudaEventSynchronize(b));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}
