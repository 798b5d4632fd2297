// The cuda backend: one launch per fused chain, one compile per structure, the disk cache across
// processes, transfers through the staging ring, streams and devices, and out-of-memory errors.
// Runs only where the cuda backend is active (NDFUSE_BACKEND=cuda on a GPU machine); the backend
// selection test runs everywhere. Expected values are NumPy's, given as the NumPy expression.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "child_process.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "backend/cuda/runtime/cuda_api.hpp"
#include "jit/nvrtc_compiler.hpp"
#endif

namespace {

using ndfuse_test::is_child;
using ndfuse_test::run_self;

bool cuda_active() {
  return ndfuse_test::cuda_backend_active();
}

std::filesystem::path scratch(const std::string& name) {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  auto dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

nf::array evaluated_arange(std::int64_t n) {
  nf::array x = nf::arange(n).astype(nf::float64);
  x.eval();
  return x;
}

void seed_chain(nf::array& x) {
  x *= 5;
  x *= x;
  x += x;
  x.eval();
}

}  // namespace

TEST_CASE("the seed chain is one launch, and a loop over scalars compiles once", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  nf::array x = evaluated_arange(1000);
  nf::clear_kernel_cache();
  nf::reset_stats();
  seed_chain(x);
  auto s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.kernels_compiled + s.cache_hits_disk == 1);
  auto v = x.to_vector<double>();
  REQUIRE(v.size() == 1000);
  for (int i : {0, 1, 7, 999}) CHECK(v[i] == 50.0 * i * i);  // NumPy: x = np.arange(1000.); 50 * x**2

  nf::array y = evaluated_arange(100);
  nf::reset_stats();
  for (int i = 1; i <= 50; ++i) {
    y *= static_cast<double>(i % 3 + 1);
    y.eval();
  }
  s = nf::stats();
  CHECK(s.kernels_launched == 50);
  CHECK(s.kernels_compiled + s.cache_hits_disk <= 1);
  CHECK(s.cache_hits_memory >= 49);
}

TEST_CASE("a kernel cleared from memory comes back from the disk cache without compiling", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  nf::array x = evaluated_arange(64);
  seed_chain(x);  // compiled (or found on disk) once
  nf::clear_kernel_cache();
  nf::reset_stats();
  nf::array y = evaluated_arange(64);
  seed_chain(y);
  auto s = nf::stats();
  CHECK(s.kernels_compiled == 0);
  CHECK(s.cache_hits_disk >= 1);
  CHECK(y.to_vector<double>()[3] == 450.0);  // NumPy: 50 * 3.0**2
}

TEST_CASE("a second process finds the kernel in the disk cache and compiles nothing", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  const std::string dir = scratch("cuda_second_process_cache").string();
  const std::vector<std::string> env = {"NDFUSE_BACKEND=cuda", "NDFUSE_CACHE_DIR=" + dir};
  CHECK(run_self("cuda child: run the seed chain", {env[0], env[1], "NDFUSE_TEST_CHILD=first"}) == 0);
  CHECK(run_self("cuda child: run the seed chain", {env[0], env[1], "NDFUSE_TEST_CHILD=second"}) == 0);
}

TEST_CASE("cuda child: run the seed chain", "[.][cuda_child]") {
  const bool first = is_child("first"), second = is_child("second");
  if (!first && !second) NDFUSE_SKIP("runs only as a child process of another test case");
  nf::array x = evaluated_arange(10);
  nf::reset_stats();
  seed_chain(x);
  auto s = nf::stats();
  CHECK(s.kernels_launched == 1);
  CHECK(s.kernels_compiled == (first ? 1u : 0u));
  CHECK(s.cache_hits_disk == (second ? 1u : 0u));
  CHECK(x.to_vector<double>()[9] == 4050.0);  // NumPy: 50 * 9.0**2
}

TEST_CASE("host<->device transfers are exact across staging chunk boundaries", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  // Sizes around the 32 MiB staging slots and the 4-slot ring, odd sizes included.
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{(32u << 20) / 8 - 1},
                        std::size_t{(32u << 20) / 8 + 3}, std::size_t{(160u << 20) / 8 + 5}}) {
    std::vector<std::uint64_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = i * 0x9e3779b97f4a7c15ull + 1;
    nf::array a = nf::asarray(host);
    auto back = a.to_vector<std::uint64_t>();
    INFO("elements: " << n);
    CHECK(back == host);
  }
}

TEST_CASE("small readbacks, through the thread's own pinned buffer, are exact at any size and offset",
          "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  // Up to 256 KiB a device-to-host copy goes through a pinned buffer of the thread's own; above,
  // through the staging ring. Contiguous slices at odd byte offsets (read from where they start)
  // and lengths around the threshold take both paths.
  constexpr std::size_t n = (256u << 10) + 64;
  std::vector<std::uint8_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint8_t>(i * 7 + 1);
  nf::array a = nf::asarray(host);
  a.eval();
  for (std::int64_t off : {0, 1, 3, 4, 8, 16}) {
    for (std::int64_t len : {1, 3, 4, 8, 16, 17, 1000, (256 << 10) - 1, 256 << 10, (256 << 10) + 1}) {
      if (off + len > std::int64_t(n)) continue;
      auto back = a(nf::slice(off, off + len)).to_vector<std::uint8_t>();
      INFO("offset " << off << ", length " << len);
      CHECK(back == std::vector<std::uint8_t>(host.begin() + off, host.begin() + off + len));
    }
  }
}

TEST_CASE("work on a user stream is ordered and correct", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  nf::cuda::stream s;
  CHECK(s.device_id() == nf::cuda::get_device());
  nf::array x;
  {
    nf::cuda::stream_scope on(s);
    x = evaluated_arange(1 << 20);
    seed_chain(x);
    s.synchronize();
  }
  CHECK(x.to_vector<double>()[1000] == 50.0 * 1000 * 1000);  // NumPy: 50 * 1000.0**2
  nf::cuda::synchronize();
  nf::cuda::stream moved = std::move(s);
  CHECK(moved.handle() != nullptr);
  CHECK(s.handle() == nullptr);
}

// Split reductions (blocks sharing outputs) reuse one buffer of arrival counters per stream, which
// each kernel leaves zeroed: back-to-back launches with no sync between them, on the legacy stream
// and on streams made and destroyed in turn, must all count right.
TEST_CASE("split reductions back to back, on the default and on new streams, are exact", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  constexpr std::int64_t n = 1 << 22, m = 1 << 20;
  nf::array flat = nf::arange(n);  // int64
  nf::array rows = nf::reshape(nf::arange(3 * m), {3, m});
  flat.eval();
  rows.eval();
  // NumPy: np.arange(n).sum() == n * (n - 1) // 2; row i of rows sums to i * m * m + m * (m - 1) // 2.
  const std::int64_t full = n * (n - 1) / 2;
  auto run = [&] {
    std::vector<nf::array> sums, row_sums;
    for (int i = 0; i < 8; ++i) {
      sums.push_back(nf::sum(flat));
      row_sums.push_back(nf::sum(rows, 1));
      sums.back().eval();
      row_sums.back().eval();
    }
    for (int i = 0; i < 8; ++i) {
      CHECK(sums[i].item<std::int64_t>() == full);
      const auto r = row_sums[i].to_vector<std::int64_t>();
      REQUIRE(r.size() == 3);
      for (std::int64_t k = 0; k < 3; ++k) CHECK(r[k] == k * m * m + m * (m - 1) / 2);
    }
  };
  run();
  for (int round = 0; round < 3; ++round) {
    nf::cuda::stream s;
    nf::cuda::stream_scope on(s);
    run();
  }
  run();
}

TEST_CASE("devices: a guard restores the current device, bad ids throw", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  const int n = nf::cuda::device_count();
  REQUIRE(n >= 1);
  const int before = nf::cuda::get_device();
  {
    nf::cuda::device d(n - 1);
    CHECK(nf::cuda::get_device() == n - 1);
    nf::array x = evaluated_arange(10);
    seed_chain(x);
    CHECK(x.to_vector<double>()[2] == 200.0);  // NumPy: 50 * 2.0**2
  }
  CHECK(nf::cuda::get_device() == before);
  CHECK_THROWS_AS(nf::cuda::set_device(n), nf::device_error);
  CHECK_THROWS_AS(nf::cuda::set_device(-1), nf::device_error);
}

TEST_CASE(
    "an allocation larger than the device throws out_of_memory with the sizes, and the device stays usable",
    "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  nf::array huge = nf::zeros({std::int64_t{1} << 37});  // 1 TiB of float64: more than any GPU here
  try {
    huge.eval();
    FAIL("a 1 TiB allocation succeeded");
  } catch (const nf::out_of_memory& e) {
    std::string what = e.what();
    CHECK(what.find("1099511627776 bytes") != std::string::npos);
    CHECK(what.find("free of") != std::string::npos);
  }
  nf::array x = evaluated_arange(5);
  seed_chain(x);
  CHECK(x.to_vector<double>() == std::vector<double>{0, 50, 200, 450, 800});  // NumPy: 50 * np.arange(5.)**2
}

// A freed block waits on the host for the next allocation of its size on the same stream (no
// cudaMallocAsync or cudaFreeAsync: each free costs the GPU time where the stream reaches it).
TEST_CASE("freed blocks are reused on their own stream: an eager loop stays exact and allocates nothing new",
          "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  nf::array x = evaluated_arange(1000);
  nf::eager_scope eager;
  auto run = [&] {
    nf::array y = x;
    for (int k = 0; k < 8; ++k) y = y + 1.0;  // one kernel and one fresh output each
    return y;
  };
  run();
  nf::reset_stats();
  for (int i = 0; i < 10; ++i) {
    const auto got = run().to_vector<double>();
    REQUIRE(got.size() == 1000);
    CHECK(got[0] == 8.0);  // NumPy: np.arange(1000.) + 8
    CHECK(got[999] == 1007.0);
  }
  // 80 outputs: all but the loop's first come back from blocks freed a step before.
  CHECK(nf::stats().blocks_reused >= 79);
  CHECK(nf::stats().kernels_launched == 80);

  // Kept for the stream they were freed on: another stream allocates its own, and gets its own back.
  nf::reset_stats();
  {
    nf::cuda::stream s;
    nf::cuda::stream_scope on(s);
    nf::array y = run();
    CHECK(y.to_vector<double>()[5] == 13.0);  // NumPy: 5.0 + 8
    CHECK(nf::stats().blocks_reused == 6);    // steps 3 to 8 reuse the blocks of steps 1 to 6
  }  // the stream's kept blocks go back to the pool before it is destroyed
  CHECK(run().to_vector<double>()[5] == 13.0);
}

// Threads freeing and allocating at once, on the legacy stream they share and on streams of their
// own: the kept blocks are one registry under a lock, and each stream gets back only its own.
TEST_CASE("eager loops on several threads, sharing a stream or not, stay exact", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  std::vector<std::vector<double>> last(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::optional<nf::cuda::stream> own;
      std::optional<nf::cuda::stream_scope> on;
      if (t % 2) own.emplace(), on.emplace(*own);  // odd threads on a stream of their own
      nf::array x = evaluated_arange(4096);
      nf::eager_scope eager;
      for (int i = 0; i < 20; ++i) {
        nf::array y = x;
        for (int k = 0; k < 6; ++k) y = y * 2.0 + double(t);
        last[t] = y.to_vector<double>();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) {
    REQUIRE(last[t].size() == 4096);
    // NumPy: y = np.arange(4096.); 6 times y = y * 2 + t  ->  64 * y + 63 * t
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{4095}})
      CHECK(last[t][i] == 64.0 * double(i) + 63.0 * t);
  }
}

// Blocks kept on the host still belong to the pool's budget: an allocation that would fit only
// without them gives them back and succeeds. It fills the device, so CTest runs it alone (the
// cuda_memory_pressure entry) rather than with this file's other cases.
TEST_CASE("an allocation that needs the memory of kept blocks gets it", "[.][cuda_memory_pressure]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  const std::size_t total = nf::cuda::mem_info().total_bytes;
  // Two blocks of an eighth of the device each, freed (kept: together a quarter, the most kept).
  const std::int64_t eighth = static_cast<std::int64_t>(total / 8 / sizeof(double));
  {
    nf::array a = nf::zeros({eighth}), b = nf::zeros({eighth});
    nf::eval(a, b);
  }
  nf::cuda::synchronize();
  const std::size_t free_bytes = nf::cuda::mem_info().free_bytes;
  // Whatever is free now plus one of the kept blocks: more than the driver can give without them.
  const std::int64_t big = static_cast<std::int64_t>((free_bytes + total / 16) / sizeof(double));
  nf::array c = nf::full({big}, 2.0);
  c.eval();
  CHECK(nf::sum(c(nf::slice(0, 1000))).item<double>() == 2000.0);  // NumPy: np.full(1000, 2.0).sum()
  c = nf::array();
  nf::array d = nf::zeros({eighth});  // and the stream's own loop goes on after it
  d.eval();
  CHECK(d.to_vector<double>().size() == static_cast<std::size_t>(eighth));
  d = nf::array();
  // And on request: what is kept goes back to the driver.
  const std::size_t before = nf::cuda::mem_info().free_bytes;
  nf::cuda::free_cached_memory();
  CHECK(nf::cuda::mem_info().free_bytes >= before + total / 8 - (std::size_t{1} << 26));
}

TEST_CASE("a large odd-sized fused chain covers every element (grid-stride loop)", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  const std::int64_t n = (std::int64_t{1} << 26) + 12345;
  nf::array x = nf::arange(n).astype(nf::float32);
  x *= 2;
  x += 1;
  auto v = x.to_vector<float>();
  REQUIRE(static_cast<std::int64_t>(v.size()) == n);
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    // NumPy: x = np.arange(n).astype(np.float32); x *= 2; x += 1 (each step rounded to float32)
    float expected = static_cast<float>(i);
    expected = expected * 2.0f;
    expected = expected + 1.0f;
    wrong += v[i] != expected;
  }
  CHECK(wrong == 0);
}

TEST_CASE("small and large arrays, aligned or at an offset, take the scalar and vector paths alike",
          "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  // Sizes on both sides of jit::vector_min_elements (2**17), with an odd tail; the input is a[1:]
  // (read one element at a time on the vector path) or a[:-1] (aligned).
  for (std::int64_t n : {std::int64_t{1000}, (std::int64_t{1} << 17) - 1, (std::int64_t{1} << 17) + 3}) {
    for (int shift : {0, 1}) {
      CAPTURE(n, shift);
      nf::array a = evaluated_arange(n + 1);
      nf::array v = a(nf::slice(shift, shift + n));
      nf::array y = (v * 5) * (v * 5) + 1;
      auto got = y.to_vector<double>();
      REQUIRE(static_cast<std::int64_t>(got.size()) == n);
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        // NumPy: v = np.arange(n + 1.)[shift:shift + n]; (v * 5) * (v * 5) + 1 (exact: below 2**53)
        const double x = static_cast<double>(i + shift) * 5;
        wrong += got[i] != x * x + 1;
      }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("a sticky CUDA error is reported, by name, by every later call instead of its consequences",
          "[cuda][sticky]") {
  if (!cuda_active()) NDFUSE_SKIP("needs the cuda backend");
  // In a child: the error leaves the process's context on the device unusable.
  CHECK(run_self("cuda child: a kernel writes to an illegal address",
                 {"NDFUSE_BACKEND=cuda", "NDFUSE_TEST_CHILD=sticky"}) == 0);
}

TEST_CASE("cuda child: a kernel writes to an illegal address", "[.][cuda_child][sticky]") {
  if (!is_child("sticky")) NDFUSE_SKIP("runs only as a child process of another test case");
#if defined(NDFUSE_WITH_CUDA)
  namespace cuda = ndfuse::backend::cuda;
  nf::array before = nf::arange(8).astype(nf::float64) * 2;
  before.eval();
  const int device = cuda::current_device();
  const auto binary = ndfuse::jit::compile_to_cubin(
      "extern \"C\" __global__ void write_far(double* p) { p[1ll << 40] = 1.0; }", "write_far",
      std::stoi(cuda::info(device).arch.substr(3)));
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  cuda::check(cuda::driver().module_load_data(&module, binary.cubin.data()), "cuModuleLoadData");
  cuda::check(cuda::driver().module_get_function(&fn, module, "write_far"), "cuModuleGetFunction");
  double* bad = nullptr;
  void* params[] = {&bad};
  cuda::check(cuda::driver().launch_kernel(fn, 1, 1, 1, 1, 1, 1, 0, cuda::current_stream(), params, nullptr),
              "cuLaunchKernel");
  auto names_the_error = [](const nf::device_error& e) {
    const std::string m = e.what();
    // Under compute-sanitizer the same fault is reported as a launch failure.
    for (const char* name : {"IllegalAddress", "ILLEGAL_ADDRESS", "LaunchFailure", "LAUNCH_FAILED"})
      if (m.find(name) != std::string::npos) return true;
    return false;
  };
  auto says_sticky = [](const nf::device_error& e) {
    return std::string(e.what()).find("sticky") != std::string::npos;
  };
  try {
    nf::cuda::synchronize();
    FAIL("the illegal address went unreported");
  } catch (const nf::device_error& e) {
    CHECK(names_the_error(e));
    CHECK(says_sticky(e));
  }
  // Every later call, a fused kernel, a library call or a read, reports the first error.
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      if (attempt == 0) nf::sum(before * 3).eval();
      if (attempt == 1) nf::matmul(nf::ones({4, 4}), nf::ones({4, 4})).eval();
      if (attempt == 2) (void)before.to_vector<double>();
      FAIL("call " << attempt << " after the sticky error succeeded");
    } catch (const nf::device_error& e) {
      INFO(e.what());
      CHECK(names_the_error(e));
      CHECK(says_sticky(e));
    }
  }
#endif
}
