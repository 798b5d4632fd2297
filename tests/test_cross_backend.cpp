// Cross-backend: every registry op on every dtype it has a loop for, every cast, and 500 random
// programs, computed by a cpu child process and a cuda child process (the backend is chosen once
// per process), must agree. Exact where both backends are exact (integers, bools, IEEE arithmetic,
// sqrt, rounding); transcendental functions may differ by a few ulps (CUDA's libdevice against
// glibc), so floats compare with a relative tolerance per dtype. Runs where the cuda backend is active.
#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "child_process.hpp"
#include "frontend/build.hpp"
#include "fuzz_program.hpp"
#include "ir/op_info.hpp"
#include "ndfuse/ndfuse.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t fuzz_seed = 20261122;  // fixed: the comparison must be reproducible
constexpr int fuzz_cases = 500;

bool cuda_active() {
  return ndfuse_test::cuda_backend_active();
}

// Inputs for one dtype: specials for floats, extremes and small values for integers.
nf::array inputs_for(nf::dtype t, bool second) {
  std::vector<double> v;
  if (nf::is_inexact(t))
    v = second ? std::vector<double>{2.0, -0.5, 3.0, -0.0, 1e-3, 7.25, NAN, -2.0, 0.25, INFINITY, 1.5, -7.0}
               : std::vector<double>{-3.5, -1.0,  -0.0, 0.0, 0.5,      2.0,
                                     7.25, 100.0, 1e-3, NAN, INFINITY, -INFINITY};
  else if (t == nf::bool_)
    v = second ? std::vector<double>{1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1}
               : std::vector<double>{0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1};
  else if (nf::is_unsigned_integer(t))
    v = second ? std::vector<double>{1, 2, 3, 0, 7, 5, 1, 2, 9, 4, 6, 3}
               : std::vector<double>{0, 1, 2, 3, 5, 7, 8, 100, 127, 200, 255, 13};
  else
    v = second ? std::vector<double>{1, -2, 3, 0, -7, 5, 1, 2, -9, 4, 6, -3}
               : std::vector<double>{0, 1, -1, 2, -3, 5, 7, -8, 100, -100, 127, -128};
  nf::array a = nf::asarray(v, {3, 4}).astype(t);
  a.eval();
  return a;
}

// The child: computes everything on its backend and saves each result as dir/<name>.npy.
// The .npy format has no bfloat16: a bfloat16 result is saved as float32 (exact), under a name ending
// in "_bf16.npy" so the comparison applies bfloat16's tolerance.
void save_result(const fs::path& dir, std::string name, const nf::array& r) {
  if (r.dtype() == nf::bfloat16)
    return nf::save((dir / (name + "_bf16.npy")).string(), r.astype(nf::float32));
  nf::save((dir / (name + ".npy")).string(), r);
}

void write_results(const fs::path& dir) {
  fs::create_directories(dir);
  using ndfuse::ir::op_code;
  for (int code = static_cast<int>(op_code::add); code < static_cast<int>(op_code::count); ++code) {
    auto op = static_cast<op_code>(code);
    const auto& info = ndfuse::ir::info(op);
    for (const auto& loop : info.loops) {
      nf::array a = inputs_for(loop.in, false), b = inputs_for(loop.in, true);
      nf::array r;
      try {
        if (info.arity == 3) {  // random_binomial: keys, trials, probabilities
          const nf::array p = nf::clip(nf::abs(b) / 16.0, 0.0, 1.0).astype(loop.in);
          r = nf::array(ndfuse::frontend::make_node(
              op, loop.out, {nf::abs(a).node(), nf::abs(b).node(), p.node()}, a.shape()));
        } else {
          r = info.arity == 1 ? ndfuse::frontend::unary(op, a) : ndfuse::frontend::binary(op, a, b);
        }
      } catch (const nf::error&) {
        continue;  // resolution refuses this loop from the public side (e.g. bool subtract)
      }
      save_result(dir, std::string(info.name) + "_" + std::string(nf::dtype_name(loop.in)), r);
    }
  }
  for (int from = 0; from < nf::dtype_count; ++from)
    for (int to = 0; to < nf::dtype_count; ++to) {
      auto f = static_cast<nf::dtype>(from), t = static_cast<nf::dtype>(to);
      nf::array a = inputs_for(f, false);
      if (nf::is_inexact(f) && nf::is_integer(t))
        a = nf::where(nf::isfinite(a), a, 0) * 1;  // NaN -> int is undefined
      save_result(dir, "cast_" + std::string(nf::dtype_name(f)) + "_" + std::string(nf::dtype_name(t)),
                  a.astype(t));
    }
  for (int c = 0; c < fuzz_cases; ++c) {
    auto out = ndfuse_test::run_program(fuzz_seed + c, false, /*exact_ops_only=*/true);
    for (std::size_t r = 0; r < out.results.size(); ++r)
      save_result(dir,
                  (ndfuse_test::uses_reduction(out.log) ? "fuzzfold_" : "fuzz_") + std::to_string(c) + "_" +
                      std::to_string(r),
                  nf::asarray(out.results[r]));
  }
}

double tolerance_for(nf::dtype t) {
  switch (t) {
    case nf::float16:
      return 2e-3;  // two half ulps: results round once from float32
    case nf::bfloat16:
      return 1.6e-2;  // two bfloat16 ulps
    case nf::float32:
    case nf::complex64:
      return 2e-5;
    default:
      return 1e-12;
  }
}

// Programs with reductions fold in a backend-specific order: sums that cancel (100 + 1e-3 - 100)
// then differ by rounding relative to their terms, not their result, so an absolute floor of the
// size of the fuzz inputs' rounding joins the relative tolerance.
double fold_floor(nf::dtype t) {
  switch (t) {
    case nf::float16:
    case nf::bfloat16:
      return 0.1;
    case nf::float32:
    case nf::complex64:
      return 1e-3;
    default:
      return 1e-9;
  }
}

template <class T>
bool close(T a, T b, double rtol, double atol) {
  // A fold that overflows can meet inf - inf (NaN) in one order and not in another.
  if (atol > 0 && (std::isnan(a) || std::isnan(b)) && (std::isinf(a) || std::isinf(b))) return true;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(double(a) - double(b)) <=
         rtol * std::max(std::abs(double(a)), std::abs(double(b))) + rtol * 1e-6 + atol;
}

// "" when equal within the tolerance; else the first differing element.
std::string compare(const nf::host_array& cpu, const nf::host_array& gpu, bool folded,
                    std::optional<nf::dtype> tolerance_dtype = std::nullopt) {
  if (cpu.dtype != gpu.dtype)
    return "dtype " + std::string(nf::dtype_name(cpu.dtype)) + " vs " +
           std::string(nf::dtype_name(gpu.dtype));
  if (cpu.shape != gpu.shape) return "shape " + nf::shape_str(cpu.shape) + " vs " + nf::shape_str(gpu.shape);
  if (ndfuse_test::same_values(cpu, gpu)) return "";
  const nf::dtype tol_dt = tolerance_dtype.value_or(cpu.dtype);
  const double rtol = tolerance_for(tol_dt);
  const double atol = folded ? fold_floor(tol_dt) : 0.0;
  auto elementwise = [&](auto tag, std::size_t parts) -> std::string {
    using T = decltype(tag);
    const std::size_t n = cpu.bytes.size() / sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
      T x, y;
      std::memcpy(&x, cpu.bytes.data() + i * sizeof(T), sizeof(T));
      std::memcpy(&y, gpu.bytes.data() + i * sizeof(T), sizeof(T));
      if (!close(x, y, rtol, atol))
        return "element " + std::to_string(i / parts) + ": cpu " + std::to_string(double(x)) + " cuda " +
               std::to_string(double(y));
    }
    return "";
  };
  switch (cpu.dtype) {
    case nf::float32:
      return elementwise(float{}, 1);
    case nf::complex64:
      return elementwise(float{}, 2);
    case nf::float64:
      return elementwise(double{}, 1);
    case nf::complex128:
      return elementwise(double{}, 2);
    case nf::float16: {
      nf::host_array a = nf::asarray(cpu).astype(nf::float32).to_host(),
                     b = nf::asarray(gpu).astype(nf::float32).to_host();
      return compare(a, b, folded, tolerance_dtype.value_or(nf::float16));
    }
    default:
      return "integer or bool values differ";
  }
}

}  // namespace

TEST_CASE("cpu and cuda agree on every op x dtype, every cast and 500 random programs", "[cuda]") {
  if (!cuda_active()) NDFUSE_SKIP("the cuda backend is not active");
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  const fs::path root = fs::path(tmp && *tmp ? tmp : "/tmp") / "cross_backend";
  fs::remove_all(root);
  for (const char* backend : {"cpu", "cuda"}) {
    INFO("child on " << backend);
    REQUIRE(ndfuse_test::run_self("cross-backend child: write results",
                                  {std::string("NDFUSE_BACKEND=") + backend, "NDFUSE_TEST_CHILD=cross",
                                   "NDFUSE_CROSS_DIR=" + (root / backend).string()}) == 0);
  }
  int compared = 0, differing = 0;
  for (const auto& entry : fs::directory_iterator(root / "cpu")) {
    const fs::path other = root / "cuda" / entry.path().filename();
    INFO(entry.path().filename().string());
    REQUIRE(fs::exists(other));
    const bool folded = entry.path().filename().string().rfind("fuzzfold_", 0) == 0;
    const std::string name = entry.path().filename().string();
    const bool bf16 = name.size() > 9 && name.compare(name.size() - 9, 9, "_bf16.npy") == 0;
    std::string diff = compare(nf::load(entry.path().string()).to_host(), nf::load(other.string()).to_host(),
                               folded, bf16 ? std::optional<nf::dtype>(nf::bfloat16) : std::nullopt);
    if (!diff.empty()) {
      ++differing;
      FAIL_CHECK(entry.path().filename().string() << ": " << diff);
    }
    ++compared;
  }
  INFO(compared << " results compared, " << differing << " differ");
  CHECK(compared > 1000);
  CHECK(differing == 0);
}

TEST_CASE("cross-backend child: write results", "[.][cross_child]") {
  if (!ndfuse_test::is_child("cross")) NDFUSE_SKIP("runs only as a child process of another test case");
  write_results(std::getenv("NDFUSE_CROSS_DIR"));
}
