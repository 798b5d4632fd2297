// Hermitian eigenproblems of stacks of small matrices (eigh and eigvalsh of n <= 32): cyclic
// Jacobi in shared memory, a warp's lanes working on one to thirty-two matrices side by side.
//
// Why not cuSOLVER's syevjBatched: on an H100 it took 384 us for 10000 8 x 8 float64 matrices
// (research/eigh_batched.cu), which is a few hundred floating-point operations per matrix
// spread over a whole kernel's time; its newer XsyevBatched took 1265 us. Both also wanted the stack
// copied first (they overwrite it). Here each matrix is read once, in C order, and its eigenvalues
// and eigenvectors written once (eigenvector k in row k, ir/library.hpp's layout).
//
// The method (Golub & Van Loan, "Matrix Computations", 8.5): each step picks n/2 disjoint pairs
// (p, q), in the round-robin order that meets every pair once in n - 1 steps (a sweep), and applies
// the plane rotation J of each pair that zeroes a_pq: A <- J^H A J, V <- V J. A pair is rotated only
// while |a_pq| > eps sqrt(|a_pp a_qq|) (the relative test of Demmel and Veselic'), and the matrix is
// done after a sweep with no rotation: the off-diagonal part is then below eps relative to the
// diagonal, so the eigenvalues carry the backward error of LAPACK's. Jacobi converges
// quadratically; a sweep limit guards against a matrix that does not (info 1, NumPy's "Eigenvalues
// did not converge").
//
// Layout: a matrix lives in a segment of `seg` lanes (n rounded up to a power of two), stored column
// by column, lane j owning index j. A step's rotations touch, for each pair (p, q), columns p and q
// (B = A J) and then rows p and q (A' = J^H B); the pairs are disjoint, so no entry is written by two
// pairs in either half. The two lanes of a pair compute the same rotation from the same three
// entries, and split the work: the lower index takes the top half of the pair's columns (and of V's)
// and the left half of its rows, the higher one the rest. The 2 x 2 block where the pair's rows and
// columns cross is left out of both halves and written at the end as what the rotation makes of it
// (a_pp - t g, a_qq + t g and zeros), each column's two entries by the lane whose half holds that
// column, so no lane writes an entry its partner reads (or still has to read) in the same half-step.
// Two __syncwarp per step, where keeping rows in lanes and each step's rotations in shared arrays
// took three, and was slower (research/eigh_batched.cu).
#include <cstdint>

#include "backend/cuda/kernels/device_complex.cuh"
#include "backend/cuda/kernels/floating_element_types.hpp"
#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/jacobi_rotation.cuh"
#include "backend/cuda/vendor/cusolver.hpp"

namespace ndfuse::backend::cuda {

namespace {

template <class T>
__global__ void jacobi_eigh(const T* a, real_t<T>* w, T* vectors, int* info, int64_t count, int n, int seg,
                            int warps, bool lower, int max_sweeps) {
  using R = real_t<T>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int per_warp = 32 / seg, slot = lane / seg, col = lane % seg;
  // Columns an odd number of elements apart (n, or n + 1 for an even n): a segment's lanes, down their
  // columns or along their rows, touch different banks. (n + 1 for every n put the columns of n = 31
  // 32 elements apart, all on one bank: 31.8 ms for 10000 31 x 31 float64 matrices against 32 x 32's
  // 7.1.)
  const int ld = n | 1, per = n * n, steps_m = n + (n & 1), size = n * ld, half = (n + 1) / 2;
  const int mats_block = warps * per_warp;
  // The block's matrices, then (with vectors) their V, then the sort orders.
  T* const a_all = reinterpret_cast<T*>(shared_bytes);
  T* const v_all = a_all + mats_block * size;
  int* const order_all = reinterpret_cast<int*>(v_all + (vectors ? mats_block * size : 0));
  const int first_here = warp * per_warp;  // this warp's first matrix in the block
  T* const a_base = a_all + first_here * size;
  T* const v_base = v_all + first_here * size;
  T* const A = a_base + slot * size;  // A(i, j) = A[j * ld + i]
  T* const V = v_base + slot * size;
  int* const order = order_all + (first_here + slot) * seg;
  const unsigned segment_mask = (seg == 32 ? ~0u : ((1u << seg) - 1)) << (slot * seg);
  const R eps = epsilon_of<R>();

  const int64_t stride = int64_t(gridDim.x) * warps * per_warp;
  for (int64_t first = (int64_t(blockIdx.x) * warps + warp) * per_warp; first < count; first += stride) {
    const int mats = int(min(int64_t(per_warp), count - first));
    const bool here = slot < mats && col < n;  // an index of a matrix, not padding
    // Read the named triangle, coalesced, and mirror it (LAPACK reads only that triangle, and only the
    // real part of the diagonal).
    for (int e = lane; e < mats * per; e += 32) {
      const int m = e / per, r = e - m * per, i = r / n, j = r - (r / n) * n;
      if (lower ? i < j : i > j) continue;
      const T x = a[first * per + e];
      T* s = a_base + m * size;
      if (i == j) {
        s[i * ld + i] = from_real<T>(real(x));
      } else {
        s[j * ld + i] = x;
        s[i * ld + j] = conj(x);
      }
    }
    if (vectors && here)
      for (int i = 0; i < n; ++i) V[col * ld + i] = from_real<T>(R(i == col));
    __syncwarp();

    // A matrix holding a NaN or an infinity is not iterated (a NaN pair never rotates, and the rest
    // converged to finite eigenvalues, info 0: a silent wrong answer): its eigenvalues and vectors
    // come out NaN, info 0, as in register_eigh.cu.
    bool bad = false;
    if (here)
      for (int i = 0; i < n; ++i) bad |= !isfinite(magnitude_of(A[col * ld + i]));
    const bool finite = (__ballot_sync(~0u, bad) & segment_mask) == 0;
    // Into range (jacobi_rotation.cuh's even_range_exponent says why): each lane scales its column.
    R big = 0;
    if (here)
      for (int i = 0; i < n; ++i) big = fmax(big, largest_part(A[col * ld + i]));
    for (int off = seg / 2; off > 0; off /= 2) big = fmax(big, __shfl_xor_sync(~0u, big, off));
    const int e2 = finite ? even_range_exponent(big) : 0;
    if (here && e2 != 0)
      for (int i = 0; i < n; ++i) A[col * ld + i] = times_power_of_two(A[col * ld + i], -e2);
    __syncwarp();

    bool done = !here || !finite;  // per lane; a segment's lanes agree (they see the same rotations)
    int sweeps = 0;
    for (; sweeps < max_sweeps && __any_sync(~0u, !done); ++sweeps) {
      bool rotated = false;
      for (int r = 0; r < steps_m - 1; ++r) {
        const int p = here ? partner(col, r, steps_m) : col;
        const int lo = min(col, p), hi = max(col, p);
        const bool top = col == lo;
        const int h0 = top ? 0 : half, h1 = top ? half : n;  // this lane's half of the rows, then columns
        bool turn = false;
        plane_rotation<T> j{};
        R app = 0, aqq = 0, g = 0;
        if (!done && p < n) {
          const T apq = A[hi * ld + lo];
          app = real(A[lo * ld + lo]), aqq = real(A[hi * ld + hi]), g = magnitude_of(apq);
          if (g > eps * sqrt(fabs(app)) * sqrt(fabs(aqq))) {
            j = jacobi_rotation(app, aqq, apq, g);
            turn = rotated = true;
            // B = A J on columns lo and hi (the block left out), and V J
            rotate_pair(A + lo * ld, A + hi * ld, 1, h0, h1, j, lo, hi);
            if (vectors) rotate_pair(V + lo * ld, V + hi * ld, 1, h0, h1, j);
          }
        }
        __syncwarp();
        if (turn) {  // A' = J^H B on rows lo and hi (the block left out), then the block
          rotate_pair<true>(A + lo, A + hi, ld, h0, h1, j, lo, hi);
          // Each lane writes the block's entries in its own half of the columns (column lo's two, column
          // hi's two, or all four): rotate_pair loads a skipped entry with the rest of its chunk, so a
          // partner writing it in this half-step would race with that load. Both lanes hold the same
          // app, aqq, t and g, so which one writes changes no value. (t g once for both, as before: written
          // in each branch, nvcc fused one sum into an fma of its own, which may round otherwise.)
          const R tg = j.t * g, d_lo = app - tg, d_hi = aqq + tg;
          if (h0 <= lo && lo < h1) A[lo * ld + lo] = from_real<T>(d_lo), A[lo * ld + hi] = from_real<T>(R(0));
          if (h0 <= hi && hi < h1) A[hi * ld + hi] = from_real<T>(d_hi), A[hi * ld + lo] = from_real<T>(R(0));
        }
        __syncwarp();
      }
      if ((__ballot_sync(~0u, rotated) & segment_mask) == 0) done = true;
    }
    const bool converged = done;
    if (here && e2 != 0) A[col * ld + col] = from_real<T>(ldexp(real(A[col * ld + col]), e2));
    if (!finite && here) {
      A[col * ld + col] = from_real<T>(R(NAN));
      if (vectors)
        for (int i = 0; i < n; ++i) V[col * ld + i] = from_real<T>(R(NAN));
    }
    __syncwarp();

    // Ascending eigenvalues, NaN last, and the vectors in the same order: order[k] = the index whose
    // eigenvalue is k-th.
    if (here) {
      const R mine = real(A[col * ld + col]);
      int rank = 0;
      for (int j = 0; j < n; ++j) rank += eigenvalue_before(real(A[j * ld + j]), j, mine, col);
      order[rank] = col;
    }
    __syncwarp();
    for (int e = lane; e < mats * n; e += 32) {
      const int m = e / n, k = e - m * n;
      const int* ord = order_all + (first_here + m) * seg;
      w[first * n + e] = real(a_base[m * size + ord[k] * ld + ord[k]]);
    }
    if (vectors)
      for (int e = lane; e < mats * per; e += 32) {  // eigenvector k in row k: (k, i) is V[i][order[k]]
        const int m = e / per, r = e - m * per, k = r / n, i = r - k * n;
        vectors[first * per + e] = v_base[m * size + order_all[(first_here + m) * seg + k] * ld + i];
      }
    if (here && col == 0) info[first + slot] = converged ? 0 : 1;
    __syncwarp();  // the next matrices reuse the shared memory
  }
}

template <class T>
void eigh_small_as(std::int64_t count, std::int64_t n, const void* a, bool lower, void* w, void* v,
                   int* info) {
  // A matrix and (with vectors) its V, n | 1 elements a column, and a sort order of seg ints.
  const warp_packing p =
      pack_warps(n, count, sizeof(T) * std::size_t(n * (n | 1)) * (v ? 2 : 1), sizeof(int), 4);
  launch_packed("jacobi_eigh", p, jacobi_eigh<T>, static_cast<const T*>(a), static_cast<real_t<T>*>(w),
                static_cast<T*>(v), info, count, int(n), p.seg, p.warps, lower, jacobi_sweep_limit());
}

}  // namespace

void eigh_small_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, bool lower, void* w,
                      void* vectors, int* info) {
  if (count == 0 || n == 0) return;
  by_element_type(dt, "eigh",
                  [&](auto e) { eigh_small_as<decltype(e)>(count, n, a, lower, w, vectors, info); });
}

}  // namespace ndfuse::backend::cuda
