// Instantiates the reduction loops of reduce_loops.hpp for every combining op and dtype.
#include "backend/cpu/reduce_loops.hpp"

#include <array>
#include <cmath>
#include <cstring>

#include "backend/cpu/prelude_host.hpp"
#include "ir/op_registry.hpp"

namespace ndfuse::backend::cpu {

namespace {

namespace hana = boost::hana;
using ir::op_code;

constexpr bool is_combine(op_code c) {
  return c == op_code::add || c == op_code::multiply || c == op_code::minimum || c == op_code::maximum ||
         c == op_code::fmin || c == op_code::fmax || c == op_code::logical_and || c == op_code::logical_or;
}

// The op's prelude body on the accumulator's compute type (float for the 16-bit floats, so that a
// float16 sum rounds once at the end, as NumPy's does).
template <class Op, dtype T>
ir::compute_t<T> apply(ir::compute_t<T> a, ir::compute_t<T> b) {
  using P = prelude_compute_t<T>;
  const auto r = prelude_op<Op::code>::call(same_bits<P>(a), same_bits<P>(b));
  return same_bits<ir::compute_t<T>>(static_cast<P>(r));
}

template <class Op, dtype T>
void fold(void* acc, const void* values, std::int64_t n) {
  using S = ir::storage_t<T>;
  using C = ir::compute_t<T>;
  const S* v = static_cast<const S*>(values);
  C r;
  // Integer folds are exact and associative (wrapping add and multiply, min, max, logical ops), so
  // a plain loop gives the same result; GCC 12 at -O3 also miscompiles the eight-lane form below
  // for int8 lanes.
  if (n < 8 || std::is_integral_v<C>) {
    r = ir::to_compute<T>(v[0]);
    for (std::int64_t i = 1; i < n; ++i) r = apply<Op, T>(r, ir::to_compute<T>(v[i]));
  } else {
    C lane[8];
    for (int j = 0; j < 8; ++j) lane[j] = ir::to_compute<T>(v[j]);
    std::int64_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) lane[j] = apply<Op, T>(lane[j], ir::to_compute<T>(v[i + j]));
    for (int j = 0; i < n; ++i, ++j) lane[j] = apply<Op, T>(lane[j], ir::to_compute<T>(v[i]));
    r = apply<Op, T>(apply<Op, T>(apply<Op, T>(lane[0], lane[1]), apply<Op, T>(lane[2], lane[3])),
                     apply<Op, T>(apply<Op, T>(lane[4], lane[5]), apply<Op, T>(lane[6], lane[7])));
  }
  S out = ir::to_storage<T>(r);
  std::memcpy(acc, &out, sizeof(S));
}

template <class Op, dtype T>
void scan(void* out, const void* values, std::int64_t n, void* carry) {
  using S = ir::storage_t<T>;
  using C = ir::compute_t<T>;
  const S* v = static_cast<const S*>(values);
  S* o = static_cast<S*>(out);
  S c0;
  std::memcpy(&c0, carry, sizeof(S));
  C c = ir::to_compute<T>(c0);
  for (std::int64_t i = 0; i < n; ++i) {
    c = apply<Op, T>(c, ir::to_compute<T>(v[i]));
    o[i] = ir::to_storage<T>(c);
  }
  c0 = ir::to_storage<T>(c);
  std::memcpy(carry, &c0, sizeof(S));
}

// NaN, and NumPy's order (complex numbers by real part, then imaginary part): the prelude's isnan and
// less, on the accumulator's compute type.
template <dtype T>
bool is_nan(ir::compute_t<T> v) {
  return nf_isnan(same_bits<prelude_compute_t<T>>(v));
}
template <dtype T>
bool less(ir::compute_t<T> a, ir::compute_t<T> b) {
  using P = prelude_compute_t<T>;
  return nf_less(same_bits<P>(a), same_bits<P>(b));
}

template <ir::reduce_kind K>
constexpr bool skips_nan = K == ir::reduce_kind::nanargmin || K == ir::reduce_kind::nanargmax;
template <ir::reduce_kind K>
constexpr bool is_max = K == ir::reduce_kind::argmax || K == ir::reduce_kind::nanargmax;

// Whether value a beats the current winner b. argmin/argmax: NumPy's first NaN wins. The nan forms
// see NaN as +inf (nanargmin) or -inf (nanargmax), as NumPy's _replace_nan does, so a NaN only
// wins a tie by coming first.
template <ir::reduce_kind K, dtype T>
bool beats(ir::compute_t<T> a, ir::compute_t<T> b) {
  if constexpr (!skips_nan<K>) {
    if (is_nan<T>(a) || is_nan<T>(b)) return is_nan<T>(a) && !is_nan<T>(b);
  }
  return is_max<K> ? less<T>(b, a) : less<T>(a, b);
}

template <ir::reduce_kind K, dtype T>
ir::compute_t<T> nan_replaced(ir::compute_t<T> x) {
  using C = ir::compute_t<T>;
  if constexpr (skips_nan<K> && (ir::is_complex_v<C> || std::is_floating_point_v<C>)) {
    if (is_nan<T>(x)) return C(is_max<K> ? -HUGE_VAL : HUGE_VAL);
  }
  return x;
}

// The nan forms also track whether any non-NaN value was seen (NumPy raises for an all-NaN slice;
// ndfuse answers -1): index >= 0 means yes, index <= -2 encodes the position -index - 2 of a
// winner that only NaNs back, -1 means nothing taken yet.
inline std::int64_t position(std::int64_t index) {
  return index >= 0 ? index : -index - 2;
}
inline std::int64_t encode(std::int64_t position, bool real) {
  return real ? position : -position - 2;
}

template <ir::reduce_kind K, dtype T>
void arg_fold(arg_acc& acc, const void* values, std::int64_t n, std::int64_t first) {
  using S = ir::storage_t<T>;
  using C = ir::compute_t<T>;
  const S* v = static_cast<const S*>(values);
  S best_s;
  std::memcpy(&best_s, acc.value, sizeof(S));
  C best = ir::to_compute<T>(best_s);
  bool taken = acc.index != -1, real = acc.index >= 0;
  std::int64_t at = position(acc.index);
  for (std::int64_t i = 0; i < n; ++i) {
    const C raw = ir::to_compute<T>(v[i]);
    const C x = nan_replaced<K, T>(raw);
    if (!taken || beats<K, T>(x, best)) {
      best = x;
      at = first + i;
      taken = true;
    }
    real = real || !is_nan<T>(raw);
  }
  best_s = ir::to_storage<T>(best);
  std::memcpy(acc.value, &best_s, sizeof(S));
  acc.index = !taken ? -1 : skips_nan<K> ? encode(at, real) : at;
}

template <ir::reduce_kind K, dtype T>
void arg_combine(arg_acc& acc, const arg_acc& later) {
  using S = ir::storage_t<T>;
  if (later.index == -1) return;
  if (acc.index == -1) {
    acc = later;
    return;
  }
  S a, b;
  std::memcpy(&a, acc.value, sizeof(S));
  std::memcpy(&b, later.value, sizeof(S));
  const bool real = acc.index >= 0 || later.index >= 0;
  const bool take = beats<K, T>(ir::to_compute<T>(b), ir::to_compute<T>(a));
  const std::int64_t at = position(take ? later.index : acc.index);
  if (take) std::memcpy(acc.value, later.value, sizeof acc.value);
  acc.index = skips_nan<K> ? encode(at, real) : at;
}

constexpr std::size_t ops = static_cast<std::size_t>(op_code::count);
using fold_table = std::array<std::array<fold_fn, dtype_count>, ops>;
using scan_table = std::array<std::array<scan_fn, dtype_count>, ops>;
constexpr std::size_t kinds = 5;

struct tables {
  fold_table folds{};
  scan_table scans{};
  std::array<std::array<arg_fold_fn, dtype_count>, kinds> arg_folds{};
  std::array<std::array<arg_combine_fn, dtype_count>, kinds> arg_combines{};
  tables() {
    hana::for_each(ir::all_ops, [&](auto op_type) {
      using op = typename decltype(op_type)::type;
      if constexpr (is_combine(op::code)) {
        hana::for_each(ir::all_dtypes, [&](auto d) {
          constexpr dtype t = decltype(d)::value;
          constexpr auto out = ir::loop_output(op::types, t);
          if constexpr (out.has_value() && *out == t) {
            folds[static_cast<int>(op::code)][static_cast<int>(t)] = &fold<op, t>;
            scans[static_cast<int>(op::code)][static_cast<int>(t)] = &scan<op, t>;
          }
        });
      }
    });
    hana::for_each(ir::all_dtypes, [&](auto d) {
      constexpr dtype t = decltype(d)::value;
      using ir::reduce_kind;
      auto put = [&](auto kind) {
        constexpr reduce_kind k = decltype(kind)::value;
        arg_folds[static_cast<int>(k)][static_cast<int>(t)] = &arg_fold<k, t>;
        arg_combines[static_cast<int>(k)][static_cast<int>(t)] = &arg_combine<k, t>;
      };
      put(std::integral_constant<reduce_kind, reduce_kind::argmin>{});
      put(std::integral_constant<reduce_kind, reduce_kind::argmax>{});
      put(std::integral_constant<reduce_kind, reduce_kind::nanargmin>{});
      put(std::integral_constant<reduce_kind, reduce_kind::nanargmax>{});
    });
  }
};

const tables& table() {
  static const tables t;
  return t;
}

}  // namespace

fold_fn fold_loop(op_code combine, dtype t) {
  return table().folds[static_cast<int>(combine)][static_cast<int>(t)];
}
scan_fn scan_loop(op_code combine, dtype t) {
  return table().scans[static_cast<int>(combine)][static_cast<int>(t)];
}
arg_fold_fn arg_fold_loop(ir::reduce_kind kind, dtype t) {
  return table().arg_folds[static_cast<int>(kind)][static_cast<int>(t)];
}
arg_combine_fn arg_combine_loop(ir::reduce_kind kind, dtype t) {
  return table().arg_combines[static_cast<int>(kind)][static_cast<int>(t)];
}

}  // namespace ndfuse::backend::cpu
