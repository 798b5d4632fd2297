// cuSOLVER's typed batched routines (cusolver_batched.hpp), which have no generic 64-bit forms:
// each picks the routine of the call's dtype among the four typed ones.
#include "backend/cuda/vendor/cusolver_batched.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>

#include "backend/cuda/kernels/floating_element_types.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

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

}  // namespace ndfuse::backend::cuda
