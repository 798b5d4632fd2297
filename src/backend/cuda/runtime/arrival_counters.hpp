// The arrival counters of reductions whose blocks share outputs (jit/prelude/nf_reduce.cuh): the
// last block of each column takes its place by an atomic count, then sets the count back to zero.
// Every such kernel leaves its counters zeroed, so one buffer per device and stream serves every
// launch on that stream with no memset before each (kernels on one stream never overlap). A memset
// is a GPU operation of its own, a microsecond or two between the start of a small reduction and
// its kernel, plus its enqueueing on the host.
#pragma once
#include <cstddef>

#include <cuda_runtime.h>

namespace ndfuse::backend::cuda {

// At least `count` zeroed counters for a kernel on the current device's current stream.
unsigned* arrival_counters(std::size_t count);

// Frees the counters of stream `s` of `device` (its work finished, the stream about to go).
void forget_arrival_counters(int device, cudaStream_t s);

}  // namespace ndfuse::backend::cuda
