// ndfuse device prelude: the reduction and scan drivers that generated reduction kernels call.
// A generated kernel supplies `element(o, r)` (its fused prologue: the value of reduced element r
// of output o), `finish(o, acc)` (its epilogue: writes output o) and a combine functor; these
// templates own the thread mapping and the fold order.
//
// Determinism: every fold happens in an order fixed by the launch shape (which depends only on
// the sizes and the device), with no floating-point atomics. When several blocks share an output,
// each publishes its partial result, and the last block to arrive (an integer atomic counter)
// folds the partials in block order and runs the epilogue: one launch, same bits on every run.
#ifndef NF_REDUCE_CUH
#define NF_REDUCE_CUH
#include "nf_arith.cuh"
#include "nf_compare.cuh"
#include "nf_types.cuh"

// Launch parameters of a reduction (host mirror: jit/kernel_abi.cpp).
struct nf_reduce_args {
  unsigned long long n_out;  // outputs: the product of the kept dims
  unsigned long long n_red;  // elements folded into each output
  void* partials;            // gridDim.y > 1: gridDim.y * n_out partial results
  unsigned* arrivals;        // gridDim.y > 1: one zeroed counter per block column
  unsigned wide;             // 1: a unit of each input is one wide load (the host checked alignment)
  unsigned stages;           // staged folds: chunks in flight per block through shared memory; 0: loads
  unsigned shifts;           // staged folds: 4 bits per staged input, its rows' start address mod 16
};

// A staged input's shift (nf_reduce_args::shifts): the bytes its chunks start past a 16-byte
// boundary. A view such as x[1:] copies the 16-byte-aligned span around each chunk (16 bytes more
// than the chunk, never past an aligned block that holds one of its bytes, so never past its
// allocation's pages) and reads its elements `shift` bytes into it.
__device__ __forceinline__ unsigned nf_stage_shift(const nf_reduce_args& p, unsigned input) {
  return (p.shifts >> (4 * input)) & 15u;
}

// The staged fold (jit::fold_layout::staged; host mirror jit::reduce_stage_units): each output's
// units are taken in chunks of NF_STAGE_UNITS, block y of gridDim.y folding chunks y, y + gridDim.y,
// ..., then the units after the last whole chunk. Where the host allows it (every input flat, each
// output's units starting at the same address mod 16, sm_90 or newer), the bulk copy engine brings
// chunks into a ring of `stages` shared-memory buffers ahead of the fold: on an H100 a full float64
// sum of 2 GB read 3.13 TB/s that way, against 3.04 with loads into registers and 3.06 for CUB
// (research/reduce_bulk.cu).
#define NF_STAGE_UNITS 1024
#define NF_STAGES_MAX 4

// The complex product fold. NumPy starts a product from the first element, while this fold starts
// lanes and empty parts from the identity 1+0j; multiplying that in is not exact for infinities
// ((-inf+0j) * (1+0j) has imaginary part -inf*0 = NaN), so a factor equal to the identity is
// skipped instead.
template <class T>
__device__ __forceinline__ T nf_prod_fold(T a, T b) {
  if (b.re == 1 && b.im == 0) return a;
  if (a.re == 1 && a.im == 0) return b;
  return nf_multiply(a, b);
}

// --- Arg reductions: the value and its index travel together -------------------------------------
template <class T>
struct nf_arg {
  T value;
  long long index;  // -1: nothing taken (an empty part, or only NaNs for the nan forms)
};

// Whether a beats b (both taken), NumPy's rules: the first NaN wins argmin/argmax; nanargmin and
// nanargmax never take a NaN, so their values here are never NaN.
template <class T, bool Max>
__device__ __forceinline__ bool nf_arg_beats(T a, T b) {
  const bool an = nf_isnan(a), bn = nf_isnan(b);
  if (an || bn) return an && !bn;
  return Max ? nf_less(b, a) : nf_less(a, b);
}

// The winner of two partial results; ties (and two NaNs) go to the smaller index, so the fold
// order never changes which index is returned.
template <class T, bool Max>
struct nf_arg_combine {
  __device__ __forceinline__ nf_arg<T> operator()(const nf_arg<T>& a, const nf_arg<T>& b) const {
    if (b.index < 0) return a;
    if (a.index < 0) return b;
    if (nf_arg_beats<T, Max>(b.value, a.value)) return b;
    if (nf_arg_beats<T, Max>(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
};

// The drivers below use shared memory and block barriers: device compilation only (the CPU backend,
// which compiles the prelude as host C++, sees the element-level pieces above).
#if defined(__CUDACC__)

// nanargmin / nanargmax: NaN counts as +inf / -inf (NumPy's _replace_nan), so it wins only a tie by
// coming first; and whether any non-NaN value was seen travels in the index's sign: index >= 0 yes,
// index <= -2 no (position -index - 2), -1 nothing taken. An all-NaN slice then finishes as -1.
template <class T, bool Max>
__device__ __forceinline__ nf_arg<T> nf_nanarg_element(T v, long long r) {
  const double inf = __longlong_as_double(0x7ff0000000000000ll);
  if (nf_isnan(v)) return nf_arg<T>{nf_cast<T>(Max ? -inf : inf), -r - 2};
  return nf_arg<T>{v, r};
}
template <class T, bool Max>
struct nf_nanarg_combine {
  __device__ __forceinline__ nf_arg<T> operator()(const nf_arg<T>& a, const nf_arg<T>& b) const {
    if (b.index == -1) return a;
    if (a.index == -1) return b;
    const bool real = a.index >= 0 || b.index >= 0;
    const long long pa = a.index >= 0 ? a.index : -a.index - 2;
    const long long pb = b.index >= 0 ? b.index : -b.index - 2;
    const bool take_b = (Max ? nf_less(a.value, b.value) : nf_less(b.value, a.value)) ||
                        (!nf_less(a.value, b.value) && !nf_less(b.value, a.value) && pb < pa);
    const long long p = take_b ? pb : pa;
    return nf_arg<T>{take_b ? b.value : a.value, real ? p : -p - 2};
  }
};
__device__ __forceinline__ long long nf_arg_result(long long index) {
  return index < 0 ? -1 : index;
}

// Outer folds with output units (jit::fold_layout::output_units): a lane folds N neighbouring
// outputs side by side, as one nf_vec accumulator through the same driver; each output's fold stays
// its own (lane l of a unit only ever meets lane l of another).
template <class Combine>
struct nf_lanes_combine {
  Combine combine;
  template <class T, int N>
  __device__ __forceinline__ nf_vec<T, N> operator()(const nf_vec<T, N>& a, const nf_vec<T, N>& b) const {
    nf_vec<T, N> r;
    NF_UNROLL
    for (int l = 0; l < N; ++l) r.v[l] = combine(a.v[l], b.v[l]);
    return r;
  }
};
template <int N, class T>
__device__ __forceinline__ nf_vec<T, N> nf_splat(const T x) {
  nf_vec<T, N> r;
  NF_UNROLL
  for (int l = 0; l < N; ++l) r.v[l] = x;
  return r;
}

// The tail argument of a fold without one: its drivers then carry no tail loop.
struct nf_no_tail {};
template <class Tail>
inline constexpr bool nf_has_tail = true;
template <>
inline constexpr bool nf_has_tail<nf_no_tail> = false;

// --- Block-level fold ---------------------------------------------------------------------------
// Folds the r_lanes values of each output across the block through shared memory, pairing lane i
// with lane i + s for s = r_lanes/2, ..., 1 (a fixed tree). The result is valid at r_lane 0.
template <class Acc, class Combine>
__device__ __forceinline__ Acc nf_block_fold(Acc* sh, Acc v, unsigned tid, unsigned r_lane, unsigned r_lanes,
                                             unsigned lane_distance, const Combine& combine) {
  sh[tid] = v;
  __syncthreads();
  for (unsigned s = r_lanes / 2; s > 0; s >>= 1) {
    if (r_lane < s) sh[tid] = combine(sh[tid], sh[tid + s * lane_distance]);
    __syncthreads();
  }
  v = sh[tid];
  __syncthreads();  // the next fold reuses sh
  return v;
}

// Reads a partial written by another block in this launch: through L2, never a stale L1 line.
template <class T>
__device__ __forceinline__ T nf_load_partial(const T* p) {
  T out;
  if constexpr (sizeof(T) % 4 == 0) {
    const unsigned* src = reinterpret_cast<const unsigned*>(p);
    unsigned* dst = reinterpret_cast<unsigned*>(&out);
    NF_UNROLL
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) dst[i] = __ldcg(src + i);
  } else if constexpr (sizeof(T) == 2) {
    *reinterpret_cast<unsigned short*>(&out) = __ldcg(reinterpret_cast<const unsigned short*>(p));
  } else {
    static_assert(sizeof(T) == 1, "partials are 1, 2 or a multiple of 4 bytes");
    *reinterpret_cast<unsigned char*>(&out) = __ldcg(reinterpret_cast<const unsigned char*>(p));
  }
  return out;
}

// Folds into acc the elements r, r + r_stride, ... of output o, `N` at a time with their loads
// issued together, while N more remain; r is left at the first element not folded.
template <int N, class Acc, class Idx, class Combine, class Element>
__device__ __forceinline__ void nf_fold_in_flight(Acc& acc, Idx& r, const Idx r_stride, const Idx n_red,
                                                  const Idx o, const Combine& combine,
                                                  const Element& element) {
  for (; r + (N - 1) * r_stride < n_red; r += N * r_stride) {
    Acc x[N];
    NF_UNROLL
    for (int k = 0; k < N; ++k) x[k] = element(o, r + k * r_stride);
    NF_UNROLL
    for (int k = 0; k < N; ++k) acc = combine(acc, x[k]);
  }
}

// The end of one output's fold, for every lane of the block (acc: this lane's part, o: its
// output, possibly past n_out): across the block's lanes, then, when gridDim.y blocks share the
// output, through the partials, where the last block to arrive folds them in block order and runs
// the epilogue. Contains block barriers: every thread of the block calls it.
template <class Acc, class Idx, class Combine, class Finish>
__device__ __forceinline__ void nf_reduce_output(const nf_reduce_args& p, Acc* sh, bool& last_block, Acc acc,
                                                 const Idx o, const Acc identity, unsigned tid,
                                                 unsigned r_lane, unsigned r_lanes, unsigned lane_distance,
                                                 const Combine& combine, const Finish& finish) {
  const Idx n_out = (Idx)p.n_out;
  // One lane per output (short rows): nothing to fold across the block, and no barrier.
  if (r_lanes > 1) acc = nf_block_fold(sh, acc, tid, r_lane, r_lanes, lane_distance, combine);
  if (gridDim.y == 1) {
    if (r_lane == 0 && o < n_out) finish(o, acc);
    return;
  }
  // Several blocks share these outputs (the host then makes blockIdx.x cover each output once).
  Acc* partials = static_cast<Acc*>(p.partials);
  if (r_lane == 0 && o < n_out) partials[(Idx)blockIdx.y * n_out + o] = acc;
  __threadfence();
  __syncthreads();
  if (tid == 0) last_block = atomicAdd(p.arrivals + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  acc = identity;
  if (o < n_out)
    for (unsigned y = r_lane; y < gridDim.y; y += r_lanes)
      acc = combine(acc, nf_load_partial(partials + (Idx)y * n_out + o));
  if (r_lanes > 1) acc = nf_block_fold(sh, acc, tid, r_lane, r_lanes, lane_distance, combine);
  if (r_lane == 0 && o < n_out) finish(o, acc);
  if (tid == 0) p.arrivals[blockIdx.x] = 0;  // zeroed again for the next launch
}

// The reduction driver. Threads form a (r lanes x o lanes) tile: Inner puts threadIdx.x along the
// reduced index (a block shares rows whose elements are contiguous), Outer puts it along the
// outputs (a warp reads 32 neighbouring outputs, walking down their columns together). blockIdx.x
// walks the outputs; gridDim.y blocks split each output's elements.
// A fold with a tail (jit::fold_layout::tail) passes n_tail and `tail(o, e)`, the e-th element after
// the last unit: lane e of block 0 folds it after its units.
template <class Acc, class Idx, bool Inner, class Combine, class Element, class Finish,
          class Tail = nf_no_tail>
__device__ __forceinline__ void nf_reduce(const nf_reduce_args& p, const Acc identity, const Combine& combine,
                                          const Element& element, const Finish& finish, const Idx n_tail = 0,
                                          const Tail& tail = Tail()) {
  __shared__ __align__(16) unsigned char raw[256 * sizeof(Acc)];
  __shared__ bool last_block;
  Acc* sh = reinterpret_cast<Acc*>(raw);
  const unsigned r_lanes = Inner ? blockDim.x : blockDim.y;
  const unsigned o_lanes = Inner ? blockDim.y : blockDim.x;
  const unsigned r_lane = Inner ? threadIdx.x : threadIdx.y;
  const unsigned o_lane = Inner ? threadIdx.y : threadIdx.x;
  const unsigned lane_distance = Inner ? 1u : blockDim.x;
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  const Idx n_out = (Idx)p.n_out, n_red = (Idx)p.n_red;
  const Idx r_stride = (Idx)gridDim.y * r_lanes;
  for (Idx base = (Idx)blockIdx.x * o_lanes; base < n_out; base += (Idx)gridDim.x * o_lanes) {
    const Idx o = base + o_lane;
    Acc acc = identity;
    if (o < n_out) {
      Idx r = (Idx)blockIdx.y * r_lanes + r_lane;
      // Eight loads in flight per thread before their combines (a column reduction's warp reads
      // one 128-byte line per load, so fewer leave HBM idle), then four, so that a short fold
      // (4 to 7 elements per thread) still issues its loads together. Accumulators wider than 8
      // bytes (complex128, arg pairs, a lane's outputs side by side) start at four: their loads
      // are wide already, and eight doubled the registers of var's column pass over float32 in
      // units of four outputs. The combine order is fixed: each element in turn, as in the
      // one-at-a-time loop below. With 32-bit indices n_red < 2^31, so r + 7 * r_stride cannot wrap.
      nf_fold_in_flight<(sizeof(Acc) > 8 ? 4 : 8)>(acc, r, r_stride, n_red, o, combine, element);
      nf_fold_in_flight<4>(acc, r, r_stride, n_red, o, combine, element);
      for (; r < n_red; r += r_stride) acc = combine(acc, element(o, r));
      if constexpr (nf_has_tail<Tail>)
        for (Idx e = (Idx)blockIdx.y * r_lanes + r_lane; e < n_tail; e += r_stride)
          acc = combine(acc, tail(o, e));
    }
    nf_reduce_output(p, sh, last_block, acc, o, identity, tid, r_lane, r_lanes, lane_distance, combine,
                     finish);
  }
}

// --- The bulk copy engine (sm_90): copies complete on an mbarrier, counted in bytes -------------
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define NF_BULK_COPY 1
__device__ __forceinline__ unsigned nf_smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
// Arms the barrier of a stage for `bytes` of copies (the producer's arrival).
__device__ __forceinline__ void nf_bulk_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(nf_smem_address(bar)),
               "r"(bytes)
               : "memory");
}
// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global memory into shared memory.
__device__ __forceinline__ void nf_bulk_copy(void* dst, const void* src, unsigned bytes,
                                             unsigned long long* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
          nf_smem_address(dst)),
      "l"(src), "r"(bytes), "r"(nf_smem_address(bar))
      : "memory");
}
__device__ __forceinline__ void nf_bulk_wait(unsigned long long* bar, unsigned parity) {
  asm volatile(
      "{\n"
      "  .reg .pred done;\n"
      "nf_bulk_wait_again:\n"
      "  mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "  @!done bra nf_bulk_wait_again;\n"
      "}\n" ::"r"(nf_smem_address(bar)),
      "r"(parity)
      : "memory");
}
#else
#define NF_BULK_COPY 0
// Older GPUs: the host never asks for stages there (nf_reduce_args::stages == 0).
__device__ __forceinline__ void nf_bulk_expect(unsigned long long*, unsigned) {}
__device__ __forceinline__ void nf_bulk_copy(void*, const void*, unsigned, unsigned long long*) {}
#endif
// The bytes a shifted input's copy takes beyond its chunk (nf_stage_shift): the aligned span's 16.
__device__ __forceinline__ unsigned nf_stage_spare(unsigned shift) {
  return shift ? 16u : 0u;
}
// The chunk of `bytes` at src, which lies `shift` bytes past a 16-byte boundary, into dst as the
// aligned span around it.
__device__ __forceinline__ void nf_bulk_copy_shifted(void* dst, const void* src, unsigned bytes,
                                                     unsigned shift, unsigned long long* bar) {
  nf_bulk_copy(dst, static_cast<const unsigned char*>(src) - shift, bytes + nf_stage_spare(shift), bar);
}
// Unit j of a staged chunk, from its input's area of the stage: one wide load, or, in the loop of a
// launch with a shifted input (`shifted`, a constant in each of the driver's two inlined copies of
// its chunk loop), N element loads `shift` bytes in. The choice is the loop's, not the unit's: a
// select between both loads may issue both (a per-unit choice, with 16-byte stage padding, made
// every staged row 3-6% slower on an H100; bench/README.md).
template <int N, class T>
__device__ __forceinline__ nf_vec<T, N> nf_load_staged(const unsigned char* area, unsigned shift, unsigned j,
                                                       bool shifted) {
  if (shifted) return nf_load_elements<N>(reinterpret_cast<const T*>(area + shift) + j * N);
  return nf_load_vec<N>(reinterpret_cast<const T*>(area) + j * N);
}

// The copy and staged-unit arguments of a staged fold whose inputs cannot be copied (never called).
struct nf_unstaged {
  template <class... A>
  __device__ int operator()(A...) const {
    return 0;
  }
};

// The staged driver: one output at a time per block (blockDim.x == 256 lanes along its units,
// blockDim.y == 1), outputs blockIdx.x, blockIdx.x + gridDim.x, ...; see NF_STAGE_UNITS for the
// chunks. Lane t folds units t, t + 256, t + 512, t + 768 of each chunk, chunk after chunk, then
// the units after the last whole chunk, then (n_tail, as in nf_reduce) the elements after the last
// unit: the order is the same whether chunks come through shared memory or straight from global
// memory, so the bits never depend on alignment. `unit(o, u)` loads unit u of output o;
// `copy(stage, bar, o, u)` starts the bulk copies of the chunk at unit u into a stage buffer;
// `staged(stage, o, u, j, shifted)` is unit u (= the chunk's first + j) read from there. StageBytes: one
// chunk of every input, 0 when some input cannot be copied (the kernel then only loads).
template <class Acc, class Idx, unsigned StageBytes, class Combine, class Unit, class Copy, class Staged,
          class Finish, class Tail = nf_no_tail>
__device__ __forceinline__ void nf_reduce_staged(const nf_reduce_args& p, const Acc identity,
                                                 const Combine& combine, const Unit& unit, const Copy& copy,
                                                 const Staged& staged, const Finish& finish,
                                                 const Idx n_tail = 0, const Tail& tail = Tail()) {
  __shared__ __align__(16) unsigned char raw[256 * sizeof(Acc)];
  __shared__ bool last_block;
  __shared__ unsigned long long full[NF_STAGES_MAX];  // one mbarrier per stage
  extern __shared__ __align__(128) unsigned char nf_ring[];
  Acc* sh = reinterpret_cast<Acc*>(raw);
  constexpr unsigned per_lane = NF_STAGE_UNITS / 256;
  const unsigned t = threadIdx.x;
  const Idx n_out = (Idx)p.n_out, n_red = (Idx)p.n_red;
  const Idx chunks = n_red / NF_STAGE_UNITS, y = (Idx)blockIdx.y, ys = (Idx)gridDim.y;
  const Idx mine = chunks > y ? (chunks - y + ys - 1) / ys : 0;  // chunks of each output in this block
  const unsigned stages = NF_BULK_COPY && StageBytes > 0 ? p.stages : 0;
  // The producer (lane 0) runs `stages` chunks ahead of the fold, across outputs: its cursor.
  Idx next_o = blockIdx.x, next_c = 0;
  auto issue = [&](unsigned s) {
    if (next_o >= n_out || mine == 0) return;
    copy(nf_ring + s * StageBytes, &full[s], next_o, (y + next_c * ys) * NF_STAGE_UNITS);
    if (++next_c == mine) next_c = 0, next_o += gridDim.x;
  };
#if NF_BULK_COPY
  if (stages) {
    if (t == 0) {
      for (unsigned s = 0; s < stages; ++s)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(nf_smem_address(&full[s])));
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (t == 0)
      for (unsigned s = 0; s < stages; ++s) issue(s);
  }
#endif
  unsigned long long taken = 0;  // chunks consumed so far: the stage and its phase
  for (Idx o = blockIdx.x; o < n_out; o += gridDim.x) {
    Acc acc = identity;
    Idx c = 0;  // this block's chunks of output o, in order
#if NF_BULK_COPY
    if constexpr (StageBytes > 0) {
      // Two copies of the loop: wide loads from the stages, or element loads where some input's
      // chunks are shifted (nf_stage_shift), so the aligned loop carries no per-unit choice.
      auto fold_stages = [&](const bool shifted) {
        for (; stages && c < mine; ++c) {
          const unsigned s = unsigned(taken % stages);
          nf_bulk_wait(&full[s], unsigned(taken / stages) & 1u);
          ++taken;
          const unsigned char* stage = nf_ring + s * StageBytes;
          const Idx u0 = (y + c * ys) * NF_STAGE_UNITS;
          Acc x[per_lane];
          NF_UNROLL
          for (unsigned k = 0; k < per_lane; ++k)
            x[k] = staged(stage, o, u0 + k * 256 + t, k * 256 + t, shifted);
          NF_UNROLL
          for (unsigned k = 0; k < per_lane; ++k) acc = combine(acc, x[k]);
          __syncthreads();  // every lane is done with stage s before lane 0 refills it
          if (t == 0) issue(s);
        }
      };
      if (p.shifts)
        fold_stages(true);
      else
        fold_stages(false);
    }
#endif
    // Without stages: two chunks' loads in flight per lane, folded in the same order.
    for (; c < mine; c += 2) {
      const bool pair = c + 1 < mine;
      const Idx u0 = (y + c * ys) * NF_STAGE_UNITS, u1 = (y + (c + 1) * ys) * NF_STAGE_UNITS;
      Acc x[2 * per_lane];
      NF_UNROLL
      for (unsigned k = 0; k < per_lane; ++k) {
        x[k] = unit(o, u0 + k * 256 + t);
        x[per_lane + k] = pair ? unit(o, u1 + k * 256 + t) : identity;
      }
      NF_UNROLL
      for (unsigned k = 0; k < 2 * per_lane; ++k)
        if (k < per_lane || pair) acc = combine(acc, x[k]);
    }
    for (Idx u = chunks * NF_STAGE_UNITS + y * 256 + t; u < n_red; u += ys * 256)
      acc = combine(acc, unit(o, u));
    if constexpr (nf_has_tail<Tail>)
      for (Idx e = y * 256 + t; e < n_tail; e += ys * 256) acc = combine(acc, tail(o, e));
    nf_reduce_output(p, sh, last_block, acc, o, identity, t, t, 256u, 1u, combine, finish);
  }
}

// The driver of short folds (jit::fold_layout::per_thread): one thread per output, which folds its
// elements in order and writes the result; no shared memory, no barrier, no split. The order is
// the one nf_reduce gives an output with a single lane. For rows of four float32 (one 16-byte load
// per thread) the block-level set-up of nf_reduce cost 2% (0.446 against 0.438 ms for 67108864 x 4
// on an H100, research/reduce_paths.cu). N_RED > 0 is the fold's length (p.n_red) as a
// constant of the kernel (jit::fold_layout::per_thread_n_red): the same folds in the same order,
// with the loops unrolled away.
template <class Acc, class Idx, int N_RED = 0, class Combine, class Element, class Finish,
          class Tail = nf_no_tail>
__device__ __forceinline__ void nf_reduce_per_thread(const nf_reduce_args& p, const Acc identity,
                                                     const Combine& combine, const Element& element,
                                                     const Finish& finish, const Idx n_tail = 0,
                                                     const Tail& tail = Tail()) {
  const Idx n_out = (Idx)p.n_out, n_red = N_RED > 0 ? (Idx)N_RED : (Idx)p.n_red;
  const Idx threads = (Idx)blockDim.x * blockDim.y;
  for (Idx o = (Idx)blockIdx.x * threads + threadIdx.y * blockDim.x + threadIdx.x; o < n_out;
       o += (Idx)gridDim.x * threads) {
    Acc acc = identity;
    Idx r = 0;
    nf_fold_in_flight<4>(acc, r, (Idx)1, n_red, o, combine, element);
    for (; r < n_red; ++r) acc = combine(acc, element(o, r));
    if constexpr (nf_has_tail<Tail>)
      for (Idx e = 0; e < n_tail; ++e) acc = combine(acc, tail(o, e));
    finish(o, acc);
  }
}

// The scan driver: one block per row of the scanned axis, 256 elements at a time; each chunk is an
// inclusive scan in shared memory (a fixed tree), then offset by the running total of the row.
template <class Acc, class Idx, class Combine, class Element, class Store>
__device__ __forceinline__ void nf_scan(const nf_reduce_args& p, const Acc identity, const Combine& combine,
                                        const Element& element, const Store& store) {
  __shared__ __align__(16) unsigned char raw[256 * sizeof(Acc)];
  Acc* sh = reinterpret_cast<Acc*>(raw);
  const unsigned t = threadIdx.x;
  const Idx n_out = (Idx)p.n_out, n_red = (Idx)p.n_red;
  for (Idx o = blockIdx.x; o < n_out; o += gridDim.x) {
    Acc carry = identity;
    for (Idx base = 0; base < n_red; base += blockDim.x) {
      const Idx r = base + t;
      sh[t] = r < n_red ? element(o, r) : identity;
      __syncthreads();
      for (unsigned s = 1; s < blockDim.x; s <<= 1) {
        const Acc earlier = t >= s ? sh[t - s] : identity;
        __syncthreads();
        if (t >= s) sh[t] = combine(earlier, sh[t]);
        __syncthreads();
      }
      if (r < n_red) store(o, r, combine(carry, sh[t]));
      carry = combine(carry, sh[blockDim.x - 1]);
      __syncthreads();
    }
  }
}

#endif  // defined(__CUDACC__)

#endif  // NF_REDUCE_CUH
