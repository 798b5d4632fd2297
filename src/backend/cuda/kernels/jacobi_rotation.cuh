// The pieces both Jacobi kernels share (small_eigh.cu, two-sided, and small_svd.cu, one-sided): the
// round-robin order of the pairs and the plane rotation of one pair. nvcc-only.
#pragma once
#include <cfloat>

#include "backend/cuda/kernels/device_complex.cuh"
#include "backend/cuda/kernels/range_exponent.cuh"

namespace ndfuse::backend::cuda {

template <class R>
__device__ constexpr R epsilon_of() {
  return sizeof(R) == 4 ? R(FLT_EPSILON) : R(DBL_EPSILON);
}
template <class R>
__device__ constexpr R smallest_normal_of() {
  return sizeof(R) == 4 ? R(FLT_MIN) : R(DBL_MIN);
}

// even_range_exponent (range_exponent.cuh) scales each matrix into range first.

// Each Jacobi kernel takes the sweeps it may make before it gives up (info 1) as its max_sweeps
// argument: jacobi_sweep_limit() (cusolver.hpp).

// NumPy's order of eigenvalues: ascending, a NaN after everything, ties by index.
template <class R>
__device__ bool eigenvalue_before(R a, int i, R b, int j) {
  if (isnan(a) || isnan(b)) return isnan(a) == isnan(b) ? i < j : !isnan(a);
  return a < b || (a == b && i < j);
}

// The round-robin over m (even) indices: in step r, index m - 1 stays put and meets r, and the others
// pair as i + j = 2r modulo m - 1, so m - 1 steps (a sweep) meet every pair once. `partner` is index
// i's in step r; `pair_of` is the t-th pair (t < m / 2), so a loop over pairs visits each once.
__device__ inline int wrap(int j, int m) {
  return j < 0 ? j + (m - 1) : j >= m - 1 ? j - (m - 1) : j;
}
__device__ inline int partner(int i, int r, int m) {
  if (i == m - 1) return r;
  if (i == r) return m - 1;
  return wrap(2 * r - i, m);
}
__device__ inline void pair_of(int t, int r, int m, int& j, int& k) {
  j = t == 0 ? m - 1 : wrap(r + t, m);
  k = t == 0 ? r : wrap(r - t, m);
}

// The rotation J of the pair p < q that diagonalizes the Hermitian 2 x 2 [[app, apq], [conj(apq),
// aqq]] as J^H G J, for |apq| = g > 0: J[p][p] = J[q][q] = c, J[p][q] = s u, J[q][p] = -s conj(u),
// with u = apq / g its phase and t = s / c the smaller root (|t| <= 1, the angle below pi / 4) of
// t^2 + 2 tau t - 1 = 0, tau = (aqq - app) / 2g, taken without overflow. A column (or row) x of the
// pair becomes c x + o y, y the other one of the pair: o is J[q][p] for index p, J[p][q] for q.
// The rotated diagonal is app - t g, aqq + t g.
template <class T>
struct plane_rotation {
  real_t<T> c, t;
  T o_low, o_high;  // o of the pair's lower index p, and of its higher one q
};
template <class T>
__device__ plane_rotation<T> jacobi_rotation(real_t<T> app, real_t<T> aqq, T apq, real_t<T> g) {
  using R = real_t<T>;
  const R tau = (aqq - app) / (2 * g);
  const R t = copysign(R(1) / (fabs(tau) + hypot(R(1), tau)), tau);
  const R c = R(1) / sqrt(1 + t * t), s = t * c;
  const T u = mul(R(1) / g, apq);
  return {c, t, sub(from_real<T>(R(0)), mul(s, conj(u))), mul(s, u)};
}

// Entries [r0, r1), `stride` apart, of a pair's two lines x (of the lower index) and y: columns as
// X J or V J, (x, y) <- (c x + o_low y, c y + o_high x), or with Conj rows as J^H B, (x, y) <- (c x +
// conj(o_low) y, c y + conj(o_high) x). Entries skip0 and skip1 are left as they are. Four at a time,
// every load before any store: the compiler cannot tell x's entries from y's, and one entry after
// another would wait out shared memory's latency for each.
template <bool Conj = false, class T>
__device__ void rotate_pair(T* x, T* y, int stride, int r0, int r1, const plane_rotation<T>& j,
                            int skip0 = -1, int skip1 = -1) {
  constexpr int chunk = 4;
  const T ol = Conj ? conj(j.o_low) : j.o_low, oh = Conj ? conj(j.o_high) : j.o_high;
  for (int i0 = r0; i0 < r1; i0 += chunk) {
    T a[chunk], b[chunk];
#pragma unroll
    for (int u = 0; u < chunk; ++u)
      if (i0 + u < r1) a[u] = x[(i0 + u) * stride], b[u] = y[(i0 + u) * stride];
#pragma unroll
    for (int u = 0; u < chunk; ++u) {
      const int i = i0 + u;
      if (i < r1 && i != skip0 && i != skip1) {
        x[i * stride] = add(mul(j.c, a[u]), mul(ol, b[u]));
        y[i * stride] = add(mul(j.c, b[u]), mul(oh, a[u]));
      }
    }
  }
}

}  // namespace ndfuse::backend::cuda
