// DLPack: arrays exchanged with other libraries (PyTorch, CuPy, JAX, NumPy through a C extension)
// without a copy, as versioned DLManagedTensorVersioned (DLPack 1.x; ndfuse/dlpack/dlpack.h is the
// upstream header, Apache-2.0, ndfuse/dlpack/LICENSE).
#pragma once
#include "ndfuse/array.hpp"
#include "ndfuse/dlpack/dlpack.h"

namespace ndfuse {

// x's elements as a DLPack tensor, zero-copy: x is evaluated first, and the tensor's deleter keeps
// its buffer alive until the consumer calls it. Its strides and byte offset are x's (a view is
// exported as the view). The tensor is marked read-only (DLPACK_FLAG_BITMASK_READ_ONLY): ndfuse
// arrays are values, and a consumer that writes through it changes them. For a GPU array, the
// call waits until the array is computed, so a consumer on any stream reads it complete.
DLManagedTensorVersioned* to_dlpack(const array& x);
// The same for a consumer that reads on `consumer` (a stream of the array's GPU; the DLPack
// protocol's `stream` argument): instead of waiting on the host, the call makes `consumer` wait for
// the array's computation. For a CPU array the stream is not used.
DLManagedTensorVersioned* to_dlpack(const array& x, const cuda::stream& consumer);

// A DLPack tensor as an array, zero-copy: the array takes the tensor over and calls its deleter
// when the last array reading the memory is gone; ndfuse never writes into it (its ops make new
// buffers). CPU memory (kDLCPU, kDLCUDAHost) lands on the CPU device, kDLCUDA memory on that GPU.
// A tensor ndfuse cannot take (another major version, a dtype or device it does not have, lanes
// other than 1) throws value_error, dtype_error or device_error after calling the deleter, so the
// memory is never leaked. `from_dlpack(nullptr)` throws value_error.
array from_dlpack(DLManagedTensorVersioned* t);
// The same for an unversioned DLManagedTensor (DLPack before 1.0, what older producers give).
array from_dlpack(DLManagedTensor* t);

}  // namespace ndfuse
