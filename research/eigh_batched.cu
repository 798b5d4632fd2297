// Stacks of small Hermitian eigenproblems: cuSOLVER's Jacobi syevjBatched (what ndfuse called for
// n <= 32 before small_eigh.cu, and CuPy calls) against its newer cusolverDnXsyevBatched and
// ndfuse's own Jacobi kernel (src/backend/cuda/kernels/small_eigh.cu, compiled in here), on stacks of 10000
// matrices. For the cuSOLVER routines, which overwrite their input: the median time of the copy of
// the stack plus the call; ndfuse's kernel reads the stack where it lies. For each, the largest residual
// ||A V - V diag(w)||_F / ||A||_F and orthogonality error ||V^H V - I||_F over the stack, and what
// each routine's info says for a matrix holding a NaN.
//
//   nvcc -O3 -std=c++20 -arch=sm_90 -Isrc -Iinclude research/eigh_batched.cu -lcusolver
//   ./a.out [x]   (x: time XsyevBatched too)
//
// H100 80GB HBM3, CUDA 13.0, 2026-11-24, the kernel with columns in lanes (10000 matrices with
// vectors, in us; ndfuse / syevjBatched):
//   float64     n=1 8 / 295, 2 10 / 311, 4 26 / 370, 8 96 / 475, 12 444 / 671, 14 621 / 949,
//               16 769 / 857, 17 1425 / 3728, 20 1967 / 4055, 24 2788 / 4518, 25 3513 / 4637,
//               28 4578 / 4977, 29 4994 / 5121, 30 6336 / 5252, 31 6948 / 5405, 32 7033 / 5494;
//               eigenvalues only n=8 78 / 733; 100000 8 x 8 721 / 3707
//   float32     n=8 65 / 377, 16 363 / 549, 17 880 / 2325, 24 1440 / 2551, 28 2225 / 2655,
//               30 2754 / 2702, 32 2878 / 2698
//   complex128  n=8 208 / 1472, 16 1815 / 1856, 17 2234 / 10015, 24 4906 / 12445, 32 11870 / 16075
//   complex64   n=8 90 / 900, 16 678 / 1000, 24 2445 / 6272, 32 6404 / 6453
// The first kernel (rows in lanes, each step's rotations in shared arrays, three passes) took, in
// float64, n=8 127, 16 931, 24 3775, 32 7869; columns n + 1 elements apart put 31 x 31's columns on
// one bank (31832 us), hence an odd leading dimension.
// XsyevBatched (first version of this file): float64 n=8 1265, 16 3289, 32 9362, 64 35152 us.
// On a matrix holding a NaN, syevjBatched and ndfuse's kernel leave info 0 and XsyevBatched sets
// info 1. Residuals and orthogonality: below 1.8e-15 and 3.4e-14 for the kernel (float64), 1.1e-14
// for syevjBatched.
#include <cuComplex.h>
#include <cusolverDn.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "backend/cuda/kernels/small_eigh.cu"
#include "reduce_common.cuh"
#include "solver_common.cuh"

template <class E>
void syevj_call(cusolverDnHandle_t h, cusolverEigMode_t job, int n, E* A, typename traits<E>::real* W, E* wk,
                int lw, int* info, syevjInfo_t p, int count) {
  const auto up = CUBLAS_FILL_MODE_UPPER;
  if constexpr (std::is_same_v<E, float>)
    SOLVER(cusolverDnSsyevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
  else if constexpr (std::is_same_v<E, double>)
    SOLVER(cusolverDnDsyevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
  else if constexpr (std::is_same_v<E, cuComplex>)
    SOLVER(cusolverDnCheevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
  else
    SOLVER(cusolverDnZheevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
}
template <class E>
int syevj_size(cusolverDnHandle_t h, cusolverEigMode_t job, int n, E* A, typename traits<E>::real* W,
               syevjInfo_t p, int count) {
  int lw = 0;
  const auto up = CUBLAS_FILL_MODE_UPPER;
  if constexpr (std::is_same_v<E, float>)
    SOLVER(cusolverDnSsyevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  else if constexpr (std::is_same_v<E, double>)
    SOLVER(cusolverDnDsyevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  else if constexpr (std::is_same_v<E, cuComplex>)
    SOLVER(cusolverDnCheevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  else
    SOLVER(cusolverDnZheevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  return lw;
}

struct result {
  float ms = 0;
  double residual = 0, orthogonality = 0;
  int nan_info = 0, other_info = 0;
};

// Residual and orthogonality of every matrix, skipping `skip` (the NaN one).
template <class E>
void accuracy(const std::vector<E>& a, const std::vector<E>& v,
              const std::vector<typename traits<E>::real>& w, int n, int count, int skip, result& r) {
  const std::size_t per = std::size_t(n) * n;
  for (int b = 0; b < count; ++b) {
    if (b == skip) continue;
    auto A = [&](int i, int j) {  // the upper triangle holds A; the lower is garbage here
      return i <= j ? get(a[b * per + j * n + i]) : std::conj(get(a[b * per + i * n + j]));
    };
    auto V = [&](int i, int j) { return get(v[b * per + j * n + i]); };
    double res = 0, norm = 0, orth = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        std::complex<double> av = 0, vhv = 0;
        for (int k = 0; k < n; ++k) av += A(i, k) * V(k, j), vhv += std::conj(V(k, i)) * V(k, j);
        res += std::norm(av - V(i, j) * double(w[b * n + j]));
        norm += std::norm(A(i, j));
        orth += std::norm(vhv - (i == j ? 1.0 : 0.0));
      }
    r.residual = std::max(r.residual, std::sqrt(res / norm));
    r.orthogonality = std::max(r.orthogonality, std::sqrt(orth));
  }
}

template <class E>
void run(int n, int count, bool vectors, bool xsyev) {
  using R = typename traits<E>::real;
  const std::size_t per = std::size_t(n) * n, total = per * count;
  std::mt19937_64 g(n * 1000 + count);
  std::normal_distribution<double> d;
  std::vector<E> a(total);
  for (int b = 0; b < count; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) {
        std::complex<double> x(d(g), complex_v<E> && i != j ? d(g) : 0.0);
        a[b * per + j * n + i] = make<E>(x);
        a[b * per + i * n + j] = make<E>(std::conj(x));
      }
  const int nan_at = count / 2;
  a[nan_at * per + (n - 1) * n] = make<E>(std::complex<double>(NAN, 0));  // upper triangle, row 0
  E *src, *work;
  R* W;
  int* info;
  CHECK(cudaMalloc(&src, total * sizeof(E)));
  CHECK(cudaMalloc(&work, total * sizeof(E)));
  CHECK(cudaMalloc(&W, sizeof(R) * n * count));
  CHECK(cudaMalloc(&info, sizeof(int) * count));
  CHECK(cudaMemcpy(src, a.data(), total * sizeof(E), cudaMemcpyHostToDevice));
  cusolverDnHandle_t h;
  SOLVER(cusolverDnCreate(&h));
  const auto job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;

  auto finish = [&](result& r, bool c_order = false) {
    std::vector<E> v(total);
    std::vector<R> w(std::size_t(n) * count);
    std::vector<int> inf(count);
    CHECK(cudaMemcpy(v.data(), work, total * sizeof(E), cudaMemcpyDeviceToHost));
    // ndfuse's vectors are C-order columns, and its A (the C-order triangle) is the conjugate of the
    // column-major matrix cuSOLVER reads: conjugate-transpose each into cuSOLVER's frame.
    if (c_order)
      for (int b = 0; b < count; ++b)
        for (int i = 0; i < n; ++i)
          for (int j = 0; j <= i; ++j) {
            const auto x = std::conj(get(v[b * per + i * n + j])), y = std::conj(get(v[b * per + j * n + i]));
            v[b * per + i * n + j] = make<E>(y), v[b * per + j * n + i] = make<E>(x);
          }
    CHECK(cudaMemcpy(w.data(), W, w.size() * sizeof(R), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(inf.data(), info, inf.size() * sizeof(int), cudaMemcpyDeviceToHost));
    r.nan_info = inf[nan_at];
    for (int b = 0; b < count; ++b)
      if (b != nan_at && inf[b]) ++r.other_info;
    if (vectors) accuracy(a, v, w, n, std::min(count, 2000), nan_at, r);
  };

  result j, x, f;
  if (n <= 32) {
    // ndfuse's kernel: the C-order lower triangle is the column-major upper one cuSOLVER reads.
    f.ms = median_ms(
        [&] {
          ndfuse::backend::cuda::eigh_small_stack(traits<E>::dt, count, n, src, true, W,
                                                  vectors ? work : nullptr, info);
        },
        15);
    finish(f, true);
    syevjInfo_t p;
    SOLVER(cusolverDnCreateSyevjInfo(&p));
    const int lw = syevj_size<E>(h, job, n, work, W, p, count);
    E* wk;
    CHECK(cudaMalloc(&wk, sizeof(E) * std::max(lw, 1)));
    j.ms = median_ms(
        [&] {
          CHECK(cudaMemcpyAsync(work, src, total * sizeof(E), cudaMemcpyDeviceToDevice));
          syevj_call<E>(h, job, n, work, W, wk, lw, info, p, count);
        },
        15);
    finish(j);
    CHECK(cudaFree(wk));
    cusolverDnDestroySyevjInfo(p);
  }
  if (xsyev) {
    cusolverDnParams_t p;
    SOLVER(cusolverDnCreateParams(&p));
    std::size_t dev = 0, host = 0;
    SOLVER(cusolverDnXsyevBatched_bufferSize(h, p, job, CUBLAS_FILL_MODE_UPPER, n, traits<E>::t, work, n,
                                             traits<E>::rt, W, traits<E>::t, &dev, &host, count));
    void* dw = nullptr;
    CHECK(cudaMalloc(&dw, std::max<std::size_t>(dev, 1)));
    std::vector<char> hw(std::max<std::size_t>(host, 1));
    x.ms = median_ms(
        [&] {
          CHECK(cudaMemcpyAsync(work, src, total * sizeof(E), cudaMemcpyDeviceToDevice));
          SOLVER(cusolverDnXsyevBatched(h, p, job, CUBLAS_FILL_MODE_UPPER, n, traits<E>::t, work, n,
                                        traits<E>::rt, W, traits<E>::t, dw, dev, hw.data(), host, info,
                                        count));
        },
        15);
    finish(x);
    CHECK(cudaFree(dw));
    cusolverDnDestroyParams(p);
  }
  std::printf(
      "%-10s n=%2d x %d %s: ndfuse %8.1f us (res %.1e orth %.1e; NaN info %d, others %d) | syevjBatched "
      "%8.1f "
      "us (res %.1e orth %.1e; NaN info %d, others %d) | XsyevBatched %8.1f us (res %.1e orth %.1e; NaN info "
      "%d, others %d)\n",
      traits<E>::name, n, count, vectors ? "vectors" : "values ", f.ms * 1e3, f.residual, f.orthogonality,
      f.nan_info, f.other_info, j.ms * 1e3, j.residual, j.orthogonality, j.nan_info, j.other_info, x.ms * 1e3,
      x.residual, x.orthogonality, x.nan_info, x.other_info);
  std::fflush(stdout);
  cusolverDnDestroy(h);
  CHECK(cudaFree(src));
  CHECK(cudaFree(work));
  CHECK(cudaFree(W));
  CHECK(cudaFree(info));
}

int main(int argc, char** argv) {
  const bool xsyev = argc > 1;  // XsyevBatched was slower everywhere; time it again on request
  for (int n : {1, 2, 3, 4, 5, 8, 12, 13, 14, 16, 17, 20, 24, 25, 28, 29, 30, 31, 32})
    run<double>(n, 10000, true, xsyev);
  run<double>(8, 10000, false, xsyev);
  run<double>(8, 100000, true, xsyev);
  run<double>(8, 100, true, xsyev);
  for (int n : {4, 8, 12, 13, 16, 17, 20, 24, 25, 28, 30, 32}) run<float>(n, 10000, true, xsyev);
  for (int n : {8, 12, 13, 16, 17, 20, 24, 28, 32}) run<cuDoubleComplex>(n, 10000, true, xsyev);
  for (int n : {8, 12, 16, 17, 24, 28, 32}) run<cuComplex>(n, 10000, true, xsyev);
}
