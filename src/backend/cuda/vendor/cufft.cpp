// Fourier transforms through cuFFT (except the 1-d complex128 sizes that four_step_fft.hpp takes, in
// two passes of ndfuse's own kernel): one cufftMakePlanMany64 plan per transform (the batched 1-d,
// 2-d or 3-d transform of the C-order operand's trailing dims, basic data layout), cached in an LRU
// cache per host thread (a plan holds the stream it last ran on, so threads must not share one),
// keyed by every plan parameter including the device it was made on.
//
// The work area: plans are made with cufftSetAutoAllocation(0), and each execution takes its work
// area from the backend's allocator (device_allocate), freed as soon as the transform is queued.
// Auto-allocated areas would stay with every cached plan (a 2^24-point complex128 plan holds as much
// as its data), outside the pool that serves every other allocation: memory the pool could not reuse
// or report, and could not free when an allocation fails. Freed, the area waits on the host for the
// next allocation of its size on the stream (memory.cpp), which is the next transform of the shape:
// no synchronization, and no cudaFreeAsync in the stream.
//
// Complex-to-real transforms overwrite their input, which is read-only here (other arrays may view
// it): the input is copied to scratch first, with the imaginary part of the zero and Nyquist
// frequencies cleared, as NumPy's irfft ignores them.
#include "backend/cuda/vendor/cufft.hpp"

#include <cufft.h>

#include <functional>
#include <memory>
#include <string>
#include <tuple>

#include "backend/cuda/kernels/four_step_fft.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "ndfuse/error.hpp"
#include "support/lru_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::backend::cuda {

namespace {

using ir::fft_kind;

const char* result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS:
      return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE:
      return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
      return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
      return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "unknown cufftResult";
  }
}

void check_fft(cufftResult r, const char* call) {
  if (r == CUFFT_SUCCESS) return;
  throw_if_unusable();  // a failure after a sticky error is its consequence
  if (r == CUFFT_ALLOC_FAILED) throw out_of_memory(std::string("cuFFT: ") + call + " could not allocate");
  throw device_error(std::string("cuFFT: ") + call + " failed: " + result_name(r) + " (" +
                     std::to_string(int(r)) + ")");
}

// The layout is always cuFFT's basic one (C-order, items back to back), so dims and batch determine
// every stride.
struct plan_key {
  int device = 0;
  dtype dt = dtype::complex128;
  fft_kind kind = fft_kind::forward;
  int rank = 1;
  std::int64_t dims[3] = {1, 1, 1};
  std::int64_t batch = 1;
  auto tie() const { return std::tie(device, dt, kind, rank, dims[0], dims[1], dims[2], batch); }
  bool operator==(const plan_key& o) const { return tie() == o.tie(); }
};
struct plan_key_hash {
  std::size_t operator()(const plan_key& k) const {
    std::size_t h = std::hash<int>{}(k.device * 64 + int(k.dt) * 8 + int(k.kind)) ^ std::size_t(k.rank) << 3;
    for (auto d : k.dims) h = h * 1000003 ^ std::hash<std::int64_t>{}(d);
    return h * 131 ^ std::hash<std::int64_t>{}(k.batch);
  }
};

struct plan {
  cufftHandle handle = 0;
  bool created = false;
  std::size_t work_bytes = 0;
  plan() = default;
  plan(const plan&) = delete;
  plan& operator=(const plan&) = delete;
  ~plan() {
    if (created) cufftDestroy(handle);  // (a failure means a broken context: nothing to do here)
  }
};
using plan_ptr = std::unique_ptr<plan>;

cufftType type_of(dtype dt, fft_kind kind) {
  const bool single = dt == dtype::complex64;
  switch (kind) {
    case fft_kind::forward:
    case fft_kind::inverse:
      return single ? CUFFT_C2C : CUFFT_Z2Z;
    case fft_kind::r2c:
      return single ? CUFFT_R2C : CUFFT_D2Z;
    case fft_kind::c2r:
      return single ? CUFFT_C2R : CUFFT_Z2D;
  }
  return CUFFT_Z2Z;
}

plan& plan_for(const ir::library_call& c, int device) {
  // Plans for many shapes are cheap to keep (no work area); 32 covers a program's working set.
  thread_local support::lru_cache<plan_key, plan_ptr, plan_key_hash> plans(32);
  plan_key key;
  key.device = device;
  key.dt = c.dt;
  key.kind = c.fft.kind;
  key.rank = c.fft.rank;
  for (int k = 0; k < c.fft.rank; ++k) key.dims[k] = c.fft.dims[k];
  key.batch = c.fft.batch;
  return *plans.get(key, [&] {
    auto p = std::make_unique<plan>();
    check_fft(cufftCreate(&p->handle), "cufftCreate");
    p->created = true;
    check_fft(cufftSetAutoAllocation(p->handle, 0), "cufftSetAutoAllocation");
    long long n[3] = {c.fft.dims[0], c.fft.dims[1], c.fft.dims[2]};
    // Basic data layout (null embeds): each transform's input and output are contiguous and the
    // batch items follow each other, which is the C-order operand and result.
    check_fft(cufftMakePlanMany64(p->handle, c.fft.rank, n, nullptr, 1, 0, nullptr, 1, 0,
                                  type_of(c.dt, c.fft.kind), c.fft.batch, &p->work_bytes),
              "cufftMakePlanMany64");
    ++support::counters_here().fft_plans_created;
    return p;
  });
}

}  // namespace

void fft(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  const auto& p = c.fft;
  if (c.dt != dtype::complex64 && c.dt != dtype::complex128)
    throw dtype_error("fft: no cuFFT routine for " + std::string(dtype_name(c.dt)));
  if (p.kind == fft_kind::c2r && p.rank != 1)
    throw error("fft: internal error, a complex-to-real call transforms one axis");
  if (p.batch == 0) return;
  const bool complex_to_complex = p.kind == fft_kind::forward || p.kind == fft_kind::inverse;
  if (complex_to_complex && p.rank == 1 && four_step_fits(c.dt, p.dims[0], p.batch)) {
    four_step_fft(in[0], out, p.dims[0], p.batch, p.kind == fft_kind::inverse);
    return;
  }
  const cudaStream_t stream = current_stream();
  plan& pl = plan_for(c, current_device());
  check_fft(cufftSetStream(pl.handle, stream), "cufftSetStream");
  const scratch work(pl.work_bytes);
  check_fft(cufftSetWorkArea(pl.handle, work.get()), "cufftSetWorkArea");

  void* input = const_cast<void*>(in[0]);  // only C2R writes it, and C2R reads a copy
  const std::size_t complex_bytes = c.dt == dtype::complex64 ? 8 : 16;
  const std::size_t half = std::size_t(p.dims[0] / 2 + 1);
  const scratch copy(p.kind == fft_kind::c2r ? complex_bytes * half * std::size_t(p.batch) : 0);
  if (p.kind == fft_kind::c2r) {
    const std::size_t row = complex_bytes * half, real_bytes = complex_bytes / 2;
    auto* bytes = static_cast<char*>(copy.get());
    check(cudaMemcpyAsync(bytes, in[0], row * std::size_t(p.batch), cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync");
    // The imaginary parts of column 0 (and n/2 for even n): a strided 2-d memset, one per column.
    check(cudaMemset2DAsync(bytes + real_bytes, row, 0, real_bytes, std::size_t(p.batch), stream),
          "cudaMemset2DAsync");
    if (p.dims[0] % 2 == 0)
      check(cudaMemset2DAsync(bytes + (half - 1) * complex_bytes + real_bytes, row, 0, real_bytes,
                              std::size_t(p.batch), stream),
            "cudaMemset2DAsync");
    input = bytes;
  }

  const int direction = p.kind == fft_kind::inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  if (c.dt == dtype::complex64) {
    switch (p.kind) {
      case fft_kind::forward:
      case fft_kind::inverse:
        check_fft(cufftExecC2C(pl.handle, static_cast<cufftComplex*>(input), static_cast<cufftComplex*>(out),
                               direction),
                  "cufftExecC2C");
        return;
      case fft_kind::r2c:
        check_fft(cufftExecR2C(pl.handle, static_cast<cufftReal*>(input), static_cast<cufftComplex*>(out)),
                  "cufftExecR2C");
        return;
      case fft_kind::c2r:
        check_fft(cufftExecC2R(pl.handle, static_cast<cufftComplex*>(input), static_cast<cufftReal*>(out)),
                  "cufftExecC2R");
        return;
    }
  } else {
    switch (p.kind) {
      case fft_kind::forward:
      case fft_kind::inverse:
        check_fft(cufftExecZ2Z(pl.handle, static_cast<cufftDoubleComplex*>(input),
                               static_cast<cufftDoubleComplex*>(out), direction),
                  "cufftExecZ2Z");
        return;
      case fft_kind::r2c:
        check_fft(cufftExecD2Z(pl.handle, static_cast<cufftDoubleReal*>(input),
                               static_cast<cufftDoubleComplex*>(out)),
                  "cufftExecD2Z");
        return;
      case fft_kind::c2r:
        check_fft(cufftExecZ2D(pl.handle, static_cast<cufftDoubleComplex*>(input),
                               static_cast<cufftDoubleReal*>(out)),
                  "cufftExecZ2D");
        return;
    }
  }
}

}  // namespace ndfuse::backend::cuda
