// Casts, select, iota and random loops, plus the lookup functions of loops.hpp.
#include "backend/cpu/loops_impl.hpp"

namespace ndfuse::backend::cpu {

namespace {

// Casts with NumPy's unsafe-casting rules, through the prelude's nf_cast (the same function generated
// kernels call).
template <dtype From, dtype To>
void cast_block(void* out, const void* const* in, std::int64_t n) {
  using T = prelude_t<To>;
  auto* __restrict o = static_cast<T*>(out);
  auto* __restrict a = static_cast<const prelude_t<From>*>(in[0]);
  for (std::int64_t i = 0; i < n; ++i) o[i] = nf_cast<T>(a[i]);
}

template <dtype D>
void where_block(void* out, const void* const* in, std::int64_t n) {
  using T = ir::storage_t<D>;
  auto* __restrict o = static_cast<T*>(out);
  auto* __restrict c = static_cast<const bool*>(in[0]);
  auto* __restrict a = static_cast<const T*>(in[1]);
  auto* __restrict b = static_cast<const T*>(in[2]);
  for (std::int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
}

// iota value = start + affine * step in the dtype's own arithmetic (NumPy's arange fill), or
// (affine == 0) for eye: the prelude's nf_iota, with its parameters packed as jit/kernel_abi.cpp
// packs them for a kernel.
template <dtype D>
void iota_block(void* out, const std::int64_t* affine, std::int64_t n, const ir::iota_params& p) {
  const nf_iota_params packed{p.start.real(), p.start.imag(), p.step.real(), p.step.imag(),
                              p.start_int(),  p.step_int(),   p.offset,      p.equals ? 1 : 0};
  auto* o = static_cast<prelude_t<D>*>(out);
  for (std::int64_t i = 0; i < n; ++i) o[i] = nf_iota<prelude_t<D>>(packed, affine[i]);
}

// A random draw's elements: the prelude's nf_random, with the stream packed as jit/kernel_abi.cpp
// packs it for a kernel, so both backends give the same bits.
template <int Engine, int Form, int Residue>
void random_block(void* out, const std::int64_t* affine, std::int64_t n, const ir::iota_params& p) {
  const ir::random_stream& r = *p.random;
  const nf_random_params packed{{r.key[0], r.key[1]},
                                {r.ctr[0], r.ctr[1], r.ctr[2], r.ctr[3]},
                                r.first,
                                r.carried,
                                p.offset,
                                r.carries};
  using T = decltype(nf_random<Engine, Form, Residue>(packed, 0));
  auto* o = static_cast<T*>(out);
  if constexpr (Engine == NF_PHILOX4X32) {
    // nf_random in its two halves, each Philox block computed once for the neighbouring elements
    // that share it (a GPU vector loop gets the same from its compiler).
    constexpr int per = nf_random_per_block(Form), shift = per == 4 ? 2 : 1;
    std::uint64_t held = ~std::uint64_t{0};
    nf_u32x4 block{};
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t a = static_cast<std::uint64_t>(affine[i]) + Residue;
      if ((a >> shift) != held) {
        held = a >> shift;
        block = nf_random_block32(packed, held);
      }
      o[i] = nf_random_from_block32<Form>(block, static_cast<int>(a & (per - 1)));
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) o[i] = nf_random<Engine, Form, Residue>(packed, affine[i]);
  }
}

// Indexed by ir::random_mode::pack(): engine (1 bit), form (3 bits), residue (2 bits).
using random_table = std::array<iota_fn, 64>;
template <int Mode>
void fill_random(random_table& t) {
  if constexpr (Mode < 64) {
    constexpr int form = Mode >> 1 & 7;
    if constexpr (form <= NF_NORMAL_FLOAT)
      t[Mode] = &random_block < (Mode & 1) ? NF_PHILOX4X32 : NF_PHILOX4X64, form, (Mode >> 4) > ;
    fill_random<Mode + 1>(t);
  }
}

struct tables {
  op_table ops{};
  std::array<std::array<block_fn, dtype_count>, dtype_count> casts{};
  std::array<block_fn, dtype_count> wheres{};
  std::array<iota_fn, dtype_count> iotas{};
  random_table randoms{};
  tables() {
    fill_random<0>(randoms);
    fill_op_loops_part0(ops);
    fill_op_loops_part1(ops);
    hana::for_each(ir::all_dtypes, [&](auto from) {
      constexpr dtype f = decltype(from)::value;
      wheres[static_cast<int>(f)] = &where_block<f>;
      iotas[static_cast<int>(f)] = &iota_block<f>;
      hana::for_each(ir::all_dtypes, [&](auto to) {
        constexpr dtype t = decltype(to)::value;
        casts[static_cast<int>(f)][static_cast<int>(t)] = &cast_block<f, t>;
      });
    });
  }
};

const tables& all_tables() {
  static const tables t;
  return t;
}

}  // namespace

block_fn op_loop(ir::op_code op, dtype in) {
  return all_tables().ops[static_cast<int>(op)][static_cast<int>(in)];
}
block_fn cast_loop(dtype from, dtype to) {
  return all_tables().casts[static_cast<int>(from)][static_cast<int>(to)];
}
block_fn where_loop(dtype t) {
  return all_tables().wheres[static_cast<int>(t)];
}
iota_fn iota_loop(dtype t) {
  return all_tables().iotas[static_cast<int>(t)];
}
iota_fn random_loop(std::uint8_t mode) {
  return all_tables().randoms[mode & 63];
}

}  // namespace ndfuse::backend::cpu
