// nf::matmul: NumPy's gufunc (n?,k),(k,m?)->(n?,m?) with broadcast batch axes. Floating and
// complex products are one gemm library call (ir/library.hpp) whose operands are read where they
// lie: a row-major or transposed matrix of an evaluated buffer, and the conjugate of a transposed
// one, are op flags and leading dimensions, never copies. Integer and bool products, which BLAS has
// no routine for, are a fused multiply-and-sum.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "ir/library.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

namespace frontend {

namespace {

bool gemm_dtype(dtype t) {
  return t == dtype::float16 || t == dtype::bfloat16 || t == dtype::float32 || t == dtype::float64 ||
         t == dtype::complex64 || t == dtype::complex128;
}

// The (one) element stride that walks the batch axes of `shape` (all but the last two) in C order
// given their `strides`, or nothing when no single stride does (then the operand is copied).
std::optional<std::int64_t> batch_stride(const shape_t& shape, const std::vector<std::int64_t>& strides) {
  const std::size_t nb = shape.size() - 2;
  std::optional<std::int64_t> unit;  // the stride per flat batch index
  std::int64_t later = 1;            // product of the batch sizes after d
  for (std::size_t d = nb; d-- > 0;) {
    if (shape[d] != 1) {
      if (strides[d] % later != 0) return std::nullopt;
      const std::int64_t s = strides[d] / later;
      if (unit && *unit != s) return std::nullopt;
      unit = s;
    }
    later *= shape[d];
  }
  return unit.value_or(0);
}

// How a gemm reads the r x c matrices of a buffer with element strides (sr, sc), or nothing.
std::optional<ir::gemm_operand> matrix_layout(std::int64_t r, std::int64_t c, std::int64_t sr,
                                              std::int64_t sc, bool conjugated) {
  ir::gemm_operand g;
  g.conjugated = conjugated;
  // Row-major: rows at ld >= c apart (any ld for one row). BLAS cannot conjugate without transposing.
  if (!conjugated && (c == 1 || sc == 1) && (r == 1 || sr >= std::max<std::int64_t>(c, 1))) {
    g.ld = r == 1 ? std::max<std::int64_t>(c, 1) : sr;
    return g;
  }
  if ((r == 1 || sr == 1) && (c == 1 || sc >= std::max<std::int64_t>(r, 1))) {
    g.transposed = true;
    g.ld = c == 1 ? std::max<std::int64_t>(r, 1) : sc;
    return g;
  }
  return std::nullopt;
}

struct gemm_source {
  node_ptr node;
  ir::gemm_operand how;
  double scale = 1;  // folded into the call's alpha
};

// The value of a real scalar node of a gemm dtype, when it is a power of two (then scaling an
// operand by it and scaling the product are the same, bit for bit: no rounding either way).
std::optional<double> power_of_two(const ir::node& s) {
  // float16 is not read: products round to half precision, where a scale could overflow
  const auto v = ir::float_scalar_value(s);
  int e = 0;
  if (!v || v->imag() != 0 || !std::isfinite(v->real()) || v->real() == 0 ||
      std::abs(std::frexp(v->real(), &e)) != 0.5)
    return std::nullopt;
  return v->real();
}

// The strides `x` will be read with: its own when evaluated, C order when the plan writes it first.
std::vector<std::int64_t> read_strides(const node_ptr& x) {
  return x->materialized() ? x->strides : ir::contiguous_strides(x->shape);
}

// Whether view `v` only swaps the last two axes of its input (x.T() of a matrix, swapaxes(-1, -2)).
bool swaps_last_two(const ir::node& v) {
  if (v.op != ir::op_code::view || v.params().view.reshape) return false;
  const auto& in = v.inputs[0]->shape;
  const std::size_t nd = v.shape.size();
  if (in.size() != nd || nd < 2) return false;
  for (std::int64_t b : v.params().view.base)
    if (b != 0) return false;
  for (std::size_t d = 0; d < nd; ++d) {
    const std::size_t from = d == nd - 1 ? nd - 2 : d == nd - 2 ? nd - 1 : d;
    for (std::size_t k = 0; k < nd; ++k)
      if (v.params().view.coeff[d * nd + k] != (k == from ? 1 : 0)) return false;
  }
  return true;
}

// Operand x (dtype already the product's) of a product with batch shape `batch`: where and how the
// gemm reads it. The fuser writes a lazy operand in C order first; x.T() of a lazy node is that
// node read transposed; conj(x.T()) of an evaluated x is read with BLAS's conjugate-transpose.
gemm_source gemm_operand_of(const array& x, const shape_t& batch) {
  node_ptr n = x.node();
  // (2 * a) @ b is a @ b with alpha 2: no pass over a.
  if (!n->materialized() && n->op == ir::op_code::multiply && n->inputs[0]->dt == n->dt &&
      n->inputs[1]->dt == n->dt)
    for (int side = 0; side < 2; ++side)
      if (auto s = power_of_two(*n->inputs[side]); s && n->inputs[1 - side]->shape == n->shape) {
        gemm_source inner = gemm_operand_of(array(n->inputs[1 - side]), batch);
        inner.scale *= *s;
        return inner;
      }
  shape_t full = batch;
  const std::int64_t r = x.shape()[x.ndim() - 2], c = x.shape()[x.ndim() - 1];
  full.push_back(r);
  full.push_back(c);
  // `swapped`: m holds x's matrices transposed (x is a view swapping m's last two axes).
  auto try_node = [&](const node_ptr& m, bool swapped, bool conjugated) -> std::optional<gemm_source> {
    auto strides = read_strides(m);
    shape_t own = m->shape;
    if (swapped) {
      std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
      std::swap(own[own.size() - 1], own[own.size() - 2]);
    }
    const auto st = ir::broadcast_strides(own, strides, full);
    const std::size_t nd = full.size();
    auto layout = matrix_layout(r, c, st[nd - 2], st[nd - 1], conjugated);
    auto bs = batch_stride(full, st);
    if (!layout || !bs) return std::nullopt;
    layout->batch_stride = *bs;
    return gemm_source{m, *layout};
  };
  // Peels a lazy conj: complex, BLAS's conjugate-transpose reads it; real, it changes nothing.
  auto peel_conj = [](node_ptr& m, bool& conjugated) {
    if (m->materialized() || m->op != ir::op_code::conjugate) return;
    conjugated = conjugated != is_complex(m->dt);
    m = m->inputs[0];
  };
  bool conjugated = false;
  peel_conj(n, conjugated);
  // x.T() of a lazy node or of conj(a) (a.conj().T): the node under the swap, read transposed.
  if (!n->materialized() && swaps_last_two(*n)) {
    node_ptr under = n->inputs[0];
    bool conj_under = conjugated;
    peel_conj(under, conj_under);
    if (auto s = try_node(under, true, conj_under)) return *s;
  }
  if (auto s = try_node(n, false, conjugated)) return *s;
  // A copy in C order (a conjugate applied), broadcast over the batch when even that is not one stride.
  if (auto s = try_node(x.node()->materialized() ? copy(x).node() : x.node(), false, false)) return *s;
  return *try_node(ascontiguousarray(broadcast_to(x, full)).node(), false, false);
}

}  // namespace

}  // namespace frontend

namespace {

[[noreturn]] void core_mismatch(std::int64_t got, std::int64_t want) {
  throw shape_error(
      "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
      "(n?,k),(k,m?)->(n?,m?) (size " +
      std::to_string(got) + " is different from " + std::to_string(want) + ")");
}

// Integer and bool products: sum (any for bool) over k of a[..., i, k] * b[..., k, j], one fused
// reduction with NumPy's wrapping arithmetic in the product's dtype.
array fused_product(const array& a, const array& b, dtype t) {
  const array x = expand_dims(a.astype(t), -1), y = expand_dims(b.astype(t), -3);
  if (t == dtype::bool_) return any(logical_and(x, y), -2);
  return sum(x * y, -2, false, t);
}

}  // namespace

array matmul(const array& a, const array& b) {
  const frontend::operands_device on_their_device(a, b);
  using namespace frontend;
  checked(a, "matmul");
  checked(b, "matmul");
  for (int i = 0; i < 2; ++i)
    if ((i ? b : a).ndim() == 0)
      throw shape_error("matmul: Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature "
                        "(n?,k),(k,m?)->(n?,m?) requires 1)");
  const dtype t = promote_types(a.dtype(), b.dtype());
  const array a2 = a.ndim() == 1 ? reshape(a, {1, a.shape()[0]}) : a;
  const array b2 = b.ndim() == 1 ? reshape(b, {b.shape()[0], 1}) : b;
  const std::int64_t m = a2.shape()[a2.ndim() - 2], k = a2.shape()[a2.ndim() - 1];
  const std::int64_t k2 = b2.shape()[b2.ndim() - 2], n = b2.shape()[b2.ndim() - 1];
  if (k2 != k) core_mismatch(k2, k);
  const shape_t a_batch(a2.shape().begin(), a2.shape().end() - 2),
      b_batch(b2.shape().begin(), b2.shape().end() - 2);
  const shape_t batch = broadcast_shapes(a_batch, b_batch, "matmul");
  shape_t out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);

  array product;
  if (!gemm_dtype(t)) {
    product = fused_product(a2, b2, t);
  } else if (ir::shape_size(out_shape) == 0 || k == 0) {
    product = zeros(out_shape, t);  // an empty sum is 0, and BLAS is not called for nothing
  } else {
    // cast_node is the operand itself when its dtype is the product's: read in place.
    // The operands' analysis looks through lazy nodes' inputs, which an evaluation elsewhere may drop.
    std::unique_lock graph(ir::graph_mutex());
    const auto sa = gemm_operand_of(array(cast_node(a2.node(), t)), batch);
    const auto sb = gemm_operand_of(array(cast_node(b2.node(), t)), batch);
    graph.unlock();
    ir::library_call c;
    c.op = ir::library_op::gemm;
    c.dt = t;
    c.gemm.batch = ir::shape_size(batch);
    c.gemm.m = m, c.gemm.n = n, c.gemm.k = k;
    c.gemm.a = sa.how, c.gemm.b = sb.how;
    c.gemm.alpha_re = sa.scale * sb.scale;
    auto node = make_node(ir::op_code::library, t, {sa.node, sb.node}, out_shape);
    node->params().library = c;
    product = finish(std::move(node));
  }
  // The axes added for 1-d operands go again.
  shape_t final_shape = batch;
  if (a.ndim() > 1) final_shape.push_back(m);
  if (b.ndim() > 1) final_shape.push_back(n);
  return final_shape == out_shape ? product : reshape(product, final_shape);
}

array array::dot(const array& other) const {
  return ndfuse::dot(*this, other);
}

}  // namespace ndfuse
