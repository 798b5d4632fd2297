// Experiment (not part of the build): the parts of a 1000 x 1000 float64 inverse through cuSOLVER and
// cuBLAS, timed alone and in three whole pipelines, to choose how linalg.inv runs on the cuda backend.
//   nvcc -O2 -std=c++17 -arch=sm_90 research/lu_inverse_parts.cu -lcusolver -lcublas -o parts
// Protocol of bench/README.md: a 512 MiB copy keeps the GPU busy while the host enqueues, events
// around the work, the median of 21 runs after 3 warm-ups. Each pipeline's result is checked on the
// host (max |M X - I|).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define OK(x)                                                                   \
  do {                                                                          \
    auto e_ = (x);                                                              \
    if (int(e_) != 0) {                                                         \
      std::fprintf(stderr, "%s failed: %d (line %d)\n", #x, int(e_), __LINE__); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

constexpr int n = 1000;
cudaStream_t s;
void *busy_a, *busy_b;

double median_us(const std::function<void()>& f) {
  cudaEvent_t a, b;
  OK(cudaEventCreate(&a));
  OK(cudaEventCreate(&b));
  std::vector<double> t;
  for (int i = 0; i < 24; ++i) {
    OK(cudaMemcpyAsync(busy_b, busy_a, 512 << 20, cudaMemcpyDeviceToDevice, s));
    OK(cudaEventRecord(a, s));
    f();
    OK(cudaEventRecord(b, s));
    OK(cudaEventSynchronize(b));
    float ms;
    OK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 3) t.push_back(ms * 1e3);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__global__ void diag_ones(double* b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    b[i + size_t(i) * n] = 1;
}
// LAPACK's swaps (1-based ipiv) applied in order to 0..n-1 in shared memory, by one thread.
__device__ void walk(const int* ipiv, int* sh, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) sh[i] = i;
  __syncthreads();
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i) {
      const int p = ipiv[i] - 1, v = sh[i];
      sh[i] = sh[p];
      sh[p] = v;
    }
  __syncthreads();
}
__global__ void pivots_to_rows(const int* ipiv, int* r, int n) {
  extern __shared__ int sh[];
  walk(ipiv, sh, n);
  for (int i = threadIdx.x; i < n; i += blockDim.x) r[i] = sh[i];
}
// The same, then P^T I: b (zeroed) gets b(i, r[i]) = 1.
__global__ void permuted_identity(const int* ipiv, double* b, int n) {
  extern __shared__ int sh[];
  walk(ipiv, sh, n);
  for (int i = threadIdx.x; i < n; i += blockDim.x) b[i + size_t(sh[i]) * n] = 1;
}
// t holds inv(L) (strict lower, unit diagonal implied) and inv(U) (upper). lp = inv(L) P^T:
// column r[j] of lp is column j of inv(L).
__global__ void lower_permuted(const double* t, const int* r, double* lp, int n) {
  const size_t total = size_t(n) * n;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(gridDim.x) * blockDim.x) {
    const int j = int(e / n), i = int(e - size_t(j) * n);
    lp[i + size_t(r[j]) * n] = i > j ? t[e] : i == j ? 1.0 : 0.0;
  }
}
__global__ void upper_full(const double* t, double* u, int n) {
  const size_t total = size_t(n) * n;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(gridDim.x) * blockDim.x) {
    const int j = int(e / n), i = int(e - size_t(j) * n);
    u[e] = i <= j ? t[e] : 0.0;
  }
}

int main() {
  OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(cudaMalloc(&busy_a, 512 << 20));
  OK(cudaMalloc(&busy_b, 512 << 20));
  cusolverDnHandle_t h;
  cublasHandle_t cb;
  OK(cusolverDnCreate(&h));
  OK(cublasCreate(&cb));
  OK(cusolverDnSetStream(h, s));
  OK(cublasSetStream(cb, s));
  cusolverDnParams_t params0, params1;
  OK(cusolverDnCreateParams(&params0));
  OK(cusolverDnCreateParams(&params1));
  OK(cusolverDnSetAdvOptions(params1, CUSOLVERDN_GETRF, CUSOLVER_ALG_1));

  const size_t bytes = size_t(n) * n * sizeof(double);
  std::vector<double> hm(size_t(n) * n);
  for (size_t i = 0; i < hm.size(); ++i) hm[i] = double((i * 7919 + 13) % 10007) / 10007.0 - 0.5;
  for (int i = 0; i < n; ++i) hm[i + size_t(i) * n] += 4;
  double *m, *lu, *lu2, *x, *x2, *t;
  int *ipiv, *info, *r;
  int64_t* ipiv64;
  OK(cudaMalloc(&m, bytes));
  OK(cudaMalloc(&lu, bytes));
  OK(cudaMalloc(&lu2, bytes));
  OK(cudaMalloc(&x, bytes));
  OK(cudaMalloc(&x2, bytes));
  OK(cudaMalloc(&t, bytes));
  OK(cudaMalloc(&ipiv, n * sizeof(int)));
  OK(cudaMalloc(&ipiv64, n * sizeof(int64_t)));
  OK(cudaMalloc(&r, n * sizeof(int)));
  OK(cudaMalloc(&info, sizeof(int)));
  OK(cudaMemcpy(m, hm.data(), bytes, cudaMemcpyHostToDevice));

  int lwork = 0;
  OK(cusolverDnDgetrf_bufferSize(h, n, n, m, n, &lwork));
  double* work;
  OK(cudaMalloc(&work, std::max(lwork, 1) * sizeof(double)));
  size_t xd = 0, xh = 0;
  OK(cusolverDnXgetrf_bufferSize(h, params1, n, n, CUDA_R_64F, m, n, CUDA_R_64F, &xd, &xh));
  size_t xd0 = 0, xh0 = 0;
  OK(cusolverDnXgetrf_bufferSize(h, params0, n, n, CUDA_R_64F, m, n, CUDA_R_64F, &xd0, &xh0));
  xd = std::max(xd, xd0), xh = std::max(xh, xh0);
  void* xwork;
  OK(cudaMalloc(&xwork, std::max<size_t>(xd, 1)));
  std::vector<char> xhost(std::max<size_t>(xh, 1));
  size_t td = 0, th = 0, td2 = 0, th2 = 0;
  OK(cusolverDnXtrtri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, n, CUDA_R_64F, t, n, &td, &th));
  OK(cusolverDnXtrtri_bufferSize(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, n, CUDA_R_64F, t, n, &td2,
                                 &th2));
  td = std::max(td, td2), th = std::max(th, th2);
  void* twork;
  OK(cudaMalloc(&twork, std::max<size_t>(td, 1)));
  std::vector<char> thost(std::max<size_t>(th, 1));
  const double one = 1, zero = 0;

  auto copy_m = [&] { OK(cudaMemcpyAsync(lu, m, bytes, cudaMemcpyDeviceToDevice, s)); };
  auto getrf = [&] { OK(cusolverDnDgetrf(h, n, n, lu, n, work, ipiv, info)); };
  auto identity = [&] {
    OK(cudaMemsetAsync(x, 0, bytes, s));
    diag_ones<<<8, 128, 0, s>>>(x, n);
  };
  auto perm_identity = [&] {
    OK(cudaMemsetAsync(x, 0, bytes, s));
    permuted_identity<<<1, 256, n * sizeof(int), s>>>(ipiv, x, n);
  };
  auto trsm_l = [&] {
    OK(cublasDtrsm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &one,
                   lu, n, x, n));
  };
  auto trsm_u = [&] {
    OK(cublasDtrsm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                   &one, lu, n, x, n));
  };
  auto trtri_both = [&] {
    OK(cusolverDnXtrtri(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, n, CUDA_R_64F, t, n, twork, td,
                        thost.data(), th, info));
    OK(cusolverDnXtrtri(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, n, CUDA_R_64F, t, n, twork, td,
                        thost.data(), th, info));
  };
  auto check = [&](const char* what, double* xr) {
    OK(cudaStreamSynchronize(s));
    OK(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, m, n, xr, n, &zero, t, n));
    std::vector<double> p(size_t(n) * n);
    OK(cudaMemcpy(p.data(), t, bytes, cudaMemcpyDeviceToHost));
    double e = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) e = std::max(e, std::fabs(p[i + size_t(j) * n] - (i == j)));
    std::printf("check %-28s max|M X - I| = %.3g\n", what, e);
  };

  // The parts.
  std::printf("copy 8 MB                     %8.1f us\n", median_us(copy_m));
  std::printf("copy + Dgetrf (legacy)        %8.1f us\n", median_us([&] {
                copy_m();
                getrf();
              }));
  std::printf("copy + Xgetrf ALG_0           %8.1f us\n", median_us([&] {
                copy_m();
                OK(cusolverDnXgetrf(h, params0, n, n, CUDA_R_64F, lu, n, ipiv64, CUDA_R_64F, xwork, xd,
                                    xhost.data(), xh, info));
              }));
  std::printf("copy + Xgetrf ALG_1           %8.1f us\n", median_us([&] {
                copy_m();
                OK(cusolverDnXgetrf(h, params1, n, n, CUDA_R_64F, lu, n, ipiv64, CUDA_R_64F, xwork, xd,
                                    xhost.data(), xh, info));
              }));
  copy_m();
  getrf();  // lu, ipiv: the factors every part below uses
  std::printf("identity (memset + diagonal)  %8.1f us\n", median_us(identity));
  std::printf("identity + Dgetrs N           %8.1f us\n", median_us([&] {
                identity();
                OK(cusolverDnDgetrs(h, CUBLAS_OP_N, n, n, lu, n, ipiv, x, n, info));
              }));
  std::printf("pivots_to_rows                %8.1f us\n",
              median_us([&] { pivots_to_rows<<<1, 256, n * sizeof(int), s>>>(ipiv, r, n); }));
  std::printf("memset + permuted identity    %8.1f us\n", median_us(perm_identity));
  std::printf("identity + trsm L             %8.1f us\n", median_us([&] {
                identity();
                trsm_l();
              }));
  std::printf("identity + trsm U             %8.1f us\n", median_us([&] {
                identity();
                trsm_u();
              }));
  std::printf("copy + trtri L + trtri U      %8.1f us\n", median_us([&] {
                OK(cudaMemcpyAsync(t, lu, bytes, cudaMemcpyDeviceToDevice, s));
                trtri_both();
              }));
  std::printf("Dgemm 1000^3                  %8.1f us\n", median_us([&] {
                OK(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, lu, n, lu, n, &zero, x2, n));
              }));
  std::printf("Dtrmm 1000^3                  %8.1f us\n", median_us([&] {
                OK(cublasDtrmm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, n, n, &one, lu, n, x, n, x2, n));
              }));

  // One right-hand side (solve): getrs with op T, against the two triangular solves alone.
  std::printf("Dgetrs T, 1 column            %8.1f us\n",
              median_us([&] { OK(cusolverDnDgetrs(h, CUBLAS_OP_T, n, 1, lu, n, ipiv, x, n, info)); }));
  std::printf(
      "trsv U^T + trsv L^T           %8.1f us\n", median_us([&] {
        OK(cublasDtrsv(cb, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, lu, n, x, 1));
        OK(cublasDtrsv(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, n, lu, n, x, 1));
      }));
  std::printf("trsm U^T + trsm L^T, 1 column %8.1f us\n", median_us([&] {
                OK(cublasDtrsm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                               CUBLAS_DIAG_NON_UNIT, n, 1, &one, lu, n, x, n));
                OK(cublasDtrsm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, n,
                               1, &one, lu, n, x, n));
              }));
  std::printf("Dgetrs T, 1000 columns        %8.1f us\n",
              median_us([&] { OK(cusolverDnDgetrs(h, CUBLAS_OP_T, n, n, lu, n, ipiv, x, n, info)); }));

  // Whole pipelines, M's inverse from M.
  auto current = [&] {
    copy_m();
    getrf();
    identity();
    OK(cusolverDnDgetrs(h, CUBLAS_OP_N, n, n, lu, n, ipiv, x, n, info));
  };
  auto perm_trsm = [&] {
    copy_m();
    getrf();
    perm_identity();
    trsm_l();
    trsm_u();
  };
  auto trtri_gemm = [&](bool trmm) {
    OK(cudaMemcpyAsync(t, m, bytes, cudaMemcpyDeviceToDevice, s));
    OK(cusolverDnDgetrf(h, n, n, t, n, work, ipiv, info));
    trtri_both();
    pivots_to_rows<<<1, 256, n * sizeof(int), s>>>(ipiv, r, n);
    lower_permuted<<<528, 256, 0, s>>>(t, r, x, n);
    if (trmm) {
      OK(cublasDtrmm(cb, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n,
                     &one, t, n, x, n, x2, n));
    } else {
      upper_full<<<528, 256, 0, s>>>(t, lu2, n);
      OK(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, lu2, n, x, n, &zero, x2, n));
    }
  };
  std::printf("pipeline getrf + getrs        %8.1f us\n", median_us(current));
  check("getrf + getrs", x);
  std::printf("pipeline perm + 2 trsm        %8.1f us\n", median_us(perm_trsm));
  check("perm + 2 trsm", x);
  std::printf("pipeline trtri + trmm         %8.1f us\n", median_us([&] { trtri_gemm(true); }));
  check("trtri + trmm", x2);
  std::printf("pipeline trtri + gemm         %8.1f us\n", median_us([&] { trtri_gemm(false); }));
  check("trtri + gemm", x2);
  return 0;
}
