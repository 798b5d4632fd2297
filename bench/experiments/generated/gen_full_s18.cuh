// Rendered by ndfuse in session 18 (only the fold layout its sizes take).
#include "nf_prelude.cuh"  // jit/prelude/*.cuh: element types, op functions, math

// ndfuse kernel k_265334c37ab42754: reduction, 2 instructions, 1 output
//   fold:    add of v0 in float64, full strategy
//   space:   1-d collapsed shape: 0 kept dim(s) (outputs), 1 reduced; 32-bit indices
//   layout:  units of 2 elements, the lanes of a block share each output
//   inputs:  in0 float64 flat
//   outputs: out0 float64 = v1

// The prologue: the value folded for one element. Each line is one kernel-IR instruction,
// commented with the DAG node it computes.
static __device__ __forceinline__ double k_265334c37ab42754_element(const double in0) {
  const double v0 = in0;  // buffer float64
  return v0;
}

// The epilogue: one output from the folded result.
static __device__ __forceinline__ void k_265334c37ab42754_finish(double& out0, const double reduced) {
  const double v1 = reduced;  // the reduction's result, float64
  out0 = v1;
}

// Folds two partial results (add).
struct k_265334c37ab42754_combine {
  __device__ __forceinline__ double operator()(const double a, const double b) const {
    return nf_add(a, b);
  }
};

extern "C" __global__ void __launch_bounds__(256)
k_265334c37ab42754(const unsigned n,
    const nf_dims<1, unsigned> shape,
    const nf_reduce_args reduce,
    double* __restrict__ out0,
    const double* __restrict__ in0,
    const double identity) {
  typedef unsigned idx;
  const idx n_red = (idx)reduce.n_red;
  // Element r of output o: o runs over the kept dims (c0..-1), r over the reduced dims (c0..0).
  auto element = [&](const idx o, const idx r) {
    const double v = k_265334c37ab42754_element(in0[o * n_red + r]);
    return v;
  };
  // The epilogue at output o (contiguous over the kept dims).
  auto finish = [&](const idx o, const double acc) {
    k_265334c37ab42754_finish(out0[o], acc);
  };
  // Unit u of output o is elements u*2 .. u*2+1, folded in order: the fold order depends on the sizes alone, not on how units are loaded.
  auto element_unit = [&](const idx o, const idx u) {
    if (reduce.wide) {  // one wide load per input (the host checked the alignment)
      const idx i = o * n_red + u * 2;
      const nf_vec<double, 2> x0 = nf_load_vec<2>(in0 + i);
      double a = k_265334c37ab42754_element(x0.v[0]);
#pragma unroll
      for (int l = 1; l < 2; ++l) a = k_265334c37ab42754_combine()(a, k_265334c37ab42754_element(x0.v[l]));
      return a;
    }
    double a = element(o, u * 2);
#pragma unroll
    for (int l = 1; l < 2; ++l) a = k_265334c37ab42754_combine()(a, element(o, u * 2 + l));
    return a;
  };
  nf_reduce_args units = reduce;
  units.n_red /= 2;
  nf_reduce<double, idx, true>(units, identity, k_265334c37ab42754_combine(), element_unit, finish);
}
