// Evaluation control, counters and plan inspection.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

// Evaluates several results as one plan (one kernel per iteration shape, shared work computed once).
void eval(std::vector<array*> arrays);
template <class... A>
void eval(A&... arrays) {
  eval(std::vector<array*>{&arrays...});
}

// The fusion plan that would compute `a`: kernels, their inputs, outputs and donations. Runs nothing.
std::string explain(const array& a);

struct stats_t {
  std::uint64_t kernels_launched = 0;
  std::uint64_t kernels_compiled = 0;
  std::uint64_t cache_hits_memory = 0;
  std::uint64_t cache_hits_disk = 0;
  std::uint64_t library_calls = 0;
  std::uint64_t evaluations = 0;       // plans run
  std::uint64_t automatic_splits = 0;  // DAG growth bounds that forced a materialization
  std::uint64_t buffers_donated = 0;
  std::uint64_t fft_plans_created = 0;  // FFTW / cuFFT plans made (a cached plan is reused)
  std::uint64_t plans_reused = 0;       // evaluations whose fusion plan came from the plan memo
  std::uint64_t blocks_reused = 0;      // device allocations served by a block freed before on the same
                                        // stream, kept on the host (no cudaMallocAsync / cudaFreeAsync)
  std::uint64_t bytes_allocated = 0;    // total ever allocated
  std::uint64_t bytes_in_use = 0;
  std::uint64_t peak_bytes = 0;
};
stats_t stats();
void reset_stats();         // zeroes the counters; peak_bytes restarts from bytes_in_use
void clear_kernel_cache();  // forgets compiled kernels held in memory

// While one is alive on this thread, every op is evaluated as soon as it is built (NDFUSE_EAGER=1
// does the same for the whole process). Same codegen and launch path as fused execution.
class eager_scope {
 public:
  eager_scope();
  ~eager_scope();
  eager_scope(const eager_scope&) = delete;
  eager_scope& operator=(const eager_scope&) = delete;

 private:
  bool previous_;
};
bool eager_enabled();

// The backend in use: "cpu" or "cuda".
std::string backend_name();

}  // namespace ndfuse
