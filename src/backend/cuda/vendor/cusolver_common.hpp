// What the cuSOLVER files share (cusolver.cpp, cusolver_lu.cpp): the per-thread handle, the 64-bit
// API's workspaces and types, and device copies and addressing within a stack of matrices.
#pragma once
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/cuda/runtime/memory.hpp"
#include "ir/library.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::backend::cuda::solver_detail {

// A cuSOLVER handle and its params object, per thread and device (handles are not to be shared
// between host threads).
struct solver_handle {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
  solver_handle() = default;
  solver_handle(const solver_handle&) = delete;
  solver_handle& operator=(const solver_handle&) = delete;
  solver_handle(solver_handle&& o) noexcept : handle(o.handle), params(o.params) {
    o.handle = nullptr, o.params = nullptr;
  }
  ~solver_handle() {
    if (params) cusolverDnDestroyParams(params);
    if (handle) cusolverDnDestroy(handle);
  }
};

// This thread's handle on the current device, bound to the current stream.
const solver_handle& handle_here();

// Device and host workspaces as the 64-bit API sizes them.
struct workspace {
  std::unique_ptr<scratch> device;
  std::vector<char> host;
  std::size_t device_bytes = 0;
  void size(std::size_t d, std::size_t h) {
    device_bytes = d;
    device = std::make_unique<scratch>(std::max<std::size_t>(d, 1));
    host.resize(std::max<std::size_t>(h, 1));
  }
};

cudaDataType type_of(dtype t);
cudaDataType real_type_of(dtype t);     // the real type of a complex one, else type_of(t)
cudaDataType complex_type_of(dtype t);  // the complex type of the same precision

// A device-to-device copy on the current stream (nothing for 0 bytes).
void copy(void* dst, const void* src, std::size_t nbytes);

// The address `elements` items of `itemsz` bytes past `base`.
template <class P>
P* at(void* base, std::int64_t elements, std::size_t itemsz) {
  return reinterpret_cast<P*>(static_cast<char*>(base) + elements * static_cast<std::int64_t>(itemsz));
}
inline const char* at(const void* base, std::int64_t elements, std::size_t itemsz) {
  return static_cast<const char*>(base) + elements * static_cast<std::int64_t>(itemsz);
}

// The LU family (cusolver_lu.cpp): library_op::solve, library_op::inv and library_op::lu.
void lu_solve(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out);
void lu_inverse(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out);
void lu_factor(const ir::library_call& c, const std::vector<const void*>& in, const std::vector<void*>& out);

}  // namespace ndfuse::backend::cuda::solver_detail
