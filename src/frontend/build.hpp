// Node builders shared by every frontend op: validate, resolve the loop, insert casts, build the
// node, then apply the DAG growth bound and eager mode. Building never computes anything else.
#pragma once
#include <complex>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "ir/node.hpp"
#include "ir/op_code.hpp"
#include "ndfuse/array.hpp"
#include "ndfuse/math.hpp"

namespace ndfuse::frontend {

using node_ptr = std::shared_ptr<ir::node>;

[[noreturn]] void throw_empty_handle(const char* op);
// a's node; throws on an empty handle. Inline, with the throw out of line: every op calls it.
inline const node_ptr& checked(const array& a, const char* op) {
  if (!a.node()) [[unlikely]]
    throw_empty_handle(op);
  return a.node();
}

// A weak scalar's value stored as dtype `t`; throws dtype_error when an int does not fit `t`
// (NumPy raises OverflowError there).
ir::scalar_bits scalar_to_bits(const scalar& s, dtype t, const char* op);
node_ptr scalar_node(const scalar& s, dtype t, const shape_t& shape, const char* op);
// A C++ scalar given as an operand (x * 2.0, where(c, x, 0), x(i) = 1): 0-d and of no device, so it
// joins its op on whichever device that runs (a creation op's scalar node has the current device).
node_ptr operand_node(const scalar& s, dtype t, const char* op);
// The dtype NumPy gives a Python scalar alone (np.asarray(v).dtype): bool, int64 (uint64 past
// int64's range), float64 or complex128.
dtype default_dtype(const scalar& v);
// A scalar stored into an array of dtype t (x(...) = s), converted as NumPy's setitem converts a
// Python scalar: a float into an integer array is truncated to an integer first (NaN raises
// value_error, infinity and values past 64 bits dtype_error, as NumPy's ValueError and
// OverflowError), and a complex one into a real array raises dtype_error (NumPy's TypeError).
scalar stored_scalar(const scalar& s, dtype t, const char* op);

// Cast (and optionally broadcast) without evaluating; returns x itself when nothing changes.
node_ptr cast_node(const node_ptr& x, dtype t, const shape_t& shape);
inline node_ptr cast_node(const node_ptr& x, dtype t) {
  return cast_node(x, t, x->shape);
}

// The dtype NumPy 2 gives `a op b` before loop selection (NEP 50: weak scalars count by kind).
dtype common_dtype(const operand& a, const operand& b, const char* op);
// An array dtype `t` promoted with one more operand (array: promote_types; weak scalar: by kind).
dtype promote_with(dtype t, const operand& o, const char* op);

// Registry ops through NumPy's type resolution. Throw dtype_error when no loop fits.
array unary(ir::op_code op, const array& x);
array binary(ir::op_code op, const operand& a, const operand& b);
// Same, with the loop's input dtype given (used by composite ops).
node_ptr make_node(ir::op_code op, dtype out, std::initializer_list<node_ptr> inputs, const shape_t& shape);
node_ptr make_node(ir::op_code op, dtype out, std::vector<node_ptr> inputs, const shape_t& shape);
// One or two operands moved in (an initializer list can only copy them: an atomic count each way).
node_ptr make_node(ir::op_code op, dtype out, node_ptr x, const shape_t& shape);
node_ptr make_node(ir::op_code op, dtype out, node_ptr a, node_ptr b, const shape_t& shape);

// The tail of an rvalue overload (nf::sum(a * b), nf::sin(x + 1)): `built` reads the temporary's
// node now, so the temporary's handle is dropped and the fuser does not write it as a held result.
inline array consume(array& temporary, array built) {
  temporary = array();
  return built;
}

// The same for operands (see operand in math.hpp): each expiring one, read by a node just built,
// gives up its handle (once, when both are the same array).
inline void consume(const operand& a, const operand& b) {
  if (a.expiring) *a.expiring = array();
  if (b.expiring && b.expiring != a.expiring) *b.expiring = array();
}

// Wraps a freshly built node in a handle, splitting the DAG if it grew past its bounds and
// evaluating at once in eager mode.
array finish(node_ptr n);

// An iota node: start + step * (offset + sum_d index_d * coeffs[d]) as dtype t (or, with
// `equals`, whether that affine index is 0). arange, linspace, eye, indices and tril build on it.
array iota(dtype t, const shape_t& shape, std::complex<double> start, std::complex<double> step,
           std::vector<std::int64_t> coeffs, std::int64_t offset = 0, bool equals = false);

// A random draw of `shape` (C order) from `stream`: element i is nf_random's value at i. Its dtype
// follows the stream's form.
array random_draw(const shape_t& shape, const ir::random_stream& stream);

// x.assign(value): same_kind cast and broadcast to x's shape, as every out= form needs.
array assign_like(const array& target, array value, casting rule, const char* op);

std::string describe_operands(const char* op, const operand& a, const operand& b);

}  // namespace ndfuse::frontend
