// The statistics of include/ndfuse/statistics.hpp against NumPy (tests/oracle/gen_statistics.py
// computes each case, errors included), on every device the suite runs on.
#include <map>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

using inputs = oracle::call_inputs;
using call = oracle::call_fn;
using nf::array;

std::vector<array> one(const array& a) {
  return {a};
}
std::vector<array> two(const nf::histogram_result& r) {
  return {r.hist, r.bin_edges};
}

const std::vector<std::string> methods = {"linear",
                                          "lower",
                                          "higher",
                                          "nearest",
                                          "midpoint",
                                          "inverted_cdf",
                                          "averaged_inverted_cdf",
                                          "closest_observation",
                                          "interpolated_inverted_cdf",
                                          "hazen",
                                          "weibull",
                                          "median_unbiased",
                                          "normal_unbiased"};

const std::map<std::string, call>& calls() {
  static const std::map<std::string, call> table = [] {
    std::map<std::string, call> t;
    for (const std::string& m : methods) {
      t["quantile_" + m] = [m](const inputs& in) { return one(nf::quantile(in[0], in[1], 1, m)); };
      t["quantile_" + m + "_ints"] = [m](const inputs& in) {
        return one(nf::quantile(in[0], 0.35, std::nullopt, m));
      };
      t["nanquantile_" + m] = [m](const inputs& in) { return one(nf::nanquantile(in[0], in[1], 1, m)); };
    }
    t["quantile_scalar"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.3)); };
    t["quantile_float32_weak"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.3, 0)); };
    t["quantile_float32_strong"] = [](const inputs& in) { return one(nf::quantile(in[0], in[1], 0)); };
    t["quantile_keepdims"] = [](const inputs& in) {
      return one(nf::quantile(in[0], in[1], 0, "linear", true));
    };
    t["quantile_keepdims_all"] = [](const inputs& in) {
      return one(nf::quantile(in[0], 0.5, std::nullopt, "linear", true));
    };
    t["quantile_2d_q"] = [](const inputs& in) { return one(nf::quantile(in[0], in[1])); };
    t["quantile_nan"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.5, 1)); };
    t["quantile_inf"] = [](const inputs& in) {
      return one(nf::quantile(in[0], nf::asarray(std::vector<double>{0.5, 0.75, 1.0})));
    };
    t["quantile_int_q"] = [](const inputs& in) { return one(nf::quantile(in[0], in[1], 1)); };
    t["quantile_bad_q"] = [](const inputs& in) { return one(nf::quantile(in[0], 1.5)); };
    t["quantile_nan_q"] = [](const inputs& in) {
      return one(nf::quantile(in[0], std::numeric_limits<double>::quiet_NaN()));
    };
    t["quantile_complex"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.5)); };
    t["quantile_bad_method"] = [](const inputs& in) {
      return one(nf::quantile(in[0], 0.5, std::nullopt, "cubic"));
    };
    t["quantile_axis"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.5, 2)); };
    t["quantile_0d"] = [](const inputs& in) { return one(nf::quantile(in[0], 0.5)); };
    t["percentile"] = [](const inputs& in) { return one(nf::percentile(in[0], in[1], 0)); };
    t["percentile_scalar"] = [](const inputs& in) { return one(nf::percentile(in[0], 40)); };
    t["percentile_bad"] = [](const inputs& in) { return one(nf::percentile(in[0], 101)); };
    t["nanpercentile"] = [](const inputs& in) { return one(nf::nanpercentile(in[0], 75, 1)); };
    t["nanquantile_ints"] = [](const inputs& in) { return one(nf::nanquantile(in[0], 0.5, 0)); };
    for (const char* id : {"nanmedian", "nanmedian_float32", "nanmedian_ints"})
      t[id] = [](const inputs& in) { return one(nf::nanmedian(in[0], 1)); };
    t["nanmedian_all"] = [](const inputs& in) { return one(nf::nanmedian(in[0])); };
    t["nanmedian_axis0_keepdims"] = [](const inputs& in) { return one(nf::nanmedian(in[0], 0, true)); };

    t["histogram"] = [](const inputs& in) { return two(nf::histogram(in[0])); };
    t["histogram_nan"] = t["histogram"];
    t["histogram_bins"] = [](const inputs& in) { return two(nf::histogram(in[0], 7)); };
    t["histogram_range"] = [](const inputs& in) {
      return two(nf::histogram(in[0], 5, std::pair{-1.0, 1.0}));
    };
    t["histogram_weights"] = [](const inputs& in) {
      return two(nf::histogram(in[0], 6, std::nullopt, false, in[1]));
    };
    t["histogram_density"] = [](const inputs& in) {
      return two(nf::histogram(in[0], 6, std::nullopt, true));
    };
    t["histogram_float32"] = [](const inputs& in) { return two(nf::histogram(in[0], 4)); };
    t["histogram_constant"] = t["histogram_float32"];
    t["histogram_ints"] = [](const inputs& in) { return two(nf::histogram(in[0], 5)); };
    t["histogram_empty"] = [](const inputs& in) { return two(nf::histogram(in[0], 3)); };
    t["histogram_edges"] = [](const inputs& in) { return two(nf::histogram(in[0], in[1])); };
    t["histogram_edges_decreasing"] = t["histogram_edges"];
    t["histogram_edges_weights"] = [](const inputs& in) {
      return two(nf::histogram(in[0], in[1], false, in[2]));
    };
    t["histogram_edges_density"] = [](const inputs& in) { return two(nf::histogram(in[0], in[1], true)); };
    t["histogram_bad_range"] = [](const inputs& in) {
      return two(nf::histogram(in[0], 10, std::pair{1.0, 0.0}));
    };
    t["histogram_zero_bins"] = [](const inputs& in) { return two(nf::histogram(in[0], 0)); };
    t["histogram_weights_shape"] = [](const inputs& in) {
      return two(nf::histogram(in[0], 10, std::nullopt, false, in[1]));
    };
    auto three = [](const nf::histogram2d_result& r) {
      return std::vector<array>{r.hist, r.xedges, r.yedges};
    };
    t["histogram2d"] = [three](const inputs& in) { return three(nf::histogram2d(in[0], in[1], {4})); };
    t["histogram2d_length"] = [three](const inputs& in) { return three(nf::histogram2d(in[0], in[1])); };
    t["histogram2d_bins"] = [three](const inputs& in) {
      return three(nf::histogram2d(in[0], in[1], {3, 5}));
    };
    t["histogram2d_range_density"] = [three](const inputs& in) {
      const std::vector<std::pair<double, double>> ranges{{-1, 1}, {-2, 2}};
      return three(nf::histogram2d(in[0], in[1], {3}, ranges, true));
    };
    t["histogram2d_weights"] = [three](const inputs& in) {
      return three(nf::histogram2d(in[0], in[1], {3}, {}, false, in[2]));
    };
    t["histogram2d_edges"] = [three](const inputs& in) {
      return three(nf::histogram2d(in[0], in[1], in[2], in[3]));
    };
    auto dd = [](const nf::histogramdd_result& r) {
      std::vector<array> out{r.hist};
      out.insert(out.end(), r.edges.begin(), r.edges.end());
      return out;
    };
    t["histogramdd"] = [dd](const inputs& in) { return dd(nf::histogramdd(in[0], {2, 3, 4})); };
    t["histogramdd_density"] = [dd](const inputs& in) { return dd(nf::histogramdd(in[0], {3}, {}, true)); };
    t["histogramdd_ints"] = [dd](const inputs& in) { return dd(nf::histogramdd(in[0], {4})); };

    for (const char* id :
         {"digitize", "digitize_decreasing", "digitize_ints", "digitize_not_monotonic", "digitize_complex"})
      t[id] = [](const inputs& in) { return one(nf::digitize(in[0], in[1])); };
    for (const char* id : {"digitize_right", "digitize_decreasing_right"})
      t[id] = [](const inputs& in) { return one(nf::digitize(in[0], in[1], true)); };

    for (const char* id : {"cov", "cov_1d", "cov_ints", "cov_complex", "cov_3d"})
      t[id] = [](const inputs& in) { return one(nf::cov(in[0])); };
    t["cov_rowvar"] = [](const inputs& in) { return one(nf::cov(in[0], std::nullopt, false)); };
    t["cov_y"] = [](const inputs& in) { return one(nf::cov(in[0], in[1])); };
    t["cov_bias"] = [](const inputs& in) { return one(nf::cov(in[0], std::nullopt, true, true)); };
    t["cov_ddof"] = [](const inputs& in) { return one(nf::cov(in[0], std::nullopt, true, false, 3)); };
    for (const char* id : {"corrcoef", "corrcoef_1d", "corrcoef_complex"})
      t[id] = [](const inputs& in) { return one(nf::corrcoef(in[0])); };
    t["corrcoef_y"] = [](const inputs& in) { return one(nf::corrcoef(in[0], in[1])); };
    t["corrcoef_rowvar"] = [](const inputs& in) { return one(nf::corrcoef(in[0], std::nullopt, false)); };
    // gen_statistics.py's EDGE_CALLS, on an empty and a 0-d input.
    const std::map<std::string, call> edge{
        {"quantile", [](const inputs& in) { return one(nf::quantile(in[0], 0.3)); }},
        {"percentile", [](const inputs& in) { return one(nf::percentile(in[0], 30.0)); }},
        {"nanquantile", [](const inputs& in) { return one(nf::nanquantile(in[0], 0.3)); }},
        {"nanpercentile", [](const inputs& in) { return one(nf::nanpercentile(in[0], 30.0)); }},
        {"nanmedian", [](const inputs& in) { return one(nf::nanmedian(in[0])); }},
        {"histogram", [](const inputs& in) { return two(nf::histogram(in[0], 4)); }},
        {"histogram_edges",
         [](const inputs& in) {
           return two(nf::histogram(in[0], nf::array({0.0, 0.5, 1.0})));
         }},
        {"histogramdd",
         [](const inputs& in) {
           const auto r = nf::histogramdd(in[0], {3});
           std::vector<array> out{r.hist};
           out.insert(out.end(), r.edges.begin(), r.edges.end());
           return out;
         }},
        {"digitize",
         [](const inputs& in) {
           return one(nf::digitize(in[0], nf::array({0.0, 0.5, 1.0})));
         }},
        {"cov", [](const inputs& in) { return one(nf::cov(in[0])); }},
        {"corrcoef", [](const inputs& in) { return one(nf::corrcoef(in[0])); }},
    };
    oracle::add_edge_calls(t, edge);
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("statistics match NumPy, errors included", "[statistics]") {
  const std::string dir = oracle::oracle_dir("statistics");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_statistics.py writes it");
  // Sums in another order (weighted counts, densities, covariances through the BLAS) round
  // differently from NumPy's: those compare with the transcendental tolerance.
  const int checked = oracle::check_call_table(dir, calls(), [](const std::string& id) {
    for (const char* part : {"weights", "density", "cov", "corrcoef"})
      if (id.find(part) != std::string::npos) return true;
    return false;
  });
  CHECK(checked == static_cast<int>(calls().size()));
}

TEST_CASE("a quantile's elementwise work fuses around its sort", "[statistics]") {
  nf::array x = nf::linspace(-3, 3, 1001).reshape({7, 143});
  x.eval();
  const auto launches = oracle::kernels_launched_by;
  // The sort, then one kernel for the indices, gathers, interpolation and NaN check.
  const auto sorted_only = launches([&] { return nf::sort(x, -1); });
  CHECK(launches([&] { return nf::quantile(x, 0.3, 1); }) <= sorted_only + 2);
}
