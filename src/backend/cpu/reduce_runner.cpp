// Reductions and scans on the CPU. The prologue runs block by block as any kernel does; the
// reduced values are folded in a fixed order that does not depend on the thread count (so results
// are bit-identical from run to run): a row is cut into blocks at fixed positions, each block
// folds with eight interleaved lanes, and block results combine pairwise. The epilogue then runs
// over blocks of outputs.
#include <cstring>
#include <memory>

#include "backend/cpu/interpreter.hpp"
#include "backend/cpu/reduce_loops.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

// Rows of the outer (column) strategy folded by one task before its partial joins the tree.
constexpr std::int64_t rows_per_chunk = 256;
// Below this many outputs a column reduction folds rows like the inner strategy: blocks along
// the kept dims would be too short to pay for their dispatch.
constexpr std::int64_t min_outer_outputs = 64;

struct reduction_shape {
  shape_t kept, reduced;
  std::int64_t n_out = 1, n_red = 1;
};

reduction_shape split(const ir::kernel_ir& k, const ir::kernel_args& a) {
  reduction_shape s;
  const int kept = k.reduction->kept_ndim;
  s.kept.assign(a.shape.begin(), a.shape.begin() + kept);
  s.reduced.assign(a.shape.begin() + kept, a.shape.end());
  s.n_out = ir::shape_size(s.kept);
  s.n_red = ir::shape_size(s.reduced);
  return s;
}

void for_tasks(std::int64_t tasks, std::int64_t work,
               const std::function<void(std::int64_t, std::int64_t)>& fn) {
  if (work < parallel_threshold || tasks < 2) {
    fn(0, tasks);
    return;
  }
  global_pool().parallel_for(tasks, [&](unsigned, std::int64_t b, std::int64_t e) { fn(b, e); });
}

// Owned scratch of n items of `bytes` each, 16-byte aligned.
struct scratch {
  std::unique_ptr<char[]> data;
  std::size_t bytes;
  scratch(std::int64_t n, std::size_t item)
      : data(new char[std::max<std::int64_t>(n, 1) * item]), bytes(item) {}
  char* at(std::int64_t i) { return data.get() + i * static_cast<std::int64_t>(bytes); }
};

// The space the prologue walks with the kept and reduced dims swapped (reduced outer): the column
// strategy folds whole rows of outputs at once.
struct swapped_space {
  shape_t shape;
  std::vector<ir::strided_operand> inputs;
  std::vector<ir::iota_params> iotas;
};
swapped_space swap_dims(const ir::kernel_args& a, int kept) {
  auto rotate = [&](const std::vector<std::int64_t>& v) {
    std::vector<std::int64_t> out(v.begin() + kept, v.end());
    out.insert(out.end(), v.begin(), v.begin() + kept);
    return out;
  };
  swapped_space s;
  s.shape = rotate(a.shape);
  s.inputs = a.inputs;
  for (auto& in : s.inputs) in.strides = rotate(in.strides);
  s.iotas = a.iotas;
  for (auto& io : s.iotas) io.coeffs = rotate(io.coeffs);
  return s;
}

// The epilogue's space: the kept dims only (operands' strides along them).
swapped_space kept_space(const ir::kernel_args& a, int kept) {
  auto head = [&](const std::vector<std::int64_t>& v) {
    std::vector<std::int64_t> out(v.begin(), v.begin() + kept);
    if (out.empty()) out.push_back(0);
    return out;
  };
  swapped_space s;
  s.shape.assign(a.shape.begin(), a.shape.begin() + kept);
  if (s.shape.empty()) s.shape.push_back(1);
  s.inputs = a.inputs;
  for (auto& in : s.inputs) in.strides = head(in.strides);
  s.iotas = a.iotas;
  for (auto& io : s.iotas) io.coeffs = head(io.coeffs);
  return s;
}

class reducer {
 public:
  reducer(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a)
      : prog_(prog), k_(k), a_(a), red_(*k.reduction), shape_(split(k, a)) {
    arg_ = ir::is_arg_reduction(red_.kind);
    acc_bytes_ = itemsize(red_.acc_dt);
    if (arg_) {
      arg_fold_ = arg_fold_loop(red_.kind, red_.acc_dt);
      arg_combine_ = arg_combine_loop(red_.kind, red_.acc_dt);
    } else if (red_.combine == ir::op_code::user) {
      fold_ = prog.user_fold;
      combine_ = prog.user_combine;
    } else {
      fold_ = fold_loop(red_.combine, red_.acc_dt);
      combine_ = op_loop(red_.combine, red_.acc_dt);
    }
    if (arg_ ? !arg_fold_ : !fold_ || !combine_)
      throw error(std::string("cpu backend: no reduction loop for ") + ir::op_name(red_.combine) + " on " +
                  std::string(dtype_name(red_.acc_dt)));
  }

  void run() {
    // The folded result per output: accumulator values, or arg indices (int64).
    scratch result(shape_.n_out, arg_ ? sizeof(std::int64_t) : acc_bytes_);
    if (shape_.n_red == 0) {
      for (std::int64_t o = 0; o < shape_.n_out; ++o)
        std::memcpy(result.at(o), a_.identity.bytes, acc_bytes_);
    } else if (!arg_ && red_.strategy == ir::reduce_strategy::outer && shape_.n_out >= min_outer_outputs) {
      fold_columns(result);
    } else {
      fold_rows(result);
    }
    epilogue(result);
  }

 private:
  int prologue_end() const { return red_.epilogue_begin; }

  // Runs the prologue over [begin, begin + n) of `sp`; returns the reduced values.
  const char* prologue(registers& r, const eval_space& sp, std::int64_t begin, std::int64_t n) const {
    eval_block(prog_, k_, r, sp, 0, prologue_end(), begin, n, nullptr);
    return static_cast<const char*>(r.ptr[red_.value]);
  }

  registers& thread_regs() const {
    registers& r = thread_registers(prog_.steps.size());
    fill_scalars(prog_, r, a_, 0, static_cast<int>(prog_.steps.size()), block_elems);
    return r;
  }

  // combine(dst, src) for one accumulator value.
  void combine_into(char* dst, const char* src) const {
    alignas(16) char tmp[16];
    const void* args[3] = {dst, src, nullptr};
    combine_(tmp, args, 1);
    std::memcpy(dst, tmp, acc_bytes_);
  }

  // Inner and full strategies: each output's row is cut into blocks at fixed offsets; short rows
  // share a block.
  void fold_rows(scratch& result) const {
    const std::int64_t n_out = shape_.n_out, n_red = shape_.n_red;
    const eval_space sp{a_.shape, a_.inputs, a_.iotas, true};
    const std::int64_t chunks = (n_red + block_elems - 1) / block_elems;
    if (chunks == 1) {
      const std::int64_t rows = std::max<std::int64_t>(1, block_elems / n_red);
      const std::int64_t tasks = (n_out + rows - 1) / rows;
      for_tasks(tasks, n_out * n_red, [&](std::int64_t t0, std::int64_t t1) {
        registers& r = thread_regs();
        for (std::int64_t t = t0; t < t1; ++t) {
          const std::int64_t o0 = t * rows, count = std::min(rows, n_out - o0);
          const char* v = prologue(r, sp, o0 * n_red, count * n_red);
          for (std::int64_t j = 0; j < count; ++j)
            fold_one(result.at(o0 + j), v + j * n_red * acc_bytes_, n_red, 0);
        }
      });
      return;
    }
    scratch partial(n_out * chunks, arg_ ? sizeof(arg_acc) : acc_bytes_);
    for_tasks(n_out * chunks, n_out * n_red, [&](std::int64_t t0, std::int64_t t1) {
      registers& r = thread_regs();
      for (std::int64_t t = t0; t < t1; ++t) {
        const std::int64_t o = t / chunks, c = t % chunks;
        const std::int64_t first = c * block_elems, n = std::min(block_elems, n_red - first);
        const char* v = prologue(r, sp, o * n_red + first, n);
        if (arg_) {
          auto* acc = new (partial.at(t)) arg_acc();
          arg_fold_(*acc, v, n, first);
        } else {
          fold_(partial.at(t), v, n);
        }
      }
    });
    for_tasks(n_out, n_out * chunks, [&](std::int64_t o0, std::int64_t o1) {
      for (std::int64_t o = o0; o < o1; ++o) {
        char* p = partial.at(o * chunks);
        if (arg_) {
          auto* acc = reinterpret_cast<arg_acc*>(p);
          for (std::int64_t c = 1; c < chunks; ++c) arg_combine_(*acc, acc[c]);
          store_index(result.at(o), acc->index);
          continue;
        }
        for (std::int64_t w = 1; w < chunks; w *= 2)
          for (std::int64_t i = 0; i + w < chunks; i += 2 * w)
            combine_into(p + i * acc_bytes_, p + (i + w) * acc_bytes_);
        std::memcpy(result.at(o), p, acc_bytes_);
      }
    });
  }

  // The nan forms encode an all-NaN winner as an index <= -2 (reduce_loops.cpp): -1 there.
  static void store_index(char* out, std::int64_t index) {
    const std::int64_t v = index < 0 ? -1 : index;
    std::memcpy(out, &v, sizeof v);
  }

  // One output's fold of n values (arg kinds: indices from `first`).
  void fold_one(char* out, const char* values, std::int64_t n, std::int64_t first) const {
    if (arg_) {
      arg_acc acc;
      arg_fold_(acc, values, n, first);
      store_index(out, acc.index);
    } else {
      fold_(out, values, n);
    }
  }

  // Outer strategy: rows of outputs fold elementwise (vectorized combine over a block of outputs),
  // rows_per_chunk rows per task; the chunks' partial rows combine pairwise.
  void fold_columns(scratch& result) const {
    const std::int64_t n_out = shape_.n_out, n_red = shape_.n_red;
    const swapped_space sw = swap_dims(a_, red_.kept_ndim);
    const eval_space sp{sw.shape, sw.inputs, sw.iotas, false};
    const std::int64_t row_chunk = std::max(rows_per_chunk, n_red / 4096);
    const std::int64_t chunks = (n_red + row_chunk - 1) / row_chunk;
    const std::int64_t blocks = (n_out + block_elems - 1) / block_elems;
    scratch partial(chunks * n_out, acc_bytes_);
    for_tasks(chunks * blocks, n_out * n_red, [&](std::int64_t t0, std::int64_t t1) {
      registers& r = thread_regs();
      thread_local std::unique_ptr<char[]> tmp(new char[block_elems * 16]);
      for (std::int64_t t = t0; t < t1; ++t) {
        const std::int64_t c = t / blocks, b = t % blocks;
        const std::int64_t o0 = b * block_elems, n = std::min(block_elems, n_out - o0);
        const std::int64_t r0 = c * row_chunk, r1 = std::min(n_red, r0 + row_chunk);
        char* acc = partial.at(c * n_out + o0);
        std::memcpy(acc, prologue(r, sp, r0 * n_out + o0, n), n * acc_bytes_);
        for (std::int64_t row = r0 + 1; row < r1; ++row) {
          const void* args[3] = {acc, prologue(r, sp, row * n_out + o0, n), nullptr};
          combine_(tmp.get(), args, n);
          std::memcpy(acc, tmp.get(), n * acc_bytes_);
        }
      }
    });
    for_tasks(blocks, n_out * chunks, [&](std::int64_t b0, std::int64_t b1) {
      thread_local std::unique_ptr<char[]> tmp(new char[block_elems * 16]);
      for (std::int64_t b = b0; b < b1; ++b) {
        const std::int64_t o0 = b * block_elems, n = std::min(block_elems, n_out - o0);
        for (std::int64_t w = 1; w < chunks; w *= 2)
          for (std::int64_t i = 0; i + w < chunks; i += 2 * w) {
            char* dst = partial.at(i * n_out + o0);
            const void* args[3] = {dst, partial.at((i + w) * n_out + o0), nullptr};
            combine_(tmp.get(), args, n);
            std::memcpy(dst, tmp.get(), n * acc_bytes_);
          }
        std::memcpy(result.at(o0), partial.at(o0), n * acc_bytes_);
      }
    });
  }

  void epilogue(scratch& result) const {
    const std::int64_t n_out = shape_.n_out;
    const swapped_space ks = kept_space(a_, red_.kept_ndim);
    const eval_space sp{ks.shape, ks.inputs, ks.iotas, false};
    const int first = red_.epilogue_begin, last = static_cast<int>(prog_.steps.size());
    const std::int64_t blocks = (n_out + block_elems - 1) / block_elems;
    for_tasks(blocks, n_out * 8, [&](std::int64_t b0, std::int64_t b1) {
      registers& r = thread_regs();
      for (std::int64_t b = b0; b < b1; ++b) {
        const std::int64_t o0 = b * block_elems, n = std::min(block_elems, n_out - o0);
        eval_block(prog_, k_, r, sp, first, last, o0, n, result.at(o0));
        for (std::size_t o = 0; o < k_.outputs.size(); ++o) {
          const auto& out = k_.outputs[o];
          const std::size_t bytes = prog_.steps[out.value].bytes;
          std::memcpy(static_cast<char*>(a_.outputs[o]) + o0 * static_cast<std::int64_t>(bytes),
                      r.ptr[out.value], static_cast<std::size_t>(n) * bytes);
        }
      }
    });
  }

  const program& prog_;
  const ir::kernel_ir& k_;
  const ir::kernel_args& a_;
  const ir::kernel_reduction& red_;
  reduction_shape shape_;
  bool arg_ = false;
  std::size_t acc_bytes_ = 0;
  fold_fn fold_ = nullptr;
  block_fn combine_ = nullptr;
  arg_fold_fn arg_fold_ = nullptr;
  arg_combine_fn arg_combine_ = nullptr;
};

// Writes n values (of `bytes` each) at the output positions of iteration positions [begin, begin+n).
void scatter(char* out, const char* values, std::size_t bytes, const shape_t& shape,
             const std::vector<std::int64_t>& strides, std::int64_t begin, std::int64_t n) {
  const int nd = static_cast<int>(shape.size());
  walk(shape, begin, n, [&](const std::int64_t* idx, std::int64_t at, std::int64_t len) {
    std::int64_t off = 0;
    for (int d = 0; d < nd; ++d) off += idx[d] * strides[d];
    const std::int64_t s = strides[nd - 1] * static_cast<std::int64_t>(bytes);
    char* dst = out + off * static_cast<std::int64_t>(bytes);
    for (std::int64_t i = 0; i < len; ++i) std::memcpy(dst + i * s, values + (at + i) * bytes, bytes);
  });
}

}  // namespace

void run_reduction(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a) {
  reducer(prog, k, a).run();
}

// Scans run each row in order (NumPy's accumulate order, so float results match it bit for bit),
// rows in parallel.
void run_scan(const program& prog, const ir::kernel_ir& k, const ir::kernel_args& a) {
  const auto& red = *k.reduction;
  const reduction_shape sh = split(k, a);
  const scan_fn fn = scan_loop(red.combine, red.acc_dt);
  if (!fn)
    throw error(std::string("cpu backend: no scan loop for ") + ir::op_name(red.combine) + " on " +
                std::string(dtype_name(red.acc_dt)));
  const eval_space sp{a.shape, a.inputs, a.iotas, true};
  const int count = static_cast<int>(prog.steps.size());
  for_tasks(sh.n_out, sh.n_out * sh.n_red, [&](std::int64_t o0, std::int64_t o1) {
    registers& r = thread_registers(prog.steps.size());
    fill_scalars(prog, r, a, 0, count, block_elems);
    thread_local std::unique_ptr<char[]> running(new char[block_elems * 16]);
    for (std::int64_t o = o0; o < o1; ++o) {
      alignas(16) unsigned char carry[16];
      std::memcpy(carry, a.identity.bytes, sizeof carry);
      for (std::int64_t first = 0; first < sh.n_red; first += block_elems) {
        const std::int64_t n = std::min(block_elems, sh.n_red - first), begin = o * sh.n_red + first;
        eval_block(prog, k, r, sp, 0, red.epilogue_begin, begin, n, nullptr);
        fn(running.get(), r.ptr[red.value], n, carry);
        eval_block(prog, k, r, sp, red.epilogue_begin, count, begin, n, running.get());
        for (std::size_t out = 0; out < k.outputs.size(); ++out) {
          const auto& ko = k.outputs[out];
          scatter(static_cast<char*>(a.outputs[out]), static_cast<const char*>(r.ptr[ko.value]),
                  prog.steps[ko.value].bytes, a.shape, a.output_strides, begin, n);
        }
      }
    }
  });
}

}  // namespace ndfuse::backend::cpu
