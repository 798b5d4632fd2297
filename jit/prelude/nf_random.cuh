// ndfuse device prelude: the counter-based bit generator. Philox4x64-10 (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC11; the Random123 library), the block function of NumPy's
// numpy.random.Philox: four 64-bit words out of a 256-bit counter and a 128-bit key, ten rounds.
// A pure function, so element i of a draw depends only on the key, the counter and i: the CPU
// backend runs this same function compiled as host C++.
#ifndef NF_RANDOM_CUH
#define NF_RANDOM_CUH
#include "nf_types.cuh"

struct nf_u64x4 {
  nf_uint64 v[4];
};
struct nf_u64x2 {
  nf_uint64 v[2];
};

// The high 64 bits of the 128-bit product a * b (the low ones are a * b).
__device__ __forceinline__ nf_uint64 nf_mulhi64(nf_uint64 a, nf_uint64 b) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __umul64hi(a, b);
#else
  return (nf_uint64)(((unsigned __int128)a * b) >> 64);
#endif
}

// Random123's constants: the round multipliers and the Weyl key increments (golden ratio, sqrt(3)).
#define NF_PHILOX_M0 0xD2E7470EE14C6C93ull
#define NF_PHILOX_M1 0xCA5A826395121157ull
#define NF_PHILOX_W0 0x9E3779B97F4A7C15ull
#define NF_PHILOX_W1 0xBB67AE8584CAA73Bull

__device__ __forceinline__ nf_u64x4 nf_philox4x64_10(nf_u64x4 ctr, nf_u64x2 key) {
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.v[0] += NF_PHILOX_W0;
      key.v[1] += NF_PHILOX_W1;
    }
    const nf_uint64 hi0 = nf_mulhi64(NF_PHILOX_M0, ctr.v[0]), lo0 = NF_PHILOX_M0 * ctr.v[0];
    const nf_uint64 hi1 = nf_mulhi64(NF_PHILOX_M1, ctr.v[2]), lo1 = NF_PHILOX_M1 * ctr.v[2];
    ctr = nf_u64x4{{hi1 ^ ctr.v[1] ^ key.v[0], lo1, hi0 ^ ctr.v[3] ^ key.v[1], lo0}};
  }
  return ctr;
}

// ctr + n, carried across the four words (the counter is one 256-bit number, least significant
// word first).
__device__ __forceinline__ nf_u64x4 nf_counter_add(nf_u64x4 ctr, nf_uint64 n) {
  ctr.v[0] += n;
  if (ctr.v[0] < n)
    for (int w = 1; w < 4 && ++ctr.v[w] == 0; ++w) {
    }
  return ctr;
}

// Word s of the stream that continues from block `ctr` (NumPy's Philox state: the block it last
// generated, words 0..3 of it; word 4 starts the next block, ctr + 1). A draw whose first word is
// the state's buffer position p reads its element i at s = p + i, whatever thread computes it.
__device__ __forceinline__ nf_uint64 nf_philox_word(nf_u64x2 key, nf_u64x4 ctr, nf_uint64 s) {
  return nf_philox4x64_10(nf_counter_add(ctr, s / 4), key).v[s % 4];
}

// NumPy's bits-to-float conversions: the top 53 bits of a word as a double in [0, 1), the top 24 of
// a 32-bit half as a float in [0, 1).
__device__ __forceinline__ double nf_unit_double(nf_uint64 word) {
  return (double)(word >> 11) * (1.0 / 9007199254740992.0);
}
__device__ __forceinline__ float nf_unit_float(unsigned word32) {
  return (float)(word32 >> 8) * (1.0f / 16777216.0f);
}

#endif  // NF_RANDOM_CUH
