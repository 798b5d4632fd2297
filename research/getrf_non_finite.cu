// Experiment (not part of the build): do cuSOLVER's getrf and cuBLAS's batched getrf carry a NaN, or
// an infinity, through an LU factorization as LAPACK's getf2 does? For float64 matrices of n = 2 ..
// 100 with one NaN or infinity (in the last corner, the first, or at random), each factorization is
// compared with a host getf2 (first largest |.| as the pivot; a NaN never wins unless it comes first).
//   nvcc -O2 -std=c++17 -arch=sm_90 research/getrf_non_finite.cu -lcusolver -lcublas -o nonfinite
// On an H100 with CUDA 13.0 (session 16): cuSOLVER's Dgetrf differed on 8 of 8 NaN matrices at every
// n and left no NaN in the factors (its 64-bit Xgetrf, and S, C and Z, did the same up to n = 256),
// and on those infinity matrices whose getf2 factors hold a NaN (inf - inf). cuBLAS's batched getrf
// (n <= 32 here) kept a NaN in the factors wherever getf2 has one, and matched getf2 on every matrix
// but 2 of the 8 NaN ones at n = 16 (a NaN there in a pivot column, so the pivot choice can differ).
// cusolver_lu.cpp routes such matrices accordingly.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

// getf2 on a column-major n x n matrix.
void host_getf2(std::vector<double>& a, int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    double m = std::fabs(a[k + k * n]);
    for (int i = k + 1; i < n; ++i)
      if (std::fabs(a[i + k * n]) > m) m = std::fabs(a[i + k * n]), p = i;
    if (p != k)
      for (int j = 0; j < n; ++j) std::swap(a[k + j * n], a[p + j * n]);
    if (a[k + k * n] != 0) {
      const double r = 1.0 / a[k + k * n];
      for (int i = k + 1; i < n; ++i) a[i + k * n] *= r;
    }
    for (int j = k + 1; j < n; ++j)
      for (int i = k + 1; i < n; ++i) a[i + j * n] -= a[i + k * n] * a[k + j * n];
  }
}

bool same(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || x == y || std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(y));
}

// Whether the device factors at d (n x n) match `ref`; counts a NaN among them in `nans`.
bool matches(const double* d, const std::vector<double>& ref, int n, int& nans) {
  std::vector<double> r(ref.size());
  cudaMemcpy(r.data(), d, 8 * r.size(), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (std::size_t i = 0; i < r.size(); ++i) ok &= same(r[i], ref[i]), nans += std::isnan(r[i]);
  return ok;
}

int main() {
  cusolverDnHandle_t h;
  cusolverDnCreate(&h);
  cublasHandle_t bh;
  cublasCreate(&bh);
  std::mt19937 g(2);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double bad : {double(INFINITY), double(NAN)}) {
    for (int n : {2, 3, 8, 16, 40, 100}) {
      int solver_diff = 0, solver_nan = 0, blas_diff = 0, blas_nan = 0, blas_runs = 0;
      for (int t = 0; t < 8; ++t) {
        std::vector<double> a(std::size_t(n) * n);
        for (auto& v : a) v = u(g);
        a[t == 0 ? n * n - 1 : t == 1 ? 0 : g() % (n * n)] = bad;
        auto ref = a;
        host_getf2(ref, n);
        double* d;
        int *piv, *info, lwork = 0;
        cudaMalloc(&d, 8 * a.size());
        cudaMalloc(&piv, 4 * n);
        cudaMalloc(&info, 4);
        cudaMemcpy(d, a.data(), 8 * a.size(), cudaMemcpyHostToDevice);
        cusolverDnDgetrf_bufferSize(h, n, n, d, n, &lwork);
        double* work;
        cudaMalloc(&work, 8 * (lwork + 1));
        cusolverDnDgetrf(h, n, n, d, n, work, piv, info);
        int nans = 0;
        solver_diff += !matches(d, ref, n, nans);
        solver_nan += nans > 0;
        if (n <= 32) {
          cudaMemcpy(d, a.data(), 8 * a.size(), cudaMemcpyHostToDevice);
          double** pp;
          cudaMalloc(&pp, sizeof(double*));
          cudaMemcpy(pp, &d, sizeof(double*), cudaMemcpyHostToDevice);
          cublasDgetrfBatched(bh, n, pp, n, piv, info, 1);
          nans = 0;
          blas_diff += !matches(d, ref, n, nans);
          blas_nan += nans > 0, ++blas_runs;
          cudaFree(pp);
        }
        cudaFree(d), cudaFree(piv), cudaFree(info), cudaFree(work);
      }
      std::printf(
          "%s n=%3d: cuSOLVER differs from getf2 on %d/8 (NaN in its factors %d/8); cuBLAS batched "
          "differs on %d/%d (NaN %d)\n",
          std::isnan(bad) ? "nan" : "inf", n, solver_diff, solver_nan, blas_diff, blas_runs, blas_nan);
    }
  }
}
