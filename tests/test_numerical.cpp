// include/ndfuse/numerical.hpp against NumPy (tests/oracle/gen_numerical.py computes each case,
// errors included), on every device the suite runs on; and that the elementwise ones fuse.
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

const std::map<std::string, call>& calls() {
  static const std::map<std::string, call> table = [] {
    std::map<std::string, call> t;
    const std::map<std::string, array (*)(std::int64_t)> windows{{"bartlett", nf::bartlett},
                                                                 {"blackman", nf::blackman},
                                                                 {"hamming", nf::hamming},
                                                                 {"hanning", nf::hanning}};
    for (const auto& [name, f] : windows)
      for (std::int64_t m : {0, 1, 2, 7, 16})
        t[name + "_" + std::to_string(m)] = [f, m](const inputs&) { return one(f(m)); };
    for (auto [m, beta, id] : {std::tuple{1, 5.0, "1_5.0"},
                               {2, 0.0, "2_0.0"},
                               {9, 8.6, "9_8.6"},
                               {16, 14.0, "16_14.0"},
                               {0, 3.0, "0_3.0"}})
      t[std::string("kaiser_") + id] = [m, beta](const inputs&) { return one(nf::kaiser(m, beta)); };

    for (const std::string mode : {"full", "same", "valid"}) {
      for (const std::string suffix : {"", "_swapped", "_ints"})
        t["convolve_" + mode + suffix] = [mode](const inputs& in) {
          return one(nf::convolve(in[0], in[1], mode));
        };
      for (const std::string suffix : {"", "_swapped", "_complex"})
        t["correlate_" + mode + suffix] = [mode](const inputs& in) {
          return one(nf::correlate(in[0], in[1], mode));
        };
    }
    t["convolve_even_same"] = t["convolve_same"];
    t["correlate_even_same_swapped"] = t["correlate_same"];
    for (const char* id : {"convolve_empty", "convolve_2d", "convolve_0d"}) t[id] = t["convolve_full"];
    t["convolve_bad_mode"] = [](const inputs& in) { return one(nf::convolve(in[0], in[1], "middle")); };

    for (const char* id : {"interp", "interp_2d_x", "interp_one_point", "interp_complex", "interp_ints",
                           "interp_length", "interp_empty"})
      t[id] = [](const inputs& in) { return one(nf::interp(in[0], in[1], in[2])); };
    t["interp_left_right"] = [](const inputs& in) { return one(nf::interp(in[0], in[1], in[2], -9.0, 9.0)); };
    t["interp_period"] = [](const inputs& in) {
      return one(nf::interp(in[0], in[1], in[2], std::nullopt, std::nullopt, 360.0));
    };
    t["interp_period_zero"] = [](const inputs& in) {
      return one(nf::interp(in[0], in[1], in[2], std::nullopt, std::nullopt, 0.0));
    };

    t["trapezoid"] = [](const inputs& in) { return one(nf::trapezoid(in[0])); };
    t["trapezoid_float32"] = t["trapezoid"];
    t["trapezoid_dx_axis0"] = [](const inputs& in) { return one(nf::trapezoid(in[0], 0.5, 0)); };
    t["trapezoid_x"] = [](const inputs& in) { return one(nf::trapezoid(in[0], in[1])); };
    t["trapezoid_x_nd"] = [](const inputs& in) { return one(nf::trapezoid(in[0], in[1], 0)); };

    t["gradient"] = [](const inputs& in) { return nf::gradient(in[0]); };
    t["gradient_ints"] = t["gradient"];
    t["gradient_dx"] = [](const inputs& in) { return nf::gradient(in[0], 0.5); };
    t["gradient_axis1_edge2"] = [](const inputs& in) { return nf::gradient(in[0], 1.0, 1, 2); };
    t["gradient_dx_edge2"] = [](const inputs& in) { return nf::gradient(in[0], 0.25, {}, 2); };
    for (const char* id : {"gradient_coords", "gradient_uniform_coords", "gradient_coords_length"})
      t[id] = [](const inputs& in) { return nf::gradient(in[0], std::vector<array>{in[1]}, 1); };
    t["gradient_coords_edge2"] = [](const inputs& in) {
      return nf::gradient(in[0], std::vector<array>{in[1]}, 1, 2);
    };
    t["gradient_float32"] = [](const inputs& in) { return nf::gradient(in[0], 1.0, 0); };
    t["gradient_short"] = [](const inputs& in) { return nf::gradient(in[0], 1.0, {}, 2); };
    t["gradient_edge3"] = [](const inputs& in) { return nf::gradient(in[0], 1.0, {}, 3); };

    for (const char* id : {"unwrap", "unwrap_float32", "unwrap_ints"})
      t[id] = [](const inputs& in) { return one(nf::unwrap(in[0])); };
    t["unwrap_2d"] = [](const inputs& in) { return one(nf::unwrap(in[0], std::nullopt, 1)); };
    t["unwrap_discont"] = [](const inputs& in) { return one(nf::unwrap(in[0], 4.0)); };
    t["unwrap_period"] = [](const inputs& in) { return one(nf::unwrap(in[0], std::nullopt, -1, 12.0)); };

    for (const char* id : {"polyval", "polyval_ints", "polyval_float32_x", "polyval_complex"})
      t[id] = [](const inputs& in) { return one(nf::polyval(in[0], in[1])); };
    for (const char* id : {"polyadd", "polyadd_longer"})
      t[id] = [](const inputs& in) { return one(nf::polyadd(in[0], in[1])); };
    for (const char* id : {"polysub", "polysub_longer"})
      t[id] = [](const inputs& in) { return one(nf::polysub(in[0], in[1])); };
    for (const char* id : {"polymul", "polymul_ints"})
      t[id] = [](const inputs& in) { return one(nf::polymul(in[0], in[1])); };
    for (const char* id :
         {"poly", "poly_complex_pairs", "poly_complex", "poly_ints", "poly_empty", "poly_matrix", "poly_bad"})
      t[id] = [](const inputs& in) { return one(nf::poly(in[0])); };
    for (const char* id : {"roots", "roots_complex", "roots_trailing", "roots_ints"})
      t[id] = [](const inputs& in) { return one(nf::sort(nf::roots(in[0]).astype(nf::complex128))); };
    for (const char* id : {"roots_zero", "roots_2d"})
      t[id] = [](const inputs& in) { return one(nf::roots(in[0])); };
    t["polyfit"] = [](const inputs& in) { return one(nf::polyfit(in[0], in[1], 3)); };
    t["polyfit_2d"] = [](const inputs& in) { return one(nf::polyfit(in[0], in[1], 2)); };
    t["polyfit_length"] = t["polyfit_2d"];
    t["polyfit_weights"] = [](const inputs& in) {
      return one(nf::polyfit(in[0], in[1], 2, std::nullopt, in[2]));
    };
    t["polyfit_float32"] = [](const inputs& in) { return one(nf::polyfit(in[0], in[1], 1)); };
    t["polyfit_negative"] = [](const inputs& in) { return one(nf::polyfit(in[0], in[1], -1)); };
    t["vander"] = [](const inputs& in) { return one(nf::vander(in[0])); };
    t["vander_2d"] = t["vander"];
    t["vander_increasing"] = [](const inputs& in) { return one(nf::vander(in[0], std::nullopt, true)); };
    t["vander_n"] = [](const inputs& in) { return one(nf::vander(in[0], 5)); };
    t["vander_zero"] = [](const inputs& in) { return one(nf::vander(in[0], 0)); };
    t["vander_float32"] = [](const inputs& in) { return one(nf::vander(in[0], 3)); };
    // gen_numerical.py's EDGE_CALLS, on an empty and a 0-d input.
    const array two_taps = nf::array({1.0, 2.0});
    const std::map<std::string, call> edge{
        {"convolve", [two_taps](const inputs& in) { return one(nf::convolve(in[0], two_taps)); }},
        {"correlate", [two_taps](const inputs& in) { return one(nf::correlate(in[0], two_taps, "full")); }},
        {"interp",
         [](const inputs& in) {
           return one(nf::interp(in[0], nf::array({0.0, 1.0}), nf::array({2.0, 4.0})));
         }},
        {"trapezoid", [](const inputs& in) { return one(nf::trapezoid(in[0])); }},
        {"gradient", [](const inputs& in) { return nf::gradient(in[0], 1.0, 0); }},
        {"unwrap", [](const inputs& in) { return one(nf::unwrap(in[0])); }},
        {"polyval",
         [](const inputs& in) {
           return one(nf::polyval(nf::array({2.0, 1.0}), in[0]));
         }},
        {"polyval_coefficients",
         [](const inputs& in) {
           return one(nf::polyval(in[0], nf::array({1.5, 2.0})));
         }},
        {"polyadd", [two_taps](const inputs& in) { return one(nf::polyadd(in[0], two_taps)); }},
        {"polymul", [two_taps](const inputs& in) { return one(nf::polymul(in[0], two_taps)); }},
        {"poly", [](const inputs& in) { return one(nf::poly(in[0])); }},
        {"roots", [](const inputs& in) { return one(nf::roots(in[0])); }},
        {"vander", [](const inputs& in) { return one(nf::vander(in[0])); }},
    };
    oracle::add_edge_calls(t, edge);
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("numerical functions match NumPy, errors included", "[numerical]") {
  const std::string dir = oracle::oracle_dir("numerical");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_numerical.py writes it");
  // Transcendental functions (windows), sums in another order than NumPy's BLAS dot or pairwise
  // summation, and the eigen- and least-squares solvers compare with the transcendental tolerance.
  const int checked = oracle::check_call_table(dir, calls(), [](const std::string& id) {
    for (const char* part : {"blackman", "hamming", "hanning", "kaiser", "convolve", "correlate", "trapezoid",
                             "unwrap", "roots", "polyfit", "poly_matrix", "poly_complex"})
      if (id.find(part) != std::string::npos) return true;
    return false;
  });
  CHECK(checked == static_cast<int>(calls().size()));
}

TEST_CASE("elementwise numerical functions fuse", "[numerical]") {
  nf::array x = nf::linspace(-3, 3, 1000);
  x.eval();
  const auto launches = oracle::kernels_launched_by;
  const nf::array p = nf::asarray(std::vector<double>{2.0, -3.0, 0.5, 4.0, 1.0});
  p.eval();
  CHECK(launches([&] { return nf::polyval(p, x) * 2; }) == 1);
  CHECK(launches([&] { return nf::hanning(64) + nf::blackman(64); }) == 1);
  CHECK(launches([&] { return nf::gradient(x)[0]; }) == 1);
  // The sliding products and their sums are one reduction kernel.
  CHECK(launches([&] { return nf::convolve(x, p); }) == 1);
}
