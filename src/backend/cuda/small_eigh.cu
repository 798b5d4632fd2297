// Hermitian eigenproblems of stacks of small matrices (eigh and eigvalsh of n <= 32): cyclic
// Jacobi in shared memory, a warp's lanes working on one to sixteen matrices side by side.
//
// Why not cuSOLVER's syevjBatched: on an H100 it took 384 us for 10000 8 x 8 float64 matrices
// (bench/experiments/eigh_batched.cu), which is a few hundred floating-point operations per matrix
// spread over a whole kernel's time; its newer XsyevBatched took 1265 us. Both also wanted the stack
// copied first (they overwrite it) and the eigenvectors transposed after (they are column-major).
// Here each matrix is read once, in C order, and its eigenvalues and eigenvectors written once.
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
// Layout: a matrix's rows live in a segment of `seg` lanes (n rounded up to a power of two), lane i
// owning index i. With J's column i having two nonzeros, J[i][i] = c_i and J[p_i][i] = o_i (p_i the
// partner of i in this step), the two halves of a step are lane-local and need no scratch:
//   B = A J:     row i of B depends on row i of A only (lane i updates its row, pair by pair);
//   A' = J^H B:  column i of A' depends on column i of B only (lane i updates its column).
// V J is a row update like the first. Three __syncwarp per step, none inside the pair loops.
#include <algorithm>
#include <cstdint>
#include <string>

#include "backend/cuda/cusolver.hpp"
#include "backend/cuda/device_complex.cuh"
#include "backend/cuda/grid_launch.cuh"
#include "backend/cuda/jacobi_rotation.cuh"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

constexpr int max_sweeps = 40;  // Jacobi takes 5 to 10 on random matrices of these sizes

// NumPy's order for the eigenvalues: ascending, a NaN after everything (the matrix held one).
template <class R>
__device__ bool before(R a, int i, R b, int j) {
  if (isnan(a) || isnan(b)) return isnan(a) == isnan(b) ? i < j : !isnan(a);
  return a < b || (a == b && i < j);
}

// Rows are padded to n + 1 elements so that a segment's lanes, reading down a column or along their
// rows, touch different banks.
template <class T>
struct matrix_view {
  T* s;
  int ld;
  __device__ T& operator()(int i, int j) const { return s[i * ld + j]; }
};

// For each pair (j, k) of this step, the two entries at(j), at(k) of a row or column:
//   (x, y) <- (c_j x + o_j y, c_k y + o_k x)              (a row of A J or V J: Conj false)
//   (x, y) <- (c_j x + conj(o_j) y, c_k y + conj(o_k) x)  (a column of J^H B: Conj true).
// A pair whose o are zero was not rotated (c is 1 then; the converse fails, as c rounds to 1 for tiny
// angles), and an odd n's padding index (m - 1 = n) never is. Pairs go four at a time, every load
// before any store: one pair after another, each pair's loads waited for the stores before them (the
// compiler cannot tell the row from c and o), and the kernel ran at the speed of shared memory's
// latency (11.3 ms for 10000 32 x 32 float64 matrices on an H100, against 5.5 for syevjBatched).
template <bool Conj, class T, class R, class At>
__device__ void rotate_pairs(At at, int n, int r, int steps_m, const R* c, const T* o) {
  constexpr int chunk = 4;
  const int pairs = steps_m / 2;
  for (int t0 = 0; t0 < pairs; t0 += chunk) {
    int js[chunk], ks[chunk];
    bool live[chunk];
    T x[chunk], y[chunk], oj[chunk], ok[chunk];
    R cj[chunk], ck[chunk];
#pragma unroll
    for (int u = 0; u < chunk; ++u) {
      int j = 0, k = 0;
      if (t0 + u < pairs) pair_of(t0 + u, r, steps_m, j, k);
      live[u] = t0 + u < pairs && j < n;
      if (!live[u]) j = k = 0;  // loads stay inside the matrix; nothing is stored
      js[u] = j, ks[u] = k;
      oj[u] = o[j], ok[u] = o[k], cj[u] = c[j], ck[u] = c[k];
      x[u] = at(j), y[u] = at(k);
    }
#pragma unroll
    for (int u = 0; u < chunk; ++u) {
      if (!live[u] || (is_zero(oj[u]) && is_zero(ok[u]))) continue;
      at(js[u]) = add(mul(cj[u], x[u]), mul(Conj ? conj(oj[u]) : oj[u], y[u]));
      at(ks[u]) = add(mul(ck[u], y[u]), mul(Conj ? conj(ok[u]) : ok[u], x[u]));
    }
  }
}

template <class T>
__global__ void jacobi_eigh(const T* a, real_t<T>* w, T* vectors, int* info, int64_t count, int n, int seg,
                            int warps, bool lower) {
  using R = real_t<T>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int per_warp = 32 / seg, slot = lane / seg, row = lane % seg;
  const int ld = n + 1, per = n * n, steps_m = n + (n & 1);
  const int mats_block = warps * per_warp;
  // The block's matrices, then (with vectors) their V, their rotations' o and c, and the sort.
  T* const a_all = reinterpret_cast<T*>(shared_bytes);
  T* const v_all = a_all + mats_block * n * ld;
  T* const o_all = v_all + (vectors ? mats_block * n * ld : 0);
  R* const c_all = reinterpret_cast<R*>(o_all + mats_block * seg);
  int* const order_all = reinterpret_cast<int*>(c_all + mats_block * seg);
  const int first_here = warp * per_warp;  // this warp's first matrix in the block
  T* const a_base = a_all + first_here * n * ld;
  T* const v_base = v_all + first_here * n * ld;
  const matrix_view<T> A{a_base + slot * n * ld, ld}, V{v_base + slot * n * ld, ld};
  T* const o = o_all + (first_here + slot) * seg;
  R* const c = c_all + (first_here + slot) * seg;
  int* const order = order_all + (first_here + slot) * seg;
  const unsigned segment_mask = (seg == 32 ? ~0u : ((1u << seg) - 1)) << (slot * seg);
  const R eps = epsilon_of<R>();

  const int64_t stride = int64_t(gridDim.x) * warps * per_warp;
  for (int64_t first = (int64_t(blockIdx.x) * warps + warp) * per_warp; first < count; first += stride) {
    const int mats = int(min(int64_t(per_warp), count - first));
    const bool here = slot < mats && row < n;  // an index of a matrix, not padding
    // Read the named triangle, coalesced, and mirror it (LAPACK reads only that triangle, and only the
    // real part of the diagonal).
    for (int e = lane; e < mats * per; e += 32) {
      const int m = e / per, r = e - m * per, i = r / n, j = r - (r / n) * n;
      if (lower ? i < j : i > j) continue;
      const T x = a[first * per + e];
      T* s = a_base + m * n * ld;
      if (i == j) {
        s[i * ld + i] = from_real<T>(real(x));
      } else {
        s[i * ld + j] = x;
        s[j * ld + i] = conj(x);
      }
    }
    if (vectors && here)
      for (int j = 0; j < n; ++j) V(row, j) = from_real<T>(R(row == j));
    __syncwarp();

    bool done = !here;  // per lane; a segment's lanes agree (they see the same rotations)
    int sweeps = 0;
    for (; sweeps < max_sweeps && __any_sync(~0u, !done); ++sweeps) {
      bool rotated = false;
      for (int r = 0; r < steps_m - 1; ++r) {
        // This lane's pair (row, p): both lanes of it compute the same rotation from the same numbers.
        const int p = here ? partner(row, r, steps_m) : row;
        R cr = R(1);
        T orow = from_real<T>(R(0));
        bool turn = false;  // this pair is rotated in this step
        if (!done && p < n) {
          const int lo = min(row, p), hi = max(row, p);
          const T apq = A(lo, hi);
          const R app = real(A(lo, lo)), aqq = real(A(hi, hi)), g = magnitude_of(apq);
          if (g > eps * sqrt(fabs(app)) * sqrt(fabs(aqq))) {
            const plane_rotation<T> j = jacobi_rotation(app, aqq, apq, g);
            cr = j.c;
            orow = row == lo ? j.o_low : j.o_high;
            turn = rotated = true;
          }
        }
        if (row < seg) c[row] = cr, o[row] = orow;
        __syncwarp();
        const bool work = (__ballot_sync(~0u, turn) & segment_mask) != 0;
        if (work && here) {  // B = A J and V J on this lane's row
          rotate_pairs<false>([&](int j) -> T& { return A(row, j); }, n, r, steps_m, c, o);
          if (vectors) rotate_pairs<false>([&](int j) -> T& { return V(row, j); }, n, r, steps_m, c, o);
        }
        __syncwarp();
        if (work && here) {  // A' = J^H B on this lane's column
          rotate_pairs<true>([&](int k) -> T& { return A(k, row); }, n, r, steps_m, c, o);
          if (turn) A(p, row) = from_real<T>(R(0));  // what the rotation zeroed, exactly
        }
        __syncwarp();
      }
      if ((__ballot_sync(~0u, rotated) & segment_mask) == 0) done = true;
    }
    const bool converged = done;

    // Ascending eigenvalues, NaN last, and the vectors in the same order: order[k] = the index whose
    // eigenvalue is k-th.
    if (here) {
      const R mine = real(A(row, row));
      int rank = 0;
      for (int j = 0; j < n; ++j) rank += before(real(A(j, j)), j, mine, row);
      order[rank] = row;
    }
    __syncwarp();
    for (int e = lane; e < mats * n; e += 32) {
      const int m = e / n, k = e - m * n;
      const int* ord = order_all + (first_here + m) * seg;
      const T* s = a_base + m * n * ld;
      w[first * n + e] = real(s[ord[k] * ld + ord[k]]);
    }
    if (vectors)
      for (int e = lane; e < mats * per; e += 32) {  // C order: element (i, k) is V[i][order[k]]
        const int m = e / per, r = e - m * per, i = r / n, k = r - (r / n) * n;
        vectors[first * per + e] = v_base[m * n * ld + i * ld + order_all[(first_here + m) * seg + k]];
      }
    if (here && row == 0) info[first + slot] = converged ? 0 : 1;
    __syncwarp();  // the next matrices reuse the shared memory
  }
}

template <class T>
void eigh_small_as(std::int64_t count, std::int64_t n, const void* a, bool lower, void* w, void* v,
                   int* info) {
  using R = real_t<T>;
  int seg = 1;
  while (seg < n) seg *= 2;
  const int per_warp = 32 / seg;
  const std::size_t matrix_bytes = sizeof(T) * std::size_t(n * (n + 1)) * (v ? 2 : 1) +
                                   (sizeof(T) + sizeof(R) + sizeof(int)) * std::size_t(seg);
  const std::size_t warp_bytes = matrix_bytes * per_warp;
  const int warps = int(std::clamp<std::size_t>(48 * 1024 / warp_bytes, 1, 4));
  const std::int64_t warps_needed = (count + per_warp - 1) / per_warp;
  const auto blocks = unsigned(std::min<std::int64_t>((warps_needed + warps - 1) / warps, max_blocks));
  jacobi_eigh<T><<<blocks, 32 * warps, warp_bytes * warps, current_stream()>>>(
      static_cast<const T*>(a), static_cast<R*>(w), static_cast<T*>(v), info, count, int(n), seg, warps,
      lower);
  check(cudaGetLastError(), "jacobi_eigh");
}

}  // namespace

void eigh_small_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, bool lower, void* w,
                      void* vectors, int* info) {
  if (count == 0 || n == 0) return;
  switch (dt) {
    case dtype::float32:
      return eigh_small_as<float>(count, n, a, lower, w, vectors, info);
    case dtype::float64:
      return eigh_small_as<double>(count, n, a, lower, w, vectors, info);
    case dtype::complex64:
      return eigh_small_as<float2>(count, n, a, lower, w, vectors, info);
    case dtype::complex128:
      return eigh_small_as<double2>(count, n, a, lower, w, vectors, info);
    default:
      throw dtype_error("eigh: no solver kernel for " + std::string(dtype_name(dt)));
  }
}

}  // namespace ndfuse::backend::cuda
