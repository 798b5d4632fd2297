// nf::array's NumPy methods against NumPy's (tests/oracle/gen_members.py), errors included; the
// in-place ones (sort, partition, fill, put) rebind only the handle they are called on.
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

using inputs = std::vector<nf::array>;
using call = std::function<std::vector<nf::array>(const inputs&)>;

std::vector<nf::array> one(const nf::array& a) {
  return {a};
}

template <class F>
nf::array changed(const nf::array& x, F f) {
  nf::array y = x;  // a second handle: the method rebinds y, x keeps its value
  f(y);
  return y;
}

nf::array bytes(const std::string& s) {
  std::vector<std::uint8_t> v(s.begin(), s.end());
  return nf::asarray(v);
}

// x.flags as NumPy's oracle writes them: c_contiguous, f_contiguous, owndata, writeable, aligned.
nf::array flags(const nf::array& x) {
  const nf::array_flags f = x.flags();
  return nf::array({f.c_contiguous, f.f_contiguous, f.owndata, f.writeable, f.aligned});
}

const std::map<std::string, call>& calls() {
  static const std::map<std::string, call> table = [] {
    std::map<std::string, call> t = {
        {"sum", [](const inputs& in) { return one(in[0].sum()); }},
        {"sum_axis0_keepdims", [](const inputs& in) { return one(in[0].sum(0, true)); }},
        {"sum_int32", [](const inputs& in) { return one(in[0].sum(1)); }},
        {"sum_empty", [](const inputs& in) { return one(in[0].sum(0)); }},
        {"prod_axis1", [](const inputs& in) { return one(in[0].prod(1)); }},
        {"mean", [](const inputs& in) { return one(in[0].mean()); }},
        {"mean_ints_axis0", [](const inputs& in) { return one(in[0].mean(0)); }},
        {"max_axis1", [](const inputs& in) { return one(in[0].max(1)); }},
        {"min", [](const inputs& in) { return one(in[0].min()); }},
        {"max_empty", [](const inputs& in) { return one(in[0].max()); }},
        {"all", [](const inputs& in) { return one(in[0].all()); }},
        {"any_axis0", [](const inputs& in) { return one(in[0].any(0)); }},
        {"argmax", [](const inputs& in) { return one(in[0].argmax()); }},
        {"argmin_axis1", [](const inputs& in) { return one(in[0].argmin(1)); }},
        {"var_ddof1", [](const inputs& in) { return one(in[0].var(0, 1)); }},
        {"std", [](const inputs& in) { return one(in[0].std()); }},
        {"cumsum", [](const inputs& in) { return one(in[0].cumsum()); }},
        {"cumsum_axis1", [](const inputs& in) { return one(in[0].cumsum(1)); }},
        {"cumprod_axis0", [](const inputs& in) { return one(in[0].cumprod(0)); }},
        {"trace", [](const inputs& in) { return one(in[0].trace()); }},
        {"trace_offset", [](const inputs& in) { return one(in[0].trace(1)); }},
        {"clip", [](const inputs& in) { return one(in[0].clip(-0.5, 0.5)); }},
        {"round", [](const inputs& in) { return one(in[0].round(1)); }},
        {"conj", [](const inputs& in) { return one(in[0].conj()); }},
        {"conjugate", [](const inputs& in) { return one(in[0].conjugate()); }},
        {"real", [](const inputs& in) { return one(in[0].real()); }},
        {"imag", [](const inputs& in) { return one(in[0].imag()); }},
        {"nonzero", [](const inputs& in) { return in[0].nonzero(); }},
        {"repeat", [](const inputs& in) { return one(in[0].repeat(2)); }},
        {"repeat_axis0", [](const inputs& in) { return one(in[0].repeat(3, 0)); }},
        {"take", [](const inputs& in) { return one(in[0].take(in[1])); }},
        {"take_axis1", [](const inputs& in) { return one(in[0].take(in[1], 1)); }},
        {"compress", [](const inputs& in) { return one(in[0].compress(in[1], 0)); }},
        {"argsort", [](const inputs& in) { return one(in[0].argsort()); }},
        {"argsort_axis0", [](const inputs& in) { return one(in[0].argsort(0)); }},
        {"searchsorted", [](const inputs& in) { return one(in[0].searchsorted(in[1])); }},
        {"searchsorted_right", [](const inputs& in) { return one(in[0].searchsorted(in[1], "right")); }},
        {"sort", [](const inputs& in) { return one(changed(in[0], [](nf::array& y) { y.sort(); })); }},
        {"sort_axis0", [](const inputs& in) { return one(changed(in[0], [](nf::array& y) { y.sort(0); })); }},
        {"partition",
         [](const inputs& in) {
           return one(nf::sort(changed(in[0], [](nf::array& y) { y.partition(2); })));
         }},
        {"argpartition", [](const inputs& in) { return one(in[0].argpartition(2)(2)); }},
        {"fill", [](const inputs& in) { return one(changed(in[0], [](nf::array& y) { y.fill(7); })); }},
        {"fill_0d", [](const inputs& in) { return one(changed(in[0], [](nf::array& y) { y.fill(-2.0); })); }},
        {"put",
         [](const inputs& in) { return one(changed(in[0], [&](nf::array& y) { y.put(in[1], in[2]); })); }},
        {"mT", [](const inputs& in) { return one(in[0].mT()); }},
        {"mT_1d", [](const inputs& in) { return one(in[0].mT()); }},
        {"strides", [](const inputs& in) { return one(nf::asarray(in[0].strides())); }},
        {"strides_T", [](const inputs& in) { return one(nf::asarray(in[0].T().strides())); }},
        {"tobytes", [](const inputs& in) { return one(bytes(in[0].tobytes())); }},
        {"tobytes_T", [](const inputs& in) { return one(bytes(in[0].T().tobytes())); }},
        {"view_int64", [](const inputs& in) { return one(in[0].view(nf::int64)); }},
        {"view_uint8", [](const inputs& in) { return one(in[0].view("uint8")); }},
        {"view_float32_pairs", [](const inputs& in) { return one(in[0].view(nf::float32)); }},
        {"view_complex", [](const inputs& in) { return one(in[0].view(nf::complex128)); }},
        {"view_wider", [](const inputs& in) { return one(in[0].view(nf::int64)); }},
        {"view_odd", [](const inputs& in) { return one(in[0].view(nf::int32)); }},
        {"view_0d", [](const inputs& in) { return one(in[0].view(nf::int32)); }},
        {"view_0d_same", [](const inputs& in) { return one(in[0].view(nf::uint64)); }},
        {"view_T", [](const inputs& in) { return one(in[0].T().view(nf::float32)); }},
        {"byteswap_2d", [](const inputs& in) { return one(in[0].byteswap()); }},
        {"byteswap_0d", [](const inputs& in) { return one(in[0].byteswap()); }},
        {"flags", [](const inputs& in) { return one(flags(in[0])); }},
        {"flags_T", [](const inputs& in) { return one(flags(in[0].T())); }},
        {"flags_1d", [](const inputs& in) { return one(flags(in[0])); }},
        {"flags_broadcast",
         [](const inputs& in) {
           return one(flags(nf::broadcast_to(in[0], {3, 5})));
         }},
        {"choose",
         [](const inputs& in) {
           return one(in[0].choose({in[1], in[2], in[3]}));
         }},
        {"choose_clip",
         [](const inputs& in) {
           return one(in[0].choose({in[1], in[2], in[3]}, "clip"));
         }},
        {"choose_raise",
         [](const inputs& in) {
           return one(in[0].choose({in[1], in[2], in[3]}));
         }},
    };
    for (const char* dt :
         {"int16", "uint32", "int64", "float32", "float64", "complex64", "complex128", "uint8", "bool"})
      t[std::string("byteswap_") + dt] = [](const inputs& in) { return one(in[0].byteswap()); };
    for (const char* name :
         {"float64", "float32", "int", "bool", "complex", "uint64", "0d", "empty", "float16", "special"})
      t[std::string("tolist_") + name] = [](const inputs& in) {
        std::ostringstream os;
        os << in[0].tolist();
        return one(bytes(os.str()));
      };
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE("array methods match NumPy's, errors included", "[members]") {
  const std::string dir = oracle::oracle_dir("members");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_members.py writes it");
  int checked = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    INFO(id);
    const auto it = calls().find(id);
    REQUIRE(it != calls().end());
    inputs in;
    for (const auto& f : oracle::split(row[1], ',')) in.push_back(nf::load(dir + "/" + f));
    const nf::array before = in[0].copy();
    if (row[2].rfind("RAISES:", 0) == 0) {
      CHECK(oracle::thrown_error([&] {
              for (auto& r : it->second(in)) r.eval();
            }) == oracle::split(row[2], ':')[1]);
    } else {
      const std::vector<nf::array> got = it->second(in);
      const auto expected = oracle::split(row[2], ',');
      REQUIRE(got.size() == expected.size());
      oracle::tolerance tol;
      tol.transcendental = id == "var_ddof1" || id == "std" || id == "mean";
      for (std::size_t o = 0; o < got.size(); ++o)
        CHECK(oracle::compare(got[o].to_host(), oracle::read_npy(dir + "/" + expected[o]), tol) == "");
    }
    CHECK(nf::array_equal(in[0], before, true));  // the input handle is untouched
    ++checked;
  }
  CHECK(checked == static_cast<int>(calls().size()));
}

TEST_CASE("array methods fuse like the free functions", "[members]") {
  nf::array x = nf::linspace(-3, 3, 1000);
  x.eval();
  (void)(x * 2).sum().item<double>();
  nf::reset_stats();
  (void)(x * 2).clip(-1, 1).sum().item<double>();
  CHECK(nf::stats().kernels_launched == 1);
  CHECK_THROWS_AS(x.mT(), nf::value_error);
  CHECK_THROWS_AS(x.tofile("/nonexistent-directory/x.bin"), nf::io_error);
}

TEST_CASE("base and data follow a view to the buffer it reads", "[members]") {
  nf::array x = nf::arange(12).reshape(3, 4);
  x.eval();
  CHECK_FALSE(x.base().has_value());
  CHECK(x.flags().owndata);
  const nf::array v = x(nf::slice(1, 3));
  REQUIRE(v.base().has_value());
  CHECK(v.base()->shape() == x.shape());
  CHECK(v.base()->data() == x.data());
  CHECK_FALSE(v.flags().owndata);
  // The view's first element is row 1 of x: 4 int64 elements further.
  CHECK(static_cast<const char*>(v.data()) == static_cast<const char*>(x.data()) + 4 * sizeof(std::int64_t));
  // A view of a view has the buffer's owner as its base, as NumPy's.
  const nf::array w = v.T();
  REQUIRE(w.base().has_value());
  CHECK(w.base()->data() == x.data());
  CHECK(nf::array_equal(*w.base(), x));
  const nf::array bits = x.view(nf::uint8);
  CHECK(bits.base()->data() == x.data());
  CHECK_FALSE((x + 1).base().has_value());
}
