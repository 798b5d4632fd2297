// Library calls on the CPU backend (ir/library.hpp): std algorithms over the thread pool.
#pragma once
#include <vector>

#include "ir/library.hpp"

namespace ndfuse::backend::cpu {

void run_library(const ir::library_call& c, const std::vector<const void*>& inputs,
                 const std::vector<void*>& outputs);

}  // namespace ndfuse::backend::cpu
