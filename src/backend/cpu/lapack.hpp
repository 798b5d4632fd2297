// Dense solvers of the CPU backend (LAPACKE): the twin of src/backend/cuda/vendor/cusolver.hpp.
#pragma once
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cpu {

// library_op::solve ... library_op::eig (ir/library.hpp): runs every matrix of the batch, writing
// the outputs in the order the op lists, info codes included. Throws only on internal errors.
void run_solver(const ir::library_call& c, const std::vector<const void*>& inputs,
                const std::vector<void*>& outputs);

}  // namespace ndfuse::backend::cpu
