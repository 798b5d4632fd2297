// Dense solvers on the cuda backend (cuSOLVER), the workloads at 1000 x 1000 float64:
//   svd/float64_1000        nf::linalg::svd(a) (full_matrices, as cupy.linalg.svd's default)
//   svdvals/float64_1000    the singular values alone
//   inv/float64_1000        nf::linalg::inv(a)
//   solve/float64_1000      nf::linalg::solve(a, b) with one right-hand side
//   solve/float64_1000x1000 ... with 1000 right-hand sides
//   inv/float64_10000x8x8   a stack of 10000 small matrices (ndfuse's Gauss-Jordan kernel)
//   solve/float64_10000x8x8 the same stack against ones((10000, 8, 1)) (cuBLAS's batched LU)
//   eigh/, eigvalsh/, cholesky/, svd/float64_10000x8x8   the same stack (made symmetric positive
//                           definite for eigh, eigvalsh and cholesky): ndfuse's Jacobi kernels
//                           (small_eigh.cu, small_svd.cu) and cuSOLVER's potrfBatched
//   eigh/float64_10000x32x32   10000 symmetric positive definite 32 x 32 matrices built the same way
//   eigh/float64_1000, cholesky/float64_1000, qr/float64_1000, det/float64_1000
//   cublas_direct/inv_float64_10000x8x8/<how>   the stack's inverse by cuBLAS alone, the floor for
//                           the ndfuse row: getrf_getri (a copy of the stack, getrfBatched and
//                           getriBatched, as CuPy runs it), matinv (matinvBatched), getrf_getri_sync
//                           (plus a wait for the device), getrf_getri_info (plus reading the
//                           info codes back by a DMA, which waits for the device, as raising NumPy's
//                           LinAlgError needs) and getrf_getri_mapped (cuBLAS writes the codes into
//                           pinned host memory itself, so no copy is needed). Address arrays are
//                           built untimed.
//   cusolver_direct/eigh_float64_10000x32x32/<how>   the 32 x 32 stack by cuSOLVER alone, what CuPy
//                           runs (ndfuse's row runs its own kernel, register_eigh.cu): copy_syevj
//                           (a copy of the stack, which syevjBatched overwrites with the vectors,
//                           and the call) and copy_syevj_info (plus the info codes read
//                           back by a DMA).
// Each call includes what the user's call costs: the factorization, the layout changes, and the
// read-back of LAPACK's info codes (one small device-to-host copy, which waits for the device).
// Compare with bench/peers/cupy_solvers.py (same inputs, same protocol). Counters: library_calls and
// kernels per call, and for svd/inv/solve the result's error, computed on the device by ndfuse
// itself (a sanity check, not a test: ||A - U S V^H|| / ||A||, ||A inv(A) - I|| / sqrt(n),
// ||A x - b|| / ||b||); the run fails (exit 1) when one is above 1e-10. Nothing asserts a time.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <cublas_v2.h>
#include <cuda_runtime.h>  // the typed cudaMalloc
#include <cusolverDn.h>

#include "cuda_timing.hpp"

namespace {

using namespace bench_cuda;
namespace la = nf::linalg;

constexpr std::int64_t n = 1000;
bool wrong_results = false;

// A pseudo-random, well-conditioned matrix (values in [-0.5, 0.5) plus 4 on the diagonal) and a
// symmetric positive definite one; evaluated once.
const nf::array& matrix() {
  static nf::array a = [] {
    nf::array i = nf::arange(n * n);
    nf::array r = ((i * 7919 + 13) % 10007).astype(nf::float64) / 10007.0 - 0.5;
    nf::array m = (r.reshape({n, n}) + nf::eye(n) * 4.0).eval();
    return m;
  }();
  return a;
}
const nf::array& spd() {
  static nf::array s = (nf::matmul(matrix(), matrix().T()) + nf::eye(n) * double(n)).eval();
  return s;
}

void record_error(benchmark::State& state, double err) {
  state.counters["rel_error"] = err;
  if (!(err <= 1e-10)) {
    wrong_results = true;
    state.SkipWithError(("result error " + std::to_string(err) + " above 1e-10").c_str());
  }
}

template <class F>
void timed(benchmark::State& state, F&& call) {
  call();
  nf::cuda::synchronize();
  event_pair ev;
  std::uint64_t kernels = 0, calls = 0;
  for (auto _ : state) {
    keep_gpu_busy();
    nf::reset_stats();
    ev.record_start();
    call();
    ev.record_stop();
    kernels += nf::stats().kernels_launched;
    calls += nf::stats().library_calls;
    state.SetIterationTime(ev.seconds());
  }
  state.counters["kernels"] = double(kernels) / double(state.iterations());
  state.counters["library_calls"] = double(calls) / double(state.iterations());
}

void BM_svd(benchmark::State& state) {
  const auto& a = matrix();
  la::svd_result r;
  timed(state, [&] {
    r = la::svd(a);
    r.U.eval(), r.S.eval(), r.Vh.eval();
  });
  const nf::array back = nf::matmul(r.U * nf::expand_dims(r.S, 0), r.Vh);
  record_error(state, (la::norm(back - a) / la::norm(a)).item<double>());
}

void BM_svdvals(benchmark::State& state) {
  const auto& a = matrix();
  timed(state, [&] { la::svdvals(a).eval(); });
}

void BM_inv(benchmark::State& state) {
  const auto& a = matrix();
  nf::array x;
  timed(state, [&] { x = la::inv(a).eval(); });
  record_error(state, (la::norm(nf::matmul(a, x) - nf::eye(n)) / std::sqrt(double(n))).item<double>());
}

void BM_solve(benchmark::State& state, std::int64_t k) {
  const auto& a = matrix();
  const nf::array b = (k == 1 ? nf::ones({n}) : nf::ones({n, k})).eval();
  nf::array x;
  timed(state, [&] { x = la::solve(a, b).eval(); });
  record_error(state, (la::norm(nf::matmul(a, x) - b) / la::norm(b)).item<double>());
}

const nf::array& small_stack() {
  static const nf::array stack = [] {
    nf::array i = nf::arange(10000 * 64);
    nf::array r = ((i * 7919 + 13) % 10007).astype(nf::float64) / 10007.0 - 0.5;
    return (r.reshape({10000, 8, 8}) + nf::eye(8) * 4.0).eval();
  }();
  return stack;
}

// A stack of 10000 small (8 x 8) systems: one batched kernel for the stack.
void BM_inv_stack(benchmark::State& state) {
  const nf::array& stack = small_stack();
  nf::array x;
  timed(state, [&] { x = la::inv(stack).eval(); });
  record_error(state, (la::norm(nf::matmul(stack, x) - nf::eye(8)) / 100.0 / std::sqrt(8.0)).item<double>());
}

// The inverse of the same stack by cuBLAS alone, on buffers of its own.
// The info variants get the codes to the host two ways: a DMA (_info), or cuBLAS writing them into
// pinned host memory itself (_mapped).
// The direct-call rows' timing: one untimed call, then each timed one behind the same busy copies
// as ndfuse's rows (timed above).
template <class F>
void timed_direct(benchmark::State& state, F&& call) {
  call();
  cuda_ok(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  event_pair ev;
  for (auto _ : state) {
    keep_gpu_busy();
    ev.record_start();
    call();
    ev.record_stop();
    state.SetIterationTime(ev.seconds());
  }
}

// A library's info codes as a caller that raises LinAlgError reads them: copied back from `device`
// (unless null: already in host memory), waited for, and looked at.
void read_codes(benchmark::State& state, int* host, const int* device, int count, const char* failure) {
  if (device)
    cuda_ok(cudaMemcpyAsync(host, device, sizeof(int) * count, cudaMemcpyDeviceToHost, stream()),
            "cudaMemcpyAsync");
  cuda_ok(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  for (int b = 0; b < count; ++b)
    if (host[b] != 0) state.SkipWithError(failure);
}

enum class direct_inverse { getrf_getri, matinv, getrf_getri_sync, getrf_getri_info, getrf_getri_mapped };

void BM_inv_stack_direct(benchmark::State& state, direct_inverse how) {
  constexpr int count = 10000, n = 8;
  constexpr std::size_t bytes = sizeof(double) * count * n * n;
  cublasHandle_t h = nullptr;  // first, so that a failure leaves nothing allocated
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetStream(h, stream()) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  const std::vector<double> host = small_stack().to_vector<double>();
  double *a = nullptr, *lu = nullptr, *inv = nullptr;
  double **a_ptrs = nullptr, **lu_ptrs = nullptr, **inv_ptrs = nullptr;
  int *piv = nullptr, *info = nullptr, *host_info = nullptr;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&lu, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&inv, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&piv, sizeof(int) * count * n), "cudaMalloc");
  cuda_ok(cudaMalloc(&info, sizeof(int) * count), "cudaMalloc");
  cuda_ok(cudaMallocHost(&host_info, sizeof(int) * count), "cudaMallocHost");
  cuda_ok(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  auto pointers = [&](double* base, double*** out) {
    std::vector<double*> p(count);
    for (int b = 0; b < count; ++b) p[b] = base + std::size_t(b) * n * n;
    cuda_ok(cudaMalloc(out, sizeof(double*) * count), "cudaMalloc");
    cuda_ok(cudaMemcpy(*out, p.data(), sizeof(double*) * count, cudaMemcpyHostToDevice), "cudaMemcpy");
  };
  pointers(a, &a_ptrs);
  pointers(lu, &lu_ptrs);
  pointers(inv, &inv_ptrs);
  auto ok = [](cublasStatus_t st, const char* what) {
    if (st != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "benchmark: %s failed (%d)\n", what, int(st));
      std::exit(1);
    }
  };
  auto call = [&] {
    if (how == direct_inverse::matinv) {
      ok(cublasDmatinvBatched(h, n, a_ptrs, n, inv_ptrs, n, info, count), "cublasDmatinvBatched");
      return;
    }
    cuda_ok(cudaMemcpyAsync(lu, a, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    int* codes = how == direct_inverse::getrf_getri_mapped ? host_info : info;
    ok(cublasDgetrfBatched(h, n, lu_ptrs, n, piv, codes, count), "cublasDgetrfBatched");
    ok(cublasDgetriBatched(h, n, lu_ptrs, n, piv, inv_ptrs, n, codes, count), "cublasDgetriBatched");
    if (how == direct_inverse::getrf_getri_sync)
      cuda_ok(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
    if (how == direct_inverse::getrf_getri_info || how == direct_inverse::getrf_getri_mapped) {
      // Mapped: cuBLAS wrote the codes into host memory itself, so there is nothing to copy.
      read_codes(state, host_info, how == direct_inverse::getrf_getri_info ? info : nullptr, count,
                 "a singular matrix in the stack");
    }
  };
  timed_direct(state, call);
  cublasDestroy(h);
  for (void* p : {(void*)a, (void*)lu, (void*)inv, (void*)piv, (void*)info, (void*)a_ptrs, (void*)lu_ptrs,
                  (void*)inv_ptrs})
    cudaFree(p);
  cudaFreeHost(host_info);
}

// 10000 symmetric positive definite k x k matrices, a a^T + k I for the stack a built as small_stack()
// is (k = 8 gives exactly its a).
nf::array spd_stack_of(std::int64_t k) {
  nf::array i = nf::arange(10000 * k * k);
  nf::array r = ((i * 7919 + 13) % 10007).astype(nf::float64) / 10007.0 - 0.5;
  nf::array a = r.reshape({10000, k, k}) + nf::eye(k) * 4.0;
  return (nf::matmul(a, a.swapaxes(-1, -2)) + nf::eye(k) * double(k)).eval();
}
const nf::array& small_spd_stack() {
  static const nf::array spd = spd_stack_of(8);
  return spd;
}
const nf::array& spd_stack_32() {
  static const nf::array spd = spd_stack_of(32);
  return spd;
}

void BM_eigh_stack(benchmark::State& state, const nf::array& (*stack)()) {
  la::eigh_result r;
  timed(state, [&] {
    r = la::eigh(stack());
    r.eigenvalues.eval(), r.eigenvectors.eval();
  });
  // ||A V - V diag(w)|| / ||A|| over the stack
  const nf::array& a = stack();
  const nf::array res = nf::matmul(a, r.eigenvectors) - r.eigenvectors * nf::expand_dims(r.eigenvalues, -2);
  record_error(state, (la::norm(res.reshape({-1})) / la::norm(a.reshape({-1}))).item<double>());
}

enum class direct_eigh { copy_syevj, copy_syevj_info };

void BM_eigh_stack_direct(benchmark::State& state, direct_eigh how) {
  constexpr int count = 10000, n = 32;
  constexpr std::size_t bytes = sizeof(double) * count * n * n;
  cusolverDnHandle_t h = nullptr;  // first, so that a failure leaves nothing allocated
  syevjInfo_t params = nullptr;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS ||
      cusolverDnSetStream(h, stream()) != CUSOLVER_STATUS_SUCCESS ||
      cusolverDnCreateSyevjInfo(&params) != CUSOLVER_STATUS_SUCCESS) {
    state.SkipWithError("cusolverDnCreate failed");
    return;
  }
  auto ok = [](cusolverStatus_t st, const char* what) {
    if (st != CUSOLVER_STATUS_SUCCESS) {
      std::fprintf(stderr, "benchmark: %s failed (%d)\n", what, int(st));
      std::exit(1);
    }
  };
  const std::vector<double> host = spd_stack_32().to_vector<double>();
  double *a = nullptr, *v = nullptr, *w = nullptr, *work = nullptr;
  int *info = nullptr, *host_info = nullptr, lwork = 0;
  const auto job = CUSOLVER_EIG_MODE_VECTOR;
  const auto fill = CUBLAS_FILL_MODE_LOWER;
  cuda_ok(cudaMalloc(&a, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&v, bytes), "cudaMalloc");
  cuda_ok(cudaMalloc(&w, sizeof(double) * count * n), "cudaMalloc");
  cuda_ok(cudaMalloc(&info, sizeof(int) * count), "cudaMalloc");
  cuda_ok(cudaMallocHost(&host_info, sizeof(int) * count), "cudaMallocHost");
  cuda_ok(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  ok(cusolverDnDsyevjBatched_bufferSize(h, job, fill, n, v, n, w, &lwork, params, count), "bufferSize");
  cuda_ok(cudaMalloc(&work, sizeof(double) * std::max(lwork, 1)), "cudaMalloc");
  auto call = [&] {
    cuda_ok(cudaMemcpyAsync(v, a, bytes, cudaMemcpyDeviceToDevice, stream()), "cudaMemcpyAsync");
    ok(cusolverDnDsyevjBatched(h, job, fill, n, v, n, w, work, lwork, info, params, count), "syevjBatched");
    if (how == direct_eigh::copy_syevj_info) {
      read_codes(state, host_info, info, count, "a matrix of the stack did not converge");
    }
  };
  timed_direct(state, call);
  cusolverDnDestroySyevjInfo(params);
  cusolverDnDestroy(h);
  for (void* p : {(void*)a, (void*)v, (void*)w, (void*)work, (void*)info}) cudaFree(p);
  cudaFreeHost(host_info);
}

void BM_eigvalsh_stack(benchmark::State& state) {
  timed(state, [&] { la::eigvalsh(small_spd_stack()).eval(); });
}

void BM_cholesky_stack(benchmark::State& state) {
  nf::array l;
  timed(state, [&] { l = la::cholesky(small_spd_stack()).eval(); });
  const nf::array& a = small_spd_stack();
  const nf::array res = nf::matmul(l, l.swapaxes(-1, -2)) - a;
  record_error(state, (la::norm(res.reshape({-1})) / la::norm(a.reshape({-1}))).item<double>());
}

void BM_svd_stack(benchmark::State& state) {
  la::svd_result r;
  timed(state, [&] {
    r = la::svd(small_stack());
    r.U.eval(), r.S.eval(), r.Vh.eval();
  });
  const nf::array& a = small_stack();
  const nf::array res = nf::matmul(r.U * nf::expand_dims(r.S, -2), r.Vh) - a;
  record_error(state, (la::norm(res.reshape({-1})) / la::norm(a.reshape({-1}))).item<double>());
}

void BM_eigh(benchmark::State& state) {
  timed(state, [&] {
    auto r = la::eigh(spd());
    r.eigenvalues.eval(), r.eigenvectors.eval();
  });
}

void BM_cholesky(benchmark::State& state) {
  timed(state, [&] { la::cholesky(spd()).eval(); });
}

void BM_qr(benchmark::State& state) {
  timed(state, [&] {
    auto r = la::qr(matrix());
    r.Q.eval(), r.R.eval();
  });
}

// The same stack as 10000 systems with one right-hand side each, b of shape (10000, 8, 1): cuBLAS's
// batched LU and solve, the stack copied in by range_scale.cu's kernel (it scales a matrix outside
// LAPACK's safe range, and its right-hand side with it).
void BM_solve_stack(benchmark::State& state) {
  const nf::array& stack = small_stack();
  const nf::array b = nf::ones({10000, 8, 1}).eval();
  nf::array x;
  timed(state, [&] { x = la::solve(stack, b).eval(); });
  record_error(state, (la::norm(nf::matmul(stack, x) - b) / la::norm(b)).item<double>());
}

void BM_det(benchmark::State& state) {
  timed(state, [&] { la::det(matrix()).eval(); });
}

void register_all() {
  auto reps = [](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5)->Repetitions(7);
    b->ReportAggregatesOnly(true);
  };
  reps(benchmark::RegisterBenchmark("svd/float64_1000", BM_svd));
  reps(benchmark::RegisterBenchmark("svdvals/float64_1000", BM_svdvals));
  reps(benchmark::RegisterBenchmark("inv/float64_1000", BM_inv));
  reps(benchmark::RegisterBenchmark("solve/float64_1000", BM_solve, 1));
  reps(benchmark::RegisterBenchmark("solve/float64_1000x1000", BM_solve, n));
  reps(benchmark::RegisterBenchmark("inv/float64_10000x8x8", BM_inv_stack));
  reps(benchmark::RegisterBenchmark("solve/float64_10000x8x8", BM_solve_stack));
  reps(benchmark::RegisterBenchmark("cublas_direct/inv_float64_10000x8x8/getrf_getri", BM_inv_stack_direct,
                                    direct_inverse::getrf_getri));
  reps(benchmark::RegisterBenchmark("cublas_direct/inv_float64_10000x8x8/matinv", BM_inv_stack_direct,
                                    direct_inverse::matinv));
  reps(benchmark::RegisterBenchmark("cublas_direct/inv_float64_10000x8x8/getrf_getri_sync",
                                    BM_inv_stack_direct, direct_inverse::getrf_getri_sync));
  reps(benchmark::RegisterBenchmark("cublas_direct/inv_float64_10000x8x8/getrf_getri_info",
                                    BM_inv_stack_direct, direct_inverse::getrf_getri_info));
  reps(benchmark::RegisterBenchmark("cublas_direct/inv_float64_10000x8x8/getrf_getri_mapped",
                                    BM_inv_stack_direct, direct_inverse::getrf_getri_mapped));
  reps(benchmark::RegisterBenchmark("eigh/float64_10000x8x8", BM_eigh_stack, small_spd_stack));
  reps(benchmark::RegisterBenchmark("eigvalsh/float64_10000x8x8", BM_eigvalsh_stack));
  reps(benchmark::RegisterBenchmark("eigh/float64_10000x32x32", BM_eigh_stack, spd_stack_32));
  reps(benchmark::RegisterBenchmark("cusolver_direct/eigh_float64_10000x32x32/copy_syevj",
                                    BM_eigh_stack_direct, direct_eigh::copy_syevj));
  reps(benchmark::RegisterBenchmark("cusolver_direct/eigh_float64_10000x32x32/copy_syevj_info",
                                    BM_eigh_stack_direct, direct_eigh::copy_syevj_info));
  reps(benchmark::RegisterBenchmark("cholesky/float64_10000x8x8", BM_cholesky_stack));
  reps(benchmark::RegisterBenchmark("svd/float64_10000x8x8", BM_svd_stack));
  reps(benchmark::RegisterBenchmark("eigh/float64_1000", BM_eigh));
  reps(benchmark::RegisterBenchmark("cholesky/float64_1000", BM_cholesky));
  reps(benchmark::RegisterBenchmark("qr/float64_1000", BM_qr));
  reps(benchmark::RegisterBenchmark("det/float64_1000", BM_det));
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(argc, argv, "bench_cuda_solvers", register_all, wrong_results);
}

#else
int main() {
  std::cout << "bench_cuda_solvers: built without CUDA; nothing to measure\n";
  return 0;
}
#endif
