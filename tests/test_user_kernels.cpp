// nf::elementwise_kernel against NumPy (tests/oracle/gen_user_kernels.py computes each kernel's result
// from the same inputs): seed 003's kernel, placeholders with scalars, broadcasting, the index i,
// _ind.size(), two outputs; the fusion of a user kernel with the ops around it (launch counts);
// one compile per dtype combination; and the errors at the call.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

using kernel_case = std::function<std::vector<nf::array>(const std::vector<nf::array>&)>;

const nf::elementwise_kernel& seed003() {
  static const nf::elementwise_kernel k("float32 x, float32 y", "float32 z",
                                        "if (x - 2 > y) { z = x * y; } else { z = x + y; }", "my_kernel");
  return k;
}

const nf::elementwise_kernel& axpy() {
  static const nf::elementwise_kernel k("T x, T a", "T z", "z = a * x + 1;", "axpy");
  return k;
}

// CuPy's raw-parameter example: x read in reverse, y elementwise.
const nf::elementwise_kernel& reversed() {
  static const nf::elementwise_kernel k("raw T x, T y", "T z", "z = x[_ind.size() - i - 1] + y;", "reversed");
  return k;
}

const std::string helper = "__device__ double twice(double v) { return 2 * v; }";

const nf::elementwise_kernel& with_preamble() {
  static const nf::elementwise_kernel k("float64 x", "float64 z", "z = twice(x) + 1;", "with_preamble",
                                        nf::kernel_options{helper, ""});
  return k;
}

// The preamble appears in the map, the reduce and the post-map: defined once in a CUDA source.
const nf::reduction_kernel& sum_twice() {
  static const nf::reduction_kernel k("float64 x", "float64 y", "twice(x)", "a + b", "y = a + 1", "0",
                                      "sum_twice", "", nf::kernel_options{helper, ""});
  return k;
}

const nf::reduction_kernel& l2norm() {
  static const nf::reduction_kernel k("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  return k;
}

// Two outputs from one fold.
const nf::reduction_kernel& l2norm_and_square() {
  static const nf::reduction_kernel k("T x", "T norm, T square", "x * x", "a + b",
                                      "norm = sqrt(a); square = a;", "0", "l2norm_and_square");
  return k;
}

const nf::reduction_kernel& int_max() {
  static const nf::reduction_kernel k("T x", "T y", "x", "max(a, b)", "y = a", "-2147483648", "int_max");
  return k;
}

const std::map<std::string, kernel_case>& cases() {
  static const nf::elementwise_kernel seed64("float64 x, float64 y", "float64 z",
                                             "if (x - 2 > y) { z = x * y; } else { z = x + y; }",
                                             "my_kernel64");
  static const nf::elementwise_kernel diff("T x, T y", "T z", "z = x - y;", "difference");
  static const nf::elementwise_kernel index("T x", "T z", "z = x * i;", "times_index");
  static const nf::elementwise_kernel size("T x, T y", "T z", "z = x + y + _ind.size();", "plus_size");
  static const nf::elementwise_kernel two("float64 x", "float64 s, float64 d", "s = x + 1;\nd = x - 1;",
                                          "two");
  static const std::map<std::string, kernel_case> all{
      {"seed003", [](const auto& in) { return std::vector{seed003()(in[0], in[1])}; }},
      {"seed003_fused", [](const auto& in) { return std::vector{seed003()(in[0] * 2, in[1]) + 1}; }},
      {"seed003_sum",
       [](const auto& in) {
         nf::array k = seed64(in[0] * 2, in[1]);
         return std::vector{nf::sum(k + 1), nf::sum(k, 0)};
       }},
      {"axpy_scalar", [](const auto& in) { return std::vector{axpy()(in[0], 2.5)}; }},
      {"axpy_int32", [](const auto& in) { return std::vector{axpy()(in[0], 3)}; }},
      {"broadcast", [](const auto& in) { return std::vector{diff(in[0], in[1])}; }},
      {"index", [](const auto& in) { return std::vector{index(in[0])}; }},
      {"index_transposed", [](const auto& in) { return std::vector{index(in[0].T())}; }},
      {"size", [](const auto& in) { return std::vector{size(in[0], in[1])}; }},
      {"two_outputs", [](const auto& in) { return two.outputs(in[0]); }},
      {"given_output",
       [](const auto& in) {
         nf::array z = nf::zeros({1000}, nf::float32);
         const nf::array before = z;
         seed003()(in[0], in[1], nf::out(z));
         return std::vector{z, before};
       }},
      {"scalars_into_output",
       [](const auto& in) {
         static const nf::elementwise_kernel product("T x, T y", "T z", "z = x * y;", "product");
         nf::array z = in[0];
         product(2.5, 3, nf::out(z));
         return std::vector{z};
       }},
      {"l2norm_axis1", [](const auto& in) { return std::vector{l2norm().reduce({in[0]}, 1)}; }},
      {"l2norm_all", [](const auto& in) { return std::vector{l2norm()(in[0])}; }},
      {"l2norm_fused", [](const auto& in) { return std::vector{l2norm().reduce({in[0] * 2}, 0)}; }},
      {"l2norm_two_outputs", [](const auto& in) { return l2norm_and_square().outputs({in[0]}, 1); }},
      {"l2norm_two_given",
       [](const auto& in) {
         nf::array n = nf::empty({in[0].shape()[0]}), sq = nf::empty({in[0].shape()[0]});
         const nf::array kept = n;  // another handle of n's old value keeps it
         l2norm_and_square().outputs({in[0], nf::out(n), nf::out(sq)}, 1);
         return std::vector{n + sq};
       }},
      {"loop_prep",
       [](const auto& in) {
         static const nf::elementwise_kernel k("T x", "T z", "z = x * scale;", "with_loop_prep",
                                               nf::kernel_options{"", "T scale = 3;"});
         return std::vector{k(in[0])};
       }},
      {"max_keepdims", [](const auto& in) { return std::vector{int_max().reduce({in[0]}, 0, true)}; }},
      {"max_empty", [](const auto& in) { return std::vector{int_max().reduce({in[0]}, 1)}; }},
      {"sum_float64",
       [](const auto& in) {
         static const nf::reduction_kernel sum64("float32 x", "float64 y", "x", "a + b", "y = a", "0",
                                                 "sum64", "float64");
         return std::vector{sum64(in[0])};
       }},
      {"raw_reversed", [](const auto& in) { return std::vector{reversed()(in[0], in[1])}; }},
      {"raw_lazy", [](const auto& in) { return std::vector{reversed()(in[0] * 2, in[1])}; }},
      {"raw_strided",
       [](const auto& in) { return std::vector{reversed()(in[0](nf::slice(0, nf::none, 2)), in[1])}; }},
      {"raw_rows",
       [](const auto& in) {
         static const nf::elementwise_kernel rows("raw T m, T y", "T z",
                                                  "const long long w = m.size() / _ind.size();\n"
                                                  "T s = 0;\n"
                                                  "for (long long j = 0; j < w; ++j) s += m[i * w + j];\n"
                                                  "z = y + s;",
                                                  "row_sums");
         return std::vector{rows(in[0], in[1])};
       }},
      {"preamble", [](const auto& in) { return std::vector{with_preamble()(in[0])}; }},
      {"preamble_reduction", [](const auto& in) { return std::vector{sum_twice()(in[0])}; }},
      {"placeholder_output",
       [](const auto& in) {
         static const nf::elementwise_kernel twice("T x", "U z", "z = x * 2;", "twice");
         nf::array z = nf::zeros(in[0].shape(), nf::int32);
         return std::vector{twice(in[0], nf::out(z))};
       }},
  };
  return all;
}

}  // namespace

TEST_CASE("user kernels match NumPy", "[user_kernels]") {
  const std::string dir = oracle::oracle_dir("user_kernels");
  if (dir.empty())
    NDFUSE_SKIP(
        "no NumPy oracle data: tests/oracle/gen_user_kernels.py writes $NDFUSE_ORACLE_DIR/user_kernels");
  int checked = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    INFO(id);
    const auto it = cases().find(id);
    REQUIRE(it != cases().end());
    std::vector<nf::array> inputs;
    for (const auto& f : oracle::split(row[1], ',')) inputs.push_back(nf::load(dir + "/" + f));
    const std::vector<nf::array> got = it->second(inputs);
    const auto expected = oracle::split(row[2], ',');
    REQUIRE(got.size() == expected.size());
    for (std::size_t o = 0; o < got.size(); ++o) {
      oracle::tolerance tol;
      // A sum's rounding order is not NumPy's pairwise one.
      tol.transcendental = id == "seed003_sum" || id.rfind("l2norm", 0) == 0 || id == "sum_float64" ||
                           id == "preamble_reduction";
      CHECK(oracle::compare(got[o].to_host(), oracle::read_npy(dir + "/" + expected[o]), tol) == "");
    }
    ++checked;
  }
  CHECK(checked == 28);
}

TEST_CASE("a user kernel fuses with the ops around it and under a reduction", "[user_kernels]") {
  nf::array x = nf::arange(1000).astype(nf::float32);
  nf::array y = nf::ones({1000}, nf::float32);
  x.eval();
  y.eval();
  (void)nf::sum(seed003()(x * 2, y) + 1).item<double>();  // compiled once
  nf::reset_stats();
  nf::array s = nf::sum(seed003()(x * 2, y) + 1);
  CHECK(nf::stats().kernels_launched == 0);  // building does no work
  (void)s.item<double>();
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  nf::array z = seed003()(x, y) * 3 - x;
  z.eval();
  CHECK(nf::stats().kernels_launched == 1);
}

TEST_CASE("a reduction kernel fuses its map with the producers and its post-map with the readers",
          "[user_kernels]") {
  nf::array x = nf::arange(600.0).reshape({20, 30});
  x.eval();
  (void)(l2norm().reduce({x * 2}, 1) + 1).to_host();  // compiled once
  nf::reset_stats();
  nf::array r = l2norm().reduce({x * 2}, 1) + 1;
  r.eval();
  CHECK(nf::stats().kernels_launched == 1);
  // Both outputs of a two-output kernel, read together: still the one kernel.
  const auto both = l2norm_and_square().outputs({x * 2}, 1);
  (void)(both[0] + both[1]).to_host();  // compiled once
  nf::reset_stats();
  const auto again = l2norm_and_square().outputs({x * 2}, 1);
  (void)(again[0] + again[1]).to_host();
  CHECK(nf::stats().kernels_launched == 1);
  // The same fold order every run: bit-identical results.
  CHECK(l2norm()(x).item<double>() == l2norm()(x).item<double>());
}

TEST_CASE("reduction kernel errors come at the construction or the call", "[user_kernels]") {
  CHECK_THROWS_AS(nf::reduction_kernel("T x", "T y", "x", "a + b", "y = a", "zero", "k"), nf::value_error);
  CHECK_THROWS_AS(nf::reduction_kernel("T x", "T y, T y", "x", "a + b", "y = a", "0", "k"), nf::value_error);
  CHECK_THROWS_AS(nf::reduction_kernel("T a", "T y", "a", "a + b", "y = a", "0", "k"), nf::value_error);
  CHECK_THROWS_AS(nf::reduction_kernel("T x", "T y", "x", "a + b", "y = a", "0", "k", "float33"),
                  nf::dtype_error);
  nf::array x = nf::arange(6.0).reshape({2, 3});
  CHECK_THROWS_AS(l2norm().reduce({x}, 2), nf::shape_error);     // no axis 2
  CHECK_THROWS_AS(l2norm().reduce({x, x}, 0), nf::value_error);  // one input parameter
  // Two outputs: outputs(...) only; given outputs need the result's shape and their parameter's dtype.
  CHECK_THROWS_AS(l2norm_and_square().reduce({x}, 1), nf::value_error);
  CHECK_THROWS_AS(l2norm_and_square()(x), nf::value_error);
  nf::array n = nf::zeros({2}), sq = nf::zeros({2}), wrong_shape = nf::zeros({3}),
            wrong_dtype = nf::zeros({2}, nf::float32);
  CHECK_THROWS_AS(l2norm_and_square().outputs({x, nf::out(wrong_shape), nf::out(sq)}, 1), nf::shape_error);
  CHECK_THROWS_AS(l2norm_and_square().outputs({x, nf::out(n), nf::out(wrong_dtype)}, 1), nf::dtype_error);
  CHECK_THROWS_AS(l2norm_and_square().outputs({x, nf::out(n)}, 1), nf::value_error);  // one of two
  CHECK(n.to_vector<double>() == std::vector<double>(2, 0.0));  // untouched by the failed calls
  // -inf has no int32 value (NumPy: OverflowError on the conversion).
  static const nf::reduction_kernel bad_identity("T x", "T y", "x", "max(a, b)", "y = a", "-inf",
                                                 "bad_identity");
  CHECK_THROWS_AS(bad_identity(nf::arange(3).astype(nf::int32)), nf::dtype_error);
  // The CPU device has no 16-bit float in host code: refused at the call, inputs included.
  nf::device_scope on(nf::device::cpu());
  static const nf::reduction_kernel half_in("float16 x", "float32 y", "x", "a + b", "y = a", "0", "half_in",
                                            "float32");
  CHECK_THROWS_AS(half_in(nf::ones({4}, nf::float16)), nf::dtype_error);
}

TEST_CASE("one kernel object compiles once per dtype combination", "[user_kernels]") {
  const nf::elementwise_kernel k("T x, T a", "T z", "z = a * x - 7;", "once_per_dtype");
  nf::array f32 = nf::arange(10).astype(nf::float32);
  nf::array f64 = nf::arange(10).astype(nf::float64);
  f32.eval();
  f64.eval();
  nf::reset_stats();
  k(f32, 2.0).eval();
  k(f64, 2.0).eval();
  CHECK(nf::stats().kernels_compiled == 2);
  nf::reset_stats();
  k(f32, 4.0).eval();  // another scalar value: the same kernel
  k(f64, 3).eval();    // an int scalar is converted to T = float64: the same kernel
  CHECK(nf::stats().kernels_compiled == 0);
  CHECK(nf::stats().cache_hits_memory == 2);
}

TEST_CASE("user kernel errors come at the construction or the call", "[user_kernels]") {
  CHECK_THROWS_AS(nf::elementwise_kernel("float32 x", "float32 z", "z = x;", "bad name"), nf::value_error);
  CHECK_THROWS_AS(nf::elementwise_kernel("float33 x", "float32 z", "z = x;", "k"), nf::dtype_error);
  CHECK_THROWS_AS(nf::elementwise_kernel("float32", "float32 z", "z = 1;", "k"), nf::value_error);
  nf::array f64 = nf::arange(4.0);
  nf::array f32 = f64.astype(nf::float32);
  // Arrays are never cast (CuPy: "Type is mismatched"); the count must match; a loop needs an array.
  CHECK_THROWS_AS(seed003()(f64, f32), nf::dtype_error);
  CHECK_THROWS_AS(seed003()(f32), nf::value_error);
  CHECK_THROWS_AS(seed003()(1.0f, 2.0f), nf::value_error);
  CHECK_THROWS_AS(seed003()(f32, nf::arange(3.0).astype(nf::float32)), nf::shape_error);
  static const nf::elementwise_kernel two("float64 x", "float64 s, float64 d", "s = x; d = x;", "two");
  CHECK_THROWS_AS(two(f64), nf::value_error);              // two outputs: outputs(...)
  CHECK_THROWS_AS(reversed()(2.0, f64), nf::value_error);  // a raw parameter takes an array
  CHECK_THROWS_AS(nf::elementwise_kernel("T x", "raw T z", "z[0] = x;", "raw_out"), nf::value_error);
  // Given outputs: the call's shape, the parameter's dtype, after the inputs.
  nf::array wrong_shape = nf::zeros({3}, nf::float32), wrong_dtype = nf::zeros({4}, nf::float64);
  nf::array right = nf::zeros({4}, nf::float32);
  CHECK_THROWS_AS(seed003()(f32, f32, nf::out(wrong_shape)), nf::shape_error);
  CHECK_THROWS_AS(seed003()(f32, f32, nf::out(wrong_dtype)), nf::dtype_error);
  CHECK_THROWS_AS(seed003()(f32, nf::out(right), f32), nf::value_error);
  CHECK(right.to_vector<float>() == std::vector<float>(4, 0.0f));  // untouched by the failed calls
  // A body that does not compile: compile_error at evaluation, naming the user's line.
  static const nf::elementwise_kernel broken("float64 x", "float64 z", "z = x;\nz = x +* ;", "broken");
  nf::array b = broken(f64);
  try {
    b.eval();
    FAIL("no compile_error");
  } catch (const nf::compile_error& e) {
    // Each compiler's own form of a location: GCC's "broken:2:", NVRTC's "broken(2):".
    const std::string where = b.device().is_cpu() ? "broken:2" : "broken(2)";
    CHECK(std::string(e.what()).find(where) != std::string::npos);
  }
}

TEST_CASE("a user kernel's CUDA source splices its body into the fused kernel; NVRTC compiles it",
          "[user_kernels][nvrtc]") {
#if !defined(NDFUSE_WITH_CUDA)
  NDFUSE_SKIP("ndfuse was built without CUDA: no CUDA source to render");
#else
  nf::array x = nf::arange(1000).astype(nf::float32);
  nf::array y = nf::ones({1000}, nf::float32);
  x.eval();
  y.eval();
  const nf::array z = seed003()(x * 2, y) + 1;
  const std::string src = nf::jit::source(z);
  INFO(src);
  CHECK(src.find("// my_kernel: a user kernel (nf::elementwise_kernel), its body as given.") !=
        std::string::npos);
  CHECK(src.find("#line 1 \"my_kernel\"\nif (x - 2 > y) { z = x * y; } else { z = x + y; }") !=
        std::string::npos);
  CHECK(src.find("extern \"C\" __global__") != std::string::npos);
  CHECK(nf::jit::compile_check(z, 90) == 1);
  // Under a reduction, with i, _ind.size(), a placeholder and two outputs read.
  static const nf::elementwise_kernel k("T x", "T s, T d", "T t = x * i; s = t + _ind.size(); d = t - 1;",
                                        "both");
  const auto sd = k.outputs(x);
  const nf::array total = nf::sum(sd[0] * sd[1]);
  CHECK(nf::jit::compile_check(total, 90) == 2);  // the held outputs are written by a kernel of their own
  // A reduction kernel: its reduce expression is the fold's combine.
  nf::array xd = nf::arange(600.0).reshape({20, 30});
  xd.eval();
  const nf::array norms = l2norm().reduce({xd * 2}, 1) + 1;
  const std::string rsrc = nf::jit::source(norms);
  INFO(rsrc);
  CHECK(rsrc.find("#line 1 \"l2norm_reduce\"") != std::string::npos);
  CHECK(nf::jit::compile_check(norms, 90) == 1);
  // Two outputs of one fold, read together.
  const auto two = l2norm_and_square().outputs({xd * 2}, 1);
  CHECK(nf::jit::compile_check(two[0] + two[1], 90) == 1);
  // A raw parameter: passed by address, indexed by the body.
  const nf::array rev = reversed()(xd.reshape({600}) * 2, nf::arange(600.0)) + 1;
  const std::string rawsrc = nf::jit::source(rev);
  INFO(rawsrc);
  CHECK(rawsrc.find("nf_user_raw<double>{in") != std::string::npos);
  CHECK(nf::jit::compile_check(rev, 90) == 2);  // x * 2 is written first, for the body to index
  // A preamble shared by a reduction kernel's three parts and an elementwise kernel: one definition.
  const nf::array both = sum_twice().reduce({with_preamble()(xd)}, 1);
  CHECK(nf::jit::compile_check(both, 90) == 1);
  // A body that does not compile: NVRTC's message names the user's line.
  static const nf::elementwise_kernel broken("float32 x", "float32 z", "z = x;\nz = x +* ;", "broken_gpu");
  try {
    nf::jit::compile_check(broken(x), 90);
    FAIL("no compile_error");
  } catch (const nf::compile_error& e) {
    CHECK(std::string(e.what()).find("broken_gpu(2)") != std::string::npos);
  }
#endif
}
