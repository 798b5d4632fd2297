// Kernel IR interpreter. A kernel runs block by block: each instruction processes one block of
// values with a typed loop, so per-instruction dispatch is paid once per block, the loops
// vectorize, and a block's values stay in L1/L2. Flat inputs are read in place, so a fused kernel
// reads each input once and writes each output once.
#include "backend/cpu/cpu_backend.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "backend/cpu/loops.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

constexpr std::int64_t block_elems = 1024;
// Below this many elements a kernel runs on the calling thread: waking the pool costs more.
constexpr std::int64_t parallel_threshold = 1 << 15;

struct step {
  ir::op_code op;
  block_fn fn = nullptr;
  iota_fn iota = nullptr;
  std::size_t bytes = 0;  // itemsize of the value
  int args[3] = {-1, -1, -1};
  int slot = -1;
};

struct program final : compiled_kernel {
  std::vector<step> steps;
  int direct_value = -1;   // the last instruction, when it is an op that produces an output
  int direct_output = -1;  // which output it writes straight into
};

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

void run_range(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a,
               std::int64_t first_block, std::int64_t last_block) {
  thread_local registers r;
  r.reserve(prog.steps.size());
  const std::int64_t total = a.size();
  std::int64_t affine[block_elems];
  // Scalars are constant over the launch: fill their registers once.
  for (std::size_t v = 0; v < prog.steps.size(); ++v) {
    const auto& s = prog.steps[v];
    if (s.op != ir::op_code::op_code_scalar) continue;
    fill_copies(r.slab[v], a.scalars[s.slot].bytes, s.bytes, std::min(block_elems, total));
    r.ptr[v] = r.slab[v];
  }
  for (std::int64_t blk = first_block; blk < last_block; ++blk) {
    const std::int64_t begin = blk * block_elems;
    const std::int64_t n = std::min(block_elems, total - begin);
    for (std::size_t v = 0; v < prog.steps.size(); ++v) {
      const auto& s = prog.steps[v];
      switch (s.op) {
        case ir::op_code::op_code_scalar:
          break;
        case ir::op_code::op_code_buffer: {
          const auto& in = a.inputs[s.slot];
          if (k.inputs[s.slot].cls == ir::index_class::index_class_flat) {
            r.ptr[v] =
                static_cast<const char*>(in.data) + (in.offset + begin) * static_cast<std::int64_t>(s.bytes);
          } else {
            gather(r.slab[v], in, s.bytes, a.shape, begin, n);
            r.ptr[v] = r.slab[v];
          }
          break;
        }
        case ir::op_code::op_code_iota:
          affine_index(affine, a.iotas[s.slot], a.shape, begin, n);
          s.iota(r.slab[v], affine, n, a.iotas[s.slot]);
          r.ptr[v] = r.slab[v];
          break;
        default: {
          const void* args[3] = {nullptr, nullptr, nullptr};
          for (int j = 0; j < 3 && s.args[j] >= 0; ++j) args[j] = r.ptr[s.args[j]];
          // The last instruction may write its output in place: nothing reads after it, so even a
          // donated (aliased) input is safe. That saves a pass over the block.
          if (static_cast<int>(v) == prog.direct_value) {
            s.fn(static_cast<char*>(a.outputs[prog.direct_output]) +
                     begin * static_cast<std::int64_t>(s.bytes),
                 args, n);
          } else {
            s.fn(r.slab[v], args, n);
            r.ptr[v] = r.slab[v];
          }
        }
      }
    }
    for (std::size_t o = 0; o < k.outputs.size(); ++o) {
      if (static_cast<int>(o) == prog.direct_output) continue;
      const auto& out = k.outputs[o];
      std::size_t bytes = prog.steps[out.value].bytes;
      std::memcpy(static_cast<char*>(a.outputs[o]) + begin * static_cast<std::int64_t>(bytes),
                  r.ptr[out.value], static_cast<std::size_t>(n) * bytes);
    }
  }
}

class cpu_backend final : public device_backend {
 public:
  std::string_view name() const override { return "cpu"; }

  // Freed buffers are kept for reuse by size (as CuPy's pool does): a fresh allocation of a big
  // buffer costs a page fault per 4 KiB, which would dominate eager chains.
  void* allocate(std::size_t nbytes) override {
    {
      std::lock_guard lock(pool_mutex_);
      auto it = pool_.find(nbytes);
      if (it != pool_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        pooled_bytes_ -= nbytes;
        return p;
      }
    }
    void* p = ::operator new(nbytes, std::align_val_t(64), std::nothrow);
    if (!p) {
      release_pool();
      p = ::operator new(nbytes, std::align_val_t(64), std::nothrow);
    }
    if (!p) throw out_of_memory("cpu backend: cannot allocate " + std::to_string(nbytes) + " bytes");
    return p;
  }
  void deallocate(void* p, std::size_t nbytes) override {
    {
      std::lock_guard lock(pool_mutex_);
      if (pooled_bytes_ + nbytes <= pool_limit_bytes) {
        pool_[nbytes].push_back(p);
        pooled_bytes_ += nbytes;
        return;
      }
    }
    ::operator delete(p, std::align_val_t(64));
  }
  ~cpu_backend() override { release_pool(); }
  void copy_from_host(void* dst, const void* src, std::size_t n) override { std::memcpy(dst, src, n); }
  void copy_to_host(void* dst, const void* src, std::size_t n) override { std::memcpy(dst, src, n); }
  void synchronize() override {}

  std::unique_ptr<compiled_kernel> compile(const ir::kernel_ir& k) override {
    auto prog = std::make_unique<program>();
    for (const auto& in : k.code) {
      step s;
      s.op = in.op;
      s.bytes = itemsize(in.dt);
      s.slot = in.slot;
      std::copy(std::begin(in.args), std::end(in.args), s.args);
      switch (in.op) {
        case ir::op_code::op_code_buffer:
        case ir::op_code::op_code_scalar:
          break;
        case ir::op_code::op_code_iota:
          s.iota = iota_loop(in.dt);
          break;
        case ir::op_code::op_code_cast:
          s.fn = cast_loop(in.operand_dt, in.dt);
          break;
        case ir::op_code::op_code_where:
          s.fn = where_loop(in.dt);
          break;
        default:
          s.fn = op_loop(in.op, in.operand_dt);
      }
      if (in.op != ir::op_code::op_code_buffer && in.op != ir::op_code::op_code_scalar && !s.fn && !s.iota)
        throw error(std::string("cpu backend: no loop for ") + ir::op_name(in.op) + " on " +
                    std::string(dtype_name(in.operand_dt)));
      prog->steps.push_back(s);
    }
    const int last = static_cast<int>(k.code.size()) - 1;
    const auto last_op = k.code.back().op;
    if (last_op != ir::op_code::op_code_buffer && last_op != ir::op_code::op_code_scalar &&
        last_op != ir::op_code::op_code_iota)
      for (std::size_t o = 0; o < k.outputs.size(); ++o)
        if (k.outputs[o].value == last) {
          prog->direct_value = last;
          prog->direct_output = static_cast<int>(o);
          break;
        }
    return prog;
  }

  void launch(const compiled_kernel& ck, const ir::kernel_ir& k, const ir::kernel_args& a) override {
    const auto& prog = static_cast<const program&>(ck);
    const std::int64_t blocks = (a.size() + block_elems - 1) / block_elems;
    if (a.size() < parallel_threshold) {
      run_range(prog, k, a, 0, blocks);
      return;
    }
    global_pool().parallel_for(
        blocks, [&](unsigned, std::int64_t b, std::int64_t e) { run_range(prog, k, a, b, e); });
  }

 private:
  static constexpr std::size_t pool_limit_bytes = std::size_t(4) << 30;
  void release_pool() {
    std::lock_guard lock(pool_mutex_);
    for (auto& [size, list] : pool_)
      for (void* p : list) ::operator delete(p, std::align_val_t(64));
    pool_.clear();
    pooled_bytes_ = 0;
  }
  std::mutex pool_mutex_;
  std::unordered_map<std::size_t, std::vector<void*>> pool_;
  std::size_t pooled_bytes_ = 0;
};

}  // namespace

std::unique_ptr<device_backend> make_backend() {
  return std::make_unique<cpu_backend>();
}

}  // namespace ndfuse::backend::cpu
