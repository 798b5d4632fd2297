// NumPy's repr() and array2string of host data, with the given print options.
#pragma once
#include <string>
#include <string_view>

#include "ndfuse/array.hpp"
#include "ndfuse/printing.hpp"

namespace ndfuse::io {

// The NumPy spelling of a dtype as repr shows it: "float32", "bool", "complex64".
const char* numpy_dtype_name(dtype t);

// device: "" for an array on the process default device, else its name ("cuda:1"), shown as
// device='cuda:1' after dtype=.
std::string repr_host(const host_array& h, std::string_view device = "", const print_options& options = {});

// The bracketed elements, as NumPy's _formatArray lays them out: `separator` between elements,
// lines of at most `width` characters, later lines indented by prefix_length + 1.
std::string format_elements(const host_array& h, const print_options& options, std::string_view separator,
                            std::size_t prefix_length, std::int64_t width);

}  // namespace ndfuse::io
