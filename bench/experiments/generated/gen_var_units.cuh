// Rendered by ndfuse in session 24 with output units (no register cap): the second kernel of var over
// axis 0 of a 16384 x 16384 float32 array (sum of squared deviations from the first kernel's mean).
// ======== kernel 2 of 2 ========
// ndfuse kernel k_3bcb5eb8ebfa762d: reduction, 7 instructions, 1 output
//   fold:    add of v3 in float32, outer strategy
//   space:   2-d collapsed shape: 1 kept dim(s) (outputs), 1 reduced; 32-bit indices
//   layout:  element by element, 4 neighbouring outputs per lane, the lanes of a block share each output
//   inputs:  in0 float32 strided, in1 float32 strided
//   scalars: s0 float32
//   outputs: out0 float32 = v6
#include "nf_prelude.cuh"  // jit/prelude/*.cuh: element types, op functions, math

// The prologue: the value folded for one element. Each line is one kernel-IR instruction,
// commented with the DAG node it computes.
static __device__ __forceinline__ float k_3bcb5eb8ebfa762d_element(const float in0, const float in1) {
  const float v0 = in0;                  // buffer float32
  const float v1 = in1;                  // written by an earlier kernel of this plan, float32
  const float v2 = nf_subtract(v0, v1);  // subtract float32
  const float v3 = nf_multiply(v2, v2);  // multiply float32
  return v3;
}

// The epilogue: one output from the folded result.
static __device__ __forceinline__ void k_3bcb5eb8ebfa762d_finish(float& out0, const float reduced, const float s0) {
  const float v4 = reduced;                 // the reduction's result, float32
  const float v5 = s0;                      // scalar float32
  const float v6 = nf_true_divide(v4, v5);  // true_divide float32
  out0 = v6;
}

// Folds two partial results (add).
struct k_3bcb5eb8ebfa762d_combine {
  __device__ __forceinline__ float operator()(const float a, const float b) const {
    return nf_add(a, b);
  }
};

extern "C" __global__ void __launch_bounds__(256)
k_3bcb5eb8ebfa762d(const unsigned n,
    const nf_dims<2, unsigned> shape,
    const nf_reduce_args reduce,
    float* __restrict__ out0,
    const float* __restrict__ in0,
    const nf_dims<2, int> in0_strides,
    const float* __restrict__ in1,
    const nf_dims<2, int> in1_strides,
    const float s0,
    const float identity) {
  typedef unsigned idx;
  const idx n_red = (idx)reduce.n_red;
  // Element r of output o: o runs over the kept dims (c0..0), r over the reduced dims (c1..1).
  auto element = [&](const idx o, const idx r) {
    const idx c0 = o;
    const idx c1 = r;
    const int o0 = (int)c0 * in0_strides.d[0] + (int)c1 * in0_strides.d[1];
    const int o1 = (int)c0 * in1_strides.d[0] + (int)c1 * in1_strides.d[1];
    const float v = k_3bcb5eb8ebfa762d_element(in0[o0], in1[o1]);
    return v;
  };
  // The epilogue at output o (contiguous over the kept dims).
  auto finish = [&](const idx o, const float acc) {
    k_3bcb5eb8ebfa762d_finish(out0[o], acc, s0);
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
      const int o1 = (int)c0 * in1_strides.d[0] + (int)c1 * in1_strides.d[1];
      const nf_vec<float, 4> x1 = nf_load_vec<4>(in1 + o1);
#pragma unroll
      for (int l = 0; l < 4; ++l) a.v[l] = k_3bcb5eb8ebfa762d_element(x0.v[l], x1.v[l]);
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
  nf_reduce<nf_vec<float, 4>, idx, false>(lane_units, nf_splat<4>(identity), nf_lanes_combine<k_3bcb5eb8ebfa762d_combine>(), element_lanes, finish_lanes);
}
