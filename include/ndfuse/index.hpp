// Indexing: x(i, nf::slice(a, b, s), nf::all, nf::newaxis, nf::ellipsis, idx_array, mask), NumPy's x[...].
// Basic indexing (no arrays) gives a view: an evaluated array is not copied (the view is a new set
// of strides over its buffer), and a view of an unevaluated array becomes an index remap inside the
// fused kernel. Advanced indexing (integer or bool arrays) gives a gather that also fuses: the
// kernel loads the source at the computed offsets. Two things happen at the call, as they must for
// NumPy's errors to be raised there: integer index arrays are checked against the axis (their
// min and max are computed once per array, then remembered), and a bool mask's true elements are
// counted, since the result's shape depends on them. Both wait for the device.
// Assigning to the indexed expression, `x(nf::slice(0, 2)) = v`, rebinds x to x with those elements
// replaced (value semantics: arrays and views taken from x earlier keep their values).
#pragma once
#include <concepts>
#include <cstdint>
#include <optional>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

struct newaxis_t {
  explicit constexpr newaxis_t(int) {}
};
inline constexpr newaxis_t newaxis{0};  // NumPy's None in an index: a new axis of length 1

struct ellipsis_t {
  explicit constexpr ellipsis_t(int) {}
};
inline constexpr ellipsis_t ellipsis{0};  // NumPy's ...: as many nf::all as the other indices leave

template <class I>
concept index_integer = std::integral<I> && !std::same_as<I, bool>;

// A slice's start, stop or step: an integer, or nf::none (omitted, as in x[1:]).
struct slice_arg {
  std::optional<std::int64_t> value;
  slice_arg(none_t) {}
  template <index_integer I>
  slice_arg(I v) : value(static_cast<std::int64_t>(v)) {}
};

// NumPy's start:stop:step, with Python's meaning of negative and omitted values.
// nf::slice(3) is [:3], as Python's slice(3) is; nf::slice(1, nf::none) is [1:].
struct slice {
  std::optional<std::int64_t> start, stop, step;
  explicit slice(slice_arg stop_) : stop(stop_.value) {}
  slice(slice_arg start_, slice_arg stop_, slice_arg step_ = none)
      : start(start_.value), stop(stop_.value), step(step_.value) {}
};

enum class index_kind : std::uint8_t {
  integer,
  slice,
  all,
  newaxis,
  ellipsis,
  array,  // an integer array (indices) or a bool array (mask): advanced indexing
};

// One position of an index expression.
struct index_item {
  index_kind kind = index_kind::all;
  std::int64_t integer = 0;
  ndfuse::slice range{none};
  array arr;
  template <index_integer I>
  index_item(I i) : kind(index_kind::integer), integer(static_cast<std::int64_t>(i)) {}
  index_item(const ndfuse::slice& s) : kind(index_kind::slice), range(s) {}
  index_item(const all_t&) : kind(index_kind::all) {}
  index_item(newaxis_t) : kind(index_kind::newaxis) {}
  index_item(ellipsis_t) : kind(index_kind::ellipsis) {}
  index_item(const array& a) : kind(index_kind::array), arr(a) {}
};

// x(items...). Throws index_error for an out-of-range integer or index, too many indices, more
// than one ellipsis, a zero step, a mask whose shape does not match, or index arrays that do not
// broadcast together.
array index(const array& x, const std::vector<index_item>& items);

// x(items...) = value: x rebound to a copy of x with the indexed elements replaced by value
// (broadcast to the view's shape, cast with NumPy's same_kind rule... as NumPy's setitem, unsafe
// casts are allowed for assignment: int8 x(...) = 3.7 stores 3).
void assign_index(array& x, const std::vector<index_item>& items, const array& value);
void assign_index(array& x, const std::vector<index_item>& items, scalar value);

// NumPy's take, take_along_axis, put, compress, nonzero, flatnonzero, argwhere and where(cond).
// Indices out of range throw index_error (NumPy's mode='raise'; CuPy wraps silently instead).
// nonzero, flatnonzero, argwhere, where(cond) and compress count the true elements at the call.
array take(const array& a, const array& indices);  // of the flattened a
array take(const array& a, const array& indices, int axis);
array take_along_axis(const array& a, const array& indices, int axis);
array take_along_axis(const array& a, const array& indices, none_t);  // of the flattened a
// a rebound to a copy with a.flat[indices] = values (values repeated to the indices' size).
void put(array& a, const array& indices, const array& values);
array compress(const array& condition, const array& a);  // of the flattened a
array compress(const array& condition, const array& a, int axis);
std::vector<array> nonzero(const array& a);
array flatnonzero(const array& a);
array argwhere(const array& a);
std::vector<array> where(const array& condition);  // nonzero(condition)

// What x(idx) returns: the view, as an nf::array. Assigning to the expression itself writes
// through the index into x: `x(nf::slice(0, 2)) = 7.0` and `x(0) += 1` change x, as NumPy's
// x[0:2] = 7 and x[0] += 1 do. Kept in a variable (`auto v = x(0)`), it is an ordinary array:
// assigning to v rebinds v only.
class indexed : public array {
 public:
  indexed(array view, array* target, std::vector<index_item> items)
      : array(std::move(view)), target_(target), items_(std::move(items)) {}
  indexed(const indexed&) = default;
  indexed(indexed&&) = default;
  ~indexed() = default;

  indexed& operator=(const indexed& v) & {
    array::operator=(v);
    return *this;
  }
  indexed& operator=(const array& v) & {
    array::operator=(v);
    return *this;
  }
  indexed& operator=(const indexed& v) && { return write(v); }
  indexed& operator=(const array& v) && { return write(v); }
  indexed& operator=(scalar v) && { return write(v); }

#define NDFUSE_INDEXED_COMPOUND(op)        \
  indexed& operator op(const array& o)& {  \
    array::operator op(o);                 \
    return *this;                          \
  }                                        \
  indexed& operator op(scalar o)& {        \
    array::operator op(o);                 \
    return *this;                          \
  }                                        \
  indexed& operator op(const array& o)&& { \
    array updated = *this;                 \
    updated op o;                          \
    return write(updated);                 \
  }                                        \
  indexed& operator op(scalar o)&& {       \
    array updated = *this;                 \
    updated op o;                          \
    return write(updated);                 \
  }
  NDFUSE_INDEXED_COMPOUND(+=)
  NDFUSE_INDEXED_COMPOUND(-=)
  NDFUSE_INDEXED_COMPOUND(*=)
  NDFUSE_INDEXED_COMPOUND(/=)
  NDFUSE_INDEXED_COMPOUND(%=)
  NDFUSE_INDEXED_COMPOUND(&=)
  NDFUSE_INDEXED_COMPOUND(|=)
  NDFUSE_INDEXED_COMPOUND(^=)
  NDFUSE_INDEXED_COMPOUND(<<=)
  NDFUSE_INDEXED_COMPOUND(>>=)
#undef NDFUSE_INDEXED_COMPOUND

 private:
  template <class V>
  indexed& write(const V& v) {
    if (!target_)
      throw value_error("indexing: this view has no array to assign through (it indexed a const array)");
    assign_index(*target_, items_, v);
    array::operator=(index(*target_, items_));
    return *this;
  }
  array* target_ = nullptr;
  std::vector<index_item> items_;
};

template <class... I>
indexed array::operator()(const I&... idx) {
  std::vector<index_item> items{index_item(idx)...};
  array view = index(*this, items);
  return indexed(std::move(view), this, std::move(items));
}

template <class... I>
array array::operator()(const I&... idx) const {
  return index(*this, {index_item(idx)...});
}

}  // namespace ndfuse
