// The kernel ABI: how a generated kernel is launched. The renderer writes each kernel's parameter
// list from param_layout(), and build_params() packs an ir::kernel_args in exactly that order, so
// the two cannot drift apart.
//
// Parameters, in order (ND = kernel_ir::ndim; idx = unsigned int, or unsigned long long when
// kernel_ir::index_64; off = int, or long long when index_64):
//   n                 idx                       number of elements (kernel_args::size())
//   shape             nf_dims<ND, idx>          collapsed shape; only when the kernel is not
//                                               vectorized and ND > 1 (it needs multi-indices)
//   out<k>            T*                        each output, contiguous in iteration order
//   in<k>             const T*                  each input, its element offset already applied
// No __restrict__: an output may reuse a donated input's buffer. Donation only pairs a flat input
// with an output of the same itemsize, so element i is read and then written by the same thread,
// and without __restrict__ the compiler keeps that order.
//   in<k>_strides     nf_dims<ND, off>          element strides; only for broadcast/strided inputs
//   s<k>              T (by value)              each scalar, in its dtype (nf_float16: 2 bytes,
//                                               nf_complex64: 8 bytes aligned 8, nf_complex128: 16
//                                               bytes aligned 16)
//   it<k>             nf_iota_params            each iota: start/step as doubles (re, im), or as
//                                               int64 for integer dtypes; offset; equals (eye)
//                     nf_random_params          a random draw's slot instead: key, counter,
//                                               first, carried half, offset (nf_random.cuh)
//   it<k>_coeffs      nf_dims<ND, long long>    only for broadcast/strided iotas
// nf_dims<N, I> is a struct of N values of I (size N * sizeof(I), aligned as I).
//
// Reduction and scan kernels (kernel_ir::reduction) take `shape` always, then after it
//   reduce             nf_reduce_args            n_out, n_red, partials, arrivals, wide, stages, shifts
//                                                (nf_reduce.cuh)
// and, after the outputs, for scans only
//   out_strides        nf_dims<ND, off>          element strides of every output over the shape
// and, after the scalars, for value folds and scans
//   identity           Acc (by value)            the fold's starting value, of acc_dt
//
// Launch with block_threads threads per block and the grid from launch_dims(); the kernel is a
// grid-stride loop, so any grid size is correct.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "ir/kernel_ir.hpp"
#include "jit/cuda_tuning.hpp"

namespace ndfuse::jit {

inline constexpr int block_threads = 256;
// Resident 256-thread blocks per SM on sm_90 at full occupancy (reductions size their grids by it).
inline constexpr int blocks_per_sm = 8;
// Staged folds (fold_layout::staged) split few outputs over two blocks per SM: each keeps up to
// reduce_stages_max chunks in flight, so two fill the device's memory pipe (an H100 summed 2 GB of
// float64 in 0.639 ms that way, 0.645-0.652 with four to eight smaller blocks per SM;
// research/reduce_bulk.cu).
inline constexpr int staged_blocks_per_sm = 2;
inline constexpr unsigned reduce_stages_max = 4;  // NF_STAGES_MAX in nf_reduce.cuh

// A kernel whose inputs and iotas are all flat moves its flat arrays with 16-byte vector loads and
// stores: each thread takes vector_width() consecutive elements per grid-stride step.
bool vectorized(const tuned_ir& k);
// Elements per thread and step of the vector path: 16 / the largest itemsize among inputs and
// outputs (so that array moves 16 bytes per access). 1 when the kernel is not vectorized.
int vector_width(const tuned_ir& k);
// Below this many elements a vectorized kernel runs its scalar path, one element per thread: the
// vector path's few threads would each compute vector_width() elements in turn, on a fraction of
// the multiprocessors, and a small array is latency-bound (1000 float32 through a 16-op chain: 250
// threads in one block, where one element per thread spreads the work over four).
inline constexpr std::int64_t vector_min_elements = 1 << 17;
// Whether the kernel computes multi-indices from the linear index (and so takes `shape`).
bool needs_multi_index(const tuned_ir& k);

struct launch_config {
  unsigned grid = 1;
  unsigned block = block_threads;
};
// Enough blocks to cover the iteration space once: each thread takes one element (or one vector,
// or 4 elements of a 32 x 32 tile) and exits. A grid capped at one device of resident blocks, each
// looping, measured 7% slower than this on an H100 (2 GB copy-like kernels, scratch experiment);
// the grid-stride loop only matters past max_grid blocks.
//
// Kernels that draw random numbers are the exception: a thread's Philox key schedule and stream
// set-up come before its first element, and a thread that exits after one vector repeats them for
// every two elements, in a kernel bound by instruction issue. They take at most
// random_blocks_per_sm blocks per SM of the device (sm_count), each looping: 2 GB of float64
// uniforms in 0.472 ms against 0.581 with the whole grid, a fill of the same bytes 0.430 (H200,
// research/philox_counter.cu; 16 to 128 blocks per SM within 5% of each other).
inline constexpr std::int64_t max_grid = 0x7fffffff;
inline constexpr std::int64_t random_blocks_per_sm = 32;
launch_config launch_dims(const tuned_ir& k, const shape_t& shape, int sm_count);

enum class param_role : std::uint8_t {
  count,
  shape,
  output,
  input,
  input_strides,
  scalar,
  iota,
  iota_coeffs,
  reduce,
  output_strides,
  identity,
};

struct param_info {
  param_role role;
  int slot = -1;     // output, input, scalar or iota slot
  std::string type;  // C++ type in generated code
  std::string name;  // parameter name in generated code
  std::size_t size = 0;
  std::size_t align = 1;
};
std::vector<param_info> param_layout(const tuned_ir& k);

// Whether iota slot `slot` holds a random draw (an op_code::random reads it) rather than an iota.
bool is_random_slot(const ir::kernel_ir& k, int slot);
// The C++ type of iota slot `slot`'s parameter: nf_iota_params or nf_random_params.
const char* iota_slot_type(const ir::kernel_ir& k, int slot);

// The layout with each parameter's byte offset: a function of the kernel's structure only, so a
// launcher computes it once per compiled kernel instead of on every launch (host overhead).
struct param_plan {
  std::vector<param_info> layout;
  std::vector<std::size_t> offsets;
  std::size_t total_bytes = 0;
  // Reductions: reduce_fold_width and reduce_wide_loads, so a launch need not walk the code.
  int fold_width = 1;
  int lane_outputs = 1;  // reduce_lane_outputs
  bool wide_loads = false;
  std::vector<int> prologue_inputs;  // input slots the folded values read, ascending
  std::size_t stage_bytes = 0;       // staged folds: reduce_stage_bytes
};
param_plan plan_params(const tuned_ir& k);

// Scratch of one reduction launch: partial results and arrival counters (when blocks share outputs).
struct reduce_scratch {
  void* partials = nullptr;
  void* arrivals = nullptr;
  bool wide = false;    // units are read with wide loads (reduce_wide_loads, and aligned inputs)
  unsigned stages = 0;  // staged folds: chunks in flight per block through shared memory (reduce_stages)
  unsigned shifts = 0;  // staged folds: 4 bits per prologue input, its start address mod 16
};

// Parameter values for cuLaunchKernel: data() is its kernelParams (one pointer per parameter into
// storage owned by this object). Movable, not copyable (the pointers point into its own storage).
class kernel_params {
 public:
  kernel_params() = default;
  kernel_params(kernel_params&&) noexcept = default;
  kernel_params& operator=(kernel_params&&) noexcept = default;
  kernel_params(const kernel_params&) = delete;
  kernel_params& operator=(const kernel_params&) = delete;

  // cuLaunchKernel's array: a pointer to each parameter's bytes (made here, so a moved object
  // still points into its own storage).
  void** data() {
    pointers_.resize(offsets_.size());
    for (std::size_t i = 0; i < offsets_.size(); ++i) pointers_[i] = base() + offsets_[i];
    return pointers_.data();
  }
  std::size_t count() const { return offsets_.size(); }
  // The bytes of parameter i (tests and debugging).
  const std::byte* bytes(std::size_t i) const {
    return reinterpret_cast<const std::byte*>(storage_.data()) + offsets_.at(i);
  }

 private:
  friend kernel_params build_params(const tuned_ir& k, const param_plan& plan, const ir::kernel_args& a,
                                    const reduce_scratch& scratch);
  struct alignas(16) chunk {
    std::byte b[16];
  };
  std::byte* base() { return reinterpret_cast<std::byte*>(storage_.data()); }
  // Inline room for a typical kernel's parameters: a launch is on every step's path, and heap
  // blocks per launch would show in a small array's host time.
  boost::container::small_vector<chunk, 16> storage_;
  boost::container::small_vector<std::uint32_t, 16> offsets_;
  boost::container::small_vector<void*, 16> pointers_;
};

// Throws nf::error when the arguments do not fit the kernel (slot counts, ndim, or a stride that a
// 32-bit kernel cannot hold).
kernel_params build_params(const tuned_ir& k, const ir::kernel_args& a, const reduce_scratch& scratch = {});
kernel_params build_params(const tuned_ir& k, const param_plan& plan, const ir::kernel_args& a,
                           const reduce_scratch& scratch = {});

// Reductions: the C++ type of the accumulator in generated code (nf_arg<T> for arg kinds), and
// its size on the device.
std::string reduce_acc_type(const tuned_ir& k);
std::size_t reduce_acc_bytes(const tuned_ir& k);
// The grid and block of a reduction or scan (block.x * block.y == block_threads for reductions).
struct reduce_config {
  unsigned grid_x = 1, grid_y = 1, block_x = block_threads, block_y = 1;
  std::size_t partial_bytes = 0;  // scratch for partial results (grid_y > 1), 0 otherwise
  std::size_t arrival_count = 0;  // counters to zero before the launch
};
// n_red is in units of the kernel's fold: elements, or units (fold_layout::units); n_out in
// outputs (a fold with output units launches one lane per reduce_lane_outputs of them).
reduce_config reduce_dims(const tuned_ir& k, std::int64_t n_out, std::int64_t n_red, int sm_count);
// Whether a unit may be read with one wide load per input, no wider than 16 bytes: units of
// elements when every prologue input is flat; units of outputs (reduce_lane_outputs) when every
// prologue input is read through strides and the prologue has no iota. The launch also needs the
// inputs aligned for it, and for units of outputs a stride of 1 along the innermost kept dim.
bool reduce_wide_loads(const tuned_ir& k);
// The input slots that the fold's prologue reads (not those only its epilogue reads), ascending.
std::vector<int> reduce_prologue_inputs(const tuned_ir& k);
// Bytes of one unit of the fold (reduce_fold_width elements) of input `slot`.
std::size_t reduce_unit_bytes(const tuned_ir& k, int slot);
// Staged folds: the shared-memory bytes of one chunk (reduce_stage_units units) of every
// prologue input, in reduce_prologue_inputs order, each followed by reduce_stage_spare bytes for a
// shifted input (nf_stage_shift); 0 when the bulk copy engine cannot bring them (not
// reduce_wide_loads, no input at all, or not a staged fold).
std::size_t reduce_stage_bytes(const tuned_ir& k);
// A shifted input's copy takes 16 bytes more than its chunk; 128 keep every input's area and every
// stage on a 128-byte boundary.
inline constexpr std::size_t reduce_stage_spare = 128;
// The shifts of that many inputs fit nf_reduce_args::shifts (4 bits each): a fold with more inputs
// is bulk-copied only while those past them are 16-byte aligned.
inline constexpr std::size_t reduce_shifted_inputs_max = 8;
// Chunks in flight per block for a staged launch: up to reduce_stages_max while staged_blocks_per_sm
// blocks fit an SM's shared memory, else two (one block per SM), else 0 (no staging: the fold
// loads from global memory, in the same order).
unsigned reduce_stages(std::size_t stage_bytes, std::size_t shared_per_sm, std::size_t shared_per_block);

}  // namespace ndfuse::jit
