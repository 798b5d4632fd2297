// Singular value decompositions of stacks of small matrices (svd and svdvals of m, n <= 32): one-sided
// Jacobi in shared memory, a warp's lanes working on one to thirty-two matrices side by side.
//
// Why not cuSOLVER's gesvdjBatched: on an H100 it took 8.3 ms for 10000 8 x 8 float64 matrices (CuPy
// calls it too), where this kernel takes 0.13 (research/svd_batched.cu, faster at every
// shape and dtype timed there); it also wants the stack copied (it overwrites it) or transposed
// first, and its factors transposed after.
//
// The method (Hestenes; Demmel and Veselic', "Jacobi's method is more accurate than QR"; LAPACK's
// gesvj): X is the matrix made tall, A itself or A^H for a wide A (M >= N). Each step takes N / 2
// disjoint pairs of columns in the round-robin order of jacobi_rotation.cuh and rotates each pair,
// (x_p, x_q) <- (x_p, x_q) J and V <- V J, by the J that makes the two orthogonal: the Jacobi rotation
// of their Gram matrix [[x_p^H x_p, x_p^H x_q], [x_q^H x_p, x_q^H x_q]]. A pair is rotated only while
// |x_p^H x_q| > M eps ||x_p|| ||x_q||: a cosine the dot product's own rounding (up to M eps) cannot
// have made, so rounding noise never keeps a matrix turning. The matrix is done after a sweep with no
// rotation; then X V = U S with orthogonal columns, s_j = ||x_j|| and u_j = x_j / s_j, and
// A = U S V^H (or its conjugate transpose). Small singular values come out with a small relative
// error, not only one relative to the largest, which is what matrix_rank and pinv's cut-offs want.
//
// Layout: one matrix per segment of `seg` lanes (N rounded up to a power of two), lane j owning column
// j of X and of V, stored column by column. In a step the two lanes of a pair split the rows: the
// lower index takes the top half of both columns, the higher one the bottom half. Each sums its half
// of the three dot products, the two swap their partial sums by shuffle (so both hold the same sums,
// bit for bit, and take the same decision), and each rotates its half. No element is touched by two
// lanes within a step, so a step needs one __syncwarp.
//
// Range: each matrix is first scaled by a power of two (exact) to a largest part in [0.5, 1), so no
// square overflows, and the singular values scaled back. A column whose squared norm still underflows
// (below the smallest normal number: s_j < 1.5e-154 relative to the largest element in float64)
// had no rotation that could see it, so its direction is not trusted: it is rebuilt like the columns
// of U past N that full_matrices wants, by completing the others to an orthonormal basis. Its s_j is
// kept, measured without underflow, so the product U S V^H moves by at most 2 s_j.
//
// A NaN gives info 1 (NumPy: "SVD did not converge"); an infinity, NaN singular values (NumPy's
// gesdd gives the same).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "backend/cuda/kernels/device_complex.cuh"
#include "backend/cuda/kernels/floating_element_types.hpp"
#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/jacobi_rotation.cuh"
#include "backend/cuda/vendor/cusolver.hpp"

namespace ndfuse::backend::cuda {

namespace {

// NumPy's order for singular values: descending; ties by column, NaN last.
template <class R>
__device__ bool precedes(R a, int i, R b, int j) {
  if (isnan(a) || isnan(b)) return isnan(a) == isnan(b) ? i < j : !isnan(a);
  return a > b || (a == b && i < j);
}

// Completes the orthonormal columns of an M-row matrix u (columns ld apart) to `cols` of them: the
// columns named in `missing` (below N, in index order), then N .. cols - 1. Each new one starts from
// the unit vector e_k with the largest part outside the span so far (1 - sum_j |u_j[k]|^2, at least
// (M - rank) / M, so never a near-cancellation) and is orthogonalized twice ("twice is enough"), the
// first time in closed form: e_k - sum_j conj(u_j[k]) u_j. The whole warp works on one matrix, lane i
// on row i (M <= 32) and, for the second pass's dot products, lane j on column j. It runs for
// rank-deficient matrices and tall full_matrices only.
template <class T>
__device__ void complete_basis(T* u, int ld, int M, int N, int cols, unsigned missing, int lane) {
  using R = real_t<T>;
  const bool row = lane < M;
  unsigned good = (N == 32 ? ~0u : (1u << N) - 1) & ~missing;
  R inside = 0;  // row `lane`'s squared length inside the span of the good columns
  if (row)
    for (unsigned b = good; b; b &= b - 1) inside += abs2(u[(__ffs(int(b)) - 1) * ld + lane]);
  for (int t = 0; t < cols; ++t) {
    if (t < N && !((missing >> t) & 1)) continue;
    R rest = row ? R(1) - inside : R(-1);
    int best = lane;
    for (int off = 16; off > 0; off /= 2) {
      const R r = __shfl_xor_sync(~0u, rest, off);
      const int b = __shfl_xor_sync(~0u, best, off);
      if (r > rest || (r == rest && b < best)) rest = r, best = b;
    }
    T x = from_real<T>(R(lane == best));
    if (row)
      for (unsigned b = good; b; b &= b - 1) {
        const T* w = u + (__ffs(int(b)) - 1) * ld;
        x = sub(x, mul(conj(w[best]), w[lane]));
      }
    T* const v = u + t * ld;
    if (row) v[lane] = x;
    __syncwarp();
    T d = from_real<T>(R(0));  // lane j: u_j^H v
    if (lane < cols && ((good >> lane) & 1))
      for (int k = 0; k < M; ++k) d = add(d, mul(conj(u[lane * ld + k]), v[k]));
    for (unsigned b = good; b; b &= b - 1) {
      const int j = __ffs(int(b)) - 1;
      const T dj = shuffle(d, j);
      if (row) x = sub(x, mul(dj, u[j * ld + lane]));
    }
    R norm2 = abs2(x);
    for (int off = 16; off > 0; off /= 2) norm2 += __shfl_xor_sync(~0u, norm2, off);
    x = mul(R(1) / sqrt(norm2), x);
    __syncwarp();  // every lane's dot product has read v
    if (row) v[lane] = x, inside += abs2(x);
    good |= 1u << t;
  }
  __syncwarp();
}

template <class T>
__global__ void jacobi_svd(const T* a, real_t<T>* s_out, T* u_out, T* vh_out, int* info, int64_t count, int m,
                           int n, int seg, int per_warp, int warps, bool vectors, bool full, int max_sweeps) {
  using R = real_t<T>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const bool wide = m < n;
  const int M = wide ? n : m, N = wide ? m : n;  // X is M x N, M >= N
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int slot = lane / seg, col = lane % seg;  // slots past per_warp stay idle
  // Columns an odd number of elements apart (M or M + 1; N or N + 1): a segment's lanes, each down its
  // own column, touch different banks.
  const int ld = M | 1, ldv = N | 1;
  const int x_cols = vectors && full ? M : N;  // room for U's completion to M columns
  const int x_size = x_cols * ld, v_size = vectors ? N * ldv : 0;
  const int steps_m = N + (N & 1), per = m * n;
  const int mats_block = warps * per_warp;
  // The block's X, then their V, singular values, sort order and scaling exponents.
  T* const x_all = reinterpret_cast<T*>(shared_bytes);
  T* const v_all = x_all + mats_block * x_size;
  R* const sigma_all = reinterpret_cast<R*>(v_all + mats_block * v_size);
  int* const order_all = reinterpret_cast<int*>(sigma_all + mats_block * seg);
  int* const exponent_all = order_all + mats_block * seg;
  const int first_here = warp * per_warp;  // this warp's first matrix in the block
  T* const x_base = x_all + first_here * x_size;
  T* const v_base = v_all + first_here * v_size;
  T* const X = x_base + slot * x_size;
  T* const V = v_base + slot * v_size;
  R* const sigma = sigma_all + (first_here + slot) * seg;
  int* const order = order_all + (first_here + slot) * seg;
  const unsigned segment_bits = seg == 32 ? ~0u : (1u << seg) - 1;
  const unsigned segment_mask = segment_bits << (slot * seg);
  const R tol = R(M) * epsilon_of<R>();
  const int half = (M + 1) / 2, half_v = (N + 1) / 2;

  const int64_t stride = int64_t(gridDim.x) * warps * per_warp;
  for (int64_t first = (int64_t(blockIdx.x) * warps + warp) * per_warp; first < count; first += stride) {
    const int mats = int(min(int64_t(per_warp), count - first));
    const bool here = slot < mats && col < N;  // a column of a matrix, not padding
    // X = A or A^H, read coalesced.
    for (int e = lane; e < mats * per; e += 32) {
      const int k = e / per, r = e - k * per, i = r / n, j = r - i * n;
      const T v = a[first * per + e];
      T* const s = x_base + k * x_size;
      if (wide)
        s[i * ld + j] = conj(v);
      else
        s[j * ld + i] = v;
    }
    __syncwarp();
    // The largest part of each matrix, and the power of two 2^e that scales it into [0.5, 1).
    T* const x_mine = X + col * ld;
    R big = 0;
    bool nan_mine = false;
    if (here)
      for (int i = 0; i < M; ++i) big = fmax(big, largest_part(x_mine[i])), nan_mine |= has_nan(x_mine[i]);
    for (int off = seg / 2; off > 0; off /= 2) big = fmax(big, __shfl_xor_sync(~0u, big, off));
    const bool nan_matrix = (__ballot_sync(~0u, nan_mine) & segment_mask) != 0;
    int e2 = 0;
    if (big > 0 && isfinite(big)) frexp(big, &e2);
    if (here) {
      for (int i = 0; i < M; ++i)
        x_mine[i] = isfinite(big) ? times_power_of_two(x_mine[i], -e2) : from_real<T>(R(NAN));
      if (vectors)
        for (int i = 0; i < N; ++i) V[col * ldv + i] = from_real<T>(R(i == col));
      if (col == 0) exponent_all[first_here + slot] = e2;
    }
    __syncwarp();

    bool done = !here;  // per lane; a segment's lanes agree (they see the same rotations)
    for (int sweeps = 0; sweeps < max_sweeps && __any_sync(~0u, !done); ++sweeps) {
      bool rotated = false;
      for (int r = 0; r < steps_m - 1; ++r) {
        const int p = here ? partner(col, r, steps_m) : col;
        const bool active = !done && p < N;  // the pair's two lanes agree on this
        const int lo = min(col, p), hi = max(col, p);
        const bool top = col == lo;
        T* const x = X + lo * ld;
        T* const y = X + hi * ld;
        // This lane's half of x^H x, y^H y and x^H y, then the whole sums (the same on both lanes:
        // floating-point addition is commutative).
        R xx = 0, yy = 0;
        T xy = from_real<T>(R(0));
        if (active)
          for (int i = top ? 0 : half, end = top ? half : M; i < end; ++i) {
            const T u = x[i], v = y[i];
            xx += abs2(u), yy += abs2(v), xy = add(xy, mul(conj(u), v));
          }
        const int other = slot * seg + (active ? p : col);
        xx += shuffle(xx, other), yy += shuffle(yy, other);
        xy = add(xy, shuffle(xy, other));
        if (active) {
          const R g = magnitude_of(xy);
          if (g > tol * sqrt(xx) * sqrt(yy)) {
            const plane_rotation<T> j = jacobi_rotation(xx, yy, xy, g);
            rotate_pair(x, y, 1, top ? 0 : half, top ? half : M, j);
            if (vectors) rotate_pair(V + lo * ldv, V + hi * ldv, 1, top ? 0 : half_v, top ? half_v : N, j);
            rotated = true;
          }
        }
        __syncwarp();
      }
      if ((__ballot_sync(~0u, rotated) & segment_mask) == 0) done = true;
    }
    const bool converged = done;

    // s_j = ||x_j||, measured without underflow (x_j scaled by its own largest part first); u_j =
    // x_j / s_j, unless x_j's plain squared norm underflowed (then it is `missing`).
    bool missing = false;
    if (here) {
      R part = 0, plain = 0;
      for (int i = 0; i < M; ++i) part = fmax(part, largest_part(x_mine[i])), plain += abs2(x_mine[i]);
      int ec = 0;
      if (part > 0 && isfinite(part)) frexp(part, &ec);
      R sum = 0;
      for (int i = 0; i < M; ++i) sum += abs2(times_power_of_two(x_mine[i], -ec));
      sigma[col] = ldexp(sqrt(sum), ec);
      missing = !(plain >= smallest_normal_of<R>());
      if (vectors && !missing) {
        const R inv = R(1) / sqrt(sum);
        for (int i = 0; i < M; ++i) x_mine[i] = mul(inv, times_power_of_two(x_mine[i], -ec));
      }
    }
    const unsigned missing_cols = (__ballot_sync(~0u, missing) >> (slot * seg)) & segment_bits;
    __syncwarp();
    if (here) {
      int rank = 0;
      for (int j = 0; j < N; ++j) rank += precedes(sigma[j], j, sigma[col], col);
      order[rank] = col;
    }
    __syncwarp();
    if (vectors)
      for (int k = 0; k < mats; ++k) {
        const unsigned missing_k = __shfl_sync(~0u, missing_cols, k * seg);
        if (missing_k || x_cols > N) complete_basis(x_base + k * x_size, ld, M, N, x_cols, missing_k, lane);
      }

    // Column k of X's side in sorted order is order[k] for k < N, and k itself past N.
    for (int e = lane; e < mats * N; e += 32) {
      const int k = e / N, i = e - k * N, mat = first_here + k;
      s_out[first * N + e] = ldexp(sigma_all[mat * seg + order_all[mat * seg + i]], exponent_all[mat]);
    }
    if (vectors) {
      // X's side (M x x_cols): U as it lies for a tall A; for a wide one, Vh = its conjugate transpose.
      const int left = M * x_cols;
      for (int e = lane; e < mats * left; e += 32) {
        const int k = e / left, r = e - k * left, mat = first_here + k;
        const int i = wide ? r % M : r / x_cols, c = wide ? r / M : r % x_cols;
        const T v = x_base[k * x_size + (c < N ? order_all[mat * seg + c] : c) * ld + i];
        (wide ? vh_out : u_out)[first * left + e] = wide ? conj(v) : v;
      }
      // V's side (N x N): Vh = V^H for a tall A; for a wide one, U = V.
      const int right = N * N;
      for (int e = lane; e < mats * right; e += 32) {
        const int k = e / right, r = e - k * right, mat = first_here + k;
        const int i = wide ? r / N : r % N, c = wide ? r % N : r / N;
        const T v = v_base[k * v_size + order_all[mat * seg + c] * ldv + i];
        (wide ? u_out : vh_out)[first * right + e] = wide ? v : conj(v);
      }
    }
    if (here && col == 0) info[first + slot] = converged && !nan_matrix ? 0 : 1;
    __syncwarp();  // the next matrices reuse the shared memory
  }
}

template <class T>
void svd_small_as(std::int64_t count, std::int64_t m, std::int64_t n, const void* a, bool full, void* s,
                  void* u, void* vh, int* info) {
  using R = real_t<T>;
  const bool vectors = u != nullptr;
  const std::int64_t M = std::max(m, n), N = std::min(m, n);
  const std::int64_t x_cols = vectors && full ? M : N;
  // A matrix's X (M | 1 elements a column) and V, a singular value and a sort order a lane, and its
  // scaling exponent. A tall stack's full U takes M columns a matrix, so 32 x 1 complex128 matrices
  // (17 KiB each) run two a warp, the other lanes idle.
  const warp_packing p = pack_warps(
      N, count, sizeof(T) * std::size_t(x_cols * (M | 1) + (vectors ? N * (N | 1) : 0)) + sizeof(int),
      sizeof(R) + sizeof(int), 4);
  launch_packed("jacobi_svd", p, jacobi_svd<T>, static_cast<const T*>(a), static_cast<R*>(s),
                static_cast<T*>(u), static_cast<T*>(vh), info, count, int(m), int(n), p.seg, p.per_warp,
                p.warps, vectors, full, jacobi_sweep_limit());
}

}  // namespace

void svd_small_stack(dtype dt, std::int64_t count, std::int64_t m, std::int64_t n, const void* a, bool full,
                     void* s, void* u, void* vh, int* info) {
  if (count == 0) return;
  if (m == 0 || n == 0) {  // no singular values; info 0 (full factors of nothing are the frontend's)
    check(cudaMemsetAsync(info, 0, sizeof(int) * std::size_t(count), current_stream()), "cudaMemsetAsync");
    return;
  }
  by_element_type(dt, "svd",
                  [&](auto e) { svd_small_as<decltype(e)>(count, m, n, a, full, s, u, vh, info); });
}

}  // namespace ndfuse::backend::cuda
