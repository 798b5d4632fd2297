// What the frontend needs to know about an elementwise op, read off the registry once at start-up.
#pragma once
#include <optional>
#include <vector>

#include "ir/op_code.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::ir {

struct op_loop {
  dtype in;  // every input is cast to this
  dtype out;
};

struct op_info {
  const char* name = "";
  int arity = 0;
  std::vector<op_loop> loops;  // NumPy's loop order: type resolution takes the first that fits
  // Ops with NumPy's true-division resolver compute bool and integer inputs in this dtype.
  std::optional<dtype> integer_inputs_as;
  std::optional<dtype> all_inputs_as;  // NumPy 2's logical ufuncs: every input becomes bool
  bool bool_unsupported = false;       // NumPy's negative/subtract resolvers: no bool loop at all
};

// For op_code values that name registry ops (not buffer/scalar/iota/cast/where).
const op_info& info(op_code op);

}  // namespace ndfuse::ir
