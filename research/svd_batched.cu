// Stacks of small SVDs: cuSOLVER's Jacobi gesvdjBatched (what ndfuse called for m, n <= 32 before
// small_svd.cu, and CuPy calls) against ndfuse's own one-sided Jacobi kernel
// (src/backend/cuda/kernels/small_svd.cu, compiled in here), on stacks of 10000 matrices. For gesvdjBatched,
// which overwrites its input: the median time of the copy of the stack plus the call (the factors'
// transposes into C order, which ndfuse also needed, not counted); ndfuse's kernel reads the stack where
// it lies and writes C-order U, S and Vh. For the kernel, the largest ||A - U S Vh||_F / ||A||_F and
// orthogonality errors ||U^H U - I||_F, ||Vh Vh^H - I||_F over the stack, the info it gives a matrix
// holding a NaN (1: NumPy's "SVD did not converge"), and the same for a stack of rank-one matrices
// (the kernel's basis completion).
//
//   nvcc -O3 -std=c++20 -arch=sm_90 -Isrc -Iinclude research/svd_batched.cu -lcusolver
//   ./a.out
//
// H100 80GB HBM3, CUDA 13.0, 2026-11-24 (10000 matrices, full factors unless marked, in us; ndfuse /
// gesvdjBatched):
//   float64     1x1 13 / 1329, 2x2 15 / 1794, 4x4 29 / 4610, 8x8 124 / 8317, 12x12 497 / 11405,
//               16x16 756 / 14879, 17x17 1557 / 15734, 24x24 2692 / 18181, 32x32 6206 / 22452,
//               31x31 6100 / 22065 (with columns an odd number of elements apart);
//               8x8 values only 107 / 8274; 8x8 rank one 146 / 1436;
//               8x3 reduced 29 / 3806, full 80 / 3785; 32x4 reduced 57 / 4706, full 1563 / 4729;
//               32x16 reduced 1108 / 15399, full 1448 / 15444; 32x1 reduced 22 / 1524, full 1498 / 1521
//   float32     8x8 92 / 3583, 16x16 388 / 5948, 32x32 2515 / 9475
//   complex128  8x8 193 / 22294, 16x16 1534 / 33184, 32x32 11142 / 49039
//   complex64   8x8 110 / 7745, 32x32 5593 / 19613
// Residuals below 7.5e-15 and orthogonality below 5.4e-14 (float64, complex128) in every row; 4.3e-6
// and 4.1e-5 in single precision. The kernel gives the NaN matrix info 1 and every other info 0. A
// tall full U costs most where M - N columns are completed (32x4 full, 32x1 full): the completion
// ran on one lane per matrix at first and took 10.3 ms for 32x4 full, 1.6 ms with the whole warp.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "backend/cuda/kernels/small_svd.cu"
#include "reduce_common.cuh"
#include "solver_common.cuh"

template <class E>
void gesvdj_call(cusolverDnHandle_t h, cusolverEigMode_t job, int m, int n, E* A, typename traits<E>::real* S,
                 E* U, E* V, E* wk, int lw, int* info, gesvdjInfo_t p, int count) {
  if constexpr (std::is_same_v<E, float>)
    SOLVER(cusolverDnSgesvdjBatched(h, job, m, n, A, m, S, U, m, V, n, wk, lw, info, p, count));
  else if constexpr (std::is_same_v<E, double>)
    SOLVER(cusolverDnDgesvdjBatched(h, job, m, n, A, m, S, U, m, V, n, wk, lw, info, p, count));
  else if constexpr (std::is_same_v<E, cuComplex>)
    SOLVER(cusolverDnCgesvdjBatched(h, job, m, n, A, m, S, U, m, V, n, wk, lw, info, p, count));
  else
    SOLVER(cusolverDnZgesvdjBatched(h, job, m, n, A, m, S, U, m, V, n, wk, lw, info, p, count));
}
template <class E>
int gesvdj_size(cusolverDnHandle_t h, cusolverEigMode_t job, int m, int n, E* A, typename traits<E>::real* S,
                E* U, E* V, gesvdjInfo_t p, int count) {
  int lw = 0;
  if constexpr (std::is_same_v<E, float>)
    SOLVER(cusolverDnSgesvdjBatched_bufferSize(h, job, m, n, A, m, S, U, m, V, n, &lw, p, count));
  else if constexpr (std::is_same_v<E, double>)
    SOLVER(cusolverDnDgesvdjBatched_bufferSize(h, job, m, n, A, m, S, U, m, V, n, &lw, p, count));
  else if constexpr (std::is_same_v<E, cuComplex>)
    SOLVER(cusolverDnCgesvdjBatched_bufferSize(h, job, m, n, A, m, S, U, m, V, n, &lw, p, count));
  else
    SOLVER(cusolverDnZgesvdjBatched_bufferSize(h, job, m, n, A, m, S, U, m, V, n, &lw, p, count));
  return lw;
}

struct accuracy {
  double residual = 0, orthogonality = 0;
  int nan_info = -1, other_info = 0;
  bool sorted = true;
};

// The kernel's C-order factors of the first `check` matrices (the one at `skip` excepted).
template <class E>
void measure(const std::vector<E>& a, const std::vector<E>& u, const std::vector<typename traits<E>::real>& s,
             const std::vector<E>& vh, int m, int n, bool full, int check, int skip, accuracy& r) {
  const int k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  for (int b = 0; b < check; ++b) {
    if (b == skip) continue;
    auto A = [&](int i, int j) { return get(a[std::size_t(b) * m * n + i * n + j]); };
    auto U = [&](int i, int j) { return get(u[std::size_t(b) * m * uc + i * uc + j]); };
    auto Vh = [&](int i, int j) { return get(vh[std::size_t(b) * vr * n + i * n + j]); };
    auto S = [&](int j) { return double(s[std::size_t(b) * k + j]); };
    double res = 0, norm = 0, orth = 0;
    for (int j = 1; j < k; ++j) r.sorted &= S(j - 1) >= S(j);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        std::complex<double> x = 0;
        for (int p = 0; p < k; ++p) x += U(i, p) * S(p) * Vh(p, j);
        res += std::norm(x - A(i, j)), norm += std::norm(A(i, j));
      }
    for (int i = 0; i < uc; ++i)
      for (int j = 0; j < uc; ++j) {
        std::complex<double> x = 0;
        for (int p = 0; p < m; ++p) x += std::conj(U(p, i)) * U(p, j);
        orth += std::norm(x - (i == j ? 1.0 : 0.0));
      }
    for (int i = 0; i < vr; ++i)
      for (int j = 0; j < vr; ++j) {
        std::complex<double> x = 0;
        for (int p = 0; p < n; ++p) x += Vh(i, p) * std::conj(Vh(j, p));
        orth += std::norm(x - (i == j ? 1.0 : 0.0));
      }
    r.residual = std::max(r.residual, norm > 0 ? std::sqrt(res / norm) : std::sqrt(res));
    r.orthogonality = std::max(r.orthogonality, std::sqrt(orth));
  }
}

// kind 0: Gaussian entries; 1: rank one (u v^T), the last matrix zero.
template <class E>
void run(int m, int n, int count, bool vectors, bool full, int kind = 0) {
  using R = typename traits<E>::real;
  const int k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  const std::size_t per = std::size_t(m) * n, total = per * count;
  std::mt19937_64 g(m * 1000 + n * 7 + count);
  std::normal_distribution<double> d;
  auto draw = [&] { return std::complex<double>(d(g), complex_v<E> ? d(g) : 0.0); };
  std::vector<E> a(total);
  for (int b = 0; b < count; ++b) {
    std::vector<std::complex<double>> x(m), y(n);
    for (auto& v : x) v = draw();
    for (auto& v : y) v = draw();
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        a[b * per + i * n + j] = make<E>(kind == 0 ? draw() : b == count - 1 ? 0.0 : x[i] * y[j]);
  }
  const int nan_at = kind == 0 ? count / 2 : -1;
  if (nan_at >= 0) a[nan_at * per + per / 2] = make<E>(std::complex<double>(NAN, 0));
  E *src, *work, *U, *V;
  R* S;
  int* info;
  const std::size_t big = std::size_t(std::max(m, n)) * std::max(m, n) * count;
  CHECK(cudaMalloc(&src, total * sizeof(E)));
  CHECK(cudaMalloc(&work, total * sizeof(E)));
  CHECK(cudaMalloc(&U, big * sizeof(E)));
  CHECK(cudaMalloc(&V, big * sizeof(E)));
  CHECK(cudaMalloc(&S, sizeof(R) * k * count));
  CHECK(cudaMalloc(&info, sizeof(int) * count));
  CHECK(cudaMemcpy(src, a.data(), total * sizeof(E), cudaMemcpyHostToDevice));

  const float kernel_ms = median_ms(
      [&] {
        ndfuse::backend::cuda::svd_small_stack(traits<E>::dt, count, m, n, src, full, S,
                                               vectors ? U : nullptr, vectors ? V : nullptr, info);
      },
      15);
  accuracy r;
  {
    std::vector<E> u(std::size_t(m) * uc * count), vh(std::size_t(vr) * n * count);
    std::vector<R> s(std::size_t(k) * count);
    std::vector<int> inf(count);
    CHECK(cudaMemcpy(s.data(), S, s.size() * sizeof(R), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(inf.data(), info, inf.size() * sizeof(int), cudaMemcpyDeviceToHost));
    if (nan_at >= 0) r.nan_info = inf[nan_at];
    for (int b = 0; b < count; ++b)
      if (b != nan_at && inf[b]) ++r.other_info;
    if (vectors) {
      CHECK(cudaMemcpy(u.data(), U, u.size() * sizeof(E), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(vh.data(), V, vh.size() * sizeof(E), cudaMemcpyDeviceToHost));
      // the first 1000, and the last (the zero one of kind 1)
      measure(a, u, s, vh, m, n, full, std::min(count, 1000), nan_at, r);
      if (count > 1000) {
        std::vector<E> a1(a.end() - per, a.end()), u1(u.end() - std::size_t(m) * uc, u.end()),
            v1(vh.end() - std::size_t(vr) * n, vh.end());
        std::vector<R> s1(s.end() - k, s.end());
        measure(a1, u1, s1, v1, m, n, full, 1, -1, r);
      }
    }
  }

  // gesvdjBatched on the column-major buffer as it lies (A^T, n x m), copied first.
  cusolverDnHandle_t h;
  SOLVER(cusolverDnCreate(&h));
  gesvdjInfo_t p;
  SOLVER(cusolverDnCreateGesvdjInfo(&p));
  const auto job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int lw = gesvdj_size<E>(h, job, n, m, work, S, U, V, p, count);
  E* wk;
  CHECK(cudaMalloc(&wk, sizeof(E) * std::max(lw, 1)));
  const float gesvdj_ms = median_ms(
      [&] {
        CHECK(cudaMemcpyAsync(work, src, total * sizeof(E), cudaMemcpyDeviceToDevice));
        gesvdj_call<E>(h, job, n, m, work, S, U, V, wk, lw, info, p, count);
      },
      15);
  std::printf(
      "%-10s %2dx%-2d x %d %s%s%s: ndfuse %8.1f us (res %.1e orth %.1e%s; NaN info %d, others %d) | "
      "gesvdjBatched %8.1f us\n",
      traits<E>::name, m, n, count, vectors ? "vectors" : "values ", full ? " full" : "     ",
      kind ? " rank1" : "      ", kernel_ms * 1e3, r.residual, r.orthogonality, r.sorted ? "" : " UNSORTED",
      r.nan_info, r.other_info, gesvdj_ms * 1e3);
  std::fflush(stdout);
  CHECK(cudaFree(wk));
  cusolverDnDestroyGesvdjInfo(p);
  cusolverDnDestroy(h);
  for (void* q : {(void*)src, (void*)work, (void*)U, (void*)V, (void*)S, (void*)info}) CHECK(cudaFree(q));
}

int main() {
  for (int n : {1, 2, 3, 4, 5, 8, 12, 16, 17, 20, 24, 31, 32}) run<double>(n, n, 10000, true, true);
  run<double>(8, 8, 10000, false, false);
  run<double>(8, 8, 10000, true, true, 1);
  for (auto [m, n] : {std::pair{8, 3}, {3, 8}, {32, 4}, {4, 32}, {32, 16}, {16, 32}, {20, 32}, {32, 1}})
    for (bool full : {false, true}) run<double>(m, n, 10000, true, full);
  run<double>(32, 4, 10000, true, true, 1);
  for (int n : {4, 8, 12, 16, 17, 24, 32}) run<float>(n, n, 10000, true, true);
  for (int n : {4, 8, 12, 16, 17, 24, 32}) run<cuDoubleComplex>(n, n, 10000, true, true);
  for (int n : {8, 16, 32}) run<cuComplex>(n, n, 10000, true, true);
  run<cuDoubleComplex>(8, 3, 10000, true, true);
  run<cuDoubleComplex>(3, 8, 10000, true, true, 1);
}
