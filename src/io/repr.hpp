// NumPy's repr() of host data, with NumPy 2's default print options.
#pragma once
#include <string>
#include <string_view>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

// The NumPy spelling of a dtype as repr shows it: "float32", "bool", "complex64".
const char* numpy_dtype_name(dtype t);

// device: "" for an array on the process default device, else its name ("cuda:1"), shown as
// device='cuda:1' after dtype=.
std::string repr_host(const host_array& h, std::string_view device = "");

}  // namespace ndfuse::io
