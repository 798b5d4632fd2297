// Experiment (not part of the build): eigh of one 1000 x 1000 float64 symmetric matrix through each
// cuSOLVER route, to see whether linalg.eigh's (the copy into the output, then Xsyevd, the 64-bit
// API) leaves time to CuPy's (legacy Dsyevd) or to another routine.
//   nvcc -O2 -std=c++17 -arch=sm_90 research/eigh_large.cu -lcusolver -o eigh_large
// Protocol of bench/README.md: a 512 MiB copy keeps the GPU busy while the host enqueues, events
// around the work, the median of 21 runs after 3 warm-ups. Each route's eigenvalues are checked
// against the trace and the sum of squares (the Frobenius norm) of A.
#include <cusolverDn.h>

#include <cmath>
#include <random>

#include "fft_common.cuh"  // CHECK, busy_copy, timed_once

// A CUDA or cuSOLVER call's status: 0 is success in both.
inline void ok(int status, const char* call) {
  if (status != 0) std::printf("%s failed: status %d\n", call, status), std::exit(1);
}
#define OK(x) ok(int(x), #x)

constexpr int n = 1000;

// The median of 21 runs after 3 warm-ups, each behind the busy copy, in us.
double median_us(const std::function<void()>& f) {
  static const busy_copy busy;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<double> t;
  for (int i = 0; i < 24; ++i) {
    const float ms = timed_once(busy, f, a, b);
    if (i >= 3) t.push_back(ms * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  cusolverDnHandle_t h;  // on the default stream, as timed_once records its events
  OK(cusolverDnCreate(&h));
  cusolverDnParams_t params;
  OK(cusolverDnCreateParams(&params));

  // A = B B^T / n + I, B standard normal: symmetric positive definite, as the bench's spd().
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> b(std::size_t(n) * n), a(std::size_t(n) * n, 0.0);
  for (auto& x : b) x = normal(rng);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k) acc += b[std::size_t(i) * n + k] * b[std::size_t(j) * n + k];
      a[std::size_t(i) * n + j] = a[std::size_t(j) * n + i] = acc / n + (i == j);
    }
  double trace = 0, frob2 = 0;
  for (int i = 0; i < n; ++i) trace += a[std::size_t(i) * n + i];
  for (double x : a) frob2 += x * x;

  double *da, *dv, *dw;
  int* info;
  OK(cudaMalloc(&da, sizeof(double) * n * n));
  OK(cudaMalloc(&dv, sizeof(double) * n * n));
  OK(cudaMalloc(&dw, sizeof(double) * n));
  OK(cudaMalloc(&info, sizeof(int)));
  OK(cudaMemcpy(da, a.data(), sizeof(double) * n * n, cudaMemcpyHostToDevice));
  auto copy_in = [&] { OK(cudaMemcpyAsync(dv, da, sizeof(double) * n * n, cudaMemcpyDeviceToDevice, 0)); };

  auto check = [&](const char* what) {
    std::vector<double> w(n);
    int inf = 0;
    OK(cudaMemcpy(w.data(), dw, sizeof(double) * n, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(&inf, info, sizeof(int), cudaMemcpyDeviceToHost));
    double sum = 0, sq = 0;
    for (double x : w) sum += x, sq += x * x;
    std::printf("  %-28s info %d, |sum w - trace| / trace %.1e, |sum w^2 - ||A||^2| / ||A||^2 %.1e\n", what,
                inf, std::fabs(sum - trace) / trace, std::fabs(sq - frob2) / frob2);
  };

  for (const bool vectors : {true, false}) {
    const auto job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    std::printf("%s\n", vectors ? "eigenvalues and vectors" : "eigenvalues only");
    // Xsyevd: ndfuse's route.
    std::size_t d = 0, hb = 0;
    OK(cusolverDnXsyevd_bufferSize(h, params, job, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, dv, n, CUDA_R_64F,
                                   dw, CUDA_R_64F, &d, &hb));
    void* work;
    OK(cudaMalloc(&work, std::max<std::size_t>(d, 8)));
    std::vector<char> host(std::max<std::size_t>(hb, 1));
    auto xsyevd = [&] {
      copy_in();
      OK(cusolverDnXsyevd(h, params, job, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, dv, n, CUDA_R_64F, dw,
                          CUDA_R_64F, work, d, host.data(), hb, info));
    };
    std::printf("copy + Xsyevd            %9.1f us (device workspace %zu B, host %zu B)\n", median_us(xsyevd),
                d, hb);
    check("Xsyevd");
    // Legacy Dsyevd: CuPy's route.
    int lwork = 0;
    OK(cusolverDnDsyevd_bufferSize(h, job, CUBLAS_FILL_MODE_LOWER, n, dv, n, dw, &lwork));
    double* lw;
    OK(cudaMalloc(&lw, sizeof(double) * std::max(lwork, 1)));
    auto dsyevd = [&] {
      copy_in();
      OK(cusolverDnDsyevd(h, job, CUBLAS_FILL_MODE_LOWER, n, dv, n, dw, lw, lwork, info));
    };
    std::printf("copy + Dsyevd (legacy)   %9.1f us (workspace %zu B)\n", median_us(dsyevd),
                sizeof(double) * std::size_t(lwork));
    check("Dsyevd");
    // Xsyevdx over the whole range.
    std::int64_t found = 0;
    std::size_t dx = 0, hx = 0;
    double vl = 0, vu = 0;
    OK(cusolverDnXsyevdx_bufferSize(h, params, job, CUSOLVER_EIG_RANGE_ALL, CUBLAS_FILL_MODE_LOWER, n,
                                    CUDA_R_64F, dv, n, &vl, &vu, 0, 0, &found, CUDA_R_64F, dw, CUDA_R_64F,
                                    &dx, &hx));
    void* workx;
    OK(cudaMalloc(&workx, std::max<std::size_t>(dx, 8)));
    std::vector<char> hostx(std::max<std::size_t>(hx, 1));
    auto xsyevdx = [&] {
      copy_in();
      OK(cusolverDnXsyevdx(h, params, job, CUSOLVER_EIG_RANGE_ALL, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, dv,
                           n, &vl, &vu, 0, 0, &found, CUDA_R_64F, dw, CUDA_R_64F, workx, dx, hostx.data(), hx,
                           info));
    };
    std::printf("copy + Xsyevdx (all)     %9.1f us\n", median_us(xsyevdx));
    check("Xsyevdx");
    // Dsyevj (Jacobi), default tolerance and sweeps.
    syevjInfo_t j;
    OK(cusolverDnCreateSyevjInfo(&j));
    int lj = 0;
    OK(cusolverDnDsyevj_bufferSize(h, job, CUBLAS_FILL_MODE_LOWER, n, dv, n, dw, &lj, j));
    double* wj;
    OK(cudaMalloc(&wj, sizeof(double) * std::max(lj, 1)));
    auto dsyevj = [&] {
      copy_in();
      OK(cusolverDnDsyevj(h, job, CUBLAS_FILL_MODE_LOWER, n, dv, n, dw, wj, lj, info, j));
    };
    std::printf("copy + Dsyevj            %9.1f us\n", median_us(dsyevj));
    check("Dsyevj");
    OK(cudaFree(work));
    OK(cudaFree(lw));
    OK(cudaFree(workx));
    OK(cudaFree(wj));
    OK(cusolverDnDestroySyevjInfo(j));
  }
  std::printf("copy 8 MB                %9.1f us\n", median_us(copy_in));
  return 0;
}
