// include/ndfuse/routines.hpp against NumPy (tests/oracle/gen_routines.py computes each case,
// errors included), on every device the suite runs on. The in-place routines are checked through
// the array they leave, and through a second handle that must keep the old values.
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

// f(x, rest...) on a copy of the first input, whose other handle must not change.
template <class F>
call in_place(F f) {
  return [f](const inputs& in) {
    array x = in[0];
    const array before = in[0].copy();
    f(x, in);
    CHECK(nf::array_equal(in[0], before, true));
    return one(x);
  };
}

const std::map<std::string, call>& calls() {
  static const std::map<std::string, call> table = [] {
    std::map<std::string, call> t;
    using v64 = std::vector<std::int64_t>;
    t["delete_int"] = [](const inputs& in) { return one(nf::delete_(in[0], 3)); };
    t["delete_negative"] = [](const inputs& in) { return one(nf::delete_(in[0], -1)); };
    t["delete_list"] = [](const inputs& in) { return one(nf::delete_(in[0], v64{0, 2, 2, -3})); };
    t["delete_axis1"] = [](const inputs& in) { return one(nf::delete_(in[0], v64{1, 3}, 1)); };
    t["delete_flat"] = [](const inputs& in) { return one(nf::delete_(in[0], 5)); };
    t["delete_mask"] = [](const inputs& in) { return one(nf::delete_(in[0], in[1])); };
    t["delete_bad_mask"] = t["delete_mask"];
    t["delete_index_array"] = [](const inputs& in) { return one(nf::delete_(in[0], in[1], 0)); };
    t["delete_slice"] = [](const inputs& in) { return one(nf::delete_(in[0], nf::slice(1, 8, 3))); };
    t["delete_slice_negative"] = [](const inputs& in) {
      return one(nf::delete_(in[0], nf::slice(nf::none, nf::none, -4)));
    };
    t["delete_out_of_range"] = [](const inputs& in) { return one(nf::delete_(in[0], 10)); };
    t["delete_list_out_of_range"] = [](const inputs& in) { return one(nf::delete_(in[0], v64{1, 12})); };
    t["delete_axis"] = [](const inputs& in) { return one(nf::delete_(in[0], 0, 2)); };

    t["insert_int"] = [](const inputs& in) { return one(nf::insert(in[0], 3, in[1])); };
    t["insert_end"] = [](const inputs& in) { return one(nf::insert(in[0], 10, in[1])); };
    t["insert_list"] = [](const inputs& in) { return one(nf::insert(in[0], v64{1, 5, 1}, in[1])); };
    t["insert_list_scalar"] = [](const inputs& in) { return one(nf::insert(in[0], v64{0, 10}, in[1])); };
    t["insert_one_list"] = [](const inputs& in) { return one(nf::insert(in[0], v64{1}, in[1], 1)); };
    t["insert_axis1"] = [](const inputs& in) { return one(nf::insert(in[0], 1, in[1], 1)); };
    t["insert_axis0"] = [](const inputs& in) { return one(nf::insert(in[0], 2, in[1], 0)); };
    t["insert_cast"] = [](const inputs& in) { return one(nf::insert(in[0], 1, in[1])); };
    t["insert_mask"] = [](const inputs& in) { return one(nf::insert(in[0], in[1], in[2])); };
    t["insert_slice"] = [](const inputs& in) { return one(nf::insert(in[0], nf::slice(0, 9, 4), in[1])); };
    t["insert_out_of_range"] = [](const inputs& in) { return one(nf::insert(in[0], 11, in[1])); };

    t["resize"] = [](const inputs& in) { return one(nf::resize(in[0], {5, 3})); };
    t["resize_smaller"] = [](const inputs& in) { return one(nf::resize(in[0], {2})); };
    t["resize_empty"] = [](const inputs& in) { return one(nf::resize(in[0], {2, 2})); };
    t["resize_negative"] = [](const inputs& in) { return one(nf::resize(in[0], {-1, 2})); };
    t["rollaxis"] = [](const inputs& in) { return one(nf::rollaxis(in[0], 2)); };
    t["rollaxis_start"] = [](const inputs& in) { return one(nf::rollaxis(in[0], 0, 2)); };
    t["rollaxis_end"] = [](const inputs& in) { return one(nf::rollaxis(in[0], 1, 3)); };
    t["rollaxis_bad_start"] = [](const inputs& in) { return one(nf::rollaxis(in[0], 0, 5)); };
    t["row_stack"] = [](const inputs& in) { return one(nf::row_stack({in[0], in[1]})); };
    for (const char* id : {"trim_zeros", "trim_zeros_all", "trim_zeros_2d"})
      t[id] = [](const inputs& in) { return one(nf::trim_zeros(in[0])); };
    t["trim_zeros_f"] = [](const inputs& in) { return one(nf::trim_zeros(in[0], "f")); };
    t["trim_zeros_b"] = [](const inputs& in) { return one(nf::trim_zeros(in[0], "B")); };
    t["trim_zeros_axis"] = [](const inputs& in) {
      return one(nf::trim_zeros(in[0], "fb", std::vector<int>{1}));
    };
    t["trim_zeros_bad"] = [](const inputs& in) { return one(nf::trim_zeros(in[0], "x")); };
    t["diagflat"] = [](const inputs& in) { return one(nf::diagflat(in[0])); };
    t["diagflat_k"] = [](const inputs& in) { return one(nf::diagflat(in[0], -1)); };
    for (const char* id : {"sort_complex", "sort_complex_int8", "sort_complex_float32"})
      t[id] = [](const inputs& in) { return one(nf::sort_complex(in[0])); };
    for (const char* id : {"real_if_close", "real_if_close_far", "real_if_close_real"})
      t[id] = [](const inputs& in) { return one(nf::real_if_close(in[0])); };
    t["real_if_close_tol"] = [](const inputs& in) { return one(nf::real_if_close(in[0], 0.01)); };

    for (const char* id : {"lexsort", "lexsort_shapes"})
      t[id] = [](const inputs& in) { return one(nf::lexsort(std::vector<array>{in[0], in[1]})); };
    t["lexsort_2d"] = [](const inputs& in) { return one(nf::lexsort(in[0])); };
    t["lexsort_axis0"] = [](const inputs& in) {
      return one(nf::lexsort(std::vector<array>{in[0], in[1]}, 0));
    };

    for (const char* id : {"diag_indices_from", "diag_indices_from_3d", "diag_indices_from_rect"})
      t[id] = [](const inputs& in) { return nf::diag_indices_from(in[0]); };
    t["tril_indices_from"] = [](const inputs& in) { return nf::tril_indices_from(in[0], 1); };
    t["triu_indices_from"] = [](const inputs& in) { return nf::triu_indices_from(in[0], -1); };
    t["tril_indices_from_3d"] = [](const inputs& in) { return nf::tril_indices_from(in[0]); };
    t["mask_indices_triu"] = [](const inputs&) {
      return nf::mask_indices(
          4, [](const array& m, std::int64_t k) { return nf::triu(m, k); }, 1);
    };
    t["mask_indices_tril"] = [](const inputs&) {
      return nf::mask_indices(3, [](const array& m, std::int64_t k) { return nf::tril(m, k); });
    };
    t["ix_"] = [](const inputs& in) { return nf::ix_({in[0], in[1]}); };
    t["ix_2d"] = [](const inputs& in) { return nf::ix_({in[0]}); };

    for (const char* id : {"extract", "extract_ints"})
      t[id] = [](const inputs& in) { return one(nf::extract(in[0], in[1])); };
    for (const char* id : {"place", "place_empty", "place_size"})
      t[id] = in_place([](array& x, const inputs& in) { nf::place(x, in[1], in[2]); });
    for (const char* id : {"putmask", "putmask_ints"})
      t[id] = in_place([](array& x, const inputs& in) { nf::putmask(x, in[1], in[2]); });
    t["put_along_axis"] =
        in_place([](array& x, const inputs& in) { nf::put_along_axis(x, in[1], in[2], 1); });
    for (const char* id : {"put_along_axis_axis0", "put_along_axis_ndim"})
      t[id] = in_place([](array& x, const inputs& in) { nf::put_along_axis(x, in[1], in[2], 0); });
    for (const char* id : {"copyto", "copyto_cast", "copyto_shape"})
      t[id] = in_place([](array& x, const inputs& in) { nf::copyto(x, in[1]); });
    t["copyto_where"] =
        in_place([](array& x, const inputs& in) { nf::copyto(x, in[1], nf::casting::same_kind, in[2]); });
    t["copyto_unsafe"] =
        in_place([](array& x, const inputs& in) { nf::copyto(x, in[1], nf::casting::unsafe); });
    t["fill_diagonal"] = in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 5.0); });
    t["fill_diagonal_tall"] = in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 4.0); });
    t["fill_diagonal_wrap"] = in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 4.0, true); });
    t["fill_diagonal_values"] = in_place([](array& x, const inputs&) {
      nf::fill_diagonal(x, nf::asarray(std::vector<double>{1.0, 2.0}));
    });
    t["fill_diagonal_3d"] = in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 9); });
    t["fill_diagonal_1d"] = in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 1.0); });

    for (const char* id : {"choose", "choose_broadcast", "choose_raise", "choose_float"})
      t[id] = [](const inputs& in) { return one(nf::choose(in[0], {in[1], in[2], in[3]})); };
    t["choose_wrap"] = [](const inputs& in) { return one(nf::choose(in[0], {in[1], in[2], in[3]}, "wrap")); };
    t["choose_clip"] = [](const inputs& in) { return one(nf::choose(in[0], {in[1], in[2], in[3]}, "clip")); };
    t["choose_mixed"] = [](const inputs& in) { return one(nf::choose(in[0], {in[1], in[2]})); };

    t["piecewise"] = [](const inputs& in) {
      const array& x = in[0];
      return one(
          nf::piecewise(x, {x < 0, x >= 0},
                        {[](const array& v) { return -v; }, [](const array& v) { return nf::square(v); }}));
    };
    t["piecewise_values"] = [](const inputs& in) {
      const array& x = in[0];
      return one(nf::piecewise(x, {x<-1, x> 1}, {-1.0, 1.0, 0.5}));
    };
    t["piecewise_ints"] = [](const inputs& in) {
      const array& x = in[0];
      return one(nf::piecewise(x, {x < 0}, {[](const array& v) { return v * 3; }, 7}));
    };
    t["piecewise_count"] = [](const inputs& in) {
      const array& x = in[0];
      return one(nf::piecewise(x, {x < 0}, {1.0, 2.0, 3.0}));
    };
    t["fromfunction"] = [](const inputs&) {
      return one(nf::fromfunction([](const array& i, const array& j) { return i * 10 + j; }, {3, 4}));
    };
    t["fromfunction_int"] = [](const inputs&) {
      return one(nf::fromfunction([](const array& i) { return i * i; }, {5}, nf::int64));
    };
    t["apply_along_axis"] = [](const inputs& in) {
      return one(nf::apply_along_axis([](const array& v) { return v - nf::mean(v); }, 1, in[0]));
    };
    t["apply_along_axis_scalar"] = [](const inputs& in) {
      return one(nf::apply_along_axis([](const array& v) { return nf::max(v); }, 0, in[0]));
    };
    t["apply_along_axis_grow"] = [](const inputs& in) {
      return one(
          nf::apply_along_axis([](const array& v) { return nf::outer(v, v)(nf::slice(0, 2)); }, 1, in[0]));
    };
    t["apply_along_axis_empty"] = [](const inputs& in) {
      return one(nf::apply_along_axis([](const array& v) { return v; }, 1, in[0]));
    };
    // gen_routines.py's EDGE_CALLS, on an empty and a 0-d input.
    const std::map<std::string, call> edge{
        {"delete", [](const inputs& in) { return one(nf::delete_(in[0], v64{})); }},
        {"insert", [](const inputs& in) { return one(nf::insert(in[0], 0, nf::full({}, 9.0))); }},
        {"resize", [](const inputs& in) { return one(nf::resize(in[0], {2})); }},
        {"rollaxis", [](const inputs& in) { return one(nf::rollaxis(in[0], 0)); }},
        {"trim_zeros", [](const inputs& in) { return one(nf::trim_zeros(in[0])); }},
        {"diagflat", [](const inputs& in) { return one(nf::diagflat(in[0])); }},
        {"sort_complex", [](const inputs& in) { return one(nf::sort_complex(in[0])); }},
        {"real_if_close", [](const inputs& in) { return one(nf::real_if_close(in[0])); }},
        {"lexsort", [](const inputs& in) { return one(nf::lexsort(std::vector<array>{in[0]})); }},
        {"extract", [](const inputs& in) { return one(nf::extract(in[0] > 0.5, in[0])); }},
        {"choose",
         [](const inputs& in) { return one(nf::choose(nf::zeros(in[0].shape(), nf::int64), {in[0]})); }},
        {"piecewise",
         [](const inputs& in) {
           return one(nf::piecewise(in[0], {in[0] > 0.5}, {1.0, 2.0}));
         }},
        {"fill_diagonal", in_place([](array& x, const inputs&) { nf::fill_diagonal(x, 1.0); })},
        {"apply_along_axis",
         [](const inputs& in) {
           return one(nf::apply_along_axis([](const array& v) { return v * 2; }, 0, in[0]));
         }},
    };
    oracle::add_edge_calls(t, edge);
    t["apply_over_axes"] = [](const inputs& in) {
      return one(
          nf::apply_over_axes([](const array& a, int axis) { return nf::sum(a, axis); }, in[0], {0, 2}));
    };
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("array routines match NumPy, errors included", "[routines]") {
  const std::string dir = oracle::oracle_dir("routines");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_routines.py writes it");
  const int checked = oracle::check_call_table(dir, calls(), [](const std::string& id) {
    return id.rfind("apply_", 0) == 0;  // means and sums in ndfuse's order
  });
  CHECK(checked == static_cast<int>(calls().size()));
}

TEST_CASE("edits are one gather, fused with their neighbours", "[routines]") {
  nf::array x = nf::linspace(-3, 3, 1000);
  x.eval();
  const auto launches = oracle::kernels_launched_by;
  CHECK(launches([&] { return nf::delete_(x, std::vector<std::int64_t>{1, 5, 7}) * 2 + 1; }) == 1);
  CHECK(launches([&] { return nf::resize(x, {30, 40}) * 2; }) == 1);
  // "raise" reads the index array's range at the call, as NumPy checks it; "clip" reads nothing.
  CHECK(launches([&] { return nf::choose(nf::astype(x > 0, nf::int64), {x, -x}, "clip"); }) == 1);
}
