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
  // op_code::buffer: input slot; op_code::scalar: scalar slot; op_code::iota and op_code::random:
  // iota slot (an affine index stream).
  std::int32_t slot = -1;
  // op_code::random: the engine, the form and the residue r of the stream's offset modulo the
  // form's elements per block (random_mode); the kernel is specialized on them. op_code::user: the
  // output of the call (kernel_ir::user_calls[slot]) this instruction reads.
  std::uint8_t mode = 0;
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

// One call of a user kernel: its operands are SSA values, one per user_kernel operand, but for a
// raw input's, which is -1 - s: the address of input slot s (a C-order buffer the kernel gets by
// address, all its strides 0). Each output the kernel reads is an op_code::user instruction naming
// the call.
struct user_call {
  std::shared_ptr<const user_kernel> def;
  std::vector<std::int32_t> operands;
};

struct kernel_output {
  std::int32_t value = -1;  // SSA value written
  dtype dt = dtype::float64;
};

// The shape of a reduction's (kept x reduced) iteration space in memory, which decides how a
// backend walks it.
enum class reduce_strategy : std::uint8_t {
  full,   // nothing kept: one range folds into one output
  inner,  // the reduced dims are innermost in memory: each output folds a row
  outer,  // the kept dims are innermost: neighbouring outputs fold neighbouring columns
  scan,   // cumulative along one axis: every element is an output
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
  // combine == op_code::user: a user kernel's reduce expression over a and b (nf::reduction_kernel).
  std::shared_ptr<const user_kernel> combine_user;
};

struct kernel_ir {
  std::int32_t ndim = 1;  // of the collapsed iteration space
  bool index_64 = false;  // 64-bit indexing needed
  std::vector<kernel_input> inputs;
  std::vector<dtype> scalars;      // runtime scalar parameters
  std::vector<index_class> iotas;  // affine index streams (arange, linspace, eye, random draws)
  std::vector<instr> code;
  std::vector<kernel_output> outputs;  // contiguous, in iteration order (reductions: over kept dims)
  std::optional<kernel_reduction> reduction;
  std::vector<user_call> user_calls;

  // Canonical text of the structure: the cache key. Sizes and scalar values never enter it, only
  // index_64, the one choice made from sizes; a backend adds its own tuning to it (the CUDA
  // backend's: jit/cuda_tuning.hpp).
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
  std::optional<random_stream> random;  // a random draw's slot: its stream (start and step unused)
  // start and step truncated for the integer dtypes, as both backends compute them: out of range
  // gives INT64_MIN, what x86-64's conversion yields (a plain cast would be undefined there).
  std::int64_t start_int() const;
  std::int64_t step_int() const;
};

// An op_code::random instruction's mode: engine, form and the offset's residue r in one byte.
struct random_mode {
  random_engine engine = random_engine::philox4x32;
  random_form form = random_form::unit_double;
  int residue = 0;
  std::uint8_t pack() const {
    return static_cast<std::uint8_t>(static_cast<int>(engine) | static_cast<int>(form) << 1 | residue << 4);
  }
  static random_mode unpack(std::uint8_t m) {
    return {static_cast<random_engine>(m & 1), static_cast<random_form>(m >> 1 & 7), m >> 4};
  }
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
