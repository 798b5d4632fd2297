// Two GPUs in one process (CTest entry multi_gpu, label multi_gpu; every case skips with fewer than
// two): an array made under nf::cuda::device(1) and used outside it, ops on arrays of each GPU from
// threads whose current device is the other one, peer copies both ways, the error for operands on
// two GPUs, and one thread per GPU running the seed chain at once, each result equal bit for bit to
// the same chain run on the CPU device.
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

bool two_gpus() {
  return nf::cuda::device_count() >= 2;
}

// The seed chain, `steps` times, on an array of n values in [1, 2) made on device d.
nf::host_array seed_chain(nf::device d, std::int64_t n, int steps) {
  nf::device_scope on(d);
  nf::array x = nf::arange(n) % 1000 / 1000.0 + 1.0;
  for (int i = 0; i < steps; ++i) {
    x *= 1.0000001;
    x *= x;
    x += x;
    x *= 0.25;  // keeps the values in range: ((1.0000001 x)^2 * 2) / 4
  }
  return x.to_host();
}

}  // namespace

TEST_CASE("an array made under nf::cuda::device(1) is used correctly outside it", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  nf::array x;
  {
    nf::cuda::device g(1);
    x = nf::arange(1000.0);
  }
  nf::cuda::device g0(0);
  CHECK(x.device() == nf::device::cuda(1));
  nf::array y = nf::sum(x * 2.0);  // built and run while GPU 0 is current
  CHECK(y.device() == nf::device::cuda(1));
  CHECK(y.item<double>() == 999000.0);  // np.sum(np.arange(1000.) * 2)
  // GPU 0 still works afterwards: nothing was launched there with GPU 1's pointers.
  CHECK(nf::sum(nf::arange(10.0)).item<double>() == 45.0);
}

TEST_CASE("ops on each GPU's arrays from threads whose current device is the other", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  nf::array a, b;
  {
    nf::device_scope on(nf::device::cuda(0));
    a = nf::arange(100000.0);
  }
  {
    nf::device_scope on(nf::device::cuda(1));
    b = nf::arange(100000.0) * 3.0;
  }
  double on_a = 0, on_b = 0;
  std::thread t1([&] {
    nf::device_scope on(nf::device::cuda(1));
    on_a = nf::sum(a * 2.0).item<double>();
  });
  std::thread t2([&] {
    nf::device_scope on(nf::device::cuda(0));
    on_b = nf::sum(b).item<double>();
  });
  t1.join();
  t2.join();
  CHECK(on_a == 9999900000.0);   // np.sum(np.arange(100000.) * 2)
  CHECK(on_b == 14999850000.0);  // np.sum(np.arange(100000.) * 3)
}

TEST_CASE("peer copies both ways keep the values", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  for (int i = 0; i < nf::dtype_count; ++i) {
    const auto t = static_cast<nf::dtype>(i);
    CAPTURE(nf::dtype_name(t));
    nf::array x;
    {
      nf::device_scope on(nf::device::cuda(0));
      x = nf::arange(1000).astype(t);
    }
    const nf::array y = x.to(nf::device::cuda(1));
    CHECK(y.device() == nf::device::cuda(1));
    const nf::array z = y.to(nf::device::cuda(0));
    CHECK(z.device() == nf::device::cuda(0));
    CHECK(y.to_host().bytes == x.to_host().bytes);
    CHECK(z.to_host().bytes == x.to_host().bytes);
  }
}

TEST_CASE("operands on two GPUs throw device_error at the call", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  nf::array a, b;
  {
    nf::device_scope on(nf::device::cuda(0));
    a = nf::ones({4});
  }
  {
    nf::device_scope on(nf::device::cuda(1));
    b = nf::ones({4});
  }
  // nf::ones holds no buffer until evaluated, yet it has its device: ops on it run there, and
  // mixing it with another device's array throws like any other operand.
  CHECK(b.device() == nf::device::cuda(1));
  CHECK(nf::sum(b).device() == nf::device::cuda(1));
  CHECK((b * 2.0).device() == nf::device::cuda(1));
  CHECK_THROWS_AS(a + b, nf::device_error);
  CHECK_THROWS_AS(nf::matmul(a, b), nf::device_error);
  CHECK_THROWS_AS(nf::where(a > 0, a, b), nf::device_error);
  CHECK(nf::sum(a + b.to(nf::device::cuda(0))).item<double>() == 8.0);
  CHECK(nf::sum(b * 3.0).item<double>() == 12.0);
}

TEST_CASE("one thread per GPU runs the seed chain at once, as the CPU does", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  constexpr std::int64_t n = 1 << 20;
  constexpr int steps = 20;
  const nf::host_array expected = seed_chain(nf::device::cpu(), n, steps);
  const int gpus = nf::cuda::device_count();
  std::vector<nf::host_array> got(static_cast<std::size_t>(gpus));
  std::vector<std::thread> threads;
  for (int g = 0; g < gpus; ++g)
    threads.emplace_back(
        [&, g] { got[static_cast<std::size_t>(g)] = seed_chain(nf::device::cuda(g), n, steps); });
  for (auto& t : threads) t.join();
  for (int g = 0; g < gpus; ++g) {
    CAPTURE(g);
    CHECK(got[static_cast<std::size_t>(g)].bytes == expected.bytes);
  }
}

TEST_CASE("composites on GPU 1 run there with GPU 0 current", "[multi_gpu]") {
  if (!two_gpus()) NDFUSE_SKIP("needs two GPUs");
  nf::array m, v;
  {
    nf::cuda::device g(1);
    m = nf::arange(12.0).reshape({3, 4}) * 0.5 - 2.0;
    v = nf::sort(nf::ravel(m * m))(nf::slice(0, 6));
  }
  // Each result on GPU 1, equal bit for bit to the same call on the CPU device (each is exact or
  // rounds the same on both).
  const auto same = [&](const char* what, const nf::array& got, const nf::array& want) {
    INFO(what);
    CHECK(got.device() == nf::device::cuda(1));
    CHECK(got.to_host().bytes == want.to_host().bytes);
  };
  const nf::array mc = m.to(nf::device::cpu()), vc = v.to(nf::device::cpu());
  nf::cuda::device g0(0);
  same("concatenate", nf::concatenate({m, m}, 1), nf::concatenate({mc, mc}, 1));
  same("pad", nf::pad(m, 1, "reflect"), nf::pad(mc, 1, "reflect"));
  same("boolean index", m(m > 0.0), mc(mc > 0.0));
  same("unique", nf::unique(v), nf::unique(vc));
  same("tril", nf::tril(m), nf::tril(mc));
  same("int comparison out of range", m.astype(nf::dtype::int8) < 1000, mc.astype(nf::dtype::int8) < 1000);
  const nf::array spectrum = nf::fft::fft(v, 8);  // cuFFT and the CPU's FFT round differently
  CHECK(spectrum.device() == nf::device::cuda(1));
  CHECK(nf::allclose(spectrum.to(nf::device::cpu()), nf::fft::fft(vc, 8), 1e-12, 1e-12));
  nf::array f = m, fc = mc;
  f.fill(2.5);
  fc.fill(2.5);
  same("fill", f, fc);
}
