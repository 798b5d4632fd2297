// fold_into_gemm: the scalar multiply and the added matrix around a matrix product become GEMM's
// alpha and beta (D = alpha * A @ B + beta * C), so `2 * matmul(a, b) + c` is one library call and
// no elementwise pass over the product. A product folds only when nothing but that one consumer
// reads it (no handle, no other node, not a root): the consumer node itself then becomes the call,
// computing the same value, and the product is never written.
//
// What folds, for float32, float64, complex64 and complex128 (float16 products round to half
// precision before NumPy scales them; folding would change when they overflow):
// - s * P, P * s, -P: alpha times s (any scalar when nothing was added yet: alpha * acc rounds once,
//   exactly as NumPy's s * fl(acc) does); P / s for s a power of two;
// - P + C, C + P, P - C, C - P: beta = +-1, C of P's shape and dtype, C-order when evaluated. A lazy
//   C is written first, by the kernel that computes it, into a buffer the product then updates in
//   place (buffer donation); an evaluated C is copied into the output by the call.
// After beta is set, only power-of-two scales fold (they commute with rounding exactly).
#include <cmath>
#include <complex>

#include "schedule/passes.hpp"

namespace ndfuse::schedule {

namespace {

using cplx = std::complex<double>;

bool foldable_dtype(dtype t) {
  return t == dtype::float32 || t == dtype::float64 || t == dtype::complex64 || t == dtype::complex128;
}

bool power_of_two(cplx v) {
  int e = 0;
  return v.imag() == 0 && std::isfinite(v.real()) && v.real() != 0 &&
         std::abs(std::frexp(v.real(), &e)) == 0.5;
}

// The gemm call `in` computes, when `n` may absorb it: pending, read by `n` alone, same dtype and
// shape as `n`.
ir::library_call* absorbable(const node_ptr& in, const ir::node& n, const fuse_state& s) {
  if (in->materialized() || in->op != ir::op_code::library || in->params().library.op != ir::library_op::gemm)
    return nullptr;
  const auto& info = s.pending.at(in.get());
  if (info.target || info.root_refs != 0 || info.plan_refs != 1 || info.use != 1) return nullptr;
  if (in->dt != n.dt || in->shape != n.shape || !foldable_dtype(n.dt)) return nullptr;
  return &in->params().library;
}

// Whether C can be the call's third input: P's dtype and shape, and C-order when already in memory.
bool usable_c(const node_ptr& c, const ir::node& n) {
  if (c->dt != n.dt || c->shape != n.shape) return false;
  if (!c->materialized()) return true;
  const auto want = ir::contiguous_strides(c->shape);
  for (std::size_t d = 0; d < want.size(); ++d)
    if (c->shape[d] != 1 && c->strides[d] != want[d]) return false;
  return true;
}

// The call n becomes when it folds an input product, or nothing.
std::optional<ir::library_call> fold(const node_ptr& n, fuse_state& s, node_ptr& product, node_ptr& c) {
  using ir::op_code;
  const auto& ins = n->inputs;
  // Only a call with C has a beta to scale: a zero beta times an infinite k would be NaN, and a
  // nonzero beta means "C is an input".
  auto scaled = [](ir::library_call call, cplx k) {
    const cplx alpha = cplx(call.gemm.alpha_re, call.gemm.alpha_im) * k;
    call.gemm.alpha_re = alpha.real(), call.gemm.alpha_im = alpha.imag();
    if (call.gemm.has_c()) {
      const cplx beta = cplx(call.gemm.beta_re, call.gemm.beta_im) * k;
      call.gemm.beta_re = beta.real(), call.gemm.beta_im = beta.imag();
    }
    return call;
  };
  if (n->op == op_code::negative) {
    if (auto* g = absorbable(ins[0], *n, s)) return product = ins[0], scaled(*g, -1.0);
    return std::nullopt;
  }
  if (ins.size() != 2) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    auto* g = absorbable(ins[side], *n, s);
    if (!g) continue;
    const node_ptr& other = ins[1 - side];
    if (n->op == op_code::multiply || (n->op == op_code::true_divide && side == 0)) {
      auto k = other->dt == n->dt ? ir::float_scalar_value(*other) : std::nullopt;
      // A non-finite k stays an elementwise multiply: the BLAS need not scale inf and NaN as
      // P * k does.
      if (!k || !std::isfinite(k->real()) || !std::isfinite(k->imag())) continue;
      if (n->op == op_code::true_divide) {
        if (!power_of_two(*k)) continue;
        k = 1.0 / *k;
      }
      if (g->gemm.has_c() && !power_of_two(*k)) continue;
      return product = ins[side], scaled(*g, *k);
    }
    if (n->op != op_code::add && n->op != op_code::subtract) continue;
    if (g->gemm.has_c() || !usable_c(other, *n)) continue;
    const bool minus = n->op == op_code::subtract;
    // P - C: beta -1; C - P: alpha negated, beta 1.
    ir::library_call call = minus && side == 1 ? scaled(*g, -1.0) : *g;
    call.gemm.beta_re = minus && side == 0 ? -1 : 1, call.gemm.beta_im = 0;
    product = ins[side];
    c = other;
    return call;
  }
  return std::nullopt;
}

}  // namespace

void fold_into_gemm(fuse_state& s) {
  trace_pass("fold_into_gemm");
  bool any = false;
  for (const auto& n : s.order) any = any || is_library(n.get());
  if (!any) return;  // the common case: nothing to look at
  std::vector<node_ptr> order;
  order.reserve(s.order.size());
  std::unordered_set<const ir::node*> gone;
  for (const auto& n : s.order) {
    node_ptr product, c;
    if (auto call = fold(n, s, product, c)) {
      // n becomes the call (same value), reading the product's operands (and C); the product's
      // node leaves the plan. Operands keep their reference counts: n now holds what it held.
      for (const auto& in : n->inputs)
        if (in != product && in != c && !in->materialized()) s.pending.at(in.get()).plan_refs--;
      auto inputs = product->inputs;
      if (c) {
        inputs.push_back(c);
        if (!c->materialized()) s.pending.at(c.get()).target = true;  // written first, C-order
      }
      n->op = ir::op_code::library;
      n->params().library = *call;
      n->inputs = std::move(inputs);
      gone.insert(product.get());
      s.pending.erase(product.get());
    }
  }
  for (auto& n : s.order)
    if (!gone.count(n.get())) order.push_back(std::move(n));
  s.order = std::move(order);
}

}  // namespace ndfuse::schedule
