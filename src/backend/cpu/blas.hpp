// BLAS calls of the CPU backend (OpenBLAS): the twin of src/backend/cuda/vendor/cublas.cpp.
#pragma once
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cpu {

// library_op::gemm: inputs A and B as c.gemm describes them; out is C-order batch x m x n.
void gemm(const ir::library_call& c, const std::vector<const void*>& inputs, void* out);

}  // namespace ndfuse::backend::cpu
