#include "frontend/solver_call.hpp"

#include <string>

#include "frontend/build.hpp"
#include "frontend/gather.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "runtime/realize.hpp"

namespace ndfuse::frontend {

dtype solver_dtype(dtype t, const char* op) {
  switch (t) {
    case dtype::float32:
    case dtype::float64:
    case dtype::complex64:
    case dtype::complex128:
      return t;
    case dtype::float16:
    case dtype::bfloat16:
      throw dtype_error(std::string(op) + ": array type " + std::string(dtype_name(t)) +
                        " is unsupported in linalg");
    default:
      return dtype::float64;
  }
}

dtype real_dtype(dtype t) {
  return t == dtype::complex64 ? dtype::float32 : t == dtype::complex128 ? dtype::float64 : t;
}

shape_t concat(const shape_t& a, const shape_t& b) {
  shape_t s = a;
  s.insert(s.end(), b.begin(), b.end());
  return s;
}

matrix_stack as_matrix_stack(const array& a, const char* op, bool square, std::optional<dtype> dt) {
  const auto& an = checked(a, op);
  const auto nd = an->shape.size();
  if (nd < 2)
    throw shape_error(std::string(op) + ": " + std::to_string(nd) +
                      "-dimensional array given. Array must be at least two-dimensional");
  matrix_stack s;
  s.m = an->shape[nd - 2];
  s.n = an->shape[nd - 1];
  if (square && s.m != s.n)
    throw shape_error(std::string(op) + ": last 2 dimensions of the array must be square, got shape " +
                      shape_str(an->shape));
  s.dt = dt ? *dt : solver_dtype(an->dt, op);
  s.batch.assign(an->shape.begin(), an->shape.end() - 2);
  s.count = ir::shape_size(s.batch);
  s.a = an->dt == s.dt ? a : a.astype(s.dt);
  return s;
}

std::vector<array> run_solver(ir::library_call c, std::int64_t count, const std::vector<array>& inputs,
                              const std::vector<std::pair<dtype, shape_t>>& outputs) {
  c.rows = count;
  std::vector<node_ptr> in;
  for (const auto& x : inputs) in.push_back(contiguous_operand(x));
  std::vector<array> out;
  for (auto& n : runtime::run_library_now(c, in, outputs)) out.emplace_back(std::move(n));
  return out;
}

namespace {

// The index of the first matrix whose code is positive, or -1. A large stack's codes are reduced on
// the device (one fused kernel and an 8-byte read): reading back the 40 KB of a stack of 10000 took
// about 23 us of a 66 us batched inverse on an H100 (bench_cuda_solvers' cublas_direct rows).
std::int64_t first_failure(const array& info) {
  const std::int64_t count = info.size();
  if (count > 256) {
    const array flat = info.reshape({count});
    const auto first =
        min(where(greater(flat, 0), arange(0, count, 1, dtype::int64), operand(count))).item<std::int64_t>();
    return first < count ? first : -1;
  }
  const auto codes = info.to_vector<std::int32_t>();
  for (std::size_t i = 0; i < codes.size(); ++i)
    if (codes[i] > 0) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace

void check_info(const array& info, const shape_t& batch, const char* op, const char* what) {
  const std::int64_t failed = first_failure(info);
  if (failed < 0) return;
  std::string msg = std::string(op) + ": " + what;
  if (!batch.empty()) {
    // The matrix's index in the stack, as NumPy would index it: a[i, j].
    shape_t at(batch.size());
    auto rest = failed;
    for (std::size_t d = batch.size(); d-- > 0;) {
      at[d] = rest % batch[d];
      rest /= batch[d];
    }
    std::string idx;
    for (auto v : at) idx += (idx.empty() ? "" : ", ") + std::to_string(v);
    msg += " (matrix [" + idx + "] of a stack of shape " + shape_str(batch) + ")";
  }
  throw linalg_error(msg);
}

}  // namespace ndfuse::frontend
