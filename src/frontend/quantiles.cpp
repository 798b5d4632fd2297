// quantile, percentile, their nan forms and nanmedian (include/ndfuse/statistics.hpp), as NumPy's
// _quantile computes them: a sort along the axis (NumPy partitions; a sort is a valid partition),
// NumPy's virtual index for the method, its bounds, and _lerp's two-sided interpolation. The nan
// forms use each slice's count of non-NaN values as its length, which is what NumPy's compaction
// of every 1-d slice amounts to.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "frontend/composite_support.hpp"
#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"
#include "ndfuse/statistics.hpp"

namespace ndfuse {

namespace {

enum class family { interpolated, discrete };

struct method_rule {
  std::string_view name;
  family kind;
};

constexpr method_rule methods[] = {{"inverted_cdf", family::discrete},
                                   {"averaged_inverted_cdf", family::interpolated},
                                   {"closest_observation", family::discrete},
                                   {"interpolated_inverted_cdf", family::interpolated},
                                   {"hazen", family::interpolated},
                                   {"weibull", family::interpolated},
                                   {"linear", family::interpolated},
                                   {"median_unbiased", family::interpolated},
                                   {"normal_unbiased", family::interpolated},
                                   {"lower", family::discrete},
                                   {"higher", family::discrete},
                                   {"midpoint", family::interpolated},
                                   {"nearest", family::discrete}};

const method_rule& rule_of(std::string_view method) {
  for (const auto& m : methods)
    if (m.name == method) return m;
  std::string names;
  for (const auto& m : methods) names += (names.empty() ? "" : ", ") + std::string(m.name);
  throw value_error("'" + std::string(method) + "' is not a valid method. Use one of: " + names);
}

// H&F's virtual index n q + (alpha + q (1 - alpha - beta)) - 1, as NumPy's _compute_virtual_index.
array hf_index(const array& n, const array& q, double alpha, double beta) {
  return n * q + (alpha + q * (1 - alpha - beta)) - 1;
}

// NumPy's _discrete_interpolation_to_boundaries: floor(index), or the next index where the
// condition on gamma does not hold; negative indices clipped to 0. int64.
array discrete_boundary(const array& index, bool closest_observation) {
  const array previous = floor(index);
  const array gamma = index - previous;
  array keep_previous = equal(gamma, 0);
  if (closest_observation) keep_previous = keep_previous & equal(remainder(previous, 2), 1);
  const array res = where(keep_previous, previous, previous + 1).astype(dtype::int64);
  return where(less(res, 0), 0, res);
}

struct virtual_index {
  array index;            // float (interpolated methods) or int64 (discrete ones)
  bool integral = false;  // no interpolation: take the points
};

virtual_index virtual_index_of(std::string_view method, const array& n, const array& q) {
  if (method == "linear") return {(n - 1) * q};
  if (method == "inverted_cdf") return {discrete_boundary(n * q - 1, false), true};
  if (method == "closest_observation") return {discrete_boundary(n * q - 1 - 0.5, true), true};
  if (method == "averaged_inverted_cdf") return {n * q - 1};
  if (method == "interpolated_inverted_cdf") return {hf_index(n, q, 0, 1)};
  if (method == "hazen") return {hf_index(n, q, 0.5, 0.5)};
  if (method == "weibull") return {hf_index(n, q, 0, 0)};
  if (method == "median_unbiased") return {hf_index(n, q, 1 / 3.0, 1 / 3.0)};
  if (method == "normal_unbiased") return {hf_index(n, q, 3 / 8.0, 3 / 8.0)};
  if (method == "lower") return {floor((n - 1) * q).astype(dtype::int64), true};
  if (method == "higher") return {ceil((n - 1) * q).astype(dtype::int64), true};
  if (method == "nearest") return {around((n - 1) * q).astype(dtype::int64), true};
  // midpoint
  return {0.5 * (floor((n - 1) * q) + ceil((n - 1) * q))};
}

// NumPy's fix_gamma of the method, given gamma = index - previous.
array fixed_gamma(std::string_view method, const array& gamma, const array& index) {
  if (method == "averaged_inverted_cdf") return where(equal(gamma, 0), 0.5, 1.0).astype(gamma.dtype());
  if (method == "midpoint") return where(equal(remainder(index, 1), 0), 0.0, 0.5).astype(gamma.dtype());
  return gamma;
}

struct quantile_call {
  const char* op;
  bool skip_nan;
  double scale;  // 100 for percentile: q is divided by it first, as NumPy's percentile does
};

// q's values checked on the host, as NumPy's _quantile_is_valid (NaN fails).
void check_q(const array& q, const quantile_call& call) {
  if (q.ndim() > 2) throw value_error(std::string(call.op) + ": q must be a scalar or 1d");
  const array f = q.astype(dtype::float64);
  if (f.size() == 0) return;
  const bool valid = all(greater_equal(f, 0) & less_equal(f, 1)).item<bool>();
  if (!valid)
    throw value_error(call.scale == 100 ? std::string(call.op) + ": Percentiles must be in the range [0, 100]"
                                        : std::string(call.op) + ": Quantiles must be in the range [0, 1]");
}

array quantiles(const array& a, const array& q_in, bool weak_q, std::optional<int> axis,
                std::string_view method, bool keepdims, const quantile_call& call) {
  if (is_complex(a.dtype())) throw dtype_error(std::string(call.op) + ": a must be an array of real numbers");
  const method_rule& rule = rule_of(method);
  array q = call.scale == 1 ? q_in : true_divide(q_in, 100);
  if (!weak_q) check_q(q, call);
  const array x = axis ? a : ravel(a);
  const int ax = axis ? frontend::normalized_axis(*axis, x.ndim(), call.op) : 0;
  const array s = sort(ax == x.ndim() - 1 ? x : moveaxis(x, ax, -1), -1);
  const std::int64_t length = s.shape().back();
  const bool inexact = is_inexact(a.dtype());
  // NumPy reads the sorted slice's last element to find NaNs: an empty slice is its IndexError,
  // but for the nan forms of a float array, whose empty slices are all-NaN ones.
  if (length == 0 && !(call.skip_nan && inexact))
    throw index_error(std::string(call.op) + ": index -1 is out of bounds for axis 0 with size 0");
  shape_t other = s.shape();
  other.pop_back();
  const shape_t q_shape = q.shape();
  const std::int64_t q_size = q.size();
  // A linear quantile at integer q takes the points, as NumPy's does.
  const bool integer_q = is_integer(q.dtype()) || q.dtype() == dtype::bool_;
  const dtype q_float = integer_q ? dtype::float64 : q.dtype();
  const bool take_points = rule.kind == family::discrete || (method == "linear" && integer_q);
  // q along the last axis, against each slice's length n (the nan forms count non-NaN values).
  shape_t q_col = shape_t(other.size(), 1);
  q_col.push_back(q_size);
  const array qv = (take_points && integer_q ? q.astype(dtype::int64) : q.astype(q_float)).reshape(q_col);
  array n_valid;  // int64, other + (1,)
  if (call.skip_nan && inexact) {
    n_valid = sum(logical_not(isnan(s)), -1, true).astype(dtype::int64);
  } else {
    n_valid = full(shape_t(other.size() + 1, 1), scalar(length), dtype::int64);
  }
  const array n = take_points && integer_q ? n_valid : n_valid.astype(q_float);
  const array last = maximum(n_valid - 1, 0);  // each slice's last valid position
  // Positions clipped into the slice, which the gathers then need not read to check.
  const auto in_slice = [&](const array& i) {
    array p = minimum(maximum(i, 0), last);
    return frontend::known_range(p, 0, std::max<std::int64_t>(length - 1, 0));
  };
  array result;
  if (length == 0) {
    const dtype t = take_points ? a.dtype() : (weak_q ? a.dtype() : promote_types(a.dtype(), q_float));
    shape_t empty_shape = other;
    empty_shape.push_back(q_size);
    result = full(empty_shape, std::numeric_limits<double>::quiet_NaN(), t);
  } else if (take_points) {
    const array index = method == "linear" ? (n - 1) * qv : virtual_index_of(method, n, qv).index;
    result = take_along_axis(s, in_slice(index), -1);
  } else {
    const array v = virtual_index_of(method, n, qv).index;
    // NumPy's _get_indexes: floor(v) and the next; past the last valid value both point at it (NumPy
    // writes -1), before the first at 0, and a NaN index at the last. gamma is v less that previous
    // index, -1 included, as NumPy computes it.
    const array above = greater_equal(v, n - 1) | isnan(v);
    const array below = less(v, 0);
    const array previous_code = where(above, -1.0, where(below, 0.0, floor(v))).astype(v.dtype());
    const array next_code = where(above, -1.0, where(below, 0.0, floor(v) + 1)).astype(v.dtype());
    const array gamma0 = fixed_gamma(method, v - previous_code, v);
    const auto position = [&](const array& code) {
      return in_slice(where(less(code, 0), last.astype(code.dtype()), code).astype(dtype::int64));
    };
    const array previous = take_along_axis(s, position(previous_code), -1);
    const array next = take_along_axis(s, position(next_code), -1);
    // A weak q leaves gamma a Python float: the interpolation runs in a float input's own dtype.
    const dtype lerp_float = inexact ? a.dtype() : dtype::float64;
    const array t = weak_q ? gamma0.astype(lerp_float) : gamma0;
    const array diff_b_a = next - previous;
    const array lerp = previous + diff_b_a * t;
    result = where(greater_equal(t, 0.5), subtract(next, diff_b_a * (1 - t)), lerp).astype(lerp.dtype());
  }
  if (inexact) {
    const array nan_slice = call.skip_nan ? equal(n_valid, 0) : isnan(s(ellipsis, slice(length - 1, length)));
    result = where(nan_slice, std::numeric_limits<double>::quiet_NaN(), result).astype(result.dtype());
  } else if (length == 0 && !take_points) {
    result = full(result.shape(), std::numeric_limits<double>::quiet_NaN(), result.dtype());
  }
  // other + (q,) -> q's shape + other, as NumPy prepends q's dimensions.
  result = moveaxis(result, -1, 0);
  shape_t out = q_shape;
  if (keepdims) {
    shape_t kept = axis ? a.shape() : shape_t(a.ndim(), 1);
    if (axis) kept[ax] = 1;
    out.insert(out.end(), kept.begin(), kept.end());
  } else {
    out.insert(out.end(), other.begin(), other.end());
  }
  return result.reshape(out);
}

// A scalar q, checked on the host (NaN fails, as NumPy's check does).
array weak(double q, const quantile_call& call) {
  const double f = q / call.scale;
  if (!(f >= 0 && f <= 1))
    throw value_error(call.scale == 100 ? std::string(call.op) + ": Percentiles must be in the range [0, 100]"
                                        : std::string(call.op) + ": Quantiles must be in the range [0, 1]");
  return full({}, scalar(q), dtype::float64);
}

}  // namespace

array quantile(const array& a, double q, std::optional<int> axis, std::string_view method, bool keepdims) {
  const frontend::operands_device on_their_device(a);
  return quantiles(a, weak(q, {"quantile", false, 1}), true, axis, method, keepdims, {"quantile", false, 1});
}
array quantile(const array& a, const array& q, std::optional<int> axis, std::string_view method,
               bool keepdims) {
  const frontend::operands_device on_their_device(a, q);
  return quantiles(a, q, false, axis, method, keepdims, {"quantile", false, 1});
}
array percentile(const array& a, double q, std::optional<int> axis, std::string_view method, bool keepdims) {
  const frontend::operands_device on_their_device(a);
  return quantiles(a, weak(q, {"percentile", false, 100}), true, axis, method, keepdims,
                   {"percentile", false, 100});
}
array percentile(const array& a, const array& q, std::optional<int> axis, std::string_view method,
                 bool keepdims) {
  const frontend::operands_device on_their_device(a, q);
  return quantiles(a, q, false, axis, method, keepdims, {"percentile", false, 100});
}
array nanquantile(const array& a, double q, std::optional<int> axis, std::string_view method, bool keepdims) {
  const frontend::operands_device on_their_device(a);
  return quantiles(a, weak(q, {"nanquantile", true, 1}), true, axis, method, keepdims,
                   {"nanquantile", true, 1});
}
array nanquantile(const array& a, const array& q, std::optional<int> axis, std::string_view method,
                  bool keepdims) {
  const frontend::operands_device on_their_device(a, q);
  return quantiles(a, q, false, axis, method, keepdims, {"nanquantile", true, 1});
}
array nanpercentile(const array& a, double q, std::optional<int> axis, std::string_view method,
                    bool keepdims) {
  const frontend::operands_device on_their_device(a);
  return quantiles(a, weak(q, {"nanpercentile", true, 100}), true, axis, method, keepdims,
                   {"nanpercentile", true, 100});
}
array nanpercentile(const array& a, const array& q, std::optional<int> axis, std::string_view method,
                    bool keepdims) {
  const frontend::operands_device on_their_device(a, q);
  return quantiles(a, q, false, axis, method, keepdims, {"nanpercentile", true, 100});
}

array nanmedian(const array& a, std::optional<int> axis, bool keepdims) {
  if (!is_inexact(a.dtype())) return median(a, axis, keepdims);
  const array x = axis ? a : ravel(a);
  const int ax = axis ? frontend::normalized_axis(*axis, x.ndim(), "nanmedian") : 0;
  const array s = sort(ax == x.ndim() - 1 ? x : moveaxis(x, ax, -1), -1);
  const array n = sum(logical_not(isnan(s)), -1, true).astype(dtype::int64);
  const array lo_at = maximum(floor_divide(n - 1, 2), 0), hi_at = maximum(floor_divide(n, 2), 0);
  const std::int64_t length = s.shape().back();
  array m;
  if (length == 0) {
    shape_t out = s.shape();
    out.pop_back();
    m = full(out, std::numeric_limits<double>::quiet_NaN(), a.dtype());
  } else {
    const array lo = take_along_axis(s, minimum(lo_at, length - 1), -1);
    const array hi = take_along_axis(s, minimum(hi_at, length - 1), -1);
    // The mean of the middle two of an even count, as (lo + hi) / 2 in the input's dtype.
    const array mid = where(equal(remainder(n, 2), 1), lo, (lo + hi) / 2).astype(a.dtype());
    m = squeeze(where(equal(n, 0), std::numeric_limits<double>::quiet_NaN(), mid).astype(a.dtype()), -1);
  }
  if (keepdims) {
    if (!axis) return m.reshape(shape_t(a.ndim(), 1));
    return expand_dims(m, ax);
  }
  return m;
}

}  // namespace ndfuse
