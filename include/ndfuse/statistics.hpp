// Order statistics, histograms and correlations (numpy's "Statistics" section beyond the reductions
// of reduce.hpp). Each sorts or counts through the library calls of sorting.hpp and does the rest
// as fused elementwise work, in the order of NumPy's own code, so results round as NumPy's do.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

// Quantiles along `axis` (the flattened array without one), q in [0, 1] (percentile: [0, 100];
// value_error otherwise). A scalar q is weak, as a Python float: the result keeps a float input's
// dtype; an array q is strong and its shape comes first in the result's. `method` is one of
// NumPy's thirteen: "linear" (the default), "lower", "higher", "nearest", "midpoint",
// "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
// "hazen", "weibull", "median_unbiased", "normal_unbiased". A slice holding NaN gives NaN; the
// nan forms skip NaNs (an all-NaN slice gives NaN). Complex input throws dtype_error.
array quantile(const array& a, double q, std::optional<int> axis = std::nullopt,
               std::string_view method = "linear", bool keepdims = false);
array quantile(const array& a, const array& q, std::optional<int> axis = std::nullopt,
               std::string_view method = "linear", bool keepdims = false);
array percentile(const array& a, double q, std::optional<int> axis = std::nullopt,
                 std::string_view method = "linear", bool keepdims = false);
array percentile(const array& a, const array& q, std::optional<int> axis = std::nullopt,
                 std::string_view method = "linear", bool keepdims = false);
array nanquantile(const array& a, double q, std::optional<int> axis = std::nullopt,
                  std::string_view method = "linear", bool keepdims = false);
array nanquantile(const array& a, const array& q, std::optional<int> axis = std::nullopt,
                  std::string_view method = "linear", bool keepdims = false);
array nanpercentile(const array& a, double q, std::optional<int> axis = std::nullopt,
                    std::string_view method = "linear", bool keepdims = false);
array nanpercentile(const array& a, const array& q, std::optional<int> axis = std::nullopt,
                    std::string_view method = "linear", bool keepdims = false);
// The median of the non-NaN values along `axis` (NaN for an all-NaN or empty slice).
array nanmedian(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// Histograms. Bins hold edges[i] <= x < edges[i+1], the last also x == edges[-1]; values outside
// are dropped. With a bin count the edges are linspace over `range` (the data's min and max without
// one; a range that is not finite or has max < min throws value_error); with an array of edges
// they must increase (value_error). Counts are int64, or the weights' dtype; density divides by
// the bin widths and the total (float64).
struct histogram_result {
  array hist, bin_edges;
};
histogram_result histogram(const array& a, std::int64_t bins = 10,
                           std::optional<std::pair<double, double>> range = std::nullopt,
                           bool density = false, const std::optional<array>& weights = std::nullopt);
histogram_result histogram(const array& a, const array& bin_edges, bool density = false,
                           const std::optional<array>& weights = std::nullopt);
// The D-dimensional form over the rows of sample (N x D): float64 counts and D edge arrays; bins
// per dimension (one count for all, or D) and ranges per dimension.
struct histogramdd_result {
  array hist;
  std::vector<array> edges;
};
histogramdd_result histogramdd(const array& sample, const std::vector<std::int64_t>& bins = {10},
                               const std::vector<std::pair<double, double>>& ranges = {},
                               bool density = false, const std::optional<array>& weights = std::nullopt);
histogramdd_result histogramdd(const array& sample, const std::vector<array>& bin_edges, bool density = false,
                               const std::optional<array>& weights = std::nullopt);
// histogramdd(sample, {4}) and {2, 3, 4} are bin counts (an array converts from a number too).
inline histogramdd_result histogramdd(const array& sample, std::initializer_list<std::int64_t> bins,
                                      const std::vector<std::pair<double, double>>& ranges = {},
                                      bool density = false,
                                      const std::optional<array>& weights = std::nullopt) {
  return histogramdd(sample, std::vector<std::int64_t>(bins), ranges, density, weights);
}
struct histogram2d_result {
  array hist, xedges, yedges;
};
histogram2d_result histogram2d(const array& x, const array& y, const std::vector<std::int64_t>& bins = {10},
                               const std::vector<std::pair<double, double>>& ranges = {},
                               bool density = false, const std::optional<array>& weights = std::nullopt);
histogram2d_result histogram2d(const array& x, const array& y, const array& xedges, const array& yedges,
                               bool density = false, const std::optional<array>& weights = std::nullopt);
inline histogram2d_result histogram2d(const array& x, const array& y,
                                      std::initializer_list<std::int64_t> bins,
                                      const std::vector<std::pair<double, double>>& ranges = {},
                                      bool density = false,
                                      const std::optional<array>& weights = std::nullopt) {
  return histogram2d(x, y, std::vector<std::int64_t>(bins), ranges, density, weights);
}
// The index of the bin of each x: bins[i-1] <= x < bins[i] (right: bins[i-1] < x <= bins[i]);
// bins must be 1-D and monotonic, increasing or decreasing (value_error otherwise). int64.
array digitize(const array& x, const array& bins, bool right = false);

// Covariance of the variables in the rows of m (the columns: rowvar = false), with those of y
// appended; divisor n - ddof (ddof 1, or 0 with bias). corrcoef: the covariance normalized by the
// standard deviations, clipped to [-1, 1]. A single variable gives a 0-d result.
array cov(const array& m, const std::optional<array>& y = std::nullopt, bool rowvar = true, bool bias = false,
          std::optional<std::int64_t> ddof = std::nullopt);
array corrcoef(const array& x, const std::optional<array>& y = std::nullopt, bool rowvar = true);

}  // namespace ndfuse
