// Rendered by ndfuse at ab7a917 (session 24): sum over axis 0 of a 16384 x 16384 float32 array.
// ndfuse kernel k_fd858006290f5dca: reduction, 2 instructions, 1 output
//   fold:    add of v0 in float32, outer strategy
//   space:   2-d collapsed shape: 1 kept dim(s) (outputs), 1 reduced; 32-bit indices
//   layout:  element by element, the lanes of a block share each output
//   inputs:  in0 float32 strided
//   outputs: out0 float32 = v1
#include "nf_prelude.cuh"  // jit/prelude/*.cuh: element types, op functions, math

// The prologue: the value folded for one element. Each line is one kernel-IR instruction,
// commented with the DAG node it computes.
static __device__ __forceinline__ float k_fd858006290f5dca_element(const float in0) {
  const float v0 = in0;  // buffer float32
  return v0;
}

// The epilogue: one output from the folded result.
static __device__ __forceinline__ void k_fd858006290f5dca_finish(float& out0, const float reduced) {
  const float v1 = reduced;  // the reduction's result, float32
  out0 = v1;
}

// Folds two partial results (add).
struct k_fd858006290f5dca_combine {
  __device__ __forceinline__ float operator()(const float a, const float b) const {
    return nf_add(a, b);
  }
};

extern "C" __global__ void __launch_bounds__(256, 8)
k_fd858006290f5dca(const unsigned n,
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
    const float v = k_fd858006290f5dca_element(in0[o0]);
    return v;
  };
  // The epilogue at output o (contiguous over the kept dims).
  auto finish = [&](const idx o, const float acc) {
    k_fd858006290f5dca_finish(out0[o], acc);
  };
  nf_reduce<float, idx, false>(reduce, identity, k_fd858006290f5dca_combine(), element, finish);
}

