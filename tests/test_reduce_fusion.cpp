// Reductions fuse with their producers and their small elementwise tail (DESIGN.md §3), shown
// through nf::stats(); and they are deterministic.
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

nf::array evaluated(nf::array a) {
  a.eval();
  return a;
}

nf::array ramp(std::int64_t n, double scale) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = scale * double((i * 7919) % 1001) - 3.0;
  return evaluated(nf::asarray(v));
}

}  // namespace

TEST_CASE("linalg::norm of a lazy array is one kernel launch", "[reduce][fusion]") {
  nf::array x = ramp(10000, 0.01);
  nf::array y = x * 2.0 + 1.0;  // lazy producer
  nf::reset_stats();
  nf::array n = nf::linalg::norm(y);
  CHECK(nf::stats().kernels_launched == 0);  // building does no work
  y = nf::array();                           // nobody holds the producer: it must fuse
  n.eval();
  CHECK(nf::stats().kernels_launched == 1);
  // NumPy: np.linalg.norm(2 * x + 1) for the same x (computed in the host loop below in float64).
  double ref = 0;
  for (double v : x.to_vector<double>()) ref += (2 * v + 1) * (2 * v + 1);
  CHECK(n.item<double>() == Approx(std::sqrt(ref)).epsilon(1e-12));
}

TEST_CASE("sum(a * b) is one kernel launch", "[reduce][fusion]") {
  nf::array a = ramp(5000, 0.5), b = ramp(5000, -0.25);
  nf::reset_stats();
  nf::array s = nf::sum(a * b);
  s.eval();
  CHECK(nf::stats().kernels_launched == 1);
}

TEST_CASE("temporaries read in the same expression as the host read still fuse into one kernel",
          "[reduce][fusion]") {
  // A node a handle holds is written; a temporary's handle lives to the end of the full expression,
  // after .item(), so where() and the methods give theirs up as they consume it.
  const nf::array x = evaluated(nf::arange(6.0));  // [0, 1, 2, 3, 4, 5]
  const nf::array y = evaluated(nf::arange(6.0) * 2.0);
  nf::reset_stats();
  // NumPy: np.sum(np.where(x > 2, x, 0.5)) == 13.5
  CHECK(nf::sum(nf::where(nf::greater(x, 2.0), x, 0.5)).item<double>() == 13.5);
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  // NumPy: np.sum(np.where(x > 2, x * y, np.arange(6))) == 3 + 18 + 32 + 50 == 103
  CHECK(nf::sum(nf::where(nf::greater(x, 2.0), x * y, nf::arange(6.0))).item<double>() == 103.0);
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  // NumPy: np.sum((x * y).astype(np.float32)) == 110
  CHECK(nf::sum((x * y).astype(nf::float32)).item<float>() == 110.0f);
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  // NumPy: np.max((x - y).reshape(2, 3).T.squeeze()) == 0
  CHECK(nf::max((x - y).reshape({2, 3}).T().squeeze()).item<double>() == 0.0);
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  // The free functions' views too. NumPy: np.sum(np.reshape(x * y, (2, 3))) == 110
  CHECK(nf::sum(nf::reshape(x * y, {2, 3})).item<double>() == 110.0);
  CHECK(nf::stats().kernels_launched == 1);
  nf::reset_stats();
  // NumPy: np.min(np.swapaxes(np.expand_dims(x - y, 0), 0, 1)) == -5
  CHECK(nf::min(nf::swapaxes(nf::expand_dims(x - y, 0), 0, 1)).item<double>() == -5.0);
  CHECK(nf::stats().kernels_launched == 1);
  // The temporary of a method is gone; a named array keeps its value.
  nf::array z = x * y;
  const nf::array zt = std::move(z).reshape({3, 2});
  CHECK_FALSE(z.node());
  CHECK(zt.to_vector<double>() == std::vector<double>{0, 2, 8, 18, 32, 50});
}

TEST_CASE("mean(x, axis=1) of a lazy x is one kernel launch", "[reduce][fusion]") {
  nf::array base = nf::ones({300, 70}) * 3.0;
  base.eval();
  nf::array x = nf::exp(base * 0.5);  // lazy
  nf::reset_stats();
  nf::array m = nf::mean(x, 1);
  x = nf::array();
  m.eval();
  CHECK(nf::stats().kernels_launched == 1);
  CHECK(m.shape() == nf::shape_t{300});
  for (double v : m.to_vector<double>()) CHECK(v == Approx(std::exp(1.5)).epsilon(1e-14));
}

TEST_CASE("a column reduction of a lazy array is one kernel; the tail fuses too", "[reduce][fusion]") {
  nf::array base = nf::ones({64, 500});
  base.eval();
  nf::reset_stats();
  nf::array r = nf::sqrt(nf::sum(base * 4.0, 0)) + 1.0;
  r.eval();
  CHECK(nf::stats().kernels_launched == 1);
  for (double v : r.to_vector<double>()) CHECK(v == 17.0);  // sqrt(64 * 4) + 1
}

TEST_CASE("var and std run two reductions, each fused with its producer", "[reduce][fusion]") {
  nf::array x = ramp(4096, 0.001);
  nf::reset_stats();
  nf::array v = nf::var(x * 3.0);
  v.eval();
  // mean (1 kernel, its divide fused), then the squared deviations' sum (1 kernel, its divide fused).
  CHECK(nf::stats().kernels_launched == 2);
}

TEST_CASE("a held input of a reduction is written once, and the loop total never recomputes",
          "[reduce][fusion]") {
  nf::array x = ramp(1000, 0.001);
  nf::array total = nf::zeros({});
  nf::reset_stats();
  for (int i = 0; i < 5; ++i) {
    x = x * 0.5 + 1.0;
    total += nf::sum(x);
    nf::eval(x, total);
  }
  // Per iteration: x (elementwise), then sum(x) with `total +` in its epilogue.
  CHECK(nf::stats().kernels_launched == 10);
}

TEST_CASE("reductions are deterministic: identical bits on every run", "[reduce]") {
  const std::int64_t rows = 1000, cols = 3001;
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0f / float(1 + i % 977) - 0.0005f;
  nf::array x = evaluated(nf::asarray(v, {rows, cols}));
  std::vector<nf::host_array> first;
  for (int run = 0; run < 3; ++run) {
    std::vector<nf::host_array> now = {nf::sum(x * 1.5f).to_host(), nf::sum(x, 1).to_host(),
                                       nf::sum(x, 0).to_host(), nf::linalg::norm(x, 2, 0).to_host()};
    if (run == 0) first = now;
    for (std::size_t k = 0; k < now.size(); ++k) {
      CAPTURE(run, k);
      CHECK(now[k].bytes == first[k].bytes);
    }
  }
}

TEST_CASE("a fused reduction folds in the eager one's order, whatever its inputs' dtype and offset",
          "[reduce][fusion]") {
  // The same values reduced two ways must give the same bits (DESIGN.md §3: determinism): fused,
  // reading a view at an odd offset or a wider dtype, and after the producer was written to a
  // fresh, aligned buffer of the accumulator's dtype. Values with long mantissas, so any change of
  // order shows in the last bits.
  std::vector<double> v(10001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 1.0 / double(3 + (i * 7919) % 1009);
  const nf::array x = evaluated(nf::asarray(v));
  const nf::array x32 = evaluated(x.astype(nf::float32));
  auto same_bits = [](const nf::array& a, const nf::array& b) {
    const auto ha = a.to_host(), hb = b.to_host();
    return ha.bytes == hb.bytes;
  };
  SECTION("float32 view at offset 1, fused against eager") {
    nf::array fused = nf::sum(x32(nf::slice(1, nf::none)) * 3.0f);
    nf::array producer = evaluated(x32(nf::slice(1, nf::none)) * 3.0f);
    CHECK(same_bits(fused.eval(), nf::sum(producer).eval()));
  }
  SECTION("float64 rows of a view at offset 1, inner strategy") {
    const nf::array m = x(nf::slice(1, nf::none)).reshape({100, 100});
    nf::array fused = nf::sum(m * 2.0, 1);
    nf::array producer = evaluated(m * 2.0);
    CHECK(same_bits(fused.eval(), nf::sum(producer, 1).eval()));
  }
  SECTION("float32 columns in output units: a view at offset 1, a transpose, and aligned") {
    // Four columns per lane: the offset view and the transpose load them one by one, the aligned
    // buffer with one wide load per row, in the same order.
    const nf::array m = x32(nf::slice(1, nf::none)).reshape({250, 40});
    nf::array fused = nf::sum(m * 3.0f, 0);
    const nf::array producer = evaluated(m * 3.0f);
    const nf::array stored_t = evaluated(producer.T() * 1.0f);  // the same values, transposed in memory
    const nf::array eager = nf::sum(producer, 0).eval();
    CHECK(same_bits(fused.eval(), eager));
    CHECK(same_bits(nf::sum(stored_t.T(), 0).eval(), eager));
  }
  SECTION("|z|^2 of complex128, fused, against its float64 producer evaluated") {
    const nf::array z =
        evaluated(x(nf::slice(0, 10000)) + std::complex<double>(0, 1) * x(nf::slice(1, nf::none)));
    nf::array fused = nf::sum(nf::real(z * nf::conj(z)));
    nf::array producer = evaluated(nf::real(z * nf::conj(z)));
    CHECK(same_bits(fused.eval(), nf::sum(producer).eval()));
  }
}

// The CUDA backend's fold layout follows the collapsed sizes (jit/cuda_tuning.cpp), and a kernel
// carries only that layout's code, named in its header comment (nf::jit::source): units of 16 bytes of the
// accumulator when the reduced extent divides into them; one thread per output when a row has fewer than 16
// units (or elements), or a column fewer than 8 elements. The sums are checked too, so each layout also runs
// (NumPy values in comments).
TEST_CASE("the fold layout follows the sizes: units, and one thread per short output", "[reduce][fusion]") {
#if !defined(NDFUSE_WITH_CUDA)
  NDFUSE_SKIP("the fold layout is the CUDA backend's tuning: this build has no CUDA");
#endif
  auto layout = [](const nf::array& r) {
    const std::string source = nf::jit::source(r);
    const auto at = source.find("//   layout:  ");
    REQUIRE(at != std::string::npos);
    return source.substr(at + 14, source.find('\n', at) - at - 14);
  };
  const nf::array rows4 = evaluated(nf::ones({300, 4}, nf::float32));
  CHECK(layout(nf::sum(rows4, 1)) == "units of 4 elements, one thread per output");
  const nf::array rows6 = evaluated(nf::ones({300, 6}, nf::float32));
  CHECK(layout(nf::sum(rows6, 1)) == "element by element, one thread per output");
  const nf::array rows64 = evaluated(nf::ones({40, 64}, nf::float32));
  CHECK(layout(nf::sum(rows64, 1)) == "units of 4 elements, the lanes of a block share each output");
  CHECK(layout(nf::sum(rows64.astype(nf::float64), 1)) ==
        "units of 2 elements, the lanes of a block share each output");
  const nf::array rows67 = evaluated(nf::ones({40, 67}, nf::float32));
  CHECK(layout(nf::sum(rows67, 1)) == "element by element, the lanes of a block share each output");
  // 60 float32 in units of 4: 15 units, still one thread; 64: 16 units, a block's lanes.
  CHECK(layout(nf::sum(evaluated(nf::ones({60}, nf::float32)))) ==
        "units of 4 elements, one thread per output");
  CHECK(layout(nf::sum(evaluated(nf::ones({64}, nf::float32)))) ==
        "units of 4 elements, the lanes of a block share each output");
  // A full fold takes units at any length of one unit or more; the elements after the last unit
  // are its tail. Below one unit it folds element by element.
  const nf::array odd = evaluated(nf::ones({67}, nf::float32));
  CHECK(layout(nf::sum(odd)) ==
        "units of 4 elements and the elements after the last unit, the lanes of a block share each output");
  CHECK(layout(nf::sum(evaluated(nf::ones({13}, nf::float32)))) ==
        "units of 4 elements and the elements after the last unit, one thread per output");
  CHECK(layout(nf::sum(evaluated(nf::ones({3}, nf::float32)))) ==
        "element by element, one thread per output");
  // Columns fold element by element down each column; a lane takes 16 bytes of neighbouring
  // columns (4 float32) where the row length divides into them. 7 rows: one thread per output.
  CHECK(layout(nf::sum(evaluated(nf::ones({7, 50}, nf::float32)), 0)) ==
        "element by element, one thread per output");
  CHECK(layout(nf::sum(evaluated(nf::ones({8, 50}, nf::float32)), 0)) ==
        "element by element, the lanes of a block share each output");
  const nf::array columns52 = evaluated(nf::ones({8, 52}, nf::float32));
  CHECK(layout(nf::sum(columns52, 0)) ==
        "element by element, 4 neighbouring outputs per lane, the lanes of a block share each output");
  CHECK(layout(nf::sum(columns52.astype(nf::float64), 0)) ==
        "element by element, 2 neighbouring outputs per lane, the lanes of a block share each output");
  // Arg reductions have no units.
  CHECK(layout(nf::argmax(rows64, 1)) == "element by element, the lanes of a block share each output");

  // NumPy: np.ones((300, 4), np.float32).sum(1) is all 4.0; likewise 6.0, 64.0, 67.0; columns of 7: 7.0.
  CHECK(nf::sum(rows4, 1).to_vector<float>() == std::vector<float>(300, 4.0f));
  CHECK(nf::sum(rows6, 1).to_vector<float>() == std::vector<float>(300, 6.0f));
  CHECK(nf::sum(rows64, 1).to_vector<float>() == std::vector<float>(40, 64.0f));
  CHECK(nf::sum(rows67, 1).to_vector<float>() == std::vector<float>(40, 67.0f));
  CHECK(nf::sum(odd).to_vector<float>() == std::vector<float>{67.0f});
  // NumPy: np.ones((8, 52), np.float32).sum(0) is 52 times 8.0.
  CHECK(nf::sum(columns52, 0).to_vector<float>() == std::vector<float>(52, 8.0f));
  CHECK(nf::sum(evaluated(nf::ones({7, 50}, nf::float32)), 0).to_vector<float>() ==
        std::vector<float>(50, 7.0f));
}
