// cuSOLVER's typed batched routines (cusolver_batched.hpp), which have no generic 64-bit forms:
// each picks the routine of the call's dtype among the four typed ones.
#include "backend/cuda/cusolver_batched.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

#include "backend/cuda/floating_element_types.hpp"
#include "backend/cuda/memory.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

struct syevj_deleter {
  void operator()(syevjInfo* p) const { cusolverDnDestroySyevjInfo(p); }
};

}  // namespace

// The column-major Cholesky factor (in the triangle `fill` names) of each n x n matrix of `ptrs` (an
// array of `count` device addresses), in place.
void potrf_batched(cusolverDnHandle_t h, dtype dt, cublasFillMode_t fill, int n, void** ptrs, int* info,
                   int count) {
  // by_element_type's float2 and double2 are cuComplex and cuDoubleComplex.
  by_element_type(dt, "potrf_batched", [&](auto e) {
    using E = decltype(e);
    if constexpr (std::is_same_v<E, float>)
      check_solver(cusolverDnSpotrfBatched(h, fill, n, reinterpret_cast<float**>(ptrs), n, info, count),
                   "Spotrf");
    else if constexpr (std::is_same_v<E, double>)
      check_solver(cusolverDnDpotrfBatched(h, fill, n, reinterpret_cast<double**>(ptrs), n, info, count),
                   "Dpotrf");
    else if constexpr (std::is_same_v<E, cuComplex>)
      check_solver(cusolverDnCpotrfBatched(h, fill, n, reinterpret_cast<cuComplex**>(ptrs), n, info, count),
                   "Cpotrf");
    else
      check_solver(
          cusolverDnZpotrfBatched(h, fill, n, reinterpret_cast<cuDoubleComplex**>(ptrs), n, info, count),
          "Zpotrf");
  });
}

// Jacobi eigendecomposition of `count` contiguous n x n column-major Hermitian matrices at `a` (the
// `fill` triangle read): eigenvalues ascending into w (n per matrix); with vectors, a overwritten
// by them. Default tolerance (machine precision) and sweep limit; info > 0: no convergence.
void syevj_batched(cusolverDnHandle_t h, dtype dt, cusolverEigMode_t job, cublasFillMode_t fill, int n,
                   void* a, void* w, int* info, int count) {
  syevjInfo_t raw = nullptr;
  check_solver(cusolverDnCreateSyevjInfo(&raw), "CreateSyevjInfo");
  std::unique_ptr<syevjInfo, syevj_deleter> params(raw);
  by_element_type(dt, "syevj_batched", [&](auto e) {
    using E = decltype(e);
    using R = real_t<E>;
    E* A = static_cast<E*>(a);
    R* W = static_cast<R*>(w);
    int lwork = 0;
    if constexpr (std::is_same_v<E, float>)
      check_solver(cusolverDnSsyevjBatched_bufferSize(h, job, fill, n, A, n, W, &lwork, raw, count),
                   "Ssyevj size");
    else if constexpr (std::is_same_v<E, double>)
      check_solver(cusolverDnDsyevjBatched_bufferSize(h, job, fill, n, A, n, W, &lwork, raw, count),
                   "Dsyevj size");
    else if constexpr (std::is_same_v<E, cuComplex>)
      check_solver(cusolverDnCheevjBatched_bufferSize(h, job, fill, n, A, n, W, &lwork, raw, count),
                   "Cheevj size");
    else
      check_solver(cusolverDnZheevjBatched_bufferSize(h, job, fill, n, A, n, W, &lwork, raw, count),
                   "Zheevj size");
    scratch work(sizeof(E) * std::max(lwork, 1));
    E* wk = work.get<E>();
    if constexpr (std::is_same_v<E, float>)
      check_solver(cusolverDnSsyevjBatched(h, job, fill, n, A, n, W, wk, lwork, info, raw, count), "Ssyevj");
    else if constexpr (std::is_same_v<E, double>)
      check_solver(cusolverDnDsyevjBatched(h, job, fill, n, A, n, W, wk, lwork, info, raw, count), "Dsyevj");
    else if constexpr (std::is_same_v<E, cuComplex>)
      check_solver(cusolverDnCheevjBatched(h, job, fill, n, A, n, W, wk, lwork, info, raw, count), "Cheevj");
    else
      check_solver(cusolverDnZheevjBatched(h, job, fill, n, A, n, W, wk, lwork, info, raw, count), "Zheevj");
  });
}

}  // namespace ndfuse::backend::cuda
