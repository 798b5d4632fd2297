// Real symmetric eigenproblems of stacks of 17 x 17 to 32 x 32 matrices (eigh and eigvalsh): two-sided
// cyclic Jacobi with the matrix and its eigenvectors in registers, one warp a matrix. Where the
// shared-memory kernel of small_eigh.cu is bound by shared-memory traffic (each lane loads and
// stores ~96 elements a step), no element of A or V touches memory here between the input and the
// output. On an H100, 10000 float64 32 x 32 matrices with vectors: 2.15 ms, against syevjBatched's
// 5.54 (with the copy of the stack it overwrites) and small_eigh.cu's 7.10; float32 0.945 against
// 2.73 and 2.91 (research/eigh_registers.cu, which has the method's derivation and timings).
//
// The method is small_eigh.cu's (Golub & Van Loan 8.5: each step rotates disjoint pairs (p, q) by the
// J that zeroes a_pq, A <- J^T A J, V <- V J, while |a_pq| > eps sqrt|a_pp a_qq|; done after a sweep
// with no rotation), in another layout:
// - The matrix is padded to 32 with zero rows and columns; a pair with a padding index has a_pq = 0
//   and never rotates. Lane L holds row L of A in "position space" in XOR order, a[j] = A[L][L ^ j], so
//   the diagonal is register 0 on every lane, and row L of V as it is. Every index into a[] and v[] is
//   a compile-time constant once unrolled, so both stay in registers (no local memory).
// - A step of distance D = 2^b pairs positions x and x ^ D: a_pq is register D, the partner's
//   diagonal one shuffle away. Both lanes of a pair compute the same rotation; the pair's lower lane
//   writes (c, t) to a 16-entry shared table (two buffers: one __syncwarp a step), from which every
//   lane rotates its register pairs of columns (B = A J), then rows with the partner's B row by
//   shuffle (A' = J^T B), then V's columns (V J).
// - Between groups of K = 2 steps (distances 1 and 2), positions are permuted, A <- P^T A P and V <- V
//   P, with P the linear map x -> alpha^K x of GF(32) = GF(2)[x] / (x^5 + x^2 + 1) (alpha = x is
//   primitive): linearity keeps the XOR layout's indices compile-time (new lane L's register j is old
//   lane sigma(L)'s register sigma(j)). After r permutations position x holds index alpha^(K r) x, so
//   step b of group r pairs the indices whose XOR is alpha^(K r + b): 31 steps meet every pair once
//   (checked at compile time below). K = 1, 4 and 5 were slower (one permutation a step costs register
//   moves; longer groups larger code).
// A matrix holding a NaN or an infinity is not iterated (a NaN pair never rotates, and the rest would
// converge to finite garbage): its eigenvalues and vectors are NaN, with info 0. NumPy 2.5 returns
// NaNs for such a 32 x 32 matrix and raises for an 8 x 8 one (LAPACK decides); NaNs are the answer
// that holds at every size. 40 sweeps without convergence give info 1.
#include <cfloat>
#include <climits>
#include <cstdint>

#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/jacobi_rotation.cuh"
#include "backend/cuda/vendor/cusolver.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

constexpr int steps_per_group = 2;  // K
constexpr int stage_ld = 33;        // staging rows, an odd number apart (no bank conflicts down a column)

// GF(32) arithmetic for the tournament.
__host__ __device__ constexpr int gf_mul(int a, int b) {
  int r = 0;
  for (int i = 0; i < 5; ++i)
    if (b >> i & 1) r ^= a << i;
  for (int i = 9; i >= 5; --i)
    if (r >> i & 1) r ^= 0x25 << (i - 5);
  return r;
}
__host__ __device__ constexpr int gf_pow(int a, int e) {
  int r = 1;
  for (int i = 0; i < e; ++i) r = gf_mul(r, a);
  return r;
}
// The pair's slot (0..15) of position x in a step of distance 2^b: x without bit b. Linear in x.
__host__ __device__ constexpr int compress(int x, int b) {
  return ((x >> (b + 1)) << b) | (x & ((1 << b) - 1));
}

// Whether every pair of indices meets exactly once in each of the first sweeps of the K-step schedule.
constexpr bool tournament_meets_every_pair_once(int K) {
  const int sig = gf_pow(2, K), full = 31 / K, rem = 31 % K, groups = full + (rem ? 1 : 0);
  int tau[32] = {};
  for (int x = 0; x < 32; ++x) tau[x] = x;
  for (int sweep = 0; sweep < 3; ++sweep) {
    int met[32][32] = {};
    for (int r = 0; r < groups; ++r) {
      for (int b = 0; b < K; ++b) {
        if (!(r < full || b < rem)) continue;
        for (int x = 0; x < 32; ++x)
          if (const int y = x ^ (1 << b); x < y) ++met[tau[x]][tau[y]], ++met[tau[y]][tau[x]];
      }
      int next[32] = {};
      for (int x = 0; x < 32; ++x) next[x] = tau[gf_mul(x, sig)];
      for (int x = 0; x < 32; ++x) tau[x] = next[x];
    }
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j)
        if (i != j && met[i][j] != 1) return false;
  }
  return true;
}
static_assert(tournament_meets_every_pair_once(steps_per_group));

// A pair's rotation as the table holds it: c and t = s / c (x' = c (x - t y), y' = c (y + t x)).
template <class T>
struct __align__(2 * sizeof(T)) rotation_cs {
  T c, t;
};

// -x where sign_bit is the sign bit, x where it is 0 (an integer op, not a floating-point one).
__device__ __forceinline__ double flip_sign(double x, unsigned sign_bit) {
  return __hiloint2double(__double2hiint(x) ^ int(sign_bit), __double2loint(x));
}
__device__ __forceinline__ float flip_sign(float x, unsigned sign_bit) {
  return __int_as_float(__float_as_int(x) ^ int(sign_bit));
}

template <class T>
struct slow_rotation {
  T c, t;
  bool rot;
};
// small_eigh.cu's test and formulas, out of line: only pairs with entries below 2^-250 (2^-60 in
// float32) come here (the matrix is scaled to a largest entry near 1 first), and the loop's code
// stays smaller.
template <class T>
__device__ __noinline__ slow_rotation<T> rotation_slow(T app, T aqq, T g) {
  constexpr T eps = epsilon_of<T>();
  slow_rotation<T> r{1, 0, g > eps * sqrt(fabs(app)) * sqrt(fabs(aqq))};
  if (r.rot) {
    const T tau = (aqq - app) / (2 * g);
    r.t = copysign(T(1) / (fabs(tau) + hypot(T(1), tau)), tau);
    r.c = T(1) / sqrt(1 + r.t * r.t);
  }
  return r;
}

// The rotation of a pair from its diagonal app, aqq and off-diagonal apq (g = |apq|), both lanes of
// the pair alike: whether it rotates, c, st = s / c with apq's sign folded in (J[p][q] = c st,
// J[q][p] = -c st), and t g (the diagonal moves by it). With every magnitude well inside the
// exponent range the test is squared, g^2 > eps^2 |app aqq| (it differs from small_eigh.cu's only
// within rounding of the threshold), and t = sign(d) 2g / (|d| + sqrt(d^2 + 4 g^2)), d = aqq - app,
// which is small_eigh.cu's t = sign(tau) / (|tau| + hypot(1, tau)), tau = d / 2g, without hypot and a
// division; c = rsqrt(1 + t^2).
template <class T>
__device__ __forceinline__ bool rotation(T app, T aqq, T apq, T& c, T& st, T& tg) {
  constexpr T eps = epsilon_of<T>();
  constexpr T hi = sizeof(T) == 8 ? T(0x1p250) : T(0x1p60f), lo = sizeof(T) == 8 ? T(0x1p-250) : T(0x1p-60f);
  const T g = fabs(apq), mpp = fabs(app), mqq = fabs(aqq);
  // An exact zero (every pair with a padding index, and entries that start at zero) never rotates:
  // sent down the out-of-line path, it made n = 30 and 31 take 2.8-2.9 ms against 32's 2.1.
  const bool fast = (g == 0 || (g > lo && g < hi)) && mpp < hi && mqq < hi;
  bool rot = g * g > (eps * eps) * (mpp * mqq);
  T t = 0;
  c = 1;
  if (fast) {
    if (rot) {
      const T d = aqq - app;
      t = copysign((2 * g) / (fabs(d) + sqrt(d * d + 4 * g * g)), d);
      c = rsqrt(1 + t * t);
    }
  } else {
    const slow_rotation<T> r = rotation_slow(app, aqq, g);
    rot = r.rot, c = r.c, t = r.t;
  }
  tg = t * g;
  st = apq < 0 ? -t : t;
  return rot;
}

// One step of distance D = 2^B: positions x and x ^ D pair. tables: the block's (c, t) tables as
// bytes; tb: the byte offset of this warp's buffer for this step (toggled here between the two).
template <int B, bool Vectors, class T>
__device__ __forceinline__ void jacobi_step(T (&a)[32], T (&v)[32], unsigned char* tables, unsigned& tb,
                                            int lane, bool& rotated) {
  constexpr int D = 1 << B;
  constexpr unsigned E = sizeof(rotation_cs<T>);
  const bool low = !(lane & D);  // the pair's p (its q is lane ^ D)
  const T partner_diag = __shfl_xor_sync(~0u, a[0], D), partner_off = __shfl_xor_sync(~0u, a[D], D);
  const T app = low ? a[0] : partner_diag, aqq = low ? partner_diag : a[0];
  const T apq = low ? a[D] : partner_off;  // A[p][q] as row p holds it, in both lanes
  T c, st, tg;
  const bool rot = rotation(app, aqq, apq, c, st, tg);
  if (!__any_sync(~0u, rot)) return;
  rotated |= rot;
  const unsigned mine = tb + E * compress(lane, B);  // this lane's pair's entry; others are XORs of it
  auto entry = [&](unsigned offset) { return *reinterpret_cast<const rotation_cs<T>*>(tables + offset); };
  if (low) *reinterpret_cast<rotation_cs<T>*>(tables + mine) = {c, st};
  __syncwarp();
  // Column p becomes c (x_p - t x_q) and column q c (x_q + t x_p). Register j holds column lane ^ j,
  // which is its pair's p where lane is: the higher lane sees its pairs the other way round, so its
  // t flips sign. A column's factor c is left for the row update: both rows of a pair hold the
  // column with the same factor, so it multiplies the row's own c there.
  const unsigned sign_bit = low ? 0u : 0x80000000u;
  const T tl = flip_sign(st, sign_bit);
  T scale[32];  // per register pair (j, j ^ D): c of the row's pair times c of the columns' pair
#pragma unroll
  for (int j = 1; j < 32; ++j) {
    if (j & D) continue;
    const rotation_cs<T> e = entry(mine ^ (E * compress(j, B)));
    const T et = flip_sign(e.t, sign_bit);
    const T x = a[j], y = a[j ^ D];
    a[j] = fma(-et, y, x);
    a[j ^ D] = fma(et, x, y);
    scale[j] = c * e.c;
  }
  // Rows: row p becomes c (B_p - t B_q), row q c (B_q + t B_p). The partner's register j ^ D is
  // column lane ^ j.
#pragma unroll
  for (int j = 1; j < 32; ++j) {
    if (j & D) continue;
    const T pj = __shfl_xor_sync(~0u, a[j ^ D], D), pjd = __shfl_xor_sync(~0u, a[j], D);
    a[j] = scale[j] * fma(-tl, pj, a[j]);
    a[j ^ D] = scale[j] * fma(-tl, pjd, a[j ^ D]);
  }
  if (rot) {  // the 2 x 2 block exactly: app - t g, aqq + t g and zeros
    a[0] = low ? app - tg : aqq + tg;
    a[D] = T(0);
  }
  if constexpr (Vectors) {
#pragma unroll
    for (int x = 0; x < 32; ++x) {
      if (x & D) continue;
      const rotation_cs<T> e = entry(tb + E * compress(x, B));
      const T p = v[x], q = v[x ^ D];
      const T u = fma(-e.t, q, p), w = fma(e.t, p, q);
      v[x] = e.c * u;
      v[x ^ D] = e.c * w;
    }
  }
  tb ^= 16 * E;  // the other buffer next time: one __syncwarp a step suffices
}

// A <- P^T A P, V <- V P: position x takes what position sigma(x) held.
template <bool Vectors, class T>
__device__ __forceinline__ void permute(T (&a)[32], T (&v)[32], int& orig, int source) {
  constexpr int sig = gf_pow(2, steps_per_group);
  T na[32];
#pragma unroll
  for (int j = 0; j < 32; ++j) na[j] = __shfl_sync(~0u, a[gf_mul(j, sig)], source);
#pragma unroll
  for (int j = 0; j < 32; ++j) a[j] = na[j];
  if constexpr (Vectors) {
    T nv[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) nv[j] = v[gf_mul(j, sig)];
#pragma unroll
    for (int j = 0; j < 32; ++j) v[j] = nv[j];
  }
  orig = __shfl_sync(~0u, orig, source);
}

template <class T>
struct warp_shared {
  T stage[32 * stage_ld];
  int order[32];
};

// Matrix src's named triangle (LAPACK reads only that one), coalesced, mirrored through the staging
// rows into a[] (lane's row, XOR order, padded with zeros) and v[] (the identity). Whether it is
// finite; if not, a[0] and v[] are NaN.
template <class T>
__device__ __forceinline__ bool load_matrix(const T* src, int n, bool lower, warp_shared<T>& sh, T (&a)[32],
                                            T (&v)[32], int lane) {
  for (int e = lane; e < n * n; e += 32) {
    const int i = e / n, j = e - i * n;
    if (lower ? i < j : i > j) continue;
    const T x = src[e];
    sh.stage[i * stage_ld + j] = x;
    sh.stage[j * stage_ld + i] = x;
  }
  __syncwarp();
#pragma unroll
  for (int j = 0; j < 32; ++j) {
    const int col = lane ^ j;
    a[j] = lane < n && col < n ? sh.stage[lane * stage_ld + col] : T(0);
    v[j] = T(j == lane);
  }
  bool bad = false;
#pragma unroll
  for (int j = 0; j < 32; ++j) bad |= !isfinite(a[j]);
  const bool finite = !__any_sync(~0u, bad);
  if (!finite) {
    a[0] = T(NAN);
#pragma unroll
    for (int j = 0; j < 32; ++j) v[j] = T(NAN);
  }
  return finite;
}

// The matrix's eigenvalues into w (ascending, NaN last) and, with vectors, eigenvector k into row k
// of out. Position lane's eigenvalue is a[0], its eigenvector column lane of V, orig the index it
// holds; ranked among the matrix's own indices (not padding) by counting.
template <class T, bool Vectors>
__device__ __forceinline__ void store_results(T* w, T* out, int n, warp_shared<T>& sh, const T (&a)[32],
                                              const T (&v)[32], int orig, int lane) {
  const T d = a[0];
  int rank = 0;
  for (int j = 0; j < 32; ++j) {
    const T dj = __shfl_sync(~0u, d, j);
    const int oj = __shfl_sync(~0u, orig, j);
    rank += oj < n && eigenvalue_before(dj, oj, d, orig);
  }
  __syncwarp();  // every lane's reads of the staging rows (the input) are done
  if (orig < n) {
    sh.order[rank] = lane;
    w[rank] = d;
  }
  if constexpr (Vectors) {
#pragma unroll
    for (int j = 0; j < 32; ++j) sh.stage[lane * stage_ld + j] = v[j];
    __syncwarp();
    for (int e = lane; e < n * n; e += 32) {  // eigenvector k in row k: (k, i) is V[i][order[k]]
      const int k = e / n, i = e - k * n;
      out[e] = sh.stage[i * stage_ld + sh.order[k]];
    }
  }
}

// One warp a block, a block a matrix. (A grid-stride loop over matrices took float32's kernel from
// 113 registers to 146, fewer warps an SM; a stack that could outgrow a grid would not fit in memory.)
template <class T, bool Vectors>
__global__ __launch_bounds__(32, 8) void eigh_registers(const T* in, T* w, T* vectors, int* info, int n,
                                                        bool lower, int max_sweeps) {
  constexpr unsigned E = sizeof(rotation_cs<T>);
  __shared__ warp_shared<T> sh;
  // Two (c, t) tables of 16, 32 E bytes aligned to 32 E: an entry's byte offset XOR another slot's
  // is that slot's entry, and XOR 16 E the other buffer.
  __shared__ __align__(32 * E) unsigned char tables[32 * E];
  const int lane = threadIdx.x;
  const std::int64_t m = blockIdx.x;
  const int source = gf_mul(lane, gf_pow(2, steps_per_group));
  constexpr int full = 31 / steps_per_group, rem = 31 % steps_per_group;  // a sweep's groups
  T a[32], v[32];
  const bool finite = load_matrix(in + m * n * n, n, lower, sh, a, v, lane);
  // Into range (jacobi_rotation.cuh's even_range_exponent says why); the out-of-line rotation then
  // serves only entries far below the largest.
  T big = 0;
#pragma unroll
  for (int j = 0; j < 32; ++j) big = fmax(big, fabs(a[j]));
  for (int off = 16; off > 0; off /= 2) big = fmax(big, __shfl_xor_sync(~0u, big, off));
  const int e2 = finite ? even_range_exponent(big) : 0;
  if (e2 != 0)
#pragma unroll
    for (int j = 0; j < 32; ++j) a[j] = ldexp(a[j], -e2);
  int orig = lane;  // the index this lane's position holds
  unsigned tb = 0;
  bool converged = !finite;
  for (int sweeps = 0; finite && sweeps < max_sweeps; ++sweeps) {
    bool rotated = false;
    for (int r = 0; r < full; ++r) {
      jacobi_step<0, Vectors>(a, v, tables, tb, lane, rotated);
      jacobi_step<1, Vectors>(a, v, tables, tb, lane, rotated);
      permute<Vectors>(a, v, orig, source);
    }
    if constexpr (rem > 0) {
      jacobi_step<0, Vectors>(a, v, tables, tb, lane, rotated);
      permute<Vectors>(a, v, orig, source);
    }
    if (!__any_sync(~0u, rotated)) {
      converged = true;
      break;
    }
  }
  a[0] = ldexp(a[0], e2);
  store_results<T, Vectors>(w + m * n, Vectors ? vectors + m * n * n : nullptr, n, sh, a, v, orig, lane);
  if (lane == 0) info[m] = converged ? 0 : 1;
}

template <class T>
void eigh_registers_as(std::int64_t count, std::int64_t n, const void* a, bool lower, void* w, void* v,
                       int* info) {
  // One block a matrix: 2^31 - 1 of the smallest (17 x 17 float32) would take 2.5 TB.
  if (count > std::int64_t(INT_MAX)) throw error("eigh: a stack of more than 2^31 - 1 matrices");
  const auto blocks = static_cast<unsigned>(count);
  const T* in = static_cast<const T*>(a);
  const int max_sweeps = jacobi_sweep_limit();
  if (v)
    eigh_registers<T, true><<<blocks, 32, 0, current_stream()>>>(in, static_cast<T*>(w), static_cast<T*>(v),
                                                                 info, int(n), lower, max_sweeps);
  else
    eigh_registers<T, false><<<blocks, 32, 0, current_stream()>>>(in, static_cast<T*>(w), nullptr, info,
                                                                  int(n), lower, max_sweeps);
  check(cudaGetLastError(), "eigh_registers");
}

}  // namespace

bool register_kernel_eigh(dtype dt, std::int64_t n) {
  return n <= 32 && ((dt == dtype::float64 && n >= 21) || (dt == dtype::float32 && n >= 17));
}

void eigh_register_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, bool lower, void* w,
                         void* vectors, int* info) {
  if (count == 0 || n == 0) return;
  if (dt == dtype::float64)
    eigh_registers_as<double>(count, n, a, lower, w, vectors, info);
  else if (dt == dtype::float32)
    eigh_registers_as<float>(count, n, a, lower, w, vectors, info);
  else
    throw dtype_error("eigh: the register kernel takes float32 and float64, not " +
                      std::string(dtype_name(dt)));
}

}  // namespace ndfuse::backend::cuda
