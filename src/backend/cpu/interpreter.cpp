// Kernel IR interpreter. A kernel runs block by block: each instruction processes one block of
// values with a typed loop, so per-instruction dispatch is paid once per block, the loops
// vectorize, and a block's values stay in L1/L2. Flat inputs are read in place, so a fused kernel
// reads each input once and writes each output once.
#include "backend/cpu/interpreter.hpp"

#include <cstring>
#include <string>

#include "backend/cpu/host_compiler.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "backend/cpu/user_source.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

template <class T>
void gather_typed(T* dst, const T* base, const std::vector<std::int64_t>& strides, const shape_t& shape,
                  std::int64_t begin, std::int64_t n) {
  const int nd = static_cast<int>(shape.size());
  walk(shape, begin, n, [&](const std::int64_t* idx, std::int64_t at, std::int64_t len) {
    std::int64_t off = 0;
    for (int d = 0; d < nd; ++d) off += idx[d] * strides[d];
    const std::int64_t s = strides[nd - 1];
    const T* src = base + off;
    T* out = dst + at;
    if (s == 0) {
      for (std::int64_t i = 0; i < len; ++i) out[i] = src[0];
    } else {
      for (std::int64_t i = 0; i < len; ++i) out[i] = src[i * s];
    }
  });
}

struct u128 {
  std::uint64_t lo, hi;
};

void gather(void* dst, const ir::strided_operand& in, std::size_t bytes, const shape_t& shape,
            std::int64_t begin, std::int64_t n) {
  const char* base = static_cast<const char*>(in.data) + in.offset * static_cast<std::int64_t>(bytes);
  switch (bytes) {
    case 1:
      gather_typed(static_cast<std::uint8_t*>(dst), reinterpret_cast<const std::uint8_t*>(base), in.strides,
                   shape, begin, n);
      break;
    case 2:
      gather_typed(static_cast<std::uint16_t*>(dst), reinterpret_cast<const std::uint16_t*>(base), in.strides,
                   shape, begin, n);
      break;
    case 4:
      gather_typed(static_cast<std::uint32_t*>(dst), reinterpret_cast<const std::uint32_t*>(base), in.strides,
                   shape, begin, n);
      break;
    case 8:
      gather_typed(static_cast<std::uint64_t*>(dst), reinterpret_cast<const std::uint64_t*>(base), in.strides,
                   shape, begin, n);
      break;
    default:
      gather_typed(static_cast<u128*>(dst), reinterpret_cast<const u128*>(base), in.strides, shape, begin, n);
      break;
  }
}

// A load by address: where the guard (if any) is false the element is zero and its address is
// never touched; a gather adds its extra element offset (if any) per element.
void load_by_address(char* dst, const ir::strided_operand& in, std::size_t bytes, const shape_t& shape,
                     std::int64_t begin, std::int64_t n, const bool* guard, const std::int64_t* extra) {
  const char* base = static_cast<const char*>(in.data);
  const int nd = static_cast<int>(shape.size());
  const auto b = static_cast<std::int64_t>(bytes);
  walk(shape, begin, n, [&](const std::int64_t* idx, std::int64_t at, std::int64_t len) {
    std::int64_t off = in.offset;
    for (int d = 0; d < nd; ++d) off += idx[d] * in.strides[d];
    const std::int64_t s = in.strides[nd - 1];
    for (std::int64_t i = 0; i < len; ++i) {
      char* out = dst + (at + i) * b;
      if (!guard || guard[at + i])
        std::memcpy(out, base + (off + i * s + (extra ? extra[at + i] : 0)) * b, bytes);
      else
        std::memset(out, 0, bytes);
    }
  });
}

void affine_index(std::int64_t* out, const ir::iota_params& p, const shape_t& shape, std::int64_t begin,
                  std::int64_t n) {
  const int nd = static_cast<int>(shape.size());
  walk(shape, begin, n, [&](const std::int64_t* idx, std::int64_t at, std::int64_t len) {
    std::int64_t a = 0;
    for (int d = 0; d < nd; ++d) a += idx[d] * p.coeffs[d];
    const std::int64_t c = p.coeffs[nd - 1];
    for (std::int64_t i = 0; i < len; ++i) out[at + i] = a + i * c;
  });
}

// Fills n copies of a value by doubling memcpys: a scalar register costs log2(n) calls, not n.
void fill_copies(char* dst, const void* value, std::size_t bytes, std::int64_t n) {
  std::memcpy(dst, value, bytes);
  std::int64_t have = 1;
  while (have < n) {
    std::int64_t take = std::min(have, n - have);
    std::memcpy(dst + have * bytes, dst, static_cast<std::size_t>(take) * bytes);
    have += take;
  }
}

}  // namespace

registers& thread_registers(std::size_t values) {
  thread_local registers r;
  r.reserve(values);
  return r;
}

void fill_scalars(const program& prog, registers& r, const ir::kernel_args& a, int first, int last,
                  std::int64_t n) {
  for (int v = first; v < last; ++v) {
    const auto& s = prog.steps[v];
    if (s.op != ir::op_code::scalar) continue;
    fill_copies(r.slab[v], a.scalars[s.slot].bytes, s.bytes, std::min(block_elems, n));
    r.ptr[v] = r.slab[v];
  }
}

namespace {

// The body of eval_block; `direct` (when set) receives the direct_value instruction's results.
void eval_instructions(const program& prog, const ir::kernel_ir& k, registers& r, const eval_space& sp,
                       int first, int last, std::int64_t begin, std::int64_t n, const void* reduced,
                       char* direct) {
  std::int64_t affine[block_elems];
  for (int v = first; v < last; ++v) {
    const auto& s = prog.steps[v];
    switch (s.op) {
      case ir::op_code::scalar:
        break;
      case ir::op_code::reduced:
        r.ptr[v] = reduced;
        break;
      case ir::op_code::buffer: {
        const auto& in = sp.inputs[s.slot];
        if (s.args[0] >= 0 || s.args[1] >= 0) {
          load_by_address(r.slab[v], in, s.bytes, sp.shape, begin, n,
                          s.args[0] >= 0 ? static_cast<const bool*>(r.ptr[s.args[0]]) : nullptr,
                          s.args[1] >= 0 ? static_cast<const std::int64_t*>(r.ptr[s.args[1]]) : nullptr);
          r.ptr[v] = r.slab[v];
        } else if (sp.flat_in_place && k.inputs[s.slot].cls == ir::index_class::flat) {
          r.ptr[v] =
              static_cast<const char*>(in.data) + (in.offset + begin) * static_cast<std::int64_t>(s.bytes);
        } else {
          gather(r.slab[v], in, s.bytes, sp.shape, begin, n);
          r.ptr[v] = r.slab[v];
        }
        break;
      }
      case ir::op_code::iota:
      case ir::op_code::random:
        affine_index(affine, sp.iotas[s.slot], sp.shape, begin, n);
        s.iota(r.slab[v], affine, n, sp.iotas[s.slot]);
        r.ptr[v] = r.slab[v];
        break;
      case ir::op_code::user: {
        // The call computes every output; this value keeps its own, the others go to scratch.
        const ir::user_call& call = k.user_calls[s.slot];
        const void* ins[max_user_operands];
        for (std::size_t j = 0; j < call.operands.size(); ++j) {
          const int v_in = call.operands[j];
          if (v_in >= 0) {
            ins[j] = r.ptr[v_in];
          } else {  // a raw input: the address of its buffer
            const auto& in = sp.inputs[-1 - v_in];
            ins[j] = static_cast<const char*>(in.data) +
                     in.offset * static_cast<std::int64_t>(itemsize(k.inputs[-1 - v_in].dt));
          }
        }
        char* mine = direct && v == prog.direct_value ? direct : r.slab[v];
        thread_local registers scratch;
        scratch.reserve(call.def->out.size());
        void* outs[max_user_operands];
        for (std::size_t o = 0; o < call.def->out.size(); ++o)
          outs[o] = static_cast<int>(o) == s.user_output ? mine : scratch.slab[o];
        s.user(outs, ins, n);
        if (mine == r.slab[v]) r.ptr[v] = mine;
        break;
      }
      default: {
        const void* args[3] = {nullptr, nullptr, nullptr};
        for (int j = 0; j < 3 && s.args[j] >= 0; ++j) args[j] = r.ptr[s.args[j]];
        // The last instruction may write its output in place: nothing reads after it, so even a
        // donated (aliased) input is safe. That saves a pass over the block.
        if (direct && v == prog.direct_value) {
          s.fn(direct, args, n);
        } else {
          s.fn(r.slab[v], args, n);
          r.ptr[v] = r.slab[v];
        }
      }
    }
  }
}

// Asks for the next block of every flat input while the current one computes. A block's loops run
// one after another from L1, so without this no DRAM read is in flight during the arithmetic and
// a fused kernel runs at (read + compute) time instead of the bandwidth limit.
void prefetch_block(const program& prog, const ir::kernel_args& a, std::int64_t begin, std::int64_t n) {
  for (int v : prog.prefetched) {
    const auto& s = prog.steps[v];
    const auto& in = a.inputs[s.slot];
    const char* p =
        static_cast<const char*>(in.data) + (in.offset + begin) * static_cast<std::int64_t>(s.bytes);
    const std::int64_t bytes = n * static_cast<std::int64_t>(s.bytes);
    for (std::int64_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
  }
}

void run_range(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a,
               std::int64_t first_block, std::int64_t last_block) {
  registers& r = thread_registers(prog.steps.size());
  const std::int64_t total = a.size();
  const int count = static_cast<int>(prog.steps.size());
  fill_scalars(prog, r, a, 0, count, total);  // constant over the launch: filled once
  const eval_space sp{a.shape, a.inputs, a.iotas, true};
  for (std::int64_t blk = first_block; blk < last_block; ++blk) {
    const std::int64_t begin = blk * block_elems;
    const std::int64_t n = std::min(block_elems, total - begin);
    char* direct = prog.direct_output < 0
                       ? nullptr
                       : static_cast<char*>(a.outputs[prog.direct_output]) +
                             begin * static_cast<std::int64_t>(prog.steps[prog.direct_value].bytes);
    // One block ahead measured best (2, 4 and 8 ahead were slower: the prefetches evict the
    // block being computed).
    if (blk + 1 < last_block) prefetch_block(prog, a, begin + n, std::min(block_elems, total - begin - n));
    eval_instructions(prog, k, r, sp, 0, count, begin, n, nullptr, direct);
    for (std::size_t o = 0; o < k.outputs.size(); ++o) {
      if (static_cast<int>(o) == prog.direct_output) continue;
      const auto& out = k.outputs[o];
      std::size_t bytes = prog.steps[out.value].bytes;
      std::memcpy(static_cast<char*>(a.outputs[o]) + begin * static_cast<std::int64_t>(bytes),
                  r.ptr[out.value], static_cast<std::size_t>(n) * bytes);
    }
  }
}

}  // namespace

void eval_block(const program& prog, const ir::kernel_ir& k, registers& r, const eval_space& sp, int first,
                int last, std::int64_t begin, std::int64_t n, const void* reduced) {
  eval_instructions(prog, k, r, sp, first, last, begin, n, reduced, nullptr);
}

void run_elementwise(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a) {
  const std::int64_t blocks = (a.size() + block_elems - 1) / block_elems;
  if (a.size() < parallel_threshold) {
    run_range(prog, k, a, 0, blocks);
    return;
  }
  global_pool().parallel_for(blocks,
                             [&](unsigned, std::int64_t b, std::int64_t e) { run_range(prog, k, a, b, e); });
}

std::unique_ptr<program> build_program(const ir::kernel_ir& k) {
  auto prog = std::make_unique<program>();
  for (const auto& in : k.code) {
    step s;
    s.op = in.op;
    s.bytes = itemsize(in.dt);
    s.slot = in.slot;
    std::copy(std::begin(in.args), std::end(in.args), s.args);
    switch (in.op) {
      case ir::op_code::buffer:
      case ir::op_code::scalar:
      case ir::op_code::reduced:
        break;
      case ir::op_code::iota:
        s.iota = iota_loop(in.dt);
        break;
      case ir::op_code::random:
        s.iota = random_loop(in.mode);
        break;
      case ir::op_code::cast:
        s.fn = cast_loop(in.operand_dt, in.dt);
        break;
      case ir::op_code::where:
        s.fn = where_loop(in.dt);
        break;
      case ir::op_code::user: {
        const ir::user_kernel& def = *k.user_calls[in.slot].def;
        auto module = compile_host(host_source(def), host_source_name(def));
        s.user = reinterpret_cast<user_block_fn>(module->symbol(user_block_symbol));
        s.user_output = in.mode;
        prog->modules.push_back(std::move(module));
        break;
      }
      default:
        s.fn = op_loop(in.op, in.operand_dt);
    }
    if (in.op != ir::op_code::buffer && in.op != ir::op_code::scalar && in.op != ir::op_code::reduced &&
        !s.fn && !s.iota && !s.user)
      throw error(std::string("cpu backend: no loop for ") + ir::op_name(in.op) + " on " +
                  std::string(dtype_name(in.operand_dt)));
    if (in.op == ir::op_code::buffer && s.args[0] < 0 && s.args[1] < 0 &&
        k.inputs[in.slot].cls == ir::index_class::flat)
      prog->prefetched.push_back(static_cast<int>(prog->steps.size()));
    prog->steps.push_back(s);
  }
  if (k.reduction && k.reduction->combine == ir::op_code::user) {
    const ir::user_kernel& c = *k.reduction->combine_user;
    auto module = compile_host(host_combine_source(c), host_source_name(c));
    prog->user_fold = reinterpret_cast<decltype(prog->user_fold)>(module->symbol(user_fold_symbol));
    prog->user_combine = reinterpret_cast<block_fn>(module->symbol(user_combine_symbol));
    prog->modules.push_back(std::move(module));
  }
  // Only elementwise kernels write straight from the last instruction; a reduction's outputs come
  // from its epilogue, which runs per output block.
  const int last = static_cast<int>(k.code.size()) - 1;
  const auto last_op = k.code.back().op;
  if (!k.reduction && last_op != ir::op_code::buffer && last_op != ir::op_code::scalar &&
      last_op != ir::op_code::iota && last_op != ir::op_code::random)
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      if (k.outputs[o].value == last) {
        prog->direct_value = last;
        prog->direct_output = static_cast<int>(o);
        break;
      }
  return prog;
}

}  // namespace ndfuse::backend::cpu
