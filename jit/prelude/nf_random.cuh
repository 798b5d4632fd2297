// ndfuse device prelude: the counter-based bit generators and the transforms of a random draw.
// Philox (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11; the Random123 library)
// in two widths: Philox4x64-10, the block function of NumPy's numpy.random.Philox, and
// Philox4x32-10, ndfuse's default (cuRAND's and PyTorch's), whose 32-bit products cost a quarter of
// the 64-bit ones (research/philox_throughput.cu). Everything here is a pure function of the key,
// the counter and the element's index, written with IEEE operations only (no libm call), so the CPU
// backend, which compiles this same file as host C++, gives the same bits as every GPU.
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
  NF_UNROLL
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

// --- Philox4x32-10 ----------------------------------------------------------------------------------
struct nf_u32x4 {
  nf_uint32 v[4];
};

__device__ __forceinline__ nf_uint32 nf_mulhi32(nf_uint32 a, nf_uint32 b) {
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  return __umulhi(a, b);
#else
  return (nf_uint32)(((nf_uint64)a * b) >> 32);
#endif
}

#define NF_PHILOX32_M0 0xD2511F53u
#define NF_PHILOX32_M1 0xCD9E8D57u
#define NF_PHILOX32_W0 0x9E3779B9u
#define NF_PHILOX32_W1 0xBB67AE85u

__device__ __forceinline__ nf_u32x4 nf_philox4x32_10(nf_u32x4 ctr, nf_uint32 k0, nf_uint32 k1) {
  NF_UNROLL
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += NF_PHILOX32_W0;
      k1 += NF_PHILOX32_W1;
    }
    const nf_uint32 hi0 = nf_mulhi32(NF_PHILOX32_M0, ctr.v[0]), lo0 = NF_PHILOX32_M0 * ctr.v[0];
    const nf_uint32 hi1 = nf_mulhi32(NF_PHILOX32_M1, ctr.v[2]), lo1 = NF_PHILOX32_M1 * ctr.v[2];
    ctr = nf_u32x4{{hi1 ^ ctr.v[1] ^ k0, lo1, hi0 ^ ctr.v[3] ^ k1, lo0}};
  }
  return ctr;
}

// 2 atanh(s) = log((1 + s) / (1 - s)) for |s| < 0.18: the series 2 (s + s^3/3 + ... + s^23/23).
__device__ __forceinline__ double nf_two_atanh(double s) {
  const double s2 = s * s;
  double t = 1.0 / 23;
  t = t * s2 + 1.0 / 21;
  t = t * s2 + 1.0 / 19;
  t = t * s2 + 1.0 / 17;
  t = t * s2 + 1.0 / 15;
  t = t * s2 + 1.0 / 13;
  t = t * s2 + 1.0 / 11;
  t = t * s2 + 1.0 / 9;
  t = t * s2 + 1.0 / 7;
  t = t * s2 + 1.0 / 5;
  t = t * s2 + 1.0 / 3;
  return 2.0 * s + 2.0 * s * (s2 * t);
}

// --- Transforms written with IEEE operations only ---------------------------------------------------
// log(x) for x in (0, 1]: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m - 1) /
// (m + 1), |s| < 0.172, summed to s^23. Within 2 ulp; the same bits wherever it runs, unlike libm's
// and libdevice's log.
__device__ __forceinline__ double nf_exact_log(double x) {
  // Selects, not branches, throughout: the lanes of a vectorized loop that share a Box-Muller pair
  // then compute its logarithm once.
  const bool subnormal = ((nf_uint64)__double_as_longlong(x) >> 52) == 0;
  const double scaled = subnormal ? x * 18014398509481984.0 : x;  // 2^54: into the normal range
  nf_uint64 bits = (nf_uint64)__double_as_longlong(scaled);
  int e = (int)(bits >> 52) - 1023 - (subnormal ? 54 : 0);
  bits = (bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;  // m in [1, 2)
  double m = __longlong_as_double((long long)bits);
  const bool above = m > 1.4142135623730951;
  m = above ? m * 0.5 : m;
  e += above ? 1 : 0;
  const double log_m = nf_two_atanh((m - 1.0) / (m + 1.0));
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return ((double)e * ln2_hi + log_m) + (double)e * ln2_lo;
}

// sin and cos of 2 pi u for u in [0, 1): the quadrant from 4u (exact), the rest reduced to [0, pi/4]
// and summed by Taylor to the 19th power.
__device__ __forceinline__ void nf_exact_sincos_turn(double u, double* sin_out, double* cos_out) {
  const double t = 4.0 * u;
  const int q = (int)t;
  double f = t - (double)q;  // exact
  const bool swap = f > 0.5;
  if (swap) f = 1.0 - f;  // exact (Sterbenz)
  const double x = f * 1.5707963267948966, x2 = x * x;
  double sn = 1.0 / 121645100408832000.0;  // 1/19!
  sn = -sn * x2 + 1.0 / 355687428096000.0;
  sn = sn * x2 - 1.0 / 1307674368000.0;
  sn = sn * x2 + 1.0 / 6227020800.0;
  sn = sn * x2 - 1.0 / 39916800.0;
  sn = sn * x2 + 1.0 / 362880.0;
  sn = sn * x2 - 1.0 / 5040.0;
  sn = sn * x2 + 1.0 / 120.0;
  sn = sn * x2 - 1.0 / 6.0;
  sn = x + x * (x2 * sn);
  double cs = 1.0 / 6402373705728000.0;  // 1/18!
  cs = -cs * x2 + 1.0 / 20922789888000.0;
  cs = cs * x2 - 1.0 / 87178291200.0;
  cs = cs * x2 + 1.0 / 479001600.0;
  cs = cs * x2 - 1.0 / 3628800.0;
  cs = cs * x2 + 1.0 / 40320.0;
  cs = cs * x2 - 1.0 / 720.0;
  cs = cs * x2 + 1.0 / 24.0;
  cs = cs * x2 - 0.5;
  cs = 1.0 + x2 * cs;
  const double s = swap ? cs : sn, c = swap ? sn : cs;
  // Rotate by q quarter turns, with selects rather than a loop, so that the lanes of a vectorized
  // loop stay one straight-line body.
  const bool odd = q & 1, half = q & 2;
  const double s1 = odd ? c : s, c1 = odd ? -s : c;
  *sin_out = half ? -s1 : s1;
  *cos_out = half ? -c1 : c1;
}

// Box-Muller: two uniforms, u1 in (0, 1] and u2 in [0, 1), to two independent standard normals.
__device__ __forceinline__ double nf_box_muller(double u1, double u2, int which) {
  const double r = sqrt(-2.0 * nf_exact_log(u1));
  double s, c;
  nf_exact_sincos_turn(u2, &s, &c);
  return r * (which ? s : c);
}

// exp(x) with IEEE operations only (within 2 ulp): x = k ln 2 + r, |r| <= ln 2 / 2, Taylor to r^13,
// then 2^k in two steps so that results down to the subnormals keep their bits.
__device__ __forceinline__ double nf_exact_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return 1.0 / 0.0;
  if (x < -745.2) return 0.0;
  const double k = (double)(long long)(x * 1.4426950408889634 + (x < 0 ? -0.5 : 0.5));
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double r = (x - k * ln2_hi) - k * ln2_lo;
  double t = 1.0 / 6227020800.0;  // 1/13!
  t = t * r + 1.0 / 479001600.0;
  t = t * r + 1.0 / 39916800.0;
  t = t * r + 1.0 / 3628800.0;
  t = t * r + 1.0 / 362880.0;
  t = t * r + 1.0 / 40320.0;
  t = t * r + 1.0 / 5040.0;
  t = t * r + 1.0 / 720.0;
  t = t * r + 1.0 / 120.0;
  t = t * r + 1.0 / 24.0;
  t = t * r + 1.0 / 6.0;
  t = t * r + 0.5;
  const double e = 1.0 + (r + r * (r * t));
  const int k1 = (int)k / 2, k2 = (int)k - k1;  // 2^k as 2^k1 * 2^k2, each a normal double
  return e * __longlong_as_double((long long)(k1 + 1023) << 52) *
         __longlong_as_double((long long)(k2 + 1023) << 52);
}

// log(1 + x) and exp(x) - 1, accurate near 0 where the plain forms cancel: log1p(x) = 2 atanh(s),
// s = x / (2 + x), by the series of nf_exact_log; expm1 by Taylor to x^14 for |x| < 0.35.
__device__ __forceinline__ double nf_exact_log1p(double x) {
  if (!(x > -0.25 && x < 0.25)) return nf_exact_log(1.0 + x);
  return nf_two_atanh(x / (2.0 + x));
}

__device__ __forceinline__ double nf_exact_expm1(double x) {
  if (!(x > -0.35 && x < 0.35)) return nf_exact_exp(x) - 1.0;
  double t = 1.0 / 87178291200.0;  // 1/14!
  t = t * x + 1.0 / 6227020800.0;
  t = t * x + 1.0 / 479001600.0;
  t = t * x + 1.0 / 39916800.0;
  t = t * x + 1.0 / 3628800.0;
  t = t * x + 1.0 / 362880.0;
  t = t * x + 1.0 / 40320.0;
  t = t * x + 1.0 / 5040.0;
  t = t * x + 1.0 / 720.0;
  t = t * x + 1.0 / 120.0;
  t = t * x + 1.0 / 24.0;
  t = t * x + 1.0 / 6.0;
  t = t * x + 0.5;
  return x + x * (x * t);
}

// acos(x) for x in [-1, 1]: 2 atan(sqrt((1 - x) / (1 + x))), the arctangent reduced to |u| <= tan(pi/8)
// through atan(t) = pi/2 - atan(1/t) and atan(t) = pi/4 + atan((t - 1) / (t + 1)), then summed to u^45.
__device__ __forceinline__ double nf_exact_acos(double x) {
  if (!(x > -1.0)) return x == -1.0 ? 3.141592653589793 : 0.0 / 0.0;
  if (!(x <= 1.0)) return 0.0 / 0.0;
  double t = sqrt((1.0 - x) / (1.0 + x)), base = 0.0;
  const bool inverted = t > 1.0;
  if (inverted) t = 1.0 / t;
  if (t > 0.41421356237309503) {
    t = (t - 1.0) / (t + 1.0);
    base = 0.7853981633974483;
  }
  const double t2 = t * t;
  double s = 1.0 / 45;
  for (int k = 43; k >= 3; k -= 2) s = s * t2 + ((k / 2) % 2 ? -1.0 : 1.0) / k;
  const double a = base + (t + t * (t2 * s));
  return 2.0 * (inverted ? 1.5707963267948966 - a : a);
}

// --- Substreams: the samplers that reject ------------------------------------------------------------
// A sampler that loops until it accepts draws from its element's own stream: Philox4x32 keyed by a
// 53-bit integer the element drew from the generator, blocks 0, 1, 2, ... in turn. The element's
// value is then a function of its key alone, whatever thread runs it and however long it loops.
struct nf_substream {
  nf_uint32 k0, k1, next;
};

__device__ __forceinline__ nf_substream nf_substream_of(double key) {
  const nf_uint64 k = key >= 0 && key < 9007199254740992.0 ? (nf_uint64)key : 0;
  return nf_substream{(nf_uint32)k, (nf_uint32)(k >> 32), 0};
}

__device__ __forceinline__ nf_u32x4 nf_substream_block(nf_substream& s) {
  return nf_philox4x32_10(nf_u32x4{{s.next++, 0, 0, 0x6e662d73u}}, s.k0, s.k1);
}

// Two uniforms in (0, 1] and [0, 1) from one block.
__device__ __forceinline__ void nf_substream_uniforms(nf_substream& s, double* open, double* half_open) {
  const nf_u32x4 b = nf_substream_block(s);
  *open = (double)((((nf_uint64)b.v[0] << 32 | b.v[1]) >> 11) + 1) * (1.0 / 9007199254740992.0);
  *half_open = nf_unit_double((nf_uint64)b.v[2] << 32 | b.v[3]);
}

// A standard gamma variate of `shape` > 0 (Marsaglia and Tsang, 2000: a normal and a uniform per try,
// accepted with probability above 0.95; below shape 1, a variate of shape + 1 times u^(1 / shape)).
__device__ __forceinline__ double nf_gamma_on(nf_substream& s, double shape) {
  double boost = 1.0;
  if (shape < 1) {
    double u, unused;
    nf_substream_uniforms(s, &u, &unused);
    boost = nf_exact_exp(nf_exact_log(u) / shape);
    shape += 1.0;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double u1, u2, u, unused;
    nf_substream_uniforms(s, &u1, &u2);
    const double z = nf_box_muller(u1, u2, 0);
    double v = 1.0 + c * z;
    if (v <= 0) continue;
    v = v * v * v;
    nf_substream_uniforms(s, &u, &unused);
    const double z2 = z * z;
    if (u < 1.0 - 0.0331 * (z2 * z2) || nf_exact_log(u) < 0.5 * z2 + d * (1.0 - v + nf_exact_log(v)))
      return d * v * boost;
  }
}

// NumPy's edge values: 0 for shape 0, NaN for a negative or NaN shape, inf for an infinite one.
__device__ __forceinline__ double nf_random_gamma(double key, double shape) {
  if (!(shape > 0)) return shape == 0 ? 0.0 : 0.0 / 0.0;
  if (shape > 1.7976931348623157e308) return shape;
  nf_substream s = nf_substream_of(key);
  return nf_gamma_on(s, shape);
}

// Binomial(n, p), n an integer: while n is large, the i-th smallest of n uniforms, Y ~ Beta(i,
// n + 1 - i) with i about n / 2, splits the trials (Y <= p: i successes, and the other n - i succeed
// with probability (p - Y) / (1 - Y); else the i - 1 below Y succeed with probability p / Y), then
// at most 16 Bernoulli trials. Exact, in O(log n) gamma pairs.
__device__ __forceinline__ double nf_binomial_on(nf_substream& s, double n, double p) {
  double k = 0;
  while (n > 16 && p > 0 && p < 1) {
    const double i = floor((n + 1) * 0.5);
    const double x = nf_gamma_on(s, i), y = x / (x + nf_gamma_on(s, n + 1 - i));
    if (y <= p) {
      k += i;
      n -= i;
      p = (p - y) / (1 - y);
    } else {
      n = i - 1;
      p = p / y;
    }
  }
  if (p <= 0) return k;
  if (p >= 1) return k + n;
  for (double j = 0; j < n; j += 2) {
    double u1, u2;
    nf_substream_uniforms(s, &u1, &u2);
    k += 1.0 - u1 < p ? 1 : 0;  // 1 - u1 in [0, 1), exactly
    if (j + 1 < n) k += u2 < p ? 1 : 0;
  }
  return k;
}

__device__ __forceinline__ double nf_random_binomial(double key, double n, double p) {
  if (!(n >= 0 && n <= 1.7976931348623157e308) || !(p >= 0 && p <= 1)) return 0.0 / 0.0;
  nf_substream s = nf_substream_of(key);
  return nf_binomial_on(s, floor(n), p);
}

// NumPy's random_logseries (Kemp's second algorithm), p in (0, 1).
__device__ __forceinline__ double nf_random_logseries(double key, double p) {
  if (!(p > 0 && p < 1)) return 0.0 / 0.0;
  nf_substream s = nf_substream_of(key);
  const double r = nf_exact_log1p(-p);
  for (;;) {
    double v, u;
    nf_substream_uniforms(s, &u, &v);  // v in [0, 1), u in (0, 1]
    if (v >= p) return 1.0;
    const double q = -nf_exact_expm1(r * (1.0 - u));
    if (v <= q * q) {
      const double k = floor(1.0 + nf_exact_log(v) / nf_exact_log(q));
      if (k < 1 || v == 0.0) continue;
      return k;
    }
    return v >= q ? 1.0 : 2.0;
  }
}

// NumPy's random_zipf (Devroye's rejection from a continuous Pareto), a > 1.
__device__ __forceinline__ double nf_random_zipf(double key, double a) {
  if (!(a > 1)) return 0.0 / 0.0;
  // From a = 1025, 2^(a - 1) overflows; P(k > 1) < 2^-1024 there: every variate is 1.
  if (a > 1025) return 1.0;
  nf_substream s = nf_substream_of(key);
  const double am1 = a - 1.0, b = nf_exact_exp(am1 * 0.6931471805599453);  // 2^(a - 1)
  for (;;) {
    double u, v;
    nf_substream_uniforms(s, &u, &v);  // u in (0, 1], as NumPy's 1 - next_double()
    const double x = floor(nf_exact_exp(-nf_exact_log(u) / am1));
    if (!(x >= 1.0 && x <= 9.2233720368547758e18)) continue;
    const double t = nf_exact_exp(am1 * nf_exact_log1p(1.0 / x));  // (1 + 1 / x)^(a - 1)
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return x;
  }
}

// NumPy's random_vonmises (Best and Fisher's rejection), the angle wrapped into [-pi, pi].
__device__ __forceinline__ double nf_random_vonmises(double key, double mu, double kappa) {
  if (!(kappa >= 0) || mu != mu) return 0.0 / 0.0;
  const double pi = 3.141592653589793;
  nf_substream s = nf_substream_of(key);
  double u, v, result;
  if (kappa < 1e-8) {
    nf_substream_uniforms(s, &u, &v);
    return pi * (2.0 * v - 1.0);
  }
  if (kappa > 1e6) {  // the wrapped normal NumPy switches to
    nf_substream_uniforms(s, &u, &v);
    result = mu + sqrt(1.0 / kappa) * nf_box_muller(u, v, 0);
  } else {
    double r_s;
    if (kappa < 1e-5) {
      r_s = 1.0 / kappa + kappa;
    } else {
      const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa), rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
      r_s = (1.0 + rho * rho) / (2.0 * rho);
    }
    double w;
    for (;;) {
      nf_substream_uniforms(s, &v, &u);  // u in [0, 1), v in (0, 1]
      double sn, cs;
      nf_exact_sincos_turn(0.5 * u, &sn, &cs);  // cos(pi u)
      w = (1.0 + r_s * cs) / (r_s + cs);
      const double y = kappa * (r_s - w);
      if (y * (2.0 - y) - v >= 0 || nf_exact_log(y / v) + 1.0 - y >= 0) break;
    }
    nf_substream_uniforms(s, &v, &u);
    result = nf_exact_acos(w);
    if (u < 0.5) result = -result;
    result += mu;
  }
  const bool negative = result < 0;
  double m = fmod(fabs(result) + pi, 2.0 * pi) - pi;
  return negative ? -m : m;
}

// Poisson(lam): the arrivals of a unit-rate process up to lam. While lam is large, the m-th arrival
// X ~ Gamma(m), m = floor(7 lam / 8): X < lam gives m arrivals and the rest of the interval afresh;
// else m - 1 arrivals fell uniformly below X, Binomial(m - 1, lam / X) of them below lam (Ahrens and
// Dieter). Then Knuth's product of uniforms against e^-lam, lam <= 16.
__device__ __forceinline__ double nf_random_poisson(double key, double lam) {
  if (!(lam >= 0)) return 0.0 / 0.0;
  if (lam > 1.7976931348623157e308) return lam;
  nf_substream s = nf_substream_of(key);
  double k = 0;
  while (lam > 16) {
    const double m = floor(0.875 * lam);
    const double x = nf_gamma_on(s, m);
    if (x >= lam) return k + nf_binomial_on(s, m - 1, lam / x);
    k += m;
    lam -= x;
  }
  const double limit = nf_exact_exp(-lam);
  double product = 1.0;
  for (;;) {
    double u1, u2;
    nf_substream_uniforms(s, &u1, &u2);
    product *= u1;
    if (product < limit) return k;
    k += 1;
    product *= 1.0 - u2;  // in (0, 1], exactly
    if (product < limit) return k;
    k += 1;
  }
}

// --- A draw: element a of it --------------------------------------------------------------------------
// What the host's generator hands a kernel (ir::random_stream; the layout of jit/kernel_abi.cpp's
// mirror). Philox4x64: element a is at position offset + a of the draw, which reads words first, ...
// of the stream that continues from block ctr (NumPy's state); a 32-bit draw starts with NumPy's
// kept upper half `carried` when `carries`. Philox4x32: element a reads block
// ctr + first + (R + a) / per, R the kernel's residue (the host moved the rest of the offset into
// first), per the elements a block gives the form.
struct nf_random_params {
  nf_uint64 key[2];
  nf_uint64 ctr[4];
  nf_uint64 first;
  nf_uint64 carried;  // the kept half: its distance back in words, or itself (see nf_random_half)
  long long offset;
  int carries;
};

#define NF_PHILOX4X64 0
#define NF_PHILOX4X32 1

#define NF_BITS64 0         // uint64: raw words
#define NF_BITS32 1         // uint32: raw 32-bit words (NumPy's next_uint32)
#define NF_UNIT_DOUBLE 2    // float64 in [0, 1): NumPy's next_double
#define NF_UNIT_FLOAT 3     // float32 in [0, 1): NumPy's next_float
#define NF_NORMAL_DOUBLE 4  // float64 standard normal, Box-Muller pairs
#define NF_NORMAL_FLOAT 5   // float32 standard normal, Box-Muller pairs rounded from float64

template <int Engine>
__device__ __forceinline__ nf_uint64 nf_random_word64(const nf_random_params& p, nf_uint64 s) {
  return nf_philox_word(nf_u64x2{{p.key[0], p.key[1]}}, nf_u64x4{{p.ctr[0], p.ctr[1], p.ctr[2], p.ctr[3]}},
                        s);
}

// Block b of a Philox4x32 draw: the 128-bit counter (ctr[0] + b, ctr[1]) as four 32-bit words.
__device__ __forceinline__ nf_u32x4 nf_random_block32(const nf_random_params& p, nf_uint64 b) {
  const nf_uint64 lo = p.ctr[0] + p.first + b;
  const nf_uint64 hi = p.ctr[1] + (lo < p.ctr[0] ? 1 : 0);
  return nf_philox4x32_10(
      nf_u32x4{{(nf_uint32)lo, (nf_uint32)(lo >> 32), (nf_uint32)hi, (nf_uint32)(hi >> 32)}},
      (nf_uint32)p.key[0], (nf_uint32)(p.key[0] >> 32));
}

// NumPy's next_uint32 stream: element a of a 32-bit draw. NumPy keeps the upper half of a 32-bit
// draw's last word for the next one, across any 64-bit draws between: `carries` 1: that word lies
// `carried` words before the draw's first, possibly in a block before ctr; 2: `carried` is the half
// itself (a state set from NumPy's).
__device__ __forceinline__ nf_uint32 nf_random_half(const nf_random_params& p, nf_uint64 a) {
  if (p.carries) {
    if (a == 0 && p.carries == 2) return (nf_uint32)p.carried;
    if (a == 0) {
      const long long s = (long long)p.first - (long long)p.carried;
      const nf_uint64 back = s < 0 ? (nf_uint64)(-s + 3) / 4 : 0;   // blocks before ctr
      nf_u64x4 c{{p.ctr[0] - back, p.ctr[1], p.ctr[2], p.ctr[3]}};  // ctr - back, borrowing upwards
      if (p.ctr[0] < back)
        for (int w = 1; w < 4 && c.v[w]-- == 0; ++w) {
        }
      return (nf_uint32)(nf_philox_word(nf_u64x2{{p.key[0], p.key[1]}}, c,
                                        (nf_uint64)(s + 4 * (long long)back)) >>
                         32);
    }
    --a;
  }
  const nf_uint64 w = nf_random_word64<NF_PHILOX4X64>(p, p.first + a / 2);
  return (nf_uint32)(a % 2 ? w >> 32 : w);
}

// Elements per Philox4x32 block, per form (the host advances the counter by ceil(n / per) blocks).
__device__ __forceinline__ constexpr int nf_random_per_block(int form) {
  return form == NF_BITS32 || form == NF_UNIT_FLOAT || form == NF_NORMAL_FLOAT ? 4 : 2;
}

// Element `lane` of a Philox4x32 block, for each form (nf_random's second half: the CPU backend
// calls it directly to reuse a block across the elements that share it).
template <int Form>
__device__ __forceinline__ auto nf_random_from_block32(const nf_u32x4& b, int lane) {
  if constexpr (Form == NF_BITS32) return b.v[lane];
  if constexpr (Form == NF_UNIT_FLOAT) return nf_unit_float(b.v[lane]);
  if constexpr (Form == NF_BITS64 || Form == NF_UNIT_DOUBLE) {
    const nf_uint64 w = (nf_uint64)b.v[2 * lane] << 32 | b.v[2 * lane + 1];
    if constexpr (Form == NF_BITS64)
      return w;
    else
      return nf_unit_double(w);
  }
  if constexpr (Form == NF_NORMAL_DOUBLE) {
    const nf_uint64 w0 = (nf_uint64)b.v[0] << 32 | b.v[1], w1 = (nf_uint64)b.v[2] << 32 | b.v[3];
    const double u1 = (double)((w0 >> 11) + 1) * (1.0 / 9007199254740992.0);
    return nf_box_muller(u1, nf_unit_double(w1), lane);
  }
  if constexpr (Form == NF_NORMAL_FLOAT) {
    const int pair = lane / 2;
    const double u1 = (double)((b.v[2 * pair] >> 8) + 1) * (1.0 / 16777216.0);
    const double u2 = (double)(b.v[2 * pair + 1] >> 8) * (1.0 / 16777216.0);
    return (float)nf_box_muller(u1, u2, lane % 2);
  }
}

template <int Engine, int Form, int Residue>
__device__ __forceinline__ auto nf_random(const nf_random_params& p, long long index) {
  if constexpr (Engine == NF_PHILOX4X64) {
    const nf_uint64 a = (nf_uint64)(index + p.offset);
    if constexpr (Form == NF_BITS64) return nf_random_word64<Engine>(p, p.first + a);
    if constexpr (Form == NF_UNIT_DOUBLE) return nf_unit_double(nf_random_word64<Engine>(p, p.first + a));
    if constexpr (Form == NF_BITS32) return nf_random_half(p, a);
    if constexpr (Form == NF_UNIT_FLOAT) return nf_unit_float(nf_random_half(p, a));
    if constexpr (Form == NF_NORMAL_DOUBLE || Form == NF_NORMAL_FLOAT) {
      // A pair of normals from two words.
      const nf_uint64 w = p.first + (a / 2) * 2;
      const double u1 = (double)((nf_random_word64<Engine>(p, w) >> 11) + 1) * (1.0 / 9007199254740992.0);
      const double u2 = nf_unit_double(nf_random_word64<Engine>(p, w + 1));
      const double z = nf_box_muller(u1, u2, (int)(a % 2));
      if constexpr (Form == NF_NORMAL_FLOAT)
        return (float)z;
      else
        return z;
    }
  } else {
    constexpr int per = nf_random_per_block(Form);
    // a / per and a % per as shifts of an offset known at compile time: in a vectorized loop the
    // lanes of one vector then share one block (the compiler sees equal block numbers) and compute
    // it once.
    const nf_uint64 a = (nf_uint64)index + Residue;
    constexpr int shift = per == 4 ? 2 : 1;
    return nf_random_from_block32<Form>(nf_random_block32(p, a >> shift), (int)(a & (per - 1)));
  }
}

#endif  // NF_RANDOM_CUH
