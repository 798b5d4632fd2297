// Small kernels of the solvers (cusolver.cpp, cublas.cpp's batched LU): identities, transposes of
// stacks of small matrices, and the batched routines' arrays of matrix addresses.
#include "backend/cuda/cusolver.hpp"

#include "backend/cuda/grid_launch.cuh"

namespace ndfuse::backend::cuda {

namespace {

// ---- identity (the solvers' right-hand side of an inverse) -----------------------------------------

template <class R>
__global__ void write_identity(R* out, int64_t n, int64_t components) {
  // Every element written (components: 1 real, 2 complex), so no memset is needed first.
  const int64_t total = n * n * components;
  for (int64_t i = thread_index(); i < total; i += thread_count()) {
    const int64_t element = i / components;
    out[i] = (i % components == 0 && element / n == element % n) ? R(1) : R(0);
  }
}

// ---- transposes of a stack of small matrices (the solvers' batched layout changes) ----------------

template <class R>
__global__ void transpose_each(const R* in, R* out, int64_t count, int64_t rows, int64_t cols, int64_t in_ld,
                               int64_t in_stride, int64_t components, bool conjugate) {
  // out[b][j][i] = in[b * in_stride + i * in_ld + j] for the rows x cols block at the start of each
  // input matrix; components: 1 real, 2 complex (the imaginary part negated when conjugating).
  const int64_t per = rows * cols * components, total = count * per;
  for (int64_t o = thread_index(); o < total; o += thread_count()) {
    const int64_t b = o / per, e = (o % per) / components, part = o % components;
    const int64_t j = e / rows, i = e % rows;  // out element (j, i) of the cols x rows result
    const R v = in[(b * in_stride + i * in_ld + j) * components + part];
    out[o] = conjugate && part == 1 ? -v : v;
  }
}

__global__ void stride_pointers(char** out, char* base, int64_t stride_bytes, int64_t count) {
  for (int64_t b = thread_index(); b < count; b += thread_count()) out[b] = base + b * stride_bytes;
}

}  // namespace

void matrix_pointers(void** out, void* base, std::int64_t stride_bytes, std::int64_t count) {
  launch("stride_pointers", count, stride_pointers, reinterpret_cast<char**>(out), static_cast<char*>(base),
         stride_bytes, count);
}

void transpose_stack(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                     void* out, bool conjugate) {
  transpose_blocks(dt, count, rows, cols, in, cols, rows * cols, out, conjugate);
}

void transpose_blocks(dtype dt, std::int64_t count, std::int64_t rows, std::int64_t cols, const void* in,
                      std::int64_t in_ld, std::int64_t in_stride, void* out, bool conjugate) {
  const int64_t components = is_complex(dt) ? 2 : 1;
  const int64_t total = count * rows * cols * components;
  if (dt == dtype::float32 || dt == dtype::complex64)
    launch("transpose_each", total, transpose_each<float>, static_cast<const float*>(in),
           static_cast<float*>(out), count, rows, cols, in_ld, in_stride, components, conjugate);
  else
    launch("transpose_each", total, transpose_each<double>, static_cast<const double*>(in),
           static_cast<double*>(out), count, rows, cols, in_ld, in_stride, components, conjugate);
}

void identity_matrix(dtype dt, std::int64_t n, void* out) {
  if (n == 0) return;
  const int64_t components = is_complex(dt) ? 2 : 1;
  if (dt == dtype::float32 || dt == dtype::complex64)
    launch("write_identity", n * n * components, write_identity<float>, static_cast<float*>(out), n,
           components);
  else
    launch("write_identity", n * n * components, write_identity<double>, static_cast<double*>(out), n,
           components);
}

}  // namespace ndfuse::backend::cuda
