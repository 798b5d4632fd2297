// The parameter lists of user kernels (nf::elementwise_kernel, nf::reduction_kernel), in CuPy's
// grammar, and the dtypes a call's arguments give them.
//
// A list is comma-separated parameters, each `[raw] <type> <name>`: <type> is a dtype name
// ("float32", "int64", "f4", ...) or a one-letter type placeholder ("T"), which a call resolves from
// its arguments; `raw` marks an array the body indexes itself (`x[j]`) instead of reading the
// element of the loop index. Checked when the kernel is made, as CuPy checks it: at least a type and
// a name, no keyword but `raw`, a known dtype, a C identifier for the name; further, as C++ would
// refuse them later, no name twice and none of the names the generated code declares (`i`, `_ind`).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ndfuse/dtype.hpp"

namespace ndfuse::frontend {

struct kernel_param {
  std::string name;
  std::optional<dtype> type;  // a fixed dtype, or empty for a placeholder
  char placeholder = 0;       // the placeholder's letter when type is empty
  bool raw = false;
};

struct kernel_signature {
  std::vector<kernel_param> in, out;
};

// Whether `s` is a C identifier (a kernel's or a parameter's name).
bool is_c_identifier(std::string_view s);

// Throws value_error for a malformed list or name, dtype_error for an unknown dtype name; `kernel`
// names the kernel in the message.
kernel_signature parse_signature(std::string_view in_params, std::string_view out_params,
                                 std::string_view kernel);

// What one argument of a call says about its parameter's dtype: an array's dtype, or a C++ scalar
// (its NumPy default dtype: bool, int64, float64 or complex128), which takes the parameter's type.
struct kernel_argument {
  bool is_scalar = false;
  dtype dt = dtype::float64;
};

struct resolved_types {
  std::vector<dtype> in, out;
  std::vector<std::pair<char, dtype>> placeholders;  // each letter's dtype, in letter order
};

// The dtype of every parameter for one call, by CuPy's rule: given outputs, then input arrays, bind
// each placeholder to their dtype and must agree with every fixed dtype and earlier binding
// exactly (no casting; dtype_error otherwise). Where CuPy then gives up, a placeholder that only
// scalars meet takes the promotion of their default dtypes (so k(x, 2.0) and k(1, 2) both work).
// An output whose placeholder nothing binds throws dtype_error. `outputs` is empty or one dtype per
// output parameter (the arrays given to write into).
resolved_types resolve_types(const kernel_signature& s, std::span<const kernel_argument> inputs,
                             std::span<const dtype> outputs, std::string_view kernel);

}  // namespace ndfuse::frontend
