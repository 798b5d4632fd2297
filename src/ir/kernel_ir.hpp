// Kernel IR: the contract between the fuser and the backends. A kernel_ir is structure only (it is
// the cache key); kernel_args carries everything that varies between launches of the same kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/node.hpp"
#include "ir/op_code.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

// How an input's element offset follows from the iteration index.
enum class index_class : std::uint8_t {
  flat,       // contiguous in iteration order: offset == linear index
  broadcast,  // contiguous in iteration order except for zero-stride (broadcast) dims
  strided,    // any strides, negative included
  // Strided with unit stride along kernel_ir::tile_dim and not along the last dim (a transposed
  // read): a tiled kernel stages it through shared memory, so that its loads run along tile_dim
  // and the output's stores along the last dim, both coalesced.
  transposed,
};
const char* index_class_name(index_class c);

// One SSA instruction. Values are numbered by their position in kernel_ir::code.
struct instr {
  op_code op = op_code::buffer;
  dtype dt = dtype::float64;          // the dtype of the value this instruction produces
  dtype operand_dt = dtype::float64;  // the dtype the op computes in (its loop's input dtype)
  // Operands. op_code::buffer: args[0] is the guard, a bool value (or -1): where it is false the
  // load does not happen and the value is unspecified (concatenate, pad and x(idx) = v read each
  // piece only inside its region, so an out-of-range view is never dereferenced). args[1] is a
  // gather's extra element offset, an int64 value (or -1), added to the input's strided offset.
  std::int32_t args[3] = {-1, -1, -1};
  // op_code::buffer: input slot; op_code::scalar: scalar slot; op_code::iota: iota slot.
  std::int32_t slot = -1;
  // The input was written by an earlier kernel of the same plan (noted in generated-code comments).
  bool from_earlier_kernel = false;
};

// Names the DAG node an instruction computes, for comments in generated code: op and dtype only,
// so the source stays a function of the cache key (a disk-cache entry serves every size).
struct instr;
std::string instr_origin(const instr& i);

struct kernel_input {
  dtype dt = dtype::float64;
  index_class cls = index_class::flat;
  bool guarded = false;   // some load of it has a guard: the element code gets its address, not its value
  bool gathered = false;  // some load of it adds a data-dependent offset: the element code gets its address
  bool by_address() const { return guarded || gathered; }
};

struct kernel_output {
  std::int32_t value = -1;  // SSA value written
  dtype dt = dtype::float64;
};

// How a reduction kernel maps threads to its (kept x reduced) iteration space.
enum class reduce_strategy : std::uint8_t {
  full,   // nothing kept: every thread of the grid reduces part of one range
  inner,  // the reduced dims are innermost in memory: threads of a block share a row
  outer,  // the kept dims are innermost: neighbouring threads take neighbouring outputs
  scan,   // cumulative: one row of the scanned axis per block, every element written
};
const char* reduce_strategy_name(reduce_strategy s);

// The reduction of a kernel. Its iteration space is (kept dims..., reduced dims...): code before
// epilogue_begin (the prologue) runs once per element and produces `value`; the reduction folds
// `value` over the reduced dims; code from epilogue_begin on runs once per output, starting with an
// op_code::reduced instruction that reads the folded result. A scan has no epilogue: its outputs
// are the running results, one per element.
struct kernel_reduction {
  reduce_kind kind = reduce_kind::value;
  op_code combine = op_code::add;
  dtype acc_dt = dtype::float64;
  reduce_strategy strategy = reduce_strategy::full;
  std::int32_t value = -1;
  std::int32_t kept_ndim = 0;
  std::int32_t epilogue_begin = 0;
  // The fold's layout, chosen from the collapsed sizes when the plan is made (choose_fold_layout in
  // schedule/index_layout.cpp), so that a kernel carries only the code its launch runs: NVRTC took
  // twice as long over a kernel with every path as over one with the path it needed. Both are in
  // the cache key; false, false is the general layout, right for every size.
  bool units = false;       // folds reduce_unit_width() consecutive elements at a time
  bool tail = false;        // units, then the n_red % width elements after the last one (full folds)
  bool per_thread = false;  // one thread per output, no block-level fold: rows or columns too short to share
  bool staged = false;      // long folds in chunks of reduce_stage_units units (nf_reduce_staged)
  bool output_units = false;  // outer folds: each lane folds reduce_output_width() neighbouring outputs
  // Per-thread folds: the units (or elements) each output folds, a constant of the kernel, so that
  // its loop unrolls into straight loads and combines (2 us of 437 for rows of four float32 on an
  // H100, research/reduce_rows4_hints.cu); at most 15, so at most 15 kernels a structure.
  // 0 for every other layout, whose folds read their length from nf_reduce_args.
  std::int32_t per_thread_n_red = 0;
};

// Full and inner value folds may fold their reduced elements in units of this many consecutive
// elements (16 bytes of the accumulator dtype), each unit in order. Rows take units when their
// length divides into them; a full fold takes them at any length of one unit or more, and folds
// the elements after the last unit (its tail, fewer than a unit) after the units: a view such as
// x[1:] of an even-length x has an odd length, and folded element by element it read 10% slower
// (sum of 2.5e8 float64 on an H100: 0.715 against 0.648 ms for x[1:-1]). The width depends on the
// accumulator alone, never on the inputs' dtypes, strides or alignment, so a fused reduction and
// an eager one over the same sizes fold in the same order and give the same bits. 1 for arg
// reductions, outer folds and scans.
int reduce_unit_width(const kernel_reduction& r);
// Whether outputs whose folds are n_red long (in units when the fold has them) get one thread
// each: fewer than 16 units along a row (inner, full), fewer than 8 down a column (outer). There a
// block could give an output only one lane anyway (jit::reduce_dims), so the block-level fold and
// its shared memory are dead weight: rows of four float32 ran 2% faster without them.
bool reduce_per_thread(reduce_strategy s, std::int64_t n_red);
// The staged fold (kernel_reduction::staged, the device's nf_reduce_staged): units in chunks of
// this many, each chunk copied whole into shared memory where the launch allows. Chosen for full
// and inner folds in units that are at least two chunks long; the fold order (chunks, then lanes
// within a chunk) depends on the sizes and the device alone, whether or not a chunk is staged.
inline constexpr std::int64_t reduce_stage_units = 1024;
bool reduce_staged(reduce_strategy s, bool units, std::int64_t n_red_units);
// Outer folds may give each lane this many neighbouring outputs (reduce_output_width: 16 bytes of
// the accumulator, at most 4), folded side by side, so that where the inputs allow it one wide load
// per row brings a lane all of them: a column sum of 16384 x 16384 float32 read 0.359 ms on an H100
// that way, against 0.389 with a 4-byte load per lane (research/reduce_columns.cu). Taken
// when the innermost kept extent divides into them (sizes alone) and the fold is not per thread.
// Each output keeps its own fold, whose order the launch shape fixes from the sizes and this width
// alone (jit::reduce_dims), so it does not depend on whether the units are taken or loaded wide.
int reduce_output_width(const kernel_reduction& r);
// The outputs one lane folds: reduce_output_width when the fold has output units, else 1.
int reduce_lane_outputs(const kernel_reduction& r);
// The elements of one unit of this kernel's fold: reduce_unit_width when it has units, else 1.
int reduce_fold_width(const kernel_reduction& r);
// The fold layout in words, for generated-code comments and explain(): "units of 4 elements, one
// thread per output" and the like.
std::string reduce_layout_name(const kernel_reduction& r);

struct kernel_ir {
  std::int32_t ndim = 1;  // of the collapsed iteration space
  bool index_64 = false;  // 64-bit indexing needed
  std::vector<kernel_input> inputs;
  std::vector<dtype> scalars;      // runtime scalar parameters
  std::vector<index_class> iotas;  // affine index streams (arange, linspace, eye)
  std::vector<instr> code;
  std::vector<kernel_output> outputs;  // contiguous, in iteration order (reductions: over kept dims)
  std::optional<kernel_reduction> reduction;
  // >= 0: an elementwise kernel walks its iteration space in 32 x 32 tiles over (tile_dim, ndim-1),
  // for its index_class::transposed inputs.
  std::int32_t tile_dim = -1;

  // Canonical text of the structure: the cache key. Sizes and scalar values never enter it, only
  // the few choices made from sizes: index_64 and a reduction's fold layout.
  std::string key() const;
};

// A strided view that a kernel reads: element offset of index (i0..in) = offset + sum i_d*strides[d].
struct strided_operand {
  const void* data = nullptr;
  std::int64_t offset = 0;
  std::vector<std::int64_t> strides;
};

struct iota_params {
  std::vector<std::int64_t> coeffs;  // per collapsed dim
  std::int64_t offset = 0;
  std::complex<double> start = 0, step = 0;
  bool equals = false;
  // start and step truncated for the integer dtypes, as both backends compute them: out of range
  // gives INT64_MIN, what x86-64's conversion yields (a plain cast would be undefined there).
  std::int64_t start_int() const;
  std::int64_t step_int() const;
};

// Launch parameters of one kernel.
struct kernel_args {
  shape_t shape;  // collapsed iteration shape (ndim entries)
  std::vector<strided_operand> inputs;
  std::vector<scalar_bits> scalars;
  std::vector<iota_params> iotas;
  std::vector<void*> outputs;
  scalar_bits identity;  // reductions: the fold's starting value, of kernel_reduction::acc_dt
  std::vector<std::int64_t> output_strides;  // scans: output element strides over `shape`
  std::int64_t size() const { return shape_size(shape); }
};

}  // namespace ndfuse::ir
