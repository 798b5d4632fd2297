// nf::random: Generator(Philox(seed)) against NumPy's Generator(Philox(seed)) bit for bit
// (tests/oracle/gen_random.py writes $NDFUSE_ORACLE_DIR/random), Philox4x32-10's known answers,
// broadcasting of array parameters (the distributions' statistics: test_random_distributions.cpp), fusion
// (a draw adds no kernel and no buffer), eager and fused giving the same values, the CPU and the
// GPU giving the same bits (where the cuda backend is active), and the errors NumPy raises.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <set>

#include "backend/cpu/prelude_host.hpp"
#include "catch.hpp"
#include "child_process.hpp"
#include "fuzz_program.hpp"
#include "oracle_support.hpp"

namespace fs = std::filesystem;
namespace rnd = nf::random;

namespace {

std::uint64_t parse_u64(const std::string& s) {
  return std::stoull(s);
}

nf::host_array host(const nf::array& a) {
  return a.to_host();
}

// Bit-for-bit equality of an ndfuse result and NumPy's array (dtype, shape, bytes).
std::string bits_differ(const nf::array& got, const nf::host_array& expected) {
  const nf::host_array g = host(got);
  if (g.dtype != expected.dtype)
    return "dtype " + std::string(nf::dtype_name(g.dtype)) + " vs " +
           std::string(nf::dtype_name(expected.dtype));
  if (g.shape != expected.shape)
    return "shape " + nf::shape_str(g.shape) + " vs " + nf::shape_str(expected.shape);
  const std::size_t item = nf::itemsize(g.dtype);
  for (std::size_t i = 0; i * item < g.bytes.size(); ++i)
    if (std::memcmp(g.bytes.data() + i * item, expected.bytes.data() + i * item, item) != 0)
      return "element " + std::to_string(i) + ": " + oracle::value_str(g, i) + " vs NumPy's " +
             oracle::value_str(expected, i);
  return "";
}

nf::array state_as_array(const rnd::bit_generator_state& s) {
  std::vector<std::uint64_t> v(s.counter.begin(), s.counter.end());
  v.insert(v.end(), s.key.begin(), s.key.end());
  v.push_back(static_cast<std::uint64_t>(s.buffer_pos));
  v.push_back(s.has_uint32 ? 1 : 0);
  v.push_back(s.uinteger);
  return nf::asarray(v);
}

}  // namespace

TEST_CASE("Generator(Philox(seed)) gives NumPy's draws bit for bit, over any sequence", "[random][oracle]") {
  const std::string dir = oracle::oracle_dir("random");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle for random (run CTest, or tests/oracle/gen_random.py)");
  std::optional<rnd::Generator> g;
  int steps = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    const auto op = oracle::split(row[2], ':');
    INFO(id << " " << row[2]);
    auto expected = [&] { return oracle::read_npy(dir + "/" + row[4]); };
    if (op[0] == "seed") {
      g.emplace(rnd::Philox(parse_u64(op[1])));
    } else if (op[0] == "key") {
      g.emplace(rnd::Philox::from_key({parse_u64(op[1]), parse_u64(op[2])}, {parse_u64(op[3]), 0, 0, 0}));
    } else if (op[0] == "random") {
      CHECK(bits_differ(g->random({std::stoll(op[1])}, oracle::parse_dtype(op[2])), expected()) == "");
    } else if (op[0] == "uniform") {
      CHECK(bits_differ(g->uniform(std::stod(op[1]), std::stod(op[2]), nf::shape_t{std::stoll(op[3])}),
                        expected()) == "");
    } else if (op[0] == "raw") {
      CHECK(bits_differ(g->bit_generator().random_raw({std::stoll(op[1])}), expected()) == "");
    } else if (op[0] == "bytes") {
      const std::string b = g->bytes(std::stoll(op[1]));
      CHECK(bits_differ(nf::asarray(std::vector<std::uint8_t>(b.begin(), b.end())), expected()) == "");
    } else if (op[0] == "choice") {
      const nf::array p = nf::load(dir + "/" + row[3]);
      CHECK(bits_differ(g->choice(std::stoll(op[1]), nf::shape_t{std::stoll(op[2])}, true, p), expected()) ==
            "");
    } else if (op[0] == "state") {
      CHECK(bits_differ(state_as_array(g->bit_generator().state()), expected()) == "");
    } else if (op[0] == "set_state") {
      const auto v = nf::load(dir + "/" + row[3]).to_vector<std::uint64_t>();
      rnd::bit_generator_state s;
      s.bit_generator = "Philox";
      s.counter = {v[0], v[1], v[2], v[3]};
      s.key = {v[4], v[5]};
      s.buffer_pos = static_cast<int>(v[6]);
      s.has_uint32 = v[7] != 0;
      s.uinteger = static_cast<std::uint32_t>(v[8]);
      g->bit_generator().set_state(s);
    } else if (op[0] == "advance") {
      g->bit_generator().advance(parse_u64(op[1]));
    } else {
      FAIL("unknown step " << row[2]);
    }
    ++steps;
  }
  CHECK(steps > 70);
}

TEST_CASE("Philox4x32-10 gives Random123's known answers", "[random]") {
  auto block = [](std::array<std::uint32_t, 4> c, std::uint32_t k0, std::uint32_t k1) {
    const nf_u32x4 b = nf_philox4x32_10({{c[0], c[1], c[2], c[3]}}, k0, k1);
    return std::array<std::uint32_t, 4>{b.v[0], b.v[1], b.v[2], b.v[3]};
  };
  // Random123 v1.14.0, tests/kat_vectors, "philox4x32 10" lines.
  CHECK(block({0, 0, 0, 0}, 0, 0) ==
        std::array<std::uint32_t, 4>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(block({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u) ==
        std::array<std::uint32_t, 4>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(block({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0) ==
        std::array<std::uint32_t, 4>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("a Philox4x32 draw's elements are its blocks' words, a draw advancing by whole blocks",
          "[random]") {
  // default_rng(7)'s key is SeedSequence(7).generate_state(1, np.uint64)[0] (NumPy 2.4.6).
  constexpr std::uint64_t key = 0xead0f7017c326e58ull;
  rnd::Generator g = rnd::default_rng(7);
  CHECK(g.bit_generator().state().key[0] == key);
  const auto first = g.bit_generator().random_raw({3}).to_vector<std::uint64_t>();
  const auto next = g.random({5}, nf::float32).to_vector<float>();
  const auto k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  auto words = [&](std::uint32_t ctr) {
    const nf_u32x4 b = nf_philox4x32_10({{ctr, 0, 0, 0}}, k0, k1);
    return std::array<std::uint32_t, 4>{b.v[0], b.v[1], b.v[2], b.v[3]};
  };
  // 64-bit words: two per block, high word first; three of them take blocks 0 and 1.
  CHECK(first[0] == (std::uint64_t(words(0)[0]) << 32 | words(0)[1]));
  CHECK(first[1] == (std::uint64_t(words(0)[2]) << 32 | words(0)[3]));
  CHECK(first[2] == (std::uint64_t(words(1)[0]) << 32 | words(1)[1]));
  // float32: four per block from block 2 on, NumPy's next_float of each word.
  for (int i = 0; i < 5; ++i) CHECK(next[i] == float(words(2 + i / 4)[i % 4] >> 8) * (1.0f / 16777216.0f));
  CHECK(g.bit_generator().state().counter[0] == 4);
}

TEST_CASE("array parameters broadcast as NumPy's do", "[random]") {
  rnd::Generator g = rnd::default_rng(3);
  const nf::array mu = nf::asarray(std::vector<double>{-100.0, 0.0, 100.0});
  const auto x = g.normal(mu, 1.0, nf::shape_t{4, 3}).to_vector<double>();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) CHECK(std::abs(x[3 * r + c] - (c - 1) * 100.0) < 6);
  CHECK(g.normal(mu, nf::asarray(std::vector<double>{1.0, 2.0, 3.0})).shape() == nf::shape_t{3});
  CHECK(g.uniform(nf::zeros({2, 1}), nf::ones({3})).shape() == nf::shape_t{2, 3});
  CHECK(g.exponential(1.0).shape() == nf::shape_t{});
  CHECK_THROWS_AS(g.normal(mu, 1.0, nf::shape_t{2}), nf::value_error);
}

TEST_CASE("a draw fuses: it adds no kernel and no buffer", "[random][fusion]") {
  rnd::Generator g = rnd::default_rng(11);
  nf::array x = nf::ones({100000});
  x.eval();
  nf::reset_stats();
  nf::array s = nf::sum(g.standard_normal({1 << 20}));
  nf::array y = x + g.random(x.shape());
  CHECK(nf::stats().kernels_launched == 0);  // drawing does no work
  // Nor does checking scalar parameters (they are compared on the host).
  nf::array scaled = g.normal(0.0, 2.0, nf::shape_t{8}) + g.uniform(-1.0, 1.0, nf::shape_t{8}) +
                     g.gamma(2.0, 3.0, nf::shape_t{8}) + g.binomial(5, 0.5, nf::shape_t{8});
  CHECK(nf::stats().kernels_launched == 0);
  s.eval();
  CHECK(nf::stats().kernels_launched == 1);
  y.eval();
  CHECK(nf::stats().kernels_launched == 2);
  // The sum's output and y: no buffer for either draw (2^20 float64 would be 8 MiB).
  CHECK(nf::stats().bytes_allocated < 100000 * 8 + (1 << 16));
  CHECK(std::abs(s.item<double>()) < 5 * 1024);  // sqrt(2^20) = 1024
}

TEST_CASE("the same seed gives the same values eager and fused; successive draws differ", "[random]") {
  auto values = [](bool eager) {
    std::optional<nf::eager_scope> scope;
    if (eager) scope.emplace();
    rnd::Generator g = rnd::default_rng(5);
    nf::array a = g.normal(1.0, 2.0, nf::shape_t{1000}) * 3 + g.random({1000});
    nf::array b = g.random({1000});
    return std::make_pair(a.to_vector<double>(), b.to_vector<double>());
  };
  const auto fused = values(false), eager = values(true);
  CHECK(fused.first == eager.first);
  CHECK(fused.second == eager.second);
  CHECK(fused.second != std::vector<double>(fused.first.begin(), fused.first.end()));
  rnd::Generator g = rnd::default_rng(5);
  CHECK(g.random({8}).to_vector<double>() != g.random({8}).to_vector<double>());
}

TEST_CASE("a loop that draws afresh each step reuses its plan and gets each draw's values", "[random]") {
  for (bool philox64 : {false, true}) {
    INFO((philox64 ? "Philox" : "Philox4x32"));
    auto make = [&] { return philox64 ? rnd::Generator(rnd::Philox(8)) : rnd::default_rng(8); };
    rnd::Generator looped = make(), alone = make();
    nf::array base = nf::arange(12).astype(nf::float64).reshape({3, 4});
    base.eval();
    nf::reset_stats();
    for (int step = 0; step < 6; ++step) {
      INFO("step " << step);
      // A view with an offset: the draw's elements from the second on, through a transpose.
      nf::array y = base + nf::transpose(looped.random(
                               {5, 3}, step % 2 ? nf::float32 : nf::float64)(nf::slice(1, nf::none)));
      const auto got = y.to_vector<double>();
      const auto whole =
          alone.random({5, 3}, step % 2 ? nf::float32 : nf::float64).astype(nf::float64).to_vector<double>();
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) CHECK(got[4 * r + c] == double(4 * r + c) + whole[3 * (c + 1) + r]);
    }
    CHECK(nf::stats().plans_reused >= 4);
  }
}

TEST_CASE("views of a draw read its elements", "[random]") {
  for (bool philox64 : {false, true}) {
    rnd::Generator g = philox64 ? rnd::Generator(rnd::Philox(4)) : rnd::default_rng(4);
    rnd::Generator h = philox64 ? rnd::Generator(rnd::Philox(4)) : rnd::default_rng(4);
    const auto whole = g.random({7, 5}).to_vector<double>();
    const nf::array d = h.random({7, 5});
    const auto t =
        nf::transpose(d)(nf::slice(1, nf::none), nf::slice(nf::none, nf::none, -2)).to_vector<double>();
    std::size_t k = 0;
    for (int c = 1; c < 5; ++c)
      for (int r = 6; r >= 0; r -= 2) CHECK(t[k++] == whole[5 * r + c]);
  }
}

TEST_CASE("global generator: seed, rand, randn, randint, state", "[random]") {
  rnd::seed(42);
  const auto a = rnd::rand({3, 2}).to_vector<double>();
  const rnd::bit_generator_state s = rnd::get_state();
  const auto b = rnd::randn({4}).to_vector<double>();
  rnd::seed(42);
  CHECK(rnd::rand({3, 2}).to_vector<double>() == a);
  CHECK(rnd::randn({4}).to_vector<double>() == b);
  rnd::set_state(s);
  CHECK(rnd::randn({4}).to_vector<double>() == b);
  const auto i = rnd::randint(10, 20, {100}).to_vector<std::int64_t>();
  CHECK(*std::min_element(i.begin(), i.end()) >= 10);
  CHECK(*std::max_element(i.begin(), i.end()) < 20);
  CHECK(rnd::random_sample({2}).shape() == nf::shape_t{2});
  CHECK(rnd::uniform(1.0, 2.0, nf::shape_t{3}).shape() == nf::shape_t{3});
  CHECK(rnd::permutation(5).shape() == nf::shape_t{5});
}

TEST_CASE("bad parameters raise NumPy's errors at the call", "[random][errors]") {
  rnd::Generator g = rnd::default_rng(1);
  CHECK_THROWS_AS(g.integers(5, 5), nf::value_error);
  CHECK_THROWS_AS(g.integers(0), nf::value_error);
  CHECK_THROWS_AS(g.integers(6, 5, {}, nf::int64, true), nf::value_error);
  CHECK_THROWS_AS(g.integers(0, 300, {}, nf::uint8), nf::value_error);
  CHECK_THROWS_AS(g.integers(-1, 3, {}, nf::uint8), nf::value_error);
  CHECK_THROWS_AS(g.integers(0, 3, {}, nf::float64), nf::dtype_error);
  CHECK_THROWS_AS(g.random({-1}), nf::value_error);
  CHECK_THROWS_AS(g.random({2}, nf::int32), nf::dtype_error);
  CHECK_THROWS_AS(g.standard_normal({2}, nf::float16), nf::dtype_error);
  CHECK_THROWS_AS(g.normal(0.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.normal(0.0, nf::asarray(std::vector<double>{1.0, -1.0})), nf::value_error);
  CHECK_THROWS_AS(g.exponential(-2.0), nf::value_error);
  CHECK_THROWS_AS(g.pareto(0.0), nf::value_error);
  CHECK_THROWS_AS(g.weibull(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.geometric(0.0), nf::value_error);
  CHECK_THROWS_AS(g.geometric(1.5), nf::value_error);
  CHECK_THROWS_AS(g.uniform(-1e308, 1e308), nf::value_error);
  CHECK_THROWS_AS(g.standard_gamma(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.gamma(1.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.chisquare(0.0), nf::value_error);
  CHECK_THROWS_AS(g.beta(1.0, 0.0), nf::value_error);
  CHECK_THROWS_AS(g.standard_t(nf::asarray(std::vector<double>{1.0, -2.0})), nf::value_error);
  CHECK_THROWS_AS(g.f(1.0, 0.0), nf::value_error);
  CHECK_THROWS_AS(g.standard_gamma(1.0, std::nullopt, nf::int32), nf::dtype_error);
  CHECK_THROWS_AS(g.poisson(-1.0), nf::value_error);
  CHECK_THROWS_AS(g.poisson(1e19), nf::value_error);
  CHECK_THROWS_AS(g.binomial(-1, 0.5), nf::value_error);
  CHECK_THROWS_AS(g.binomial(5, 1.5), nf::value_error);
  CHECK_THROWS_AS(g.negative_binomial(0.0, 0.5), nf::value_error);
  CHECK_THROWS_AS(g.multinomial(5, nf::asarray(std::vector<double>{0.8, 0.7, 0.1})), nf::value_error);
  CHECK_THROWS_AS(g.multinomial(-1, nf::asarray(std::vector<double>{0.5, 0.5})), nf::value_error);
  CHECK_THROWS_AS(g.triangular(1.0, 0.0, 2.0), nf::value_error);
  CHECK_THROWS_AS(g.triangular(0.0, 3.0, 2.0), nf::value_error);
  CHECK_THROWS_AS(g.triangular(1.0, 1.0, 1.0), nf::value_error);
  CHECK_THROWS_AS(g.power(0.0), nf::value_error);
  CHECK_THROWS_AS(g.logseries(1.0), nf::value_error);
  CHECK_THROWS_AS(g.zipf(1.0), nf::value_error);
  CHECK_THROWS_AS(g.vonmises(0.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.wald(0.0, 1.0), nf::value_error);
  CHECK_THROWS_AS(g.noncentral_chisquare(1.0, -1.0), nf::value_error);
  CHECK_THROWS_AS(g.dirichlet(nf::asarray(std::vector<double>{1.0, 0.0})), nf::value_error);
  CHECK_THROWS_AS(g.multivariate_normal(nf::zeros({2}), nf::eye(3)), nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, true, nf::asarray(std::vector<double>{0.5, 0.6, 0.1})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, true, nf::asarray(std::vector<double>{1.5, -0.5, 0.0})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(2, nf::shape_t{3}, false), nf::value_error);
  CHECK_THROWS_AS(g.choice(3, nf::shape_t{2}, false, nf::asarray(std::vector<double>{1.0, 0.0, 0.0})),
                  nf::value_error);
  CHECK_THROWS_AS(g.choice(0, nf::shape_t{1}), nf::value_error);
  CHECK_THROWS_AS(g.permutation(nf::full({}, 3.0)), nf::value_error);
  rnd::bit_generator_state s = g.bit_generator().state();
  s.bit_generator = "Philox";
  CHECK_THROWS_AS(g.bit_generator().set_state(s), nf::value_error);
  // A failed call leaves the generator where it was.
  rnd::Generator h = rnd::default_rng(1);
  CHECK(g.random({4}).to_vector<double>() == h.random({4}).to_vector<double>());
}

// --- The CPU and the GPU agree bit for bit ------------------------------------------------------------

namespace {

void save_draws(const fs::path& dir) {
  fs::create_directories(dir);
  for (bool philox64 : {false, true}) {
    const std::string tag = philox64 ? "p64_" : "p32_";
    rnd::Generator g = philox64 ? rnd::Generator(rnd::Philox(9)) : rnd::default_rng(9);
    g.random({3});  // an odd start: buffered words on Philox, a partly used block on Philox4x32
    nf::save((dir / (tag + "random64.npy")).string(), g.random({100003}));
    nf::save((dir / (tag + "random32.npy")).string(), g.random({1, 70001}, nf::float32));
    nf::save((dir / (tag + "normal64.npy")).string(), g.standard_normal({50001}));
    nf::save((dir / (tag + "normal32.npy")).string(), g.standard_normal({50003}, nf::float32));
    nf::save((dir / (tag + "raw.npy")).string(), g.bit_generator().random_raw({1001}));
    nf::save((dir / (tag + "integers.npy")).string(), g.integers(-7, 1000, {4099}));
    nf::save((dir / (tag + "strided.npy")).string(),
             nf::transpose(g.random({301, 7}))(nf::slice(1, nf::none)));
    nf::save((dir / (tag + "uniform.npy")).string(), g.uniform(-3.0, 5.0, nf::shape_t{999}));
    nf::save((dir / (tag + "gamma.npy")).string(),
             g.standard_gamma(nf::asarray(std::vector<double>{0.2, 1.0, 7.5}), nf::shape_t{3001, 3}));
    nf::save((dir / (tag + "beta.npy")).string(), g.beta(0.5, 2.5, nf::shape_t{2001}));
    nf::save((dir / (tag + "poisson.npy")).string(),
             g.poisson(nf::asarray(std::vector<double>{0.5, 30.0, 1e7}), nf::shape_t{1001, 3}));
    nf::save((dir / (tag + "binomial.npy")).string(), g.binomial(1e9, 0.3, nf::shape_t{1001}));
  }
}

}  // namespace

TEST_CASE("random child: write draws", "[.random_child]") {
  if (!ndfuse_test::is_child("random")) return;
  save_draws(std::getenv("NDFUSE_RANDOM_DIR"));
}

TEST_CASE("the CPU and the GPU draw the same bits", "[random][cuda]") {
  if (!ndfuse_test::cuda_backend_active()) NDFUSE_SKIP("the cuda backend is not active");
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  const fs::path root = fs::path(tmp ? tmp : fs::temp_directory_path().string()) / "random_backends";
  fs::remove_all(root);
  for (const char* backend : {"cpu", "cuda"}) {
    INFO("child on " << backend);
    REQUIRE(ndfuse_test::run_self("random child: write draws",
                                  {std::string("NDFUSE_BACKEND=") + backend, "NDFUSE_TEST_CHILD=random",
                                   "NDFUSE_RANDOM_DIR=" + (root / backend).string()}) == 0);
  }
  int files = 0;
  for (const auto& f : fs::directory_iterator(root / "cpu")) {
    INFO(f.path().filename());
    const nf::host_array cpu = oracle::read_npy(f.path().string());
    const nf::host_array gpu = oracle::read_npy((root / "cuda" / f.path().filename()).string());
    CHECK(cpu.shape == gpu.shape);
    CHECK(cpu.bytes == gpu.bytes);
    ++files;
  }
  CHECK(files == 24);
}
