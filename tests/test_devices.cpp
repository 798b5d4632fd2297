// Devices: nf::device's names, placement on this thread's current device, ops running on their
// arrays' device whatever the current one is, moves (to, get, asarray, asnumpy) for every dtype, the
// error for operands on two devices, nf::synchronize(), device= in the repr, and NDFUSE_DEVICE. The
// cases that need a GPU skip where there is none (CI); the CPU-only ones run everywhere.
#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "child_process.hpp"
#include "ir/node.hpp"
#include "ndfuse/ndfuse.hpp"
#include "runtime/realize.hpp"

using ndfuse_test::is_child;
using ndfuse_test::run_self;

namespace {

bool have_gpu() {
  return nf::cuda::device_count() > 0;
}

// Every dtype's values: 0, 1, ..., 9 cast from int64 (NumPy's astype), so bool holds both values.
nf::array sample(nf::dtype t) {
  return nf::arange(10).astype(t);
}

}  // namespace

TEST_CASE("nf::device names the CPU and the GPUs as torch.device does", "[devices]") {
  CHECK(nf::device() == nf::device::cpu());
  CHECK(nf::device("cpu").is_cpu());
  CHECK(nf::device("cuda") == nf::device::cuda(0));
  CHECK(nf::device("cuda:3") == nf::device::cuda(3));
  CHECK(nf::device("cuda:3").index() == 3);
  CHECK(nf::device("cuda:3").type() == nf::device_type::cuda);
  CHECK(nf::device::cuda(1).str() == "cuda:1");
  CHECK(nf::device::cpu().str() == "cpu");
  CHECK(nf::device::cuda(1) != nf::device::cuda(2));
  std::ostringstream os;
  os << nf::device::cuda(2);
  CHECK(os.str() == "cuda:2");
  for (const char* bad : {"gpu", "cuda:", "cuda:-1", "cuda:1x", "CPU", "", "cuda:99999"})
    CHECK_THROWS_AS(nf::device(bad), nf::value_error);
}

TEST_CASE("arrays land on the current device and ops run on their arrays' device", "[devices]") {
  const nf::device cpu = nf::device::cpu();
  nf::array x, y;
  {
    nf::device_scope here(cpu);
    CHECK(nf::current_device() == cpu);
    x = nf::arange(6.0);
    y = nf::asarray(std::vector<double>{1, 2, 3, 4, 5, 6});
    CHECK(nf::random::default_rng(1).random({3}).device() == cpu);
    CHECK(nf::zeros({2}).device() == cpu);
    // A loaded file lands on the current device too (the working directory is the test's own).
    nf::save("devices_load.npy", x);
    const nf::array loaded = nf::load("devices_load.npy");
    CHECK(loaded.device() == cpu);
    CHECK(loaded.to_vector<double>() == std::vector<double>{0, 1, 2, 3, 4, 5});
  }
  CHECK(nf::current_device() == nf::default_device());
  CHECK(x.device() == cpu);
  // Built and evaluated outside the scope: still the CPU's, whatever the current device is.
  nf::array z = nf::sum(x * y + 1.0);
  CHECK(z.device() == cpu);
  CHECK(z.item<double>() == 76.0);  // np.sum(np.arange(6.) * np.arange(1., 7.) + 1)
  CHECK((x(nf::slice(1, 4)) * 2.0).device() == cpu);
  CHECK(nf::where(x > 2.0, x, y).device() == cpu);
}

TEST_CASE("the current device is per thread", "[devices]") {
  const nf::device before = nf::current_device();
  nf::device seen_inside, made_inside;
  std::thread t([&] {
    nf::device_scope here(nf::device::cpu());
    seen_inside = nf::current_device();
    made_inside = nf::ones({4}).device();
  });
  t.join();
  CHECK(seen_inside == nf::device::cpu());
  CHECK(made_inside == nf::device::cpu());
  CHECK(nf::current_device() == before);
}

TEST_CASE("moves: to, get, asarray and asnumpy keep every dtype's values", "[devices]") {
  const nf::device cpu = nf::device::cpu();
  nf::device_scope here(cpu);
  for (int i = 0; i < nf::dtype_count; ++i) {
    const auto t = static_cast<nf::dtype>(i);
    CAPTURE(nf::dtype_name(t));
    const nf::array x = sample(t);
    // Already there: the same array, no copy (as cp.asarray of a device array).
    CHECK(x.to(cpu).node() == x.node());
    CHECK(nf::asarray(x).node() == x.node());
    CHECK(nf::asnumpy(x).node() == x.node());
    CHECK(x.get().node() == x.node());
    if (!have_gpu()) continue;
    const nf::array g = nf::asarray(x, nf::device::cuda(0));
    CHECK(g.device() == nf::device::cuda(0));
    CHECK(g.dtype() == t);
    const nf::array back = nf::asnumpy(g);
    CHECK(back.device() == cpu);
    const nf::host_array a = x.to_host(), b = back.to_host();
    CHECK(a.bytes == b.bytes);
    // A strided view moves as its elements in C order.
    const nf::array v = x(nf::slice(nf::none, nf::none, 3));
    CHECK(v.to(nf::device::cuda(0)).get().to_host().bytes == v.to_host().bytes);
  }
}

// x.to(d) builds a move node; on a one-device machine the public calls never need one (the array
// is already there), so these cases build moves between the CPU and itself through the runtime.
TEST_CASE("a move is a node: the copy is made when something downstream is evaluated", "[devices]") {
  const nf::device cpu = nf::device::cpu();
  nf::device_scope on(cpu);
  nf::array x = nf::arange(6.0) * 2.0;
  const nf::array m(nf::runtime::move_node(x.node(), cpu));
  CHECK(!x.is_evaluated());  // building the move did no work
  CHECK(!m.is_evaluated());
  CHECK(m.device() == cpu);
  const nf::array y = nf::sum(m + 1.0);
  CHECK(y.item<double>() == 36.0);  // np.sum(np.arange(6.) * 2 + 1)
  CHECK(m.is_evaluated());
  CHECK(x.is_evaluated());
  CHECK(m.node()->storage->data != x.node()->storage->data);  // a copy, not the source's buffer
  // A move of a move of a strided view: the elements in C order.
  const nf::array v(
      nf::runtime::move_node(nf::runtime::move_node(x(nf::slice(nf::none, nf::none, 2)).node(), cpu), cpu));
  CHECK(v.to_vector<double>() == std::vector<double>{0, 4, 8});
  // explain and jit::source make the moves upstream first: their plans cannot span devices.
  const nf::array w(nf::runtime::move_node((x + 1.0).node(), cpu));
  CHECK(nf::explain(w * 2.0).find("plan") != std::string::npos);
  CHECK((w * 2.0).to_vector<double>() == std::vector<double>{2, 6, 10, 14, 18, 22});
}

TEST_CASE("threads evaluating DAGs that share one move get its values", "[devices]") {
  const nf::device cpu = nf::device::cpu();
  nf::device_scope on(cpu);
  const nf::array m(nf::runtime::move_node((nf::arange(1000.0) + 1.0).node(), cpu));
  std::vector<double> sums(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back(
        [&, t] { sums[static_cast<std::size_t>(t)] = nf::sum(m * double(t)).item<double>(); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t)
    CHECK(sums[static_cast<std::size_t>(t)] == 500500.0 * t);  // np.sum(np.arange(1., 1001.)) * t
}

TEST_CASE("a GPU that is not there throws device_error at the scope or the move", "[devices]") {
  const int n = nf::cuda::device_count();
  CHECK_THROWS_AS(nf::device_scope(nf::device::cuda(n)), nf::device_error);
  CHECK_THROWS_AS(nf::arange(3.0).to(nf::device::cuda(n)), nf::device_error);
}

TEST_CASE("operands on two devices throw device_error at the call, naming both", "[devices][cuda]") {
  if (!have_gpu()) NDFUSE_SKIP("needs a GPU");
  nf::array c, g;
  {
    nf::device_scope on(nf::device::cpu());
    c = nf::arange(4.0);
  }
  {
    nf::device_scope on(nf::device::cuda(0));
    g = nf::arange(4.0);
  }
  try {
    (void)(c + g);
    FAIL("c + g did not throw");
  } catch (const nf::device_error& e) {
    const std::string what = e.what();
    CHECK(what.find("cpu") != std::string::npos);
    CHECK(what.find("cuda:0") != std::string::npos);
  }
  CHECK_THROWS_AS(nf::matmul(c.reshape({2, 2}), g.reshape({2, 2})), nf::device_error);
  // A creation op's array has its device before it has a buffer.
  nf::array ones_cpu;
  {
    nf::device_scope on(nf::device::cpu());
    ones_cpu = nf::ones({4});
  }
  CHECK_THROWS_AS(ones_cpu + g, nf::device_error);
  CHECK(nf::sum(ones_cpu).device() == nf::device::cpu());
  // Scalars go with either; the move fixes the mix.
  CHECK((c + 1.0).device() == nf::device::cpu());
  CHECK(nf::sum(c.to(nf::device::cuda(0)) + g).item<double>() == 12.0);
}

TEST_CASE("a GPU array used under the CPU scope runs on its GPU", "[devices][cuda]") {
  if (!have_gpu()) NDFUSE_SKIP("needs a GPU");
  nf::array g;
  {
    nf::cuda::device on(0);
    g = nf::arange(1000.0);
  }
  nf::device_scope cpu(nf::device::cpu());
  nf::array r = nf::sum(g * 2.0);  // built and run while the CPU is current
  CHECK(r.device() == nf::device::cuda(0));
  CHECK(r.item<double>() == 999000.0);
  // The same DAG on the CPU: the plan memo keeps the two apart.
  CHECK(nf::sum(nf::arange(1000.0) * 2.0).item<double>() == 999000.0);
}

TEST_CASE("nf::synchronize works on every device", "[devices]") {
  nf::array x = nf::arange(100.0) * 3.0;
  x.eval();
  CHECK_NOTHROW(nf::synchronize());
  CHECK(x.is_evaluated());
}

TEST_CASE("the repr names a device that is not the default", "[devices]") {
  nf::array x;
  {
    nf::device_scope on(nf::device::cpu());
    x = nf::array({1.0, 2.0});
  }
  if (nf::default_device() == nf::device::cpu())
    CHECK(nf::repr(x) == "array([1., 2.])");
  else
    CHECK(nf::repr(x) == "array([1., 2.], device='cpu')");
}

TEST_CASE("NDFUSE_DEVICE sets the process default", "[devices]") {
  CHECK(run_self("devices child: the default device is the CPU",
                 {"NDFUSE_DEVICE=cpu", "NDFUSE_TEST_CHILD=default_cpu"}) == 0);
  CHECK(run_self("devices child: the default device is the CPU",
                 {"NDFUSE_BACKEND=cpu", "NDFUSE_TEST_CHILD=default_cpu"}) == 0);
  CHECK(run_self("devices child: a bad NDFUSE_DEVICE throws device_error at first use",
                 {"NDFUSE_DEVICE=gpu", "NDFUSE_TEST_CHILD=bad_device"}) == 0);
  CHECK(run_self("devices child: a bad NDFUSE_DEVICE throws device_error at first use",
                 {"NDFUSE_DEVICE=cuda:" + std::to_string(nf::cuda::device_count()),
                  "NDFUSE_TEST_CHILD=bad_device"}) == 0);
}

TEST_CASE("devices child: the default device is the CPU", "[.][devices_child]") {
  if (!is_child("default_cpu")) NDFUSE_SKIP("runs only as a child process of another test case");
  CHECK(nf::default_device() == nf::device::cpu());
  CHECK(nf::arange(3.0).device() == nf::device::cpu());
  CHECK(nf::backend_name() == "cpu");
}

TEST_CASE("devices child: a bad NDFUSE_DEVICE throws device_error at first use", "[.][devices_child]") {
  if (!is_child("bad_device")) NDFUSE_SKIP("runs only as a child process of another test case");
  CHECK_THROWS_AS(nf::default_device(), nf::device_error);
  CHECK_THROWS_AS(nf::array({1.0, 2.0}), nf::device_error);
  // An explicit scope does not need the default.
  nf::device_scope on(nf::device::cpu());
  CHECK(nf::sum(nf::arange(4.0)).item<double>() == 6.0);
}

TEST_CASE("events order two streams and time their work", "[devices][cuda]") {
  if (!have_gpu()) NDFUSE_SKIP("needs a GPU");
  nf::cuda::device on(0);
  nf::cuda::stream s1, s2;
  nf::cuda::event start, computed;
  nf::array x;
  {
    nf::cuda::stream_scope in(s1);
    CHECK(nf::cuda::get_current_stream().handle() == s1.handle());
    start.record();
    x = nf::arange(std::int64_t(1) << 24).astype(nf::float64) * 2.0;
    x.eval();
    computed.record();
  }
  computed.wait(s2);  // s2 waits for x without blocking the host
  nf::array total;
  {
    nf::cuda::stream_scope in(s2);
    total = nf::sum(x);
    total.eval();
  }
  // np.sum(np.arange(2**24) * 2.0)
  CHECK(total.item<double>() == 281474959933440.0);
  computed.synchronize();
  CHECK(computed.done());
  CHECK(nf::cuda::elapsed_ms(start, computed) >= 0.0f);
  CHECK(nf::cuda::get_current_stream().handle() == nf::cuda::stream::null().handle());
  nf::cuda::event untimed(true);
  untimed.record();
  untimed.synchronize();
  CHECK_THROWS_AS(nf::cuda::elapsed_ms(untimed, computed), nf::device_error);
}

TEST_CASE("without a GPU, events and the current stream throw device_error", "[devices]") {
  if (have_gpu()) NDFUSE_SKIP("a GPU is present");
  CHECK_THROWS_AS(nf::cuda::event(), nf::device_error);
  CHECK_THROWS_AS(nf::cuda::get_current_stream(), nf::device_error);
}
