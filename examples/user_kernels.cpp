// Seed 003's ElementwiseKernel as nf::elementwise_kernel, CuPy's L2-norm ReductionKernel as
// nf::reduction_kernel, and seed 003's RawKernel (a naive matrix product) as nf::raw_kernel, each
// against the built-in ops that compute the same (nf::where, nf::linalg::norm, nf::matmul), on
// whatever device is current (the raw kernel only on a GPU). Wall-clock times here are indicative only;
// bench/bench_cuda_user_kernels.cpp measures properly.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include <ndfuse/ndfuse.hpp>

namespace {

// Median wall time of `run` (which evaluates and synchronizes) over five runs, after one warm-up
// that compiles the kernels.
template <class F>
double median_ms(F&& run) {
  run();
  std::vector<double> t;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

}  // namespace

int main() {
  const std::int64_t n = 10'000'000;
  nf::array x = (nf::arange(n) % 1000).astype(nf::float32) / 100.0f;
  nf::array y = nf::full({n}, 3.5f, nf::float32);
  x.eval();
  y.eval();

  nf::elementwise_kernel my_kernel("float32 x, float32 y", "float32 z",
                                   "if (x - 2 > y) { z = x * y; } else { z = x + y; }", "my_kernel");
  nf::array z, w;
  const double user_ms = median_ms([&] {
    z = my_kernel(x, y);
    z.eval();
    nf::synchronize();
  });
  const double builtin_ms = median_ms([&] {
    w = nf::where(x - 2.0f > y, x * y, x + y);
    w.eval();
    nf::synchronize();
  });
  std::cout << "seed 003's kernel on " << n << " float32 (" << x.device() << "): elementwise_kernel "
            << user_ms << " ms, nf::where " << builtin_ms << " ms, same values: " << std::boolalpha
            << nf::all(nf::equal(z, w)).item<bool>() << "\n";

  nf::reduction_kernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const nf::array m = x.astype(nf::float64).reshape({1000, n / 1000});
  double a = 0, b = 0;
  const double red_ms = median_ms([&] { a = nf::sum(l2norm.reduce({m}, 1)).item<double>(); });
  const double norm_ms = median_ms([&] { b = nf::sum(nf::linalg::norm(m, {}, 1)).item<double>(); });
  std::cout << "row norms of a 1000 x " << n / 1000 << " float64 matrix: reduction_kernel " << red_ms
            << " ms, nf::linalg::norm " << norm_ms << " ms; sums " << a << " and " << b << "\n";

  if (x.device().is_cpu()) {
    std::cout << "seed 003's RawKernel matmul: needs a GPU (raw kernels throw nf::device_error on the CPU)\n";
    return 0;
  }
  nf::raw_kernel matmul(R"(
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int m, int k, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float s = 0;
    for (int t = 0; t < k; ++t) s += a[row * k + t] * b[t * n + col];
    c[row * n + col] = s;
  }
})",
                        "matmul");
  const int size = 2048;
  const nf::array p = nf::random::default_rng(3).random({size, size}, nf::float32);
  const nf::array q = nf::random::default_rng(4).random({size, size}, nf::float32);
  p.eval();
  q.eval();
  nf::array c = nf::empty({size, size}, nf::float32), d;
  const unsigned blocks = (size + 15) / 16;
  const double raw_ms = median_ms([&] {
    matmul(nf::dim3(blocks, blocks), nf::dim3(16, 16), {p, q, nf::out(c), size, size, size});
    nf::synchronize();
  });
  const double matmul_ms = median_ms([&] {
    d = nf::matmul(p, q);
    d.eval();
    nf::synchronize();
  });
  std::cout << "seed 003's RawKernel matmul of two " << size << " x " << size << " float32: raw_kernel "
            << raw_ms << " ms, nf::matmul " << matmul_ms << " ms, largest difference "
            << nf::max(nf::abs(c - d)).item<float>() << "\n";
}
