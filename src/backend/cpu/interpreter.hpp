// The kernel-IR interpreter of the CPU backend: a kernel's instructions resolved to typed block
// loops, and the evaluation of a range of instructions over one block of an iteration space.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu/loops.hpp"

namespace ndfuse::backend::cpu {

inline constexpr std::int64_t block_elems = 1024;
// Below this many elements a kernel runs on the calling thread: waking the pool costs more.
inline constexpr std::int64_t parallel_threshold = 1 << 15;

// A user kernel's block function (user_source.hpp): every output of the call over n elements.
using user_block_fn = void (*)(void* const* out, const void* const* in, std::int64_t n);
// A user kernel's operands and outputs, at most (the frontend refuses more parameters).
inline constexpr int max_user_operands = 64;

struct step {
  ir::op_code op;
  block_fn fn = nullptr;
  iota_fn iota = nullptr;
  user_block_fn user = nullptr;
  std::size_t bytes = 0;  // itemsize of the value
  int args[3] = {-1, -1, -1};
  int slot = -1;
  int user_output = 0;  // user: which output of the call this value is
};

class host_module;

struct program final : compiled_kernel {
  std::vector<step> steps;
  std::vector<std::shared_ptr<const host_module>> modules;  // the user kernels' compiled code
  // A reduction whose combine is a user kernel's: its fold and elementwise combine (user_source.hpp).
  void (*user_fold)(void* acc, const void* values, std::int64_t n) = nullptr;
  block_fn user_combine = nullptr;
  int direct_value = -1;        // the last instruction, when it is an op that produces an output
  int direct_output = -1;       // which output it writes straight into
  std::vector<int> prefetched;  // steps loading a flat input in place: the next block is prefetched
};
std::unique_ptr<program> build_program(const ir::kernel_ir& k);

// Walks the multi-index of a collapsed iteration space from a linear position, running along the
// innermost dimension in runs so broadcast and strided reads stay simple loops.
template <class Run>
void walk(const shape_t& shape, std::int64_t begin, std::int64_t n, Run&& run) {
  const int nd = static_cast<int>(shape.size());
  std::int64_t idx[16];
  std::int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
  }
  std::int64_t done = 0;
  while (done < n) {
    std::int64_t len = std::min(n - done, shape[nd - 1] - idx[nd - 1]);
    run(idx, done, len);
    done += len;
    idx[nd - 1] += len;
    for (int d = nd - 1; d > 0 && idx[d] == shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// Per-thread block registers: one aligned slab per SSA value, kept across launches so a small
// kernel does not pay an allocation per value.
struct registers {
  std::vector<char*> slab;
  std::vector<const void*> ptr;
  void reserve(std::size_t values) {
    while (slab.size() < values)
      slab.push_back(static_cast<char*>(::operator new(block_elems * 16, std::align_val_t(64))));
    ptr.resize(values);
  }
  ~registers() {
    for (auto* p : slab) ::operator delete(p, std::align_val_t(64));
  }
};

registers& thread_registers(std::size_t values);

// What a block of instructions reads: the iteration shape, the operands' strides over it, and
// whether flat inputs may be read in place (their offset is the linear position).
struct eval_space {
  const shape_t& shape;
  const std::vector<ir::strided_operand>& inputs;
  const std::vector<ir::iota_params>& iotas;
  bool flat_in_place = true;
};

// Fills the scalar registers of instructions [first, last) with n copies of their values.
void fill_scalars(const program& prog, registers& r, const ir::kernel_args& a, int first, int last,
                  std::int64_t n);
// Runs instructions [first, last) over positions [begin, begin + n) of the space. `reduced` is
// what an op_code::reduced instruction reads (n values). Results stay in r.ptr.
void eval_block(const program& prog, const ir::kernel_ir& k, registers& r, const eval_space& sp, int first,
                int last, std::int64_t begin, std::int64_t n, const void* reduced);

void run_elementwise(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a);
void run_reduction(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a);
void run_scan(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a);

}  // namespace ndfuse::backend::cpu
