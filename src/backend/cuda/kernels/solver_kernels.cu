// Small kernels of the solvers (cusolver.cpp, cublas.cpp's batched LU): identities, LU's row
// interchanges as one permutation, inverses and solves of stacks of small matrices, transposes of matrices
// and stacks of them (a triangle zeroed, or the rows permuted, on the way when asked), the batched routines'
// arrays of matrix addresses, and the scan for matrices that hold a NaN or an infinity.
#include "backend/cuda/vendor/cusolver.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/kernels/device_complex.cuh"
#include "backend/cuda/kernels/floating_element_types.hpp"
#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/range_exponent.cuh"
#include "backend/cuda/runtime/memory.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

// ---- LU's row interchanges (solve's answer and inv's right-hand side) ------------------------------
//
// getrs applies the pivots with laswp, one swap after another on every column: 113 us of a 1000 x
// 1000 inverse and 135 us of a one-column solve on an H100 (research/lu_inverse_parts.cu).
// Walking the swaps once over the row numbers gives the whole permutation, which the identity or
// the final transpose then applies for free.

// pos[i] = which row of the unpermuted matrix ends at row i, for LAPACK's 1-based pivots (row i
// swapped with row ipiv[i] - 1, for i = 0 .. n-1 in turn; n-1 .. 0 when `backward`). The swaps are a
// chain, each reading what the one before wrote, so one thread walks them.
__device__ void walk_pivots(const int* piv, int* pos, int n, bool backward) {
  for (int s = 0; s < n; ++s) {
    const int i = backward ? n - 1 - s : s, p = piv[i] - 1;
    const int a = pos[i];
    pos[i] = pos[p];
    pos[p] = a;
  }
}

// The walk in shared memory when the rows (and the pivots) fit there, else in `global_pos`. Then
// either dest[pos[i]] = i (where each row of the unpermuted matrix goes), or, for an identity that
// a memset zeroed, the ones of P^T I: element (i, pos[i]) of the column-major matrix.
template <class R>
__global__ void apply_pivots(const int* ipiv, int n, bool backward, int* global_pos, bool pivots_shared,
                             int* dest, R* identity, int components) {
  extern __shared__ int shared[];
  int* pos = global_pos ? global_pos : shared;
  const int* piv = ipiv;
  if (pivots_shared && ipiv) {
    int* p = shared + (global_pos ? 0 : n);
    for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = ipiv[i];
    piv = p;
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) pos[i] = i;
  __syncthreads();
  if (threadIdx.x == 0 && piv) walk_pivots(piv, pos, n, backward);  // no pivots: no swaps
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (dest) dest[pos[i]] = i;
    if (identity) identity[(int64_t(pos[i]) * n + i) * components] = R(1);
  }
}

template <class R>
void launch_apply_pivots(const int* ipiv, std::int64_t n, bool backward, int* dest, R* identity,
                         int components) {
  if (n == 0) return;
  constexpr std::size_t shared_limit = 48 * 1024;  // without opting in to more
  const std::size_t row_bytes = sizeof(int) * static_cast<std::size_t>(n);
  // Rows past 12288 walk in device memory (such a matrix's triangular solves take far longer).
  std::unique_ptr<scratch> global_pos;
  if (row_bytes > shared_limit) global_pos = std::make_unique<scratch>(row_bytes);
  const std::size_t rows_shared = global_pos ? 0 : row_bytes;
  const bool pivots_shared = rows_shared + row_bytes <= shared_limit;
  apply_pivots<R><<<1, 1024, rows_shared + (pivots_shared ? row_bytes : 0), current_stream()>>>(
      ipiv, int(n), backward, global_pos ? global_pos->get<int>() : nullptr, pivots_shared, dest, identity,
      components);
  check(cudaGetLastError(), "apply_pivots");
}

// ---- inverses of small matrices (inv of n <= 32) --------------------------------------------------
//
// Gauss-Jordan elimination with partial pivoting, in place: lane i of a matrix's lanes owns its row i
// in shared memory, so the stack is read once and its inverses written once. cuBLAS's batched getrf
// and getri took 13.7 + 19.9 us for 10000 8 x 8 float64 matrices on an H100, plus a copy to factor
// in. The pivot is LAPACK's (the first largest |re| + |im| at or below the diagonal), so the info
// code is getrf's: the first step whose column holds no nonzero pivot.

__device__ inline float reciprocal(float d) {
  return 1 / d;
}
__device__ inline double reciprocal(double d) {
  return 1 / d;
}
// Smith's division 1 / (x + iy), which squares neither part (no overflow for large entries).
template <class C>
__device__ C complex_reciprocal(C d) {
  if (fabs(d.x) >= fabs(d.y)) {
    const auto r = d.y / d.x, den = d.x + d.y * r;
    return {1 / den, -r / den};
  }
  const auto r = d.x / d.y, den = d.x * r + d.y;
  return {r / den, -1 / den};
}
__device__ inline float2 reciprocal(float2 d) {
  return complex_reciprocal(d);
}
__device__ inline double2 reciprocal(double2 d) {
  return complex_reciprocal(d);
}
// LAPACK's pivot measure (i?amax: |re| + |im| for complex). NaN ranks above everything, so every
// lane agrees on the order and a NaN pivot spreads through the inverse (NumPy's OpenBLAS may pass
// over it instead: docs/numpy-differences.md).
__device__ inline double magnitude(double v) {
  return isnan(v) ? INFINITY : fabs(v);
}
__device__ inline double magnitude(float2 v) {
  return magnitude(double(fabs(v.x)) + fabs(v.y));
}
__device__ inline double magnitude(double2 v) {
  return magnitude(fabs(v.x) + fabs(v.y));
}
template <class T>
__device__ void swap_values(T& a, T& b) {
  const T t = a;
  a = b;
  b = t;
}

// Step c's pivot row p, LAPACK's: the first row at or below c with the largest magnitude in column c,
// agreed on by the segment's lanes (each looks at its own row). False when that column holds no
// nonzero pivot.
template <class T>
__device__ bool find_pivot(const T* s, int ld, int c, int row, int seg, bool here, int& p) {
  double m = here && row >= c ? magnitude(s[row * ld + c]) : -1.0;
  p = row;
  for (int o = seg / 2; o > 0; o >>= 1) {  // within the segment
    const double om = __shfl_xor_sync(~0u, m, o);
    const int op = __shfl_xor_sync(~0u, p, o);
    if (om > m || (om == m && op < p)) m = om, p = op;
  }
  return m != 0;
}

// Lane `row` of a matrix's segment scales A's column `row` (n rows, `ld` apart at s) up by a power of
// two when its largest part lies below the safe range, and returns that column's e (0 if left
// alone): X = A^-1 B then has its row `row` scaled by 2^-e, which the caller applies. NaN parts are
// ignored by fmax: such a column's result is NaN however it is scaled.
template <class T>
__device__ int scale_small_column(T* s, int ld, int n, int row, bool here) {
  int e = 0;
  if (here) {
    real_t<T> big = 0;
    for (int i = 0; i < n; ++i) big = fmax(big, largest_part(s[i * ld + row]));
    e = small_column_exponent(big);
  }
  __syncwarp();  // every lane has read its column before any is written
  if (here && e != 0)
    for (int i = 0; i < n; ++i) s[i * ld + row] = times_power_of_two(s[i * ld + row], -e);
  __syncwarp();
  return e;
}

// Rows live in segments of `seg` lanes (n rounded up to a power of two), so a warp inverts 32 / seg
// matrices side by side: four 8 x 8 ones rather than one with 24 idle lanes. Every __syncwarp is
// reached by the whole warp: a segment without a pivot skips its work, not the barriers.
template <class T>
__global__ void invert_small(const T* a, T* out, int* info, int64_t count, int n, int seg, int warps) {
  extern __shared__ unsigned char shared_bytes[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, ld = n + 1;  // padded rows: fewer conflicts
  const int per_warp = 32 / seg, slot = lane / seg, row = lane % seg;
  const int per = n * n;
  T* const base = reinterpret_cast<T*>(shared_bytes) + warp * per_warp * n * ld;
  T* const s = base + slot * n * ld;  // this lane's matrix
  const int64_t stride = int64_t(gridDim.x) * warps * per_warp;
  for (int64_t first = (int64_t(blockIdx.x) * warps + warp) * per_warp; first < count; first += stride) {
    const int mats = int(min(int64_t(per_warp), count - first));
    const bool here = slot < mats && row < n;  // a row of a matrix, not padding
    for (int e = lane; e < mats * per; e += 32) {
      const int m = e / per, r = e - m * per;
      base[m * n * ld + (r / n) * ld + r % n] = a[first * per + e];
    }
    __syncwarp();
    const int column_e = scale_small_column(s, ld, n, row, here);
    int pivot_here = row, singular = 0;  // lane k keeps step k's pivot row
    for (int k = 0; k < n; ++k) {
      int p = 0;
      // No pivot: nothing to divide by; getrf's info, the column left as it is.
      const bool live = find_pivot(s, ld, k, row, seg, here, p);
      if (!live && !singular) singular = k + 1;
      if (row == k) pivot_here = live ? p : k;
      if (live && here && p != k) swap_values(s[k * ld + row], s[p * ld + row]);
      __syncwarp();
      // The other rows first, against the unscaled pivot row with l = a_ik / a_kk as getf2 rounds it,
      // so an exactly singular matrix meets an exactly zero pivot where LAPACK's does.
      const T r = live && here ? reciprocal(s[k * ld + k]) : T{};
      if (live && here && row != k) {
        T* own = s + row * ld;
        const T l = mul(own[k], r);
        for (int j = 0; j < n; ++j) own[j] = sub(own[j], mul(l, s[k * ld + j]));
        own[k] = sub(T{}, l);
      }
      __syncwarp();
      if (live && here) s[k * ld + row] = row == k ? r : mul(s[k * ld + row], r);
      __syncwarp();
    }
    // That is the inverse of P A: A's has its columns swapped back, last swap first.
    for (int k = n - 1; k >= 0; --k) {
      const int p = __shfl_sync(~0u, pivot_here, slot * seg + k);
      if (here && p != k) swap_values(s[row * ld + k], s[row * ld + p]);
    }
    if (here && column_e != 0)  // A' = A 2^-E: inv(A) = 2^-E inv(A'), row by row
      for (int j = 0; j < n; ++j) s[row * ld + j] = times_power_of_two(s[row * ld + j], -column_e);
    __syncwarp();
    for (int e = lane; e < mats * per; e += 32) {
      const int m = e / per, r = e - m * per;
      out[first * per + e] = base[m * n * ld + (r / n) * ld + r % n];
    }
    if (here && row == 0) info[first + slot] = singular;
    __syncwarp();  // the next matrices reuse the rows
  }
}

// ---- systems of small matrices (solve of a stack, n <= 32) -----------------------------------------
//
// gesv in one kernel: LU with partial pivoting of [A | B] in shared memory, lane i of a matrix's
// lanes owning row i, L^-1 applied to B as the elimination goes (getrs's forward substitution), then
// back substitution with U column by column, as dtrsm does it. The stack and its right-hand sides are
// read once and X written once, in C order. cuBLAS's getrfBatched and getrsBatched, behind a copy of
// the stack, the scan for NaNs and the arrays of matrix addresses, took 83 us for 10000 8 x 8 float64
// systems with one right-hand side each on an H100, where CuPy's same two calls took 48. Pivots and
// info are invert_small's (getrf's), and a NaN is kept, as LAPACK keeps it (cuSOLVER's getrf, not used
// here, drops it: cusolver_lu.cpp). A matrix outside LAPACK's safe range is scaled with its right-hand
// sides by a power of two first (range_exponent.cuh), which leaves X as it is: cuBLAS's batched getrf
// called complex matrices of entries near 2^-1000 singular. `per_warp` matrices a warp (32 / seg, or
// fewer where their rows fill the shared memory); the segments past them idle.
template <class T>
__global__ void solve_small(const T* a, const T* b, T* x, int* info, int64_t count, int n, int k, int seg,
                            int per_warp, int warps) {
  extern __shared__ unsigned char shared_bytes[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, cols = n + k, ld = cols + 1;
  const int slot = lane / seg, row = lane % seg, per_a = n * n, per_b = n * k;
  T* const base = reinterpret_cast<T*>(shared_bytes) + warp * per_warp * n * ld;
  T* const s = base + slot * n * ld;  // this lane's matrix: row i is A's row i, then B's
  const int64_t stride = int64_t(gridDim.x) * warps * per_warp;
  for (int64_t first = (int64_t(blockIdx.x) * warps + warp) * per_warp; first < count; first += stride) {
    const int mats = int(min(int64_t(per_warp), count - first));
    const bool active = slot < mats, here = active && row < n;  // a matrix's lane; one owning a row
    for (int e = lane; e < mats * per_a; e += 32) {
      const int m = e / per_a, r = e - m * per_a;
      base[m * n * ld + (r / n) * ld + r % n] = a[first * per_a + e];
    }
    for (int e = lane; e < mats * per_b; e += 32) {
      const int m = e / per_b, r = e - m * per_b;
      base[m * n * ld + (r / k) * ld + n + r % k] = b[first * per_b + e];
    }
    __syncwarp();
    // Small columns first, so that a matrix of subnormal entries is not scaled whole with B, whose
    // scaled entries could overflow where X's do not.
    const int column_e = scale_small_column(s, ld, n, row, here);
    real_t<T> big = 0;
    if (here)
      for (int j = 0; j < n; ++j) big = fmax(big, largest_part(s[row * ld + j]));
    for (int o = seg / 2; o > 0; o >>= 1) big = fmax(big, __shfl_xor_sync(~0u, big, o));
    const int e2 = safe_range_exponent(big);
    if (here && e2 != 0)
      for (int j = 0; j < cols; ++j) s[row * ld + j] = times_power_of_two(s[row * ld + j], -e2);
    __syncwarp();
    int singular = 0;
    for (int c = 0; c < n; ++c) {
      int p = 0;
      // No pivot: getrf's info, the column left as it is.
      const bool live = find_pivot(s, ld, c, row, seg, here, p);
      if (!live && !singular) singular = c + 1;
      if (live && active && p != c)  // rows c and p swap, the segment's lanes splitting the columns
        for (int j = row; j < cols; j += seg) swap_values(s[c * ld + j], s[p * ld + j]);
      __syncwarp();
      // The rows below, against the pivot row with l = a_rc / a_cc as getf2 rounds it.
      if (live && here && row > c) {
        T* own = s + row * ld;
        const T l = mul(own[c], reciprocal(s[c * ld + c]));
        for (int j = c + 1; j < cols; ++j) own[j] = sub(own[j], mul(l, s[c * ld + j]));
        own[c] = l;
      }
      __syncwarp();
    }
    for (int c = n - 1; c >= 0; --c) {  // X's row c, then its part taken from the rows above
      if (active) {
        const T r = reciprocal(s[c * ld + c]);
        for (int j = row; j < k; j += seg) s[c * ld + n + j] = mul(s[c * ld + n + j], r);
      }
      __syncwarp();
      if (here && row < c) {
        T* own = s + row * ld;
        for (int j = 0; j < k; ++j) own[n + j] = sub(own[n + j], mul(s[c * ld + n + j], own[c]));
      }
      __syncwarp();
    }
    if (here && column_e != 0)  // A' = A 2^-E: X = 2^-E X'
      for (int j = 0; j < k; ++j) s[row * ld + n + j] = times_power_of_two(s[row * ld + n + j], -column_e);
    __syncwarp();
    for (int e = lane; e < mats * per_b; e += 32) {
      const int m = e / per_b, r = e - m * per_b;
      x[first * per_b + e] = base[m * n * ld + (r / k) * ld + n + r % k];
    }
    if (here && row == 0) info[first + slot] = singular;
    __syncwarp();  // the next matrices reuse the rows
  }
}

// A matrix's rows with its right-hand sides, n + k + 1 elements apart.
std::size_t solve_small_bytes(std::size_t element, std::int64_t n, std::int64_t k) {
  return element * static_cast<std::size_t>(n * (n + k + 1));
}

template <class T>
void solve_small_as(std::int64_t count, std::int64_t n, std::int64_t k, const void* a, const void* b, void* x,
                    int* info) {
  const warp_packing p = pack_warps(n, count, solve_small_bytes(sizeof(T), n, k), 0, 8);
  launch_packed("solve_small", p, solve_small<T>, static_cast<const T*>(a), static_cast<const T*>(b),
                static_cast<T*>(x), info, count, int(n), int(k), p.seg, p.per_warp, p.warps);
}

template <class T>
void invert_small_as(std::int64_t count, std::int64_t n, const void* a, void* out, int* info) {
  // A matrix's rows, n + 1 elements apart; up to 8 warps a block.
  const warp_packing p = pack_warps(n, count, sizeof(T) * std::size_t(n * (n + 1)), 0, 8);
  launch_packed("invert_small", p, invert_small<T>, static_cast<const T*>(a), static_cast<T*>(out), info,
                count, int(n), p.seg, p.warps);
}

// ---- transposes of a stack of matrices (the solvers' batched layout changes) ----------------------
//
// An element moves whole: a complex one as its (re, im) pair, so complex64 is a float2 and complex128
// a double2. `keep` zeroes a triangle of the output as it is written, which is how cholesky's factor
// comes out as NumPy's (its strict upper triangle zero) without a tril kernel of its own. `row_map`
// (optional, one row number per output row and matrix) writes output row p at row row_map[p]: how
// solve's answer gets LU's row interchanges back.

template <class T>
__device__ T conj_if(T v, bool c) {
  return c ? conj(v) : v;  // device_complex.cuh: a no-op for real T
}

// Output element (p, q) as the triangle asks: kept, or zero.
template <class T, class I>
__device__ T kept(T v, I p, I q, triangle keep) {
  const bool zero = (keep == triangle::lower && q > p) || (keep == triangle::upper && q < p);
  return zero ? T{} : v;
}

// Small matrices: one thread per output element. The reads of one warp stay inside a few matrices,
// so their sectors are shared and no tile is needed. `I` is unsigned 32-bit whenever the stack fits,
// as 64-bit division costs several times the 32-bit one.
template <class T, class I>
__global__ void transpose_each(const T* in, T* out, I count, I rows, I cols, I in_ld, I in_stride,
                               bool conjugate, triangle keep, const int* row_map) {
  // out[b](p, q) = in[b](q, p): out is cols x rows.
  const I per = rows * cols, total = count * per;
  for (I o = I(thread_index()); o < total; o += I(thread_count())) {
    const I b = o / per, e = o - b * per;
    const I p = e / rows, q = e - p * rows;
    const I at = row_map ? b * per + I(row_map[b * cols + p]) * rows + q : o;
    out[at] = kept(conj_if(in[b * in_stride + q * in_ld + p], conjugate), p, q, keep);
  }
}

// Large matrices: 32 x 32 tiles through shared memory, so both the reads (along the input's rows)
// and the writes (along the output's) are whole 128-byte lines. Block (32, 8), grid (column tiles,
// row tiles, matrices), the matrices looping when there are more than a grid's z allows.
constexpr int tile = 32, tile_rows = 8;

template <class T>
__global__ void transpose_tiled(const T* in, T* out, int64_t count, int rows, int cols, int64_t in_ld,
                                int64_t in_stride, bool conjugate, triangle keep, const int* row_map) {
  __shared__ T t[tile][tile + 1];  // the padding column puts a tile's column in distinct banks
  const int r0 = blockIdx.y * tile, c0 = blockIdx.x * tile, x = threadIdx.x;
  for (int64_t b = blockIdx.z; b < count; b += gridDim.z) {
    const T* src = in + b * in_stride;
    T* dst = out + b * int64_t(rows) * cols;
    for (int k = threadIdx.y; k < tile; k += tile_rows)
      if (r0 + k < rows && c0 + x < cols) t[k][x] = src[int64_t(r0 + k) * in_ld + c0 + x];
    __syncthreads();
    for (int k = threadIdx.y; k < tile; k += tile_rows) {
      const int p = c0 + k, q = r0 + x;  // out (p, q) = in (q, p)
      if (p < cols && q < rows) {
        const int64_t row = row_map ? row_map[b * cols + p] : p;
        dst[row * rows + q] = kept(conj_if(t[x][k], conjugate), p, q, keep);
      }
    }
    __syncthreads();  // the tile is refilled for the next matrix
  }
}

template <class T>
void transpose_as(std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                  std::int64_t in_ld, std::int64_t in_stride, void* out, bool conjugate, triangle keep,
                  const int* row_map) {
  const auto* src = static_cast<const T*>(in);
  auto* dst = static_cast<T*>(out);
  const std::int64_t total = count * rows * cols;
  if (total == 0) return;
  if (rows >= tile / 2 && cols >= tile / 2) {
    const dim3 grid(unsigned((cols + tile - 1) / tile), unsigned((rows + tile - 1) / tile),
                    unsigned(std::min<std::int64_t>(count, 65535)));
    transpose_tiled<T><<<grid, dim3(tile, tile_rows), 0, current_stream()>>>(
        src, dst, count, int(rows), int(cols), in_ld, in_stride, conjugate, keep, row_map);
    check(cudaGetLastError(), "transpose_tiled");
    return;
  }
  // The largest index the kernel forms: its output's size, or the last input read.
  const std::int64_t reach = std::max(total, (count - 1) * in_stride + (rows - 1) * in_ld + cols);
  if (reach < (std::int64_t{1} << 31))  // so o + thread_count() cannot wrap either
    launch("transpose_each", total, transpose_each<T, std::uint32_t>, src, dst, std::uint32_t(count),
           std::uint32_t(rows), std::uint32_t(cols), std::uint32_t(in_ld), std::uint32_t(in_stride),
           conjugate, keep, row_map);
  else
    launch("transpose_each", total, transpose_each<T, std::int64_t>, src, dst, count, rows, cols, in_ld,
           in_stride, conjugate, keep, row_map);
}

// out[b] = base + b * stride for b < count; with a second base, out[count + b] its matrices' too.
__global__ void stride_pointers(char** out, int64_t count, char* base, int64_t stride, char* base2,
                                int64_t stride2) {
  for (int64_t b = thread_index(); b < count; b += thread_count()) {
    out[b] = base + b * stride;
    if (base2) out[count + b] = base2 + b * stride2;
  }
}

// ---- Non-finite matrices (cusolver_lu.cpp and eig route them around cuSOLVER) ---------------------

// flags[i / per] gets bit 1 for each real i that is a NaN or an infinity, bit 2 for each nonzero one
// below the safe range (`per`: the reals of one matrix, two per complex element).
template <class R>
__global__ void flag_non_finite(const R* a, int64_t per, int64_t total, int* flags) {
  constexpr R tiny = sizeof(R) == 4 ? 0x1p-52f : 0x1p-485;  // below 2^-51 or 2^-484: small_column_exponent
  for (int64_t i = thread_index(); i < total; i += thread_count()) {
    const R v = fabs(a[i]);
    if (!isfinite(v))
      atomicOr(flags + i / per, 1);
    else if (v != 0 && v < tiny)
      atomicOr(flags + i / per, 2);
  }
}

__global__ void widen(const int* in, int64_t* out, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = in[i];
}

}  // namespace

namespace {

// The calling thread's pinned buffer for the scan's flags and the event that says they arrived,
// grown as stacks need (one scan at a time per thread: each caller reads its scan before the next).
struct flag_buffer {
  int* host = nullptr;
  std::size_t capacity = 0;
  cudaEvent_t arrived = nullptr;
  ~flag_buffer() {  // errors here (the runtime torn down at exit) change nothing
    if (host) cudaFreeHost(host);
    if (arrived) cudaEventDestroy(arrived);
  }
  int* reserve(std::size_t count) {
    if (!arrived) check(cudaEventCreateWithFlags(&arrived, cudaEventDisableTiming), "cudaEventCreate");
    if (count > capacity) {
      if (host) check(cudaFreeHost(host), "cudaFreeHost");
      host = nullptr, capacity = 0;
      void* p = nullptr;
      check(cudaHostAlloc(&p, sizeof(int) * count, cudaHostAllocPortable), "cudaHostAlloc");
      host = static_cast<int*>(p), capacity = count;
    }
    return host;
  }
};

flag_buffer& thread_flags() {
  thread_local flag_buffer b;
  return b;
}

}  // namespace

non_finite_scan::non_finite_scan(dtype dt, std::int64_t count, std::int64_t per, const void* a)
    : count_(std::max<std::int64_t>(count, 0)), flags_(sizeof(int) * static_cast<std::size_t>(count_)) {
  if (count_ == 0 || per <= 0) return;
  const std::int64_t reals = per * (is_complex(dt) ? 2 : 1);
  const std::size_t bytes = sizeof(int) * static_cast<std::size_t>(count_);
  check(cudaMemsetAsync(flags_.get(), 0, bytes, current_stream()), "cudaMemsetAsync");
  if (dt == dtype::float32 || dt == dtype::complex64)
    launch("flag_non_finite", reals * count_, flag_non_finite<float>, static_cast<const float*>(a), reals,
           reals * count_, flags_.get<int>());
  else if (dt == dtype::float64 || dt == dtype::complex128)
    launch("flag_non_finite", reals * count_, flag_non_finite<double>, static_cast<const double*>(a), reals,
           reals * count_, flags_.get<int>());
  else
    throw dtype_error("non-finite scan: no solver kernel for " + std::string(dtype_name(dt)));
  // The flags go to pinned memory right behind the scan, so read() waits for them alone, not for the
  // factorizations queued after: waiting for the whole stream cost a second round trip beside the
  // info check's (inv of 1000 x 1000 was 45 us slower than without the scan on an H100).
  auto& buffer = thread_flags();
  check(cudaMemcpyAsync(buffer.reserve(static_cast<std::size_t>(count_)), flags_.get(), bytes,
                        cudaMemcpyDeviceToHost, current_stream()),
        "cudaMemcpyAsync");
  check(cudaEventRecord(buffer.arrived, current_stream()), "cudaEventRecord");
  scanned_ = true;
}

std::vector<std::int64_t> non_finite_scan::matrices_with(int bits, int without) const {
  std::vector<std::int64_t> found;
  if (!scanned_) return found;
  auto& buffer = thread_flags();
  check(cudaEventSynchronize(buffer.arrived), "cudaEventSynchronize");
  for (std::int64_t b = 0; b < count_; ++b)
    if ((buffer.host[b] & bits) && !(buffer.host[b] & without)) found.push_back(b);
  return found;
}

std::vector<std::int64_t> non_finite_scan::read() const {
  return matrices_with(1, 0);
}

std::vector<std::int64_t> non_finite_scan::read_subnormal_scale() const {
  return matrices_with(2, 1);
}

void widen_pivots(const int* in, std::int64_t* out, std::int64_t n) {
  launch("widen", n, widen, in, out, n);
}

void matrix_pointers(void** out, std::int64_t count, void* base, std::int64_t stride_bytes, void* base2,
                     std::int64_t stride2_bytes) {
  launch("stride_pointers", count, stride_pointers, reinterpret_cast<char**>(out), count,
         static_cast<char*>(base), stride_bytes, static_cast<char*>(base2), stride2_bytes);
}

void transpose_stack(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                     void* out, bool conjugate, triangle keep, const int* row_map) {
  transpose_blocks(dt, count, rows, cols, in, cols, rows * cols, out, conjugate, keep, row_map);
}

void transpose_blocks(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                      std::int64_t in_ld, std::int64_t in_stride, void* out, bool conjugate, triangle keep,
                      const int* row_map) {
  by_element_type(dt, "transpose", [&](auto e) {
    transpose_as<decltype(e)>(count, rows, cols, in, in_ld, in_stride, out, conjugate, keep, row_map);
  });
}

void invert_small_stack(dtype dt, std::int64_t count, std::int64_t n, const void* a, void* out, int* info) {
  if (count == 0 || n == 0) return;
  by_element_type(dt, "inv", [&](auto e) { invert_small_as<decltype(e)>(count, n, a, out, info); });
}

bool solve_small_fits(dtype dt, std::int64_t n, std::int64_t k) {
  return n <= 32 && solve_small_bytes(itemsize(dt), n, k) <= 24 * 1024;
}

void solve_small_stack(dtype dt, std::int64_t count, std::int64_t n, std::int64_t k, const void* a,
                       const void* b, void* x, int* info) {
  if (count == 0 || n == 0 || k == 0) return;
  by_element_type(dt, "solve", [&](auto e) { solve_small_as<decltype(e)>(count, n, k, a, b, x, info); });
}

void pivot_destinations(const int* ipiv, std::int64_t n, bool backward, int* dest) {
  launch_apply_pivots<float>(ipiv, n, backward, dest, nullptr, 1);
}

// A memset and the one-thread walk, which writes the ones (no walk without pivots): the memset moves the
// zeros at copy speed, as CuPy's eye does.
void permuted_identity(dtype dt, std::int64_t n, const int* ipiv, void* out) {
  if (n == 0) return;
  const int components = is_complex(dt) ? 2 : 1;
  const bool single = dt == dtype::float32 || dt == dtype::complex64;
  check(cudaMemsetAsync(out, 0, static_cast<std::size_t>(n * n * components) * (single ? 4 : 8),
                        current_stream()),
        "cudaMemsetAsync");
  if (single)
    launch_apply_pivots(ipiv, n, false, nullptr, static_cast<float*>(out), components);
  else
    launch_apply_pivots(ipiv, n, false, nullptr, static_cast<double*>(out), components);
}

}  // namespace ndfuse::backend::cuda
