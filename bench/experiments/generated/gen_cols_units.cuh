// Rendered by ndfuse in session 24 with output units (4 columns per lane, no register cap): sum over
// axis 0 of a 16384 x 16384 float32 array.
// ndfuse kernel k_d9365577c51c5ff1: reduction, 2 instructions, 1 output
//   fold:    add of v0 in float32, outer strategy
//   space:   2-d collapsed shape: 1 kept dim(s) (outputs), 1 reduced; 32-bit indices
//   layout:  element by element, 4 neighbouring outputs per lane, the lanes of a block share each output
//   inputs:  in0 float32 strided
//   outputs: out0 float32 = v1
#include "nf_prelude.cuh"  // jit/prelude/*.cuh: element types, op functions, math

// The prologue: the value folded for one element. Each line is one kernel-IR instruction,
// commented with the DAG node it computes.
static __device__ __forceinline__ float k_d9365577c51c5ff1_element(const float in0) {
  const float v0 = in0;  // buffer float32
  return v0;
}

// The epilogue: one output from the folded result.
static __device__ __forceinline__ void k_d9365577c51c5ff1_finish(float& out0, const float reduced) {
  const float v1 = reduced;  // the reduction's result, float32
  out0 = v1;
}

// Folds two partial results (add).
struct k_d9365577c51c5ff1_combine {
  __device__ __forceinline__ float operator()(const float a, const float b) const {
    return nf_add(a, b);
  }
};

extern "C" __global__ void __launch_bounds__(256)
k_d9365577c51c5ff1(const unsigned n,
    const nf_dims<2, unsigned> shape,
    const nf_reduce_args reduce,
    float* __restrict__ out0,
    const float* __restrict__ in0,
    const nf_dims<2, int> in0_strides,
    const float identity) {
  typedef unsigned idx;
  const idx n_red = (idx)reduce.n_red;
  // Element r of output o: o runs over the kept dims (c0..0), r over the reduced dims (c1..1).
  auto element = [&](const idx o, const idx r) {
    const idx c0 = o;
    const idx c1 = r;
    const int o0 = (int)c0 * in0_strides.d[0] + (int)c1 * in0_strides.d[1];
    const float v = k_d9365577c51c5ff1_element(in0[o0]);
    return v;
  };
  // The epilogue at output o (contiguous over the kept dims).
  auto finish = [&](const idx o, const float acc) {
    k_d9365577c51c5ff1_finish(out0[o], acc);
  };
  // Lane unit u: outputs u*4 .. u*4+3 at reduced element r, side by side; each output's fold is its own.
  auto element_lanes = [&](const idx u, const idx r) {
    nf_vec<float, 4> a;
    if (reduce.wide) {  // one wide load per input (the host checked strides and alignment)
      const idx o = u * 4;
      const idx c0 = o;
      const idx c1 = r;
      const int o0 = (int)c0 * in0_strides.d[0] + (int)c1 * in0_strides.d[1];
      const nf_vec<float, 4> x0 = nf_load_vec<4>(in0 + o0);
#pragma unroll
      for (int l = 0; l < 4; ++l) a.v[l] = k_d9365577c51c5ff1_element(x0.v[l]);
      return a;
    }
#pragma unroll
    for (int l = 0; l < 4; ++l) a.v[l] = element(u * 4 + l, r);
    return a;
  };
  auto finish_lanes = [&](const idx u, const nf_vec<float, 4> a) {
#pragma unroll
    for (int l = 0; l < 4; ++l) finish(u * 4 + l, a.v[l]);
  };
  nf_reduce_args lane_units = reduce;
  lane_units.n_out /= 4;
  nf_reduce<nf_vec<float, 4>, idx, false>(lane_units, nf_splat<4>(identity), nf_lanes_combine<k_d9365577c51c5ff1_combine>(), element_lanes, finish_lanes);
}
