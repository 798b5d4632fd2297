// histogram, histogram2d, histogramdd and digitize (include/ndfuse/statistics.hpp), following
// NumPy's _histograms_impl: edges from linspace over the range, bins found by searchsorted on the
// edges (NumPy's uniform fast path corrects its arithmetic to the same bins), counts by bincount,
// and for explicit edges with weights the differences of the sorted weights' cumulative sums.
#include <cmath>
#include <sstream>
#include <string>

#include "frontend/gather.hpp"
#include "frontend/operands_device.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"
#include "ndfuse/statistics.hpp"

namespace ndfuse {

namespace {

std::string number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// NumPy's _get_outer_edges: the range, or the data's min and max, widened by 0.5 when equal.
std::pair<double, double> outer_edges(const array& a, const std::optional<std::pair<double, double>>& range,
                                      const char* op) {
  double first = 0, last = 1;
  if (range) {
    std::tie(first, last) = *range;
    if (first > last)
      throw value_error(std::string(op) + ": max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error(std::string(op) + ": supplied range of [" + number(first) + ", " + number(last) +
                        "] is not finite");
  } else if (a.size() > 0) {
    first = min(a).astype(dtype::float64).item<double>();
    last = max(a).astype(dtype::float64).item<double>();
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error(std::string(op) + ": autodetected range of [" + number(first) + ", " + number(last) +
                        "] is not finite");
  }
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  return {first, last};
}

// The dtype of NumPy's edges: the data's float dtype, float64 for integers and bool.
dtype edge_dtype(const array& a) {
  return is_floating(a.dtype()) ? a.dtype() : dtype::float64;
}

void check_increasing(const array& edges, const std::string& what) {
  if (edges.ndim() != 1) throw value_error(what + " must be 1d, when an array");
  const std::int64_t n = edges.size();
  if (n > 1 && any(greater(edges(slice(0, n - 1)), edges(slice(1, n)))).item<bool>())
    throw value_error(what + " must increase monotonically, when an array");
}

std::optional<array> raveled_weights(const array& a, const std::optional<array>& weights, const char* op) {
  if (!weights) return std::nullopt;
  if (weights->shape() != a.shape())
    throw value_error(std::string(op) + ": weights should have the same shape as a.");
  return ravel(*weights);
}

array density_of(const array& counts, const array& edges) {
  const array db = diff(edges).astype(dtype::float64);
  return counts / db / sum(counts);
}

// NumPy's _search_sorted_inclusive: the left positions of all edges but the last, the right one of
// the last (so a value equal to it is counted).
array inclusive_positions(const array& sorted, const array& edges) {
  const std::int64_t n = edges.size();
  return concatenate({searchsorted(sorted, edges(slice(0, n - 1)), "left"),
                      searchsorted(sorted, edges(slice(n - 1, n)), "right")},
                     0);
}

// The bin of each value: edges[i] <= x < edges[i + 1], the last bin closed; `bins` (an extra bin,
// which the counts drop) for values outside the edges and NaN, so nothing is compacted or read back.
array bin_of(const array& a, const array& edges, std::int64_t bins) {
  const array inside = greater_equal(a, edges(0)) & less_equal(a, edges(bins));
  array at = where(inside, minimum(searchsorted(edges, a, "right") - 1, bins - 1), bins);
  return frontend::known_range(at, 0, bins);
}

array counts_on_edges(const array& a, const array& edges, const std::optional<array>& w) {
  const std::int64_t bins = edges.size() - 1;
  if (!w) return bincount(bin_of(a, edges, bins), bins + 1)(slice(0, bins));
  const array order = argsort(a, -1);
  const array sa = take(a, order), sw = take(*w, order);
  const array cw = concatenate({zeros({1}, w->dtype()), cumsum(sw)}, 0);
  return diff(take(cw, inclusive_positions(sa, edges)));
}

}  // namespace

histogram_result histogram(const array& a_in, std::int64_t bins,
                           std::optional<std::pair<double, double>> range, bool density,
                           const std::optional<array>& weights) {
  const frontend::operands_device on_their_device(a_in, weights);
  if (bins < 1) throw value_error("histogram: `bins` must be positive, when an integer");
  if (is_complex(a_in.dtype())) throw dtype_error("histogram: complex input is not supported");
  const std::optional<array> w = raveled_weights(a_in, weights, "histogram");
  const array a = ravel(a_in);
  const auto [first, last] = outer_edges(a, range, "histogram");
  const array edges = linspace(first, last, bins + 1, true, edge_dtype(a));
  array counts;
  if (!w) {
    counts = counts_on_edges(a, edges, std::nullopt);
  } else {
    // NumPy's uniform path: bincount of the weights of the values inside the range.
    counts = bincount(bin_of(a, edges, bins), *w, bins + 1)(slice(0, bins)).astype(w->dtype());
  }
  if (density) return {density_of(counts, edges), edges};
  return {counts, edges};
}

histogram_result histogram(const array& a_in, const array& bin_edges, bool density,
                           const std::optional<array>& weights) {
  const frontend::operands_device on_their_device(a_in, bin_edges, weights);
  if (is_complex(a_in.dtype())) throw dtype_error("histogram: complex input is not supported");
  check_increasing(bin_edges, "histogram: `bins`");
  const std::optional<array> w = raveled_weights(a_in, weights, "histogram");
  const array counts = counts_on_edges(ravel(a_in), bin_edges, w);
  if (density) return {density_of(counts, bin_edges), bin_edges};
  return {counts, bin_edges};
}

namespace {

histogramdd_result histogram_of_rows(const array& sample, std::vector<array> edges, bool density,
                                     const std::optional<array>& weights) {
  const std::int64_t n = sample.shape()[0];
  const int d = static_cast<int>(sample.shape()[1]);
  shape_t nbin;
  std::vector<array> position;
  for (int i = 0; i < d; ++i) {
    const array column = sample(all, i);
    const std::int64_t e = edges[i].size();
    nbin.push_back(e + 1);  // an outlier bin at each end
    const array right = searchsorted(edges[i], column, "right");
    position.push_back(where(equal(column, edges[i](e - 1)), right - 1, right));
  }
  if (weights && (weights->ndim() != 1 || weights->shape()[0] != n))
    throw value_error("histogramdd: weights should have one value per sample");
  std::int64_t cells = 1;
  for (auto b : nbin) cells *= b;
  const array flat = ravel_multi_index(position, nbin);
  array hist = (weights ? bincount(flat, *weights, cells) : bincount(flat, cells)).astype(dtype::float64);
  hist = hist.reshape(nbin);
  for (int i = 0; i < d; ++i) hist = take(hist, arange(1, nbin[i] - 1), i);
  if (density) {
    const array s = sum(hist);
    for (int i = 0; i < d; ++i) {
      shape_t shape(d, 1);
      shape[i] = nbin[i] - 2;
      hist = hist / diff(edges[i]).reshape(shape);
    }
    hist = hist / s;
  }
  return {hist, std::move(edges)};
}

array as_rows(const array& sample) {
  if (sample.ndim() == 2) return sample;
  if (sample.ndim() <= 1) return atleast_2d(sample).T();
  throw value_error("histogramdd: sample must be N x D");
}

}  // namespace

histogramdd_result histogramdd(const array& sample_in, const std::vector<std::int64_t>& bins,
                               const std::vector<std::pair<double, double>>& ranges, bool density,
                               const std::optional<array>& weights) {
  const frontend::operands_device on_their_device(sample_in, weights);
  const array sample = as_rows(sample_in);
  const std::size_t d = sample.shape()[1];
  if (bins.size() != 1 && bins.size() != d)
    throw value_error("histogramdd: The dimension of bins must be equal to the dimension of the sample x.");
  if (!ranges.empty() && ranges.size() != d)
    throw value_error("histogramdd: range argument must have one entry per dimension");
  std::vector<array> edges;
  for (std::size_t i = 0; i < d; ++i) {
    const std::int64_t b = bins.size() == 1 ? bins[0] : bins[i];
    if (b < 1)
      throw value_error("histogramdd: `bins[" + std::to_string(i) + "]` must be positive, when an integer");
    const array column = sample(all, static_cast<std::int64_t>(i));
    std::optional<std::pair<double, double>> range;
    if (!ranges.empty()) range = ranges[i];
    const auto [first, last] = outer_edges(column, range, "histogramdd");
    edges.push_back(linspace(first, last, b + 1, true, edge_dtype(sample)));
  }
  return histogram_of_rows(sample, std::move(edges), density, weights);
}

histogramdd_result histogramdd(const array& sample_in, const std::vector<array>& bin_edges, bool density,
                               const std::optional<array>& weights) {
  const frontend::operands_device on_their_device(sample_in, bin_edges, weights);
  const array sample = as_rows(sample_in);
  if (bin_edges.size() != static_cast<std::size_t>(sample.shape()[1]))
    throw value_error("histogramdd: The dimension of bins must be equal to the dimension of the sample x.");
  for (std::size_t i = 0; i < bin_edges.size(); ++i)
    check_increasing(bin_edges[i], "histogramdd: `bins[" + std::to_string(i) + "]`");
  return histogram_of_rows(sample, bin_edges, density, weights);
}

namespace {

array pair_rows(const array& x, const array& y) {
  if (x.ndim() != 1 || y.ndim() != 1 || x.size() != y.size())
    throw value_error("histogram2d: x and y must have the same length.");
  return stack({x, y}, 1);
}

}  // namespace

histogram2d_result histogram2d(const array& x, const array& y, const std::vector<std::int64_t>& bins,
                               const std::vector<std::pair<double, double>>& ranges, bool density,
                               const std::optional<array>& weights) {
  auto r = histogramdd(pair_rows(x, y), bins, ranges, density, weights);
  return {r.hist, r.edges[0], r.edges[1]};
}

histogram2d_result histogram2d(const array& x, const array& y, const array& xedges, const array& yedges,
                               bool density, const std::optional<array>& weights) {
  auto r = histogramdd(pair_rows(x, y), std::vector<array>{xedges, yedges}, density, weights);
  return {r.hist, r.edges[0], r.edges[1]};
}

array digitize(const array& x, const array& bins, bool right) {
  if (is_complex(x.dtype())) throw dtype_error("digitize: x may not be complex");
  if (bins.ndim() != 1) throw value_error("digitize: object too deep for desired array");
  const std::int64_t n = bins.size();
  // NumPy's _monotonicity: increasing when no step falls, decreasing when none rises.
  bool increasing = true, decreasing = true;
  if (n > 1) {
    const array step = diff(bins);
    increasing = all(greater_equal(step, 0)).item<bool>();
    decreasing = !increasing && all(less_equal(step, 0)).item<bool>();
  }
  if (!increasing && !decreasing)
    throw value_error("digitize: bins must be monotonically increasing or decreasing");
  const std::string_view side = right ? "left" : "right";
  if (increasing) return searchsorted(bins, x, side);
  return n - searchsorted(flip(bins), x, side);
}

}  // namespace ndfuse
