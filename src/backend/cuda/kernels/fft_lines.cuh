// The kernel of the two-pass FFT (four_step_fft.cu): each block transforms B lines of L <= 4096
// points, each line held 16 points a thread in registers, through Stockham stages of radix 16 (the
// first one smaller when log2 L is not a multiple of 4) that exchange points in shared memory.
//
// A line's points may lie at any stride: the column pass of the four-step split reads and writes
// columns of a row-major matrix. The B lines of a block are neighbouring columns, so each row of a
// strided access is B points side by side: with B = 2 and complex128, one whole 32-byte sector. A
// sector written in part costs the L2 a read of the rest from memory (B = 1 made the passes of a
// 2^24-point transform 2.4 and 3.6 times slower on an H100; research/fft_two_pass.cu).
//
// Device code only; research/fft_two_pass.cu includes it as well.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "backend/cuda/kernels/device_complex.cuh"  // add, sub; real_t

namespace ndfuse::backend::cuda::fft_lines {

// a * w, or a * conj(w) for the inverse transform (the tables hold the forward twiddles). Not
// device_complex.cuh's mul(a, w): its imaginary part sums the products in the other order, and with
// it the 2^24-point column pass took 347-348 us against 334-335 on an H100, same run.
template <bool inv, class V>
__device__ __forceinline__ V twiddle(V a, V w) {
  if constexpr (inv) return {a.x * w.x + a.y * w.y, a.y * w.x - a.x * w.y};
  return {a.x * w.x - a.y * w.y, a.y * w.x + a.x * w.y};
}

// a * W_16^e16 (forward: exp(-2 pi i e16 / 16)) for a compile-time e16 in [0, 8): the twiddles
// inside a radix-16 butterfly, constants in the instruction stream.
template <int e16, bool inv, class V>
__device__ __forceinline__ V rotate16(V a) {
  using R = real_t<V>;
  constexpr double cos16[8] = {
      1.0, 0.92387953251128675613,  0.70710678118654752440,  0.38268343236508977173,
      0.0, -0.38268343236508977173, -0.70710678118654752440, -0.92387953251128675613};
  constexpr double sin16[8] = {0.0, 0.38268343236508977173, 0.70710678118654752440, 0.92387953251128675613,
                               1.0, 0.92387953251128675613, 0.70710678118654752440, 0.38268343236508977173};
  if constexpr (e16 == 0) {
    return a;
  } else if constexpr (e16 == 4) {  // -i (forward), i (inverse): no multiply
    if constexpr (inv) return {-a.y, a.x};
    return {a.y, -a.x};
  } else {
    const R c = R(cos16[e16]), s = R(sin16[e16]);
    if constexpr (inv) return {a.x * c - a.y * s, a.y * c + a.x * s};
    return {a.x * c + a.y * s, a.y * c - a.x * s};
  }
}

__host__ __device__ constexpr int log2i(int n) {
  return n <= 1 ? 0 : 1 + log2i(n / 2);
}
__host__ __device__ constexpr int bit_reverse(int i, int bits) {
  int r = 0;
  for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
  return r;
}

// f(index<i>{}) for i < N. Indices into a register array must be compile-time constants, or the
// array moves to local memory.
template <int i>
struct index {
  __host__ __device__ constexpr operator int() const { return i; }
};
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
  [&]<int... i>(std::integer_sequence<int, i...>) {
    (f(index<i>{}), ...);
  }
  (std::make_integer_sequence<int, N>{});
}

// In-place DFT of the R points v[base + q * step], q < R, natural order in and out: radix-2
// decimation in frequency, then the bit reversal, which unrolled is only a renaming of registers.
template <int R, int step, int base, bool inv, class V>
__device__ __forceinline__ void dft(V (&v)[16]) {
  static_for<log2i(R)>([&](auto h) {
    constexpr int half = R >> (h + 1);
    static_for<R / (2 * half)>([&](auto blk) {
      static_for<half>([&](auto k) {
        V& a = v[base + (2 * half * blk + k) * step];
        V& b = v[base + (2 * half * blk + k + half) * step];
        const V diff = sub(a, b);
        a = add(a, b);
        b = rotate16<(k * (R / (2 * half))) * 16 / R, inv>(diff);
      });
    });
  });
  V t[R];
  static_for<R>([&](auto q) { t[q] = v[base + q * step]; });
  static_for<R>([&](auto q) { v[base + bit_reverse(q, log2i(R)) * step] = t[q]; });
}

constexpr int points_per_thread = 16;
__host__ __device__ constexpr int stages(int L) {
  return (log2i(L) + 3) / 4;
}
__host__ __device__ constexpr int first_radix(int L) {
  return L >> (4 * (stages(L) - 1));
}
// A line's place in shared memory: one pad point every 16 (a stage's 16-apart writes fall in
// different banks), and 4 more so that two lines' same rows fall in different banks.
template <int L>
constexpr int line_stride = L + L / 16 + 4;
__device__ __forceinline__ int pad(int i) {
  return i + (i >> 4);
}

// One Stockham stage of radix r over a line of L points whose sub-transforms of Ns points are done.
// Thread t does butterflies j = t + u * T (u < 16 / r); its q-th point is v[u + q * 16 / r], line
// index j + q * L / r, twiddled by W_{Ns r}^{(j mod Ns) q}; its q-th output belongs at line index
// (j / Ns) * Ns * r + j mod Ns + q * Ns.
template <int L, int r, int Ns, bool inv, class V>
__device__ __forceinline__ void butterflies(V (&v)[16], int t, const V* __restrict__ w_line) {
  constexpr int T = L / points_per_thread, per = points_per_thread / r;
  static_for<per>([&](auto u) {
    const int j = t + u * T;
    if constexpr (Ns > 1)
      static_for<r - 1>([&](auto q1) {
        constexpr int q = q1 + 1;
        v[u + q * per] = twiddle<inv>(v[u + q * per], w_line[(j % Ns) * q * (L / (Ns * r))]);
      });
    dft<r, per, u, inv>(v);
  });
}

// Puts the stage's outputs where they belong and reads back the next stage's inputs, v[i] = line
// index t + i * T (the pattern of every stage's reads, and of the last stage's outputs).
template <int L, int r, int Ns, bool first, class V>
__device__ __forceinline__ void exchange(V (&v)[16], int t, V* sh) {
  constexpr int T = L / points_per_thread, per = points_per_thread / r;
  if constexpr (!first) __syncthreads();  // the stage before has read its points
  static_for<per>([&](auto u) {
    const int j = t + u * T;
    const int d = (j / Ns) * Ns * r + j % Ns;
    static_for<r>([&](auto q) { sh[pad(d + q * Ns)] = v[u + q * per]; });
  });
  __syncthreads();
  static_for<points_per_thread>([&](auto i) { v[i] = sh[pad(t + i * T)]; });
}

// A load that has L2 fetch the 128 bytes around the point rather than its 32-byte sector: the
// blocks of the neighbouring lines, which run at the same time, find their points of a strided row
// there (on an H100, the 2^24-point column pass took 340 us with it and 377 without).
template <class V>
__device__ __forceinline__ V load_wide(const V* p) {
  V r;
  if constexpr (sizeof(V) == 16)
    asm("ld.global.nc.L2::128B.v2.f64 {%0, %1}, [%2];" : "=d"(r.x), "=d"(r.y) : "l"(p));
  else
    asm("ld.global.nc.L2::128B.v2.f32 {%0, %1}, [%2];" : "=f"(r.x), "=f"(r.y) : "l"(p));
  return r;
}

template <class V>
struct twiddles {
  const V* line;    // W_L^i, i < L
  const V* coarse;  // W_N^(c F), c < N / F (four-step pass only)
  const V* fine;    // W_N^f, f < F = 2^fine_bits
  int fine_bits;
};

template <int L, int B>
constexpr int threads = (L / points_per_thread) * B;
template <class V, int L, int B>
constexpr int shared_bytes = int(sizeof(V)) * (B * line_stride<L>);

// Transforms B lines a block, blockIdx.y the batch item: line l's point i at in[l * in_ls + i *
// in_es], its output k written to out[l * out_ls + k * out_es], times W_N^(l k) when four_step.
// At most 128 registers a thread, so that with B * L = 4096 two blocks share a multiprocessor.
template <class V, int L, int B, bool inv, bool four_step>
__global__ __launch_bounds__(threads<L, B>, (B * L >= 8192 ? 1 : 8192 / (B * L))) void transform_lines(
    const V* __restrict__ in, V* __restrict__ out, long long in_es, long long in_ls, long long out_es,
    long long out_ls, long long item, twiddles<V> tw) {
  constexpr int T = L / points_per_thread, S = stages(L), r0 = first_radix(L);
  extern __shared__ unsigned char shared_raw[];
  const int b = threadIdx.x % B, t = threadIdx.x / B;  // neighbouring threads: neighbouring lines
  V* sh = reinterpret_cast<V*>(shared_raw) + b * line_stride<L>;
  const long long line = (long long)blockIdx.x * B + b;
  const V* src = in + blockIdx.y * item + line * in_ls;
  V v[points_per_thread];
  static_for<points_per_thread>([&](auto i) { v[i] = load_wide(src + (t + i * T) * in_es); });
  butterflies<L, r0, 1, inv>(v, t, tw.line);
  if constexpr (S > 1) {  // exchange<radix, Ns> of the stage that just ran
    exchange<L, r0, 1, true>(v, t, sh);
    butterflies<L, 16, r0, inv>(v, t, tw.line);
  }
  if constexpr (S > 2) {
    exchange<L, 16, r0, false>(v, t, sh);
    butterflies<L, 16, r0 * 16, inv>(v, t, tw.line);
  }
  static_assert(S <= 3, "lines of at most 4096 points");
  V* dst = out + blockIdx.y * item + line * out_ls;
  static_for<points_per_thread>([&](auto i) {
    const long long k = t + i * T;
    V x = v[i];
    if constexpr (four_step) {
      // W_N^m = W_N^(F floor(m / F)) W_N^(m mod F): two table entries, each correctly rounded.
      const long long m = line * k;
      const V c = tw.coarse[m >> tw.fine_bits], f = tw.fine[m & ((1ll << tw.fine_bits) - 1)];
      x = twiddle<inv>(x, twiddle<false>(c, f));
    }
    dst[k * out_es] = x;
  });
}

}  // namespace ndfuse::backend::cuda::fft_lines
