#include "frontend/compare.hpp"

#include <limits>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/creation.hpp"

namespace ndfuse::frontend {

namespace {

using ir::op_code;

// The comparison with its operands swapped: a < b is b > a.
op_code mirrored(op_code op) {
  switch (op) {
    case op_code::less:
      return op_code::greater;
    case op_code::less_equal:
      return op_code::greater_equal;
    case op_code::greater:
      return op_code::less;
    case op_code::greater_equal:
      return op_code::less_equal;
    default:
      return op;
  }
}

// For x of an integer dtype and a Python int s beyond its range, x op s is the same for every x.
bool constant_result(op_code op, bool s_below_range) {
  switch (op) {
    case op_code::equal:
      return false;
    case op_code::not_equal:
      return true;
    case op_code::less:
    case op_code::less_equal:
      return !s_below_range;
    default:
      return s_below_range;  // greater, greater_equal
  }
}

std::optional<bool> below_range(dtype t, const scalar& s) {
  if (s.is_big_unsigned) {
    if (t == dtype::uint64) return std::nullopt;
    return false;
  }
  std::int64_t lo, hi;
  switch (t) {
    case dtype::int8:
      lo = INT8_MIN, hi = INT8_MAX;
      break;
    case dtype::int16:
      lo = INT16_MIN, hi = INT16_MAX;
      break;
    case dtype::int32:
      lo = INT32_MIN, hi = INT32_MAX;
      break;
    case dtype::int64:
      return std::nullopt;
    case dtype::uint8:
      lo = 0, hi = UINT8_MAX;
      break;
    case dtype::uint16:
      lo = 0, hi = UINT16_MAX;
      break;
    case dtype::uint32:
      lo = 0, hi = UINT32_MAX;
      break;
    default:
      lo = 0, hi = INT64_MAX;
      break;  // uint64
  }
  if (s.i < lo) return true;
  if (s.i > hi) return false;
  return std::nullopt;
}

// signed (as int64) op unsigned (as uint64), exactly: a negative signed value is below every
// unsigned one; otherwise compare both as uint64.
array signed_vs_unsigned(op_code op, const array& s, const array& u) {
  array neg = less(s.astype(dtype::int64), 0);
  array cmp = binary(op, s.astype(dtype::uint64), u.astype(dtype::uint64));
  switch (op) {
    case op_code::equal:
    case op_code::greater:
    case op_code::greater_equal:
      return logical_and(logical_not(neg), cmp);
    default:
      return logical_or(neg, cmp);  // not_equal, less, less_equal
  }
}

}  // namespace

bool is_comparison(op_code op) {
  return op == op_code::equal || op == op_code::not_equal || op == op_code::less ||
         op == op_code::less_equal || op == op_code::greater || op == op_code::greater_equal;
}

std::optional<array> exact_integer_comparison(op_code op, const operand& a, const operand& b) {
  if (!is_comparison(op)) return std::nullopt;
  if (a.arr && b.arr) {
    dtype ta = checked(*a.arr, "compare")->dt, tb = checked(*b.arr, "compare")->dt;
    if (is_signed_integer(ta) && tb == dtype::uint64) return signed_vs_unsigned(op, *a.arr, *b.arr);
    if (ta == dtype::uint64 && is_signed_integer(tb)) return signed_vs_unsigned(mirrored(op), *b.arr, *a.arr);
    return std::nullopt;
  }
  const operand& arr = a.arr ? a : b;
  const operand& sc = a.arr ? b : a;
  if (!arr.arr || sc.value.kind != dtype_kind::int_) return std::nullopt;
  const auto& n = checked(*arr.arr, "compare");
  if (!is_integer(n->dt)) return std::nullopt;
  auto below = below_range(n->dt, sc.value);
  if (!below) return std::nullopt;
  op_code as_written = a.arr ? op : mirrored(op);  // array op scalar
  const operands_device on_their_device(*arr.arr);
  return full(n->shape, constant_result(as_written, *below));
}

}  // namespace ndfuse::frontend
