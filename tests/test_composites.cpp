// The composite functions of include/ndfuse/composites.hpp against NumPy (tests/oracle/gen_composites.py
// computes each case, errors included), on every device the suite runs on; and that the elementwise
// ones fuse.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

using inputs = oracle::call_inputs;
using call = oracle::call_fn;

nf::array boolean(bool b) {
  return nf::full({}, nf::scalar(b), nf::bool_);
}
nf::array int64(std::int64_t v) {
  return nf::full({}, nf::scalar(v), nf::int64);
}
std::vector<nf::array> one(const nf::array& a) {
  return {a};
}

const std::map<std::string, call>& calls() {
  using nf::array;
  static const std::map<std::string, call> table = [] {
    std::map<std::string, call> t;
    auto unary = [&](const std::string& id, array (*f)(const array&)) {
      t[id] = [f](const inputs& in) { return one(f(in[0])); };
    };
    t["isclose_near"] = [](const inputs& in) { return one(nf::isclose(in[0], in[1])); };
    t["isclose_special"] = t["isclose_near"];
    t["isclose_float32"] = t["isclose_near"];
    t["isclose_empty"] = t["isclose_near"];
    t["isclose_equal_nan"] = [](const inputs& in) {
      return one(nf::isclose(in[0], in[1], 1e-5, 1e-8, true));
    };
    t["isclose_ints"] = [](const inputs& in) { return one(nf::isclose(in[0], in[1], 0.5, 0.0)); };
    t["allclose_near"] = [](const inputs& in) { return one(boolean(nf::allclose(in[0], in[1]))); };
    t["allclose_far"] = t["allclose_near"];
    t["allclose_nan"] = [](const inputs& in) {
      return one(boolean(nf::allclose(in[0], in[1], 1e-5, 1e-8, true)));
    };
    t["array_equal_same"] = [](const inputs& in) { return one(boolean(nf::array_equal(in[0], in[1]))); };
    t["array_equal_shape"] = t["array_equal_same"];
    t["array_equal_nan_off"] = t["array_equal_same"];
    t["array_equal_nan"] = [](const inputs& in) { return one(boolean(nf::array_equal(in[0], in[1], true))); };
    t["array_equiv_broadcast"] = [](const inputs& in) { return one(boolean(nf::array_equiv(in[0], in[1]))); };
    t["array_equiv_rows"] = t["array_equiv_broadcast"];
    t["array_equiv_shapes"] = t["array_equiv_broadcast"];
    unary("isposinf", nf::isposinf);
    unary("isposinf_complex", nf::isposinf);
    unary("isneginf", nf::isneginf);
    unary("iscomplex", nf::iscomplex);
    unary("iscomplex_real", nf::iscomplex);
    unary("isreal", nf::isreal);
    unary("isreal_real", nf::isreal);
    t["iscomplexobj"] = [](const inputs& in) { return one(boolean(nf::iscomplexobj(in[0]))); };
    t["isrealobj"] = [](const inputs& in) { return one(boolean(nf::isrealobj(in[0]))); };
    const std::map<std::string, array (*)(const array&)> angles{{"deg2rad", nf::deg2rad},
                                                                {"radians", nf::radians},
                                                                {"rad2deg", nf::rad2deg},
                                                                {"degrees", nf::degrees}};
    for (const auto& [name, f] : angles)
      for (const char* variant : {"float64", "float32", "float16", "int8", "int16", "int32", "uint8", "bool",
                                  "0d", "empty", "complex"})
        unary(name + "_" + variant, f);
    for (const char* variant : {"float64", "float32", "float16", "int8", "int16", "int64", "bool", "complex"})
      unary(std::string("fabs_") + variant, nf::fabs);
    for (const char* variant : {"float64", "float32", "ints", "0d"})
      unary(std::string("sinc_") + variant, nf::sinc);
    for (const char* id : {"fix", "fix_float32", "fix_ints"}) unary(id, nf::fix);
    for (const char* id : {"heaviside", "heaviside_ints", "heaviside_float32", "heaviside_complex"})
      t[id] = [](const inputs& in) { return one(nf::heaviside(in[0], in[1])); };
    auto pair = [](const std::pair<array, array>& p) { return std::vector<array>{p.first, p.second}; };
    for (const char* id :
         {"frexp_float64", "frexp_float32", "frexp_float16", "frexp_ints", "frexp_complex", "frexp_0d"})
      t[id] = [pair](const inputs& in) { return pair(nf::frexp(in[0])); };
    for (const char* id : {"modf_float64", "modf_float32", "modf_float16", "modf_int8", "modf_empty"})
      t[id] = [pair](const inputs& in) { return pair(nf::modf(in[0])); };
    for (const char* id : {"divmod", "divmod_ints", "divmod_complex"})
      t[id] = [pair](const inputs& in) { return pair(nf::divmod(in[0], in[1])); };
    for (const char* id : {"ldexp", "ldexp_float32", "ldexp_float16", "ldexp_int8", "ldexp_float_exponent",
                           "ldexp_uint64", "ldexp_complex"})
      t[id] = [](const inputs& in) { return one(nf::ldexp(in[0], in[1])); };
    t["ldexp_subnormal"] = [](const inputs& in) {
      return one(nf::ldexp(in[0], nf::asarray(std::vector<std::int64_t>{1, -3, -1075, 1023})));
    };
    for (const char* id : {"float_power", "float_power_ints", "float_power_complex"})
      t[id] = [](const inputs& in) { return one(nf::float_power(in[0], in[1])); };
    for (const char* id :
         {"nan_to_num", "nan_to_num_float32", "nan_to_num_float16", "nan_to_num_ints", "nan_to_num_complex"})
      t[id] = [](const inputs& in) { return one(nf::nan_to_num(in[0])); };
    t["nan_to_num_values"] = [](const inputs& in) { return one(nf::nan_to_num(in[0], -1.0, 9.0, -9.0)); };
    t["nan_to_num_complex64"] = [](const inputs& in) { return one(nf::nan_to_num(in[0], 5.0)); };
    for (const char* id : {"i0_float64", "i0_float32", "i0_float16", "i0_ints", "i0_complex", "i0_0d"})
      unary(id, nf::i0);
    // Each function of several results or mixed loops on an empty and a 0-d input.
    const std::map<std::string, call> edge{
        {"frexp", [pair](const inputs& in) { return pair(nf::frexp(in[0])); }},
        {"modf", [pair](const inputs& in) { return pair(nf::modf(in[0])); }},
        {"nan_to_num", [](const inputs& in) { return one(nf::nan_to_num(in[0])); }},
        {"i0", [](const inputs& in) { return one(nf::i0(in[0])); }},
        {"ldexp",
         [](const inputs& in) { return one(nf::ldexp(in[0], nf::full({}, nf::scalar(3), nf::int64))); }},
        {"float_power", [](const inputs& in) { return one(nf::float_power(in[0], nf::full({}, 2.0))); }},
        {"divmod", [pair](const inputs& in) { return pair(nf::divmod(in[0], nf::full({}, 0.75))); }},
    };
    oracle::add_edge_calls(t, edge);
    t["nancumsum"] = [](const inputs& in) { return one(nf::nancumsum(in[0])); };
    t["nancumsum_ints"] = t["nancumsum"];
    t["nancumsum_axis1"] = [](const inputs& in) { return one(nf::nancumsum(in[0], 1)); };
    t["nancumprod_axis0"] = [](const inputs& in) { return one(nf::nancumprod(in[0], 0)); };
    t["select"] = [](const inputs& in) { return one(nf::select({in[0], in[1]}, {in[2], in[3]}, 7)); };
    t["select_ints"] = [](const inputs& in) { return one(nf::select({in[0], !in[0]}, {in[1], in[2]})); };
    t["select_not_bool"] = [](const inputs& in) { return one(nf::select({in[0]}, {in[1]})); };
    for (const char* id : {"unravel_index", "unravel_index_bounds"})
      t[id] = [](const inputs& in) { return nf::unravel_index(in[0], {2, 3, 4}); };
    t["unravel_index_0d"] = [](const inputs& in) { return nf::unravel_index(in[0], {3, 4}); };
    t["unravel_index_float"] = [](const inputs& in) { return nf::unravel_index(in[0], {2, 3}); };
    t["ravel_multi_index"] = [](const inputs& in) {
      return one(nf::ravel_multi_index({in[0], in[1], in[2]}, {2, 3, 4}));
    };
    t["ravel_multi_index_bounds"] = [](const inputs& in) {
      return one(nf::ravel_multi_index({in[0], in[1]}, {2, 3}));
    };
    t["median"] = [](const inputs& in) { return one(nf::median(in[0])); };
    t["median_complex"] = t["median"];
    t["median_axis0"] = [](const inputs& in) { return one(nf::median(in[0], 0)); };
    t["median_float32"] = t["median_axis0"];
    for (const char* id : {"median_ints", "median_nan", "median_empty"})
      t[id] = [](const inputs& in) { return one(nf::median(in[0], 1)); };
    t["median_axis1_keepdims"] = [](const inputs& in) { return one(nf::median(in[0], 1, true)); };
    t["median_keepdims"] = [](const inputs& in) { return one(nf::median(in[0], std::nullopt, true)); };
    t["logspace"] = [](const inputs&) { return one(nf::logspace(0, 3, 7)); };
    t["logspace_base2"] = [](const inputs&) { return one(nf::logspace(-1, 4, 6, false, 2.0)); };
    for (const char* id : {"isin", "isin_nan", "isin_empty"})
      t[id] = [](const inputs& in) { return one(nf::isin(in[0], in[1])); };
    t["isin_invert"] = [](const inputs& in) { return one(nf::isin(in[0], in[1], true)); };
    t["union1d"] = [](const inputs& in) { return one(nf::union1d(in[0], in[1])); };
    t["intersect1d"] = [](const inputs& in) { return one(nf::intersect1d(in[0], in[1])); };
    t["intersect1d_empty"] = t["intersect1d"];
    t["setdiff1d"] = [](const inputs& in) { return one(nf::setdiff1d(in[0], in[1])); };
    t["setxor1d"] = [](const inputs& in) { return one(nf::setxor1d(in[0], in[1])); };
    t["setxor1d_floats"] = t["setxor1d"];
    t["concat"] = [](const inputs& in) { return one(nf::concat({in[0], in[1]})); };
    t["concat_axis1"] = [](const inputs& in) { return one(nf::concat({in[0], in[1]}, 1)); };
    t["permute_dims"] = [](const inputs& in) { return one(nf::permute_dims(in[0], {2, 0, 1})); };
    unary("matrix_transpose", nf::matrix_transpose);
    unary("matrix_transpose_1d", nf::matrix_transpose);
    unary("linalg_matrix_transpose", nf::linalg::matrix_transpose);
    t["linalg_matmul"] = [](const inputs& in) { return one(nf::linalg::matmul(in[0], in[1])); };
    t["cumulative_sum"] = [](const inputs& in) { return one(nf::cumulative_sum(in[0])); };
    t["cumulative_sum_no_axis"] = t["cumulative_sum"];
    t["cumulative_sum_int8"] = t["cumulative_sum"];
    t["cumulative_sum_0d"] = t["cumulative_sum"];
    t["cumulative_sum_initial"] = [](const inputs& in) {
      return one(nf::cumulative_sum(in[0], 1, std::nullopt, true));
    };
    t["cumulative_prod"] = [](const inputs& in) { return one(nf::cumulative_prod(in[0])); };
    t["cumulative_prod_initial"] = [](const inputs& in) {
      return one(nf::cumulative_prod(in[0], 0, std::nullopt, true));
    };
    t["ndim"] = [](const inputs& in) { return one(int64(nf::ndim(in[0]))); };
    t["size"] = [](const inputs& in) { return one(int64(nf::size(in[0]))); };
    t["shape"] = [](const inputs& in) { return one(nf::asarray(nf::shape(in[0]))); };
    t["diff"] = [](const inputs& in) { return one(nf::diff(in[0])); };
    t["diff_bool"] = t["diff"];
    t["diff_0d"] = t["diff"];
    t["diff_n2_axis0"] = [](const inputs& in) { return one(nf::diff(in[0], 2, 0)); };
    t["diff_ints"] = [](const inputs& in) { return one(nf::diff(in[0], 3)); };
    t["diff_n0"] = [](const inputs& in) { return one(nf::diff(in[0], 0)); };
    t["diff_too_far"] = [](const inputs& in) { return one(nf::diff(in[0], 4)); };
    t["diff_negative"] = [](const inputs& in) { return one(nf::diff(in[0], -1)); };
    t["diff_axis"] = [](const inputs& in) { return one(nf::diff(in[0], 1, 2)); };
    t["ediff1d"] = [](const inputs& in) { return one(nf::ediff1d(in[0])); };
    t["ediff1d_empty"] = t["ediff1d"];
    t["ediff1d_ends"] = [](const inputs& in) { return one(nf::ediff1d(in[0], in[1], in[2])); };
    t["ediff1d_unsafe"] = [](const inputs& in) { return one(nf::ediff1d(in[0], in[1])); };
    t["append"] = [](const inputs& in) { return one(nf::append(in[0], in[1])); };
    t["append_axis0"] = [](const inputs& in) { return one(nf::append(in[0], in[1], 0)); };
    t["append_axis_mismatch"] = t["append_axis0"];
    t["hsplit"] = [](const inputs& in) { return nf::hsplit(in[0], 3); };
    t["hsplit_uneven"] = [](const inputs& in) { return nf::hsplit(in[0], 2); };
    t["hsplit_1d"] = [](const inputs& in) { return nf::hsplit(in[0], std::vector<std::int64_t>{1, 4}); };
    t["vsplit"] = [](const inputs& in) { return nf::vsplit(in[0], 2); };
    t["vsplit_1d"] = t["vsplit"];
    t["dsplit"] = [](const inputs& in) { return nf::dsplit(in[0], std::vector<std::int64_t>{1, 3}); };
    t["dsplit_2d"] = [](const inputs& in) { return nf::dsplit(in[0], 2); };
    t["tri"] = [](const inputs&) { return one(nf::tri(4)); };
    t["tri_rect"] = [](const inputs&) { return one(nf::tri(3, 5, 1, nf::int32)); };
    t["tri_neg_k"] = [](const inputs&) { return one(nf::tri(4, 3, -1)); };
    t["tril_indices"] = [](const inputs&) { return nf::tril_indices(4); };
    t["tril_indices_k"] = [](const inputs&) { return nf::tril_indices(4, 1, 6); };
    t["triu_indices"] = [](const inputs&) { return nf::triu_indices(4); };
    t["triu_indices_k"] = [](const inputs&) { return nf::triu_indices(3, -1, 5); };
    t["diag_indices"] = [](const inputs&) { return nf::diag_indices(4); };
    t["diag_indices_3"] = [](const inputs&) { return nf::diag_indices(3, 3); };
    t["cross"] = [](const inputs& in) { return one(nf::cross(in[0], in[1])); };
    for (const char* id : {"cross_broadcast", "cross_ints", "cross_2d", "cross_2_3", "cross_3_2", "cross_4"})
      t[id] = t["cross"];
    t["cross_axis0"] = [](const inputs& in) { return one(nf::cross(in[0], in[1], 0)); };
    t["linalg_cross"] = [](const inputs& in) { return one(nf::linalg::cross(in[0], in[1])); };
    t["linalg_cross_2d"] = t["linalg_cross"];
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("composite functions match NumPy, errors included", "[composites]") {
  const std::string dir = oracle::oracle_dir("composites");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_composites.py writes it");
  const int checked = oracle::check_call_table(dir, calls(), [](const std::string& id) {
    // Cumulative sums: NumPy adds in order, a GPU scan in a tree.
    for (const char* prefix :
         {"sinc", "linalg_matmul", "logspace", "float_power", "i0_", "cumulative_", "nancum"})
      if (id.rfind(prefix, 0) == 0) return true;
    return false;
  });
  // Every call of the table but the three cases only NumPy 2.5 and later write (cross of 2-vectors).
  CHECK(checked >= static_cast<int>(calls().size()) - 3);
}

TEST_CASE("elementwise composites fuse into one kernel", "[composites]") {
  nf::array x = nf::linspace(-3, 3, 1000);
  nf::array y = x + 1e-9;
  x.eval();
  y.eval();
  const auto launches = oracle::kernels_launched_by;
  CHECK(launches([&] { return nf::deg2rad(x) + nf::rad2deg(y); }) == 1);
  CHECK(launches([&] { return nf::sinc(x * 2); }) == 1);
  CHECK(launches([&] { return nf::isclose(x, y) & nf::isposinf(x); }) == 1);
  CHECK(launches([&] { return nf::fabs(x) + nf::acos(x / 4); }) == 1);
  CHECK(launches([&] { return nf::copysign(nf::ldexp(x, 3), y) + nf::nan_to_num(x / y); }) == 1);
  CHECK(launches([&] { return nf::i0(x); }) == 1);
  CHECK(launches([&] { return nf::modf(y).first + nf::frexp(x).first; }) == 1);
  CHECK(launches([&] {
          const nf::array i = nf::astype(x * 100, nf::int64);
          return nf::gcd(i, 12) + nf::lcm(i, 5) + nf::bitwise_count(i);
        }) == 1);
}
