// NumPy's repr() of host data, with NumPy 2's default print options.
#pragma once
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

// The NumPy spelling of a dtype as repr shows it: "float32", "bool", "complex64".
const char* numpy_dtype_name(dtype t);

std::string repr_host(const host_array& h);

}  // namespace ndfuse::io
