// The CUDA backend's own choices for one kernel: tiles for transposed reads, and a reduction's fold
// layout (units of 16 bytes, one thread per output, chunks staged through shared memory, lanes of
// neighbouring outputs). The kernel IR is neutral and carries none of them: choose_tuning picks them
// from the IR and the launch's collapsed sizes and strides, here and nowhere else, and a tuned_ir
// (the IR with its tuning) is what the renderer, the kernel ABI and the launcher read. Each choice
// changes the generated code, so the tuning is part of a compiled kernel's key.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/kernel_ir.hpp"

namespace ndfuse::schedule {
struct kernel_step;  // schedule/plan.hpp
}

namespace ndfuse::jit {

// A reduction's fold layout: kernels carry only the code their launch runs (NVRTC took twice as long
// over a kernel with every path as over one with the path it needed). All false is the general
// layout, right for every size.
struct fold_layout {
  bool units = false;         // folds reduce_unit_width() consecutive elements at a time
  bool tail = false;          // units, then the n_red % width elements after the last one (full folds)
  bool per_thread = false;    // one thread per output, no block-level fold: rows or columns too short
  bool staged = false;        // long folds in chunks of reduce_stage_units units (nf_reduce_staged)
  bool output_units = false;  // outer folds: each lane folds reduce_output_width() neighbouring outputs
  // Per-thread folds: the units (or elements) each output folds, a constant of the kernel, so that
  // its loop unrolls into straight loads and combines (2 us of 437 for rows of four float32 on an
  // H100, research/reduce_rows4_hints.cu); at most 15. 0 for every other layout.
  std::int32_t per_thread_n_red = 0;
  bool operator==(const fold_layout&) const = default;
};

struct cuda_tuning {
  // >= 0: an elementwise kernel walks its iteration space in 32 x 32 tiles over (tile_dim, ndim-1),
  // staging its transposed inputs through shared memory.
  std::int32_t tile_dim = -1;
  // Per input: strided with unit stride along tile_dim and not along the last dim (a transposed
  // read), loaded along tile_dim into the tile so that both its loads and the output's stores are
  // coalesced.
  std::vector<bool> transposed;
  fold_layout fold;
  // The tuning in a few bytes, for a compiled kernel's key.
  std::string key() const;
  bool operator==(const cuda_tuning&) const = default;
};

// The kernel IR with the CUDA backend's tuning: what is rendered, compiled and launched.
struct tuned_ir : ir::kernel_ir, cuda_tuning {
  tuned_ir() = default;
  tuned_ir(const ir::kernel_ir& k, cuda_tuning t) : ir::kernel_ir(k), cuda_tuning(std::move(t)) {}
  bool is_transposed(std::size_t input) const { return input < transposed.size() && transposed[input]; }
  std::string key() const { return ir::kernel_ir::key() + cuda_tuning::key(); }
};

// The hook: the tuning of kernel k for a launch over `shape` (collapsed) with each input's element
// strides over it. Deterministic in its arguments, so the fold order follows from the sizes alone.
cuda_tuning choose_tuning(const ir::kernel_ir& k, const shape_t& shape,
                          std::span<const std::vector<std::int64_t>* const> input_strides);
cuda_tuning choose_tuning(const ir::kernel_ir& k, const ir::kernel_args& a);
// A plan step's kernel tuned for the step's own sizes (nf::jit::source, tests).
tuned_ir tuned(const schedule::kernel_step& step);

// Full and inner value folds may fold their reduced elements in units of this many consecutive
// elements (16 bytes of the accumulator dtype), each unit in order. Rows take units when their
// length divides into them; a full fold takes them at any length of one unit or more, and folds the
// elements after the last unit (its tail) after the units: a view such as x[1:] of an even-length x
// has an odd length, and folded element by element it read 10% slower (sum of 2.5e8 float64 on an
// H100: 0.715 against 0.648 ms for x[1:-1]). The width depends on the accumulator alone, never on the
// inputs' dtypes, strides or alignment, so a fused reduction and an eager one over the same sizes
// fold in the same order and give the same bits. 1 for arg reductions, outer folds and scans.
int reduce_unit_width(const ir::kernel_reduction& r);
// Whether outputs whose folds are n_red long (in units when the fold has them) get one thread each:
// fewer than 16 units along a row (inner, full), fewer than 8 down a column (outer). There a block
// could give an output only one lane anyway (reduce_dims), so the block-level fold and its shared
// memory are dead weight: rows of four float32 ran 2% faster without them.
bool reduce_per_thread(ir::reduce_strategy s, std::int64_t n_red);
// The staged fold (nf_reduce_staged): units in chunks of this many, each chunk copied whole into
// shared memory where the launch allows. Chosen for full and inner folds in units that are at least
// two chunks long; the fold order (chunks, then lanes within a chunk) depends on the sizes and the
// device alone, whether or not a chunk is staged.
inline constexpr std::int64_t reduce_stage_units = 1024;
bool reduce_staged(ir::reduce_strategy s, bool units, std::int64_t n_red_units);
// Outer folds may give each lane this many neighbouring outputs (16 bytes of the accumulator, at
// most 4), folded side by side, so that where the inputs allow it one wide load per row brings a
// lane all of them: a column sum of 16384 x 16384 float32 read 0.359 ms on an H100 that way, against
// 0.389 with a 4-byte load per lane (research/reduce_columns.cu). Taken when the innermost kept
// extent divides into them and the fold is not per thread. Each output keeps its own fold, whose
// order the launch shape fixes from the sizes and this width alone (reduce_dims).
int reduce_output_width(const ir::kernel_reduction& r);
// The outputs one lane folds: reduce_output_width when the fold has output units, else 1.
int reduce_lane_outputs(const tuned_ir& k);
// The elements of one unit of this kernel's fold: reduce_unit_width when it has units, else 1.
int reduce_fold_width(const tuned_ir& k);
// The fold layout in words, for generated-code comments: "units of 4 elements, one thread per
// output" and the like.
std::string reduce_layout_name(const tuned_ir& k);

}  // namespace ndfuse::jit
