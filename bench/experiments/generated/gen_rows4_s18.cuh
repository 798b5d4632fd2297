// Rendered by ndfuse in session 18 (only the fold layout its sizes take).
#include "nf_prelude.cuh"  // jit/prelude/*.cuh: element types, op functions, math

// ndfuse kernel k_6709f59797bb9aa7: reduction, 2 instructions, 1 output
//   fold:    add of v0 in float32, inner strategy
//   space:   2-d collapsed shape: 1 kept dim(s) (outputs), 1 reduced; 32-bit indices
//   layout:  units of 4 elements, one thread per output
//   inputs:  in0 float32 flat
//   outputs: out0 float32 = v1

// The prologue: the value folded for one element. Each line is one kernel-IR instruction,
// commented with the DAG node it computes.
static __device__ __forceinline__ float k_6709f59797bb9aa7_element(const float in0) {
  const float v0 = in0;  // buffer float32
  return v0;
}

// The epilogue: one output from the folded result.
static __device__ __forceinline__ void k_6709f59797bb9aa7_finish(float& out0, const float reduced) {
  const float v1 = reduced;  // the reduction's result, float32
  out0 = v1;
}

// Folds two partial results (add).
struct k_6709f59797bb9aa7_combine {
  __device__ __forceinline__ float operator()(const float a, const float b) const {
    return nf_add(a, b);
  }
};

extern "C" __global__ void __launch_bounds__(256, 8)
k_6709f59797bb9aa7(const unsigned n,
    const nf_dims<2, unsigned> shape,
    const nf_reduce_args reduce,
    float* __restrict__ out0,
    const float* __restrict__ in0,
    const float identity) {
  typedef unsigned idx;
  const idx n_red = (idx)reduce.n_red;
  // Element r of output o: o runs over the kept dims (c0..0), r over the reduced dims (c1..1).
  auto element = [&](const idx o, const idx r) {
    const float v = k_6709f59797bb9aa7_element(in0[o * n_red + r]);
    return v;
  };
  // The epilogue at output o (contiguous over the kept dims).
  auto finish = [&](const idx o, const float acc) {
    k_6709f59797bb9aa7_finish(out0[o], acc);
  };
  // Unit u of output o is elements u*4 .. u*4+3, folded in order: the fold order depends on the sizes alone, not on how units are loaded.
  auto element_unit = [&](const idx o, const idx u) {
    if (reduce.wide) {  // one wide load per input (the host checked the alignment)
      const idx i = o * n_red + u * 4;
      const nf_vec<float, 4> x0 = nf_load_vec<4>(in0 + i);
      float a = k_6709f59797bb9aa7_element(x0.v[0]);
#pragma unroll
      for (int l = 1; l < 4; ++l) a = k_6709f59797bb9aa7_combine()(a, k_6709f59797bb9aa7_element(x0.v[l]));
      return a;
    }
    float a = element(o, u * 4);
#pragma unroll
    for (int l = 1; l < 4; ++l) a = k_6709f59797bb9aa7_combine()(a, element(o, u * 4 + l));
    return a;
  };
  nf_reduce_args units = reduce;
  units.n_red /= 4;
  nf_reduce_per_thread<float, idx>(units, identity, k_6709f59797bb9aa7_combine(), element_unit, finish);
}
