#include "frontend/build.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <span>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "frontend/compare.hpp"
#include "frontend/gather.hpp"
#include "ir/host_types.hpp"
#include "ir/op_info.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/config.hpp"
#include "runtime/device.hpp"
#include "runtime/realize.hpp"

namespace ndfuse::frontend {

namespace {

// Past these bounds a new node first materializes its inputs, so a loop like
// `for (...) x += 1.0;` runs in bounded memory and bounded time per iteration.
constexpr std::uint32_t max_pending_ops = 256;
constexpr std::uint32_t max_pending_leaves = 64;

// Recomputes a new node's growth counters from its inputs.
void count_growth(ir::node& n) {
  constexpr auto relaxed = std::memory_order_relaxed;
  std::uint32_t ops = 1, leaves = n.inputs.empty() ? 1 : 0;
  for (const auto& in : n.inputs) {
    if (in->materialized()) {
      leaves += 1;
    } else {
      ops += in->pending_ops.load(relaxed);
      leaves += in->pending_leaves.load(relaxed);
    }
  }
  n.pending_ops.store(ops, relaxed);
  n.pending_leaves.store(leaves, relaxed);
}

// count_growth's sums count a shared node once per path to it, which a recurrence that reuses its
// last two values (Clenshaw's, as nf::i0's) makes exponential. Past the bounds, the pending DAG is
// counted exactly, each node and buffer once; within them, n keeps the exact counts and nothing
// materializes. The walk stops as soon as a bound is passed. Scalars count as ops only: each is a
// kernel parameter of a few bytes, and a long recurrence has one per step. The walk reads other
// nodes' inputs, which another thread's evaluation clears: it holds the evaluation lock.
bool within_bounds_exactly(ir::node& n) {
  const std::lock_guard lock(ir::graph_mutex());
  std::unordered_set<const ir::node*> seen;
  std::vector<const ir::node*> stack{&n};
  std::uint32_t ops = 0, leaves = 0;
  while (!stack.empty()) {
    const ir::node* x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    if (x != &n && x->materialized()) {
      ++leaves;
    } else {
      ++ops;
      if (x->inputs.empty() && x->op != ir::op_code::scalar) ++leaves;  // a scalar is no buffer read
      for (const auto& in : x->inputs) stack.push_back(in.get());
    }
    if (ops > max_pending_ops || leaves > max_pending_leaves) return false;
  }
  n.pending_ops.store(ops, std::memory_order_relaxed);
  n.pending_leaves.store(leaves, std::memory_order_relaxed);
  return true;
}

template <class T>
void put(ir::scalar_bits& b, T v) {
  static_assert(sizeof(T) <= sizeof(b.bytes));
  std::memcpy(b.bytes, &v, sizeof(T));
}

std::string scalar_text(const scalar& s) {
  std::ostringstream os;
  switch (s.kind) {
    case dtype_kind::bool_:
      os << (s.b ? "True" : "False");
      break;
    case dtype_kind::int_:
      if (s.is_big_unsigned)
        os << s.u;
      else
        os << s.i;
      break;
    case dtype_kind::float_:
      os << s.c.real();
      break;
    case dtype_kind::complex:
      os << s.c;
      break;
  }
  return os.str();
}

template <class T>
bool int_fits(const scalar& s) {
  if (s.is_big_unsigned) return std::numeric_limits<T>::max() >= s.u && std::is_unsigned_v<T>;
  if constexpr (std::is_unsigned_v<T>)
    return s.i >= 0 && static_cast<std::uint64_t>(s.i) <= std::numeric_limits<T>::max();
  else
    return s.i >= std::numeric_limits<T>::min() && s.i <= std::numeric_limits<T>::max();
}

}  // namespace

void throw_empty_handle(const char* op) {
  throw value_error(std::string(op) + ": the array handle is empty (default-constructed)");
}

ir::scalar_bits scalar_to_bits(const scalar& s, dtype t, const char* op) {
  ir::scalar_bits b;
  // Integer scalars go in exactly (and must fit); everything else converts like a C cast.
  const bool from_int = s.kind == dtype_kind::int_;
  const bool from_bool = s.kind == dtype_kind::bool_;
  double re = from_bool  ? double(s.b)
              : from_int ? (s.is_big_unsigned ? double(s.u) : double(s.i))
                         : s.c.real();
  double im = (from_bool || from_int) ? 0.0 : s.c.imag();
  auto check = [&](bool fits) {
    if (!fits)
      throw dtype_error(std::string(op) + ": Python integer " + scalar_text(s) + " out of bounds for " +
                        std::string(dtype_name(t)));
  };
  auto int_value = [&]<class T>(T*) -> T {
    if (from_int) {
      check(int_fits<T>(s));
      return s.is_big_unsigned ? static_cast<T>(s.u) : static_cast<T>(s.i);
    }
    if (from_bool) return static_cast<T>(s.b);
    return static_cast<T>(re);
  };
  switch (t) {
    case dtype::bool_:
      put(b, from_int ? (s.is_big_unsigned || s.i != 0) : (from_bool ? s.b : (re != 0 || im != 0)));
      break;
    case dtype::int8:
      put(b, int_value((std::int8_t*)nullptr));
      break;
    case dtype::int16:
      put(b, int_value((std::int16_t*)nullptr));
      break;
    case dtype::int32:
      put(b, int_value((std::int32_t*)nullptr));
      break;
    case dtype::int64:
      put(b, int_value((std::int64_t*)nullptr));
      break;
    case dtype::uint8:
      put(b, int_value((std::uint8_t*)nullptr));
      break;
    case dtype::uint16:
      put(b, int_value((std::uint16_t*)nullptr));
      break;
    case dtype::uint32:
      put(b, int_value((std::uint32_t*)nullptr));
      break;
    case dtype::uint64:
      put(b, int_value((std::uint64_t*)nullptr));
      break;
    case dtype::float16:
      put(b, ir::double_to_half(re));
      break;
    case dtype::bfloat16:
      put(b, ir::double_to_bfloat16(re));
      break;
    case dtype::float32:
      put(b, static_cast<float>(re));
      break;
    case dtype::float64:
      put(b, re);
      break;
    case dtype::complex64:
      put(b, std::complex<float>(static_cast<float>(re), static_cast<float>(im)));
      break;
    case dtype::complex128:
      put(b, std::complex<double>(re, im));
      break;
  }
  return b;
}

scalar stored_scalar(const scalar& s, dtype t, const char* op) {
  const bool to_int = is_integer(t), to_real = is_floating(t);
  if (s.kind == dtype_kind::complex && (to_int || to_real))
    throw dtype_error(std::string(op) + ": " + (to_int ? "int" : "float") +
                      "() argument must be a real number, not 'complex' (storing " + scalar_text(s) +
                      " into " + std::string(dtype_name(t)) + ")");
  if (!to_int || s.kind != dtype_kind::float_) return s;
  const double v = s.c.real();
  if (std::isnan(v)) throw value_error(std::string(op) + ": cannot convert float NaN to integer");
  if (std::isinf(v)) throw dtype_error(std::string(op) + ": cannot convert float infinity to integer");
  const double whole = std::trunc(v);
  // Python's int(v), then NumPy's range check of the Python integer (scalar_to_bits does that).
  if (whole >= 18446744073709551616.0 || whole < -9223372036854775808.0)
    throw dtype_error(std::string(op) + ": Python int too large to convert to C long (" + scalar_text(s) +
                      " into " + std::string(dtype_name(t)) + ")");
  if (whole >= 9223372036854775808.0) return scalar(static_cast<std::uint64_t>(whole));
  return scalar(static_cast<std::int64_t>(whole));
}

node_ptr scalar_node(const scalar& s, dtype t, const shape_t& shape, const char* op) {
  auto n = ir::new_node();
  n->op = ir::op_code::scalar;
  n->dt = t;
  n->shape = shape;
  n->value = scalar_to_bits(s, t, op);
  return n;
}

node_ptr operand_node(const scalar& s, dtype t, const char* op) {
  auto n = scalar_node(s, t, {}, op);
  n->place = ir::placement::any();
  return n;
}

node_ptr cast_node(const node_ptr& x, dtype t, const shape_t& shape) {
  if (x->dt == t && x->shape == shape) return x;
  auto n = ir::new_node();
  n->op = ir::op_code::cast;
  n->dt = t;
  n->shape = shape;
  n->inputs = {x};
  n->place = x->place;
  n->reaches_move = x->reaches_move;
  count_growth(*n);
  return n;
}

dtype promote_with(dtype t, const operand& o, const char* op) {
  return o.arr ? promote_types(t, checked(*o.arr, op)->dt) : weak_promote(t, o.value.kind);
}

dtype common_dtype(const operand& a, const operand& b, const char* op) {
  if (a.arr) return promote_with(checked(*a.arr, op)->dt, b, op);
  if (b.arr) return promote_with(checked(*b.arr, op)->dt, a, op);
  // Two weak scalars: Python's own arithmetic, i.e. the default dtype of the higher kind.
  auto k = std::max(static_cast<int>(a.value.kind), static_cast<int>(b.value.kind));
  switch (static_cast<dtype_kind>(k)) {
    case dtype_kind::bool_:
      return dtype::bool_;
    case dtype_kind::int_:
      return dtype::int64;
    case dtype_kind::float_:
      return dtype::float64;
    default:
      return dtype::complex128;
  }
}

std::string describe_operands(const char* op, const operand& a, const operand& b) {
  auto one = [](const operand& o) {
    if (!o.arr || !o.arr->node()) return std::string("scalar ") + scalar_text(o.value);
    return shape_str(o.arr->shape()) + " " + std::string(dtype_name(o.arr->dtype()));
  };
  return std::string(op) + "(" + one(a) + ", " + one(b) + ")";
}

namespace {

// NumPy's legacy type resolution: the first loop (in NumPy's order) that every input casts to
// safely. A weak scalar takes part as the dtype NEP 50 gives it next to the array.
const ir::op_loop* resolve_loop(ir::op_code op, std::initializer_list<dtype> input_dtypes) {
  const auto& info = ir::info(op);
  dtype buf[3];  // at most three inputs; no allocation on this per-op path
  std::span<dtype> inputs(buf, input_dtypes.size());
  std::copy(input_dtypes.begin(), input_dtypes.end(), buf);
  bool all_bool = true, all_integral = true;
  for (dtype t : inputs) {
    all_bool = all_bool && t == dtype::bool_;
    all_integral = all_integral && (t == dtype::bool_ || is_integer(t));
  }
  if (info.bool_unsupported && all_bool) return nullptr;
  if (info.integer_inputs_as && all_integral)
    std::fill(inputs.begin(), inputs.end(), *info.integer_inputs_as);
  if (info.all_inputs_as) std::fill(inputs.begin(), inputs.end(), *info.all_inputs_as);
  for (const auto& l : info.loops) {
    bool fits = true;
    for (dtype t : inputs) fits = fits && can_cast(t, l.in, casting::safe);
    if (fits) return &l;
  }
  return nullptr;
}

// resolve_loop, remembered per (op, input dtypes): it runs on every op a program builds, and its
// can_cast walk over NumPy's loop list is most of an op's host time otherwise.
const ir::op_loop* find_loop(ir::op_code op, std::initializer_list<dtype> input_dtypes) {
  constexpr std::size_t n_dt = dtype_count, n_ops = static_cast<std::size_t>(ir::op_code::count);
  // 0: not resolved yet; 1: no loop; k + 2: loop k of info(op).loops.
  static std::array<std::atomic<std::uint8_t>, n_ops * n_dt*(n_dt + 1)> memo{};
  if (input_dtypes.size() > 2) return resolve_loop(op, input_dtypes);
  const auto* d = input_dtypes.begin();
  const std::size_t second = input_dtypes.size() == 2 ? static_cast<std::size_t>(d[1]) : n_dt;
  auto& slot =
      memo[(static_cast<std::size_t>(op) * n_dt + static_cast<std::size_t>(d[0])) * (n_dt + 1) + second];
  const auto& loops = ir::info(op).loops;
  if (std::uint8_t v = slot.load(std::memory_order_relaxed)) return v == 1 ? nullptr : &loops[v - 2];
  const ir::op_loop* l = resolve_loop(op, input_dtypes);
  slot.store(l ? static_cast<std::uint8_t>(l - loops.data() + 2) : 1, std::memory_order_relaxed);
  return l;
}

dtype operand_dtype(const operand& o, const operand& other, const char* op) {
  if (o.arr) return checked(*o.arr, op)->dt;
  return common_dtype(o, other, op);
}

node_ptr as_node(const operand& o, dtype t, const char* op) {
  if (o.arr) return cast_node(checked(*o.arr, op), t);
  return operand_node(o.value, t, op);
}

}  // namespace

node_ptr make_node(ir::op_code op, dtype out, std::initializer_list<node_ptr> inputs, const shape_t& shape) {
  auto n = ir::new_node();
  n->op = op;
  n->dt = out;
  n->shape = shape;
  n->inputs.assign(inputs.begin(), inputs.end());
  runtime::settle_device(*n);
  count_growth(*n);
  return n;
}

node_ptr make_node(ir::op_code op, dtype out, std::vector<node_ptr> inputs, const shape_t& shape) {
  auto n = ir::new_node();
  n->op = op;
  n->dt = out;
  n->shape = shape;
  n->inputs.assign(std::make_move_iterator(inputs.begin()), std::make_move_iterator(inputs.end()));
  runtime::settle_device(*n);
  count_growth(*n);
  return n;
}

node_ptr make_node(ir::op_code op, dtype out, node_ptr x, const shape_t& shape) {
  auto n = ir::new_node();
  n->op = op;
  n->dt = out;
  n->shape = shape;
  n->inputs.push_back(std::move(x));
  runtime::settle_device(*n);
  count_growth(*n);
  return n;
}

node_ptr make_node(ir::op_code op, dtype out, node_ptr a, node_ptr b, const shape_t& shape) {
  auto n = ir::new_node();
  n->op = op;
  n->dt = out;
  n->shape = shape;
  n->inputs.push_back(std::move(a));
  n->inputs.push_back(std::move(b));
  runtime::settle_device(*n);
  count_growth(*n);
  return n;
}

array unary(ir::op_code op, const array& x) {
  const auto& info = ir::info(op);
  const auto& xn = checked(x, info.name);
  const ir::op_loop* loop = find_loop(op, {xn->dt});
  if (!loop)
    throw dtype_error(std::string("ufunc '") + info.name + "' not supported for the input type " +
                      std::string(dtype_name(xn->dt)) + " (shape " + shape_str(xn->shape) + ")");
  return finish(make_node(op, loop->out, cast_node(xn, loop->in), xn->shape));
}

array binary(ir::op_code op, const operand& a, const operand& b) {
  const auto& info = ir::info(op);
  if (auto exact = exact_integer_comparison(op, a, b)) return *exact;
  const ir::op_loop* loop = find_loop(op, {operand_dtype(a, b, info.name), operand_dtype(b, a, info.name)});
  if (!loop)
    throw dtype_error(std::string("ufunc '") + info.name +
                      "' not supported for the input types: " + describe_operands(info.name, a, b));
  static const shape_t scalar_shape;
  const shape_t& sa = a.arr ? a.arr->shape() : scalar_shape;
  const shape_t& sb = b.arr ? b.arr->shape() : scalar_shape;
  shape_t broadcast;
  if (a.arr && b.arr && sa != sb) {
    try {
      broadcast = broadcast_shapes(sa, sb, info.name);
    } catch (const shape_error&) {
      throw shape_error("operands could not be broadcast together: " + describe_operands(info.name, a, b));
    }
  }
  const shape_t& shape = a.arr && b.arr && sa != sb ? broadcast : a.arr ? sa : sb;
  // NumPy raises for a negative integer exponent; a scalar one is visible here, at the call.
  if (op == ir::op_code::power && is_integer(loop->in) && !b.arr && b.value.kind == dtype_kind::int_ &&
      !b.value.is_big_unsigned && b.value.i < 0)
    throw dtype_error("power: Integers to negative integer powers are not allowed: " +
                      describe_operands(info.name, a, b));
  // An array exponent's values decide it, as NumPy decides at the call: its smallest is computed
  // once (a wait for the device, as for an index array) and remembered on its node.
  if (op == ir::op_code::power && is_integer(loop->in) && b.arr && is_signed_integer(b.arr->dtype()) &&
      b.arr->size() > 0 && value_range(*b.arr).first < 0)
    throw dtype_error("power: Integers to negative integer powers are not allowed: " +
                      describe_operands(info.name, a, b));
  // A weak scalar converts straight to the loop's dtype; an int that does not fit raises there, as
  // NumPy's OverflowError does (int8 + 300 raises, int8 / 300 does not).
  node_ptr x = as_node(a, loop->in, info.name);  // in this order: either may raise (overflow)
  node_ptr y = as_node(b, loop->in, info.name);
  node_ptr n = make_node(op, loop->out, std::move(x), std::move(y), shape);
  consume(a, b);  // temporary operands are read by n now: their handles go
  return finish(std::move(n));
}

array finish(node_ptr n) {
  // Every built node's size is checked once, here: a shape whose bytes pass what an offset can
  // address raises at the call rather than wrapping to a small buffer at evaluation.
  ir::checked_size(n->shape, itemsize(n->dt), ir::op_name(n->op));
  if ((n->pending_ops > max_pending_ops || n->pending_leaves > max_pending_leaves) &&
      !within_bounds_exactly(*n)) {
    std::vector<node_ptr> pending;
    for (const auto& in : n->inputs)
      if (!in->materialized() && in->op != ir::op_code::scalar) pending.push_back(in);
    runtime::realize(pending, /*automatic_split=*/true);
    count_growth(*n);
  }
  array result(std::move(n));
  if (eager_enabled()) result.eval();
  return result;
}

// `value` by value: a temporary (an in-place operator's result) is moved through when nothing is
// cast, with no handle or reference count touched.
array assign_like(const array& target, array value, casting rule, const char* op) {
  const auto& tn = checked(target, op);
  const auto& vn = checked(value, op);
  if (vn->dt == tn->dt && vn->shape == tn->shape) return value;  // nothing to cast or broadcast
  if (!can_cast(vn->dt, tn->dt, rule))
    throw dtype_error(std::string(op) + ": cannot cast output from dtype " + std::string(dtype_name(vn->dt)) +
                      " to dtype " + std::string(dtype_name(tn->dt)) + " with casting rule 'same_kind'");
  shape_t b;
  try {
    b = broadcast_shapes(vn->shape, tn->shape, op);
  } catch (const shape_error&) {
    b.clear();
  }
  if (b != tn->shape)
    throw shape_error(std::string(op) + ": non-broadcastable output operand with shape " +
                      shape_str(tn->shape) + " doesn't match the broadcast shape " + shape_str(vn->shape));
  return finish(cast_node(vn, tn->dt, tn->shape));
}

}  // namespace ndfuse::frontend
