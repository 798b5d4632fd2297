// nf::distributed without a GPU: the dtype plans against NumPy's elementwise folds (each plan run
// on the CPU with the ops NCCL would apply), the bootstraps' rendezvous over TCP and a file with
// their timeouts, and the errors where NCCL or a GPU is missing. test_distributed_gpu.cpp runs the
// same oracle through NCCL on several GPUs.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "catch.hpp"
#include "child_process.hpp"
#include "distributed_support.hpp"
#include "frontend/collective_plan.hpp"
#include "ndfuse/ndfuse.hpp"
#include "support/mpi_bootstrap.hpp"
#include "support/rendezvous.hpp"

namespace fs = std::filesystem;
namespace coll = ndfuse::detail::collectives;
using nf::distributed::reduce_op;
using namespace std::chrono_literals;

namespace {

nf::dtype wire_dtype(coll::wire w) {
  switch (w) {
    case coll::wire::int8:
      return nf::dtype::int8;
    case coll::wire::uint8:
      return nf::dtype::uint8;
    case coll::wire::int32:
      return nf::dtype::int32;
    case coll::wire::uint32:
      return nf::dtype::uint32;
    case coll::wire::int64:
      return nf::dtype::int64;
    case coll::wire::uint64:
      return nf::dtype::uint64;
    case coll::wire::float16:
      return nf::dtype::float16;
    case coll::wire::float32:
      return nf::dtype::float32;
    case coll::wire::float64:
      return nf::dtype::float64;
    case coll::wire::bfloat16:
      return nf::dtype::bfloat16;
  }
  return nf::dtype::uint8;
}

// What NCCL receives for x under plan p: cast through the plan's dtype, then read as wire elements.
nf::array to_wire(const nf::array& x, const ndfuse::frontend::collective_plan& p) {
  nf::array y = p.through ? x.astype(*p.through) : x;
  return nf::ascontiguousarray(y).view(wire_dtype(p.wire));
}

nf::array from_wire(const nf::array& w, nf::dtype through, nf::dtype t) {
  return w.view(through).astype(t);
}

// The collective on the CPU: the wire elements reduced with the plan's NCCL op, in rank order.
std::vector<nf::array> emulate(const dist_oracle::case_id& c, const std::vector<nf::array>& parts) {
  const nf::dtype t = parts[0].dtype();
  const bool reduces = c.collective == "all_reduce" || c.collective == "reduce_scatter";
  const auto p =
      ndfuse::frontend::plan_collective(t, reduces, dist_oracle::op_of(c.op), c.collective.c_str());
  const nf::dtype through = p.through.value_or(t);
  const int n = static_cast<int>(parts.size());
  std::vector<nf::array> w;
  for (const auto& x : parts) w.push_back(to_wire(x, p));
  if (c.collective == "all_gather")
    return std::vector<nf::array>(parts.size(), from_wire(nf::concatenate(w), through, t));
  if (c.collective == "broadcast") return std::vector<nf::array>(parts.size(), from_wire(w[1], through, t));
  nf::array acc = w[0];
  for (int r = 1; r < n; ++r) {
    switch (p.op) {
      case coll::reduction::sum:
      case coll::reduction::avg:
        acc = acc + w[r];
        break;
      case coll::reduction::prod:
        acc = acc * w[r];
        break;
      case coll::reduction::max:
        acc = nf::maximum(acc, w[r]);
        break;
      case coll::reduction::min:
        acc = nf::minimum(acc, w[r]);
        break;
    }
  }
  if (p.op == coll::reduction::avg) acc = acc / n;
  const nf::array total = from_wire(acc.astype(wire_dtype(p.wire)), through, t);
  if (c.collective == "all_reduce") return std::vector<nf::array>(parts.size(), total);
  return nf::split(total, n);
}

ndfuse::support::rendezvous_token token_of(char c) {
  ndfuse::support::rendezvous_token t;
  t.fill(c);
  return t;
}

// Runs `size` ranks of a rendezvous as threads (skipping those in `absent`); each rank's token, or
// the message of what it threw.
template <class Join>
std::vector<std::string> run_ranks(int size, const std::vector<int>& absent, Join join) {
  std::vector<std::string> result(static_cast<std::size_t>(size), "absent");
  std::vector<std::thread> threads;
  for (int r = 0; r < size; ++r) {
    if (std::find(absent.begin(), absent.end(), r) != absent.end()) continue;
    threads.emplace_back([&, r] {
      try {
        const auto t = join(r);
        result[static_cast<std::size_t>(r)] = std::string(t.begin(), t.begin() + 4);
      } catch (const nf::error& e) {
        result[static_cast<std::size_t>(r)] = std::string("error: ") + e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return result;
}

}  // namespace

TEST_CASE("collective dtype plans give NumPy's elementwise folds", "[distributed][oracle]") {
  const std::string dir = oracle::oracle_dir("distributed");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_distributed.py writes it");
  nf::device_scope on(nf::device::cpu());
  const int checked = dist_oracle::check_cases(dir, 0, emulate, false);
  CHECK(checked > 300);
}

TEST_CASE("ranks agree on a token over TCP, and a rank that never joins is named", "[distributed]") {
  using ndfuse::support::rendezvous_tcp;
  const int port = dist_oracle::free_port();
  auto ok = run_ranks(4, {}, [&](int r) {
    return rendezvous_tcp("127.0.0.1", port, 4, r, 20s, [] { return token_of('k'); });
  });
  CHECK(ok == std::vector<std::string>(4, "kkkk"));

  // Rank 2 of 3 never comes: rank 0 names it when the wait ends, and tells rank 1, which says so too.
  const int port2 = dist_oracle::free_port();
  auto missing = run_ranks(3, {2}, [&](int r) {
    return rendezvous_tcp("127.0.0.1", port2, 3, r, 1500ms, [] { return token_of('m'); });
  });
  INFO(missing[0] << "\n" << missing[1]);
  CHECK(missing[0].find("rank 2 of 3 never joined") != std::string::npos);
  CHECK(missing[1].find("rank 2 of 3 never joined") != std::string::npos);
  CHECK(missing[1].find("rank 0 reports") != std::string::npos);

  // No rank 0 at all: the others give up at their timeout, naming where they looked.
  const int port3 = dist_oracle::free_port();
  auto alone = run_ranks(2, {0}, [&](int r) {
    return rendezvous_tcp("127.0.0.1", port3, 2, r, 500ms, [] { return token_of('x'); });
  });
  CHECK(alone[1].find("could not reach rank 0 at 127.0.0.1:" + std::to_string(port3)) != std::string::npos);

  // Ranks started with different world sizes.
  const int port4 = dist_oracle::free_port();
  std::string zero, one;
  std::thread t0([&] {
    try {
      rendezvous_tcp("127.0.0.1", port4, 2, 0, 10s, [] { return token_of('s'); });
      zero = "no error";
    } catch (const nf::device_error& e) {
      zero = e.what();
    }
  });
  try {
    rendezvous_tcp("127.0.0.1", port4, 3, 1, 10s, [] { return token_of('s'); });
    one = "no error";
  } catch (const nf::device_error& e) {
    one = e.what();
  }
  t0.join();
  CHECK(zero.find("world size 3, rank 0 with 2") != std::string::npos);
  CHECK(one.find("world size 3, rank 0 with 2") != std::string::npos);

  CHECK_THROWS_AS(rendezvous_tcp("127.0.0.1", port, 2, 2, 1s, [] { return token_of('x'); }), nf::value_error);
  CHECK_THROWS_AS(rendezvous_tcp("127.0.0.1", 0, 2, 1, 1s, [] { return token_of('x'); }), nf::value_error);
}

TEST_CASE("ranks agree on a token through a file, and a rank that never joins is named", "[distributed]") {
  using ndfuse::support::rendezvous_file;
  const fs::path dir = fs::path(std::getenv("NDFUSE_TEST_TMP") ? std::getenv("NDFUSE_TEST_TMP") : "/tmp") /
                       ("rendezvous_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "id").string();
  auto ok =
      run_ranks(3, {}, [&](int r) { return rendezvous_file(path, 3, r, 20s, [] { return token_of('f'); }); });
  CHECK(ok == std::vector<std::string>(3, "ffff"));
  CHECK(fs::is_empty(dir));  // rank 0 removed the id and the ranks' marks

  auto missing =
      run_ranks(3, {1}, [&](int r) { return rendezvous_file(path, 3, r, 1s, [] { return token_of('g'); }); });
  CHECK(missing[0].find("rank 1 of 3 never joined") != std::string::npos);
  CHECK(missing[2] == "gggg");  // rank 2 had the id; NCCL's own set-up would then time out
  CHECK(fs::is_empty(dir));

  auto no_root = run_ranks(
      2, {0}, [&](int r) { return rendezvous_file(path, 2, r, 300ms, [] { return token_of('h'); }); });
  CHECK(no_root[1].find("rank 0 never did") != std::string::npos);

  // A leftover id of a crashed run is refused rather than handed to the new ranks.
  std::ofstream(path) << std::string(128, 'z');
  CHECK_THROWS_AS(rendezvous_file(path, 1, 0, 1s, [] { return token_of('i'); }), nf::value_error);
  fs::remove_all(dir);
}

TEST_CASE("without NCCL or a GPU, nf::distributed says why at the call", "[distributed]") {
  if (nf::distributed::is_available())
    NDFUSE_SKIP("NCCL and a GPU are here: test_distributed_gpu.cpp runs them");
  const std::string why = nf::distributed::unavailable_reason();
  CHECK(!why.empty());
  INFO(why);
  CHECK_THROWS_AS(nf::distributed::init_all(), nf::device_error);
  CHECK_THROWS_AS(nf::distributed::make_unique_id(), nf::device_error);
  CHECK_THROWS_AS(
      nf::distributed::init_from_tcp("127.0.0.1", dist_oracle::free_port(), 2, 0, nf::device::cuda(0), 1s),
      nf::device_error);
  CHECK_THROWS_AS(nf::distributed::init_all({nf::device::cpu()}), nf::device_error);
  // An empty communicator is refused before anything else.
  nf::distributed::communicator none;
  const nf::array x = nf::arange(4.0);
  CHECK_THROWS_AS(nf::distributed::all_reduce(none, x), nf::value_error);
  CHECK_THROWS_AS(none.rank(), nf::value_error);
  CHECK_THROWS_AS(nf::distributed::all_reduce(std::vector<nf::distributed::communicator>{}, {}),
                  nf::value_error);
}

TEST_CASE("NDFUSE_NCCL_LIBRARY pointing nowhere is reported by name", "[distributed]") {
  if (ndfuse_test::is_child("nccl_missing")) {
    CHECK(nf::distributed::nccl_version() == 0);
#if defined(NDFUSE_WITH_CUDA)
    CHECK(nf::distributed::unavailable_reason().find("/nonexistent/libnccl.so.2") != std::string::npos);
#else
    CHECK(nf::distributed::unavailable_reason().find("without CUDA") != std::string::npos);
#endif
    CHECK_THROWS_AS(nf::distributed::make_unique_id(), nf::device_error);
    return;
  }
  CHECK(ndfuse_test::run_self(
            "NDFUSE_NCCL_LIBRARY pointing nowhere is reported by name",
            {"NDFUSE_TEST_CHILD=nccl_missing", "NDFUSE_NCCL_LIBRARY=/nonexistent/libnccl.so.2"}) == 0);
}

TEST_CASE("torchrun's environment is required by init_from_env", "[distributed]") {
  if (ndfuse_test::is_child("no_torchrun")) {
    CHECK_THROWS_AS(nf::distributed::init_from_env(1s), nf::value_error);
    return;
  }
  CHECK(ndfuse_test::run_self("torchrun's environment is required by init_from_env",
                              {"NDFUSE_TEST_CHILD=no_torchrun", "RANK=", "WORLD_SIZE=", "MASTER_ADDR="}) ==
        0);
}

// A child started by mpirun (the test below): rank 0's token reaches every rank through MPI_Bcast.
TEST_CASE("an MPI rank's part of the rendezvous", "[distributed]") {
  if (!ndfuse_test::is_child("mpi_rank")) NDFUSE_SKIP("run by the test below, under mpirun");
  bool made = false;
  const auto r = ndfuse::support::rendezvous_mpi([&] {
    made = true;
    return token_of('p');
  });
  CHECK(r.size == 3);
  CHECK(made == (r.rank == 0));
  CHECK(r.token == token_of('p'));
  CHECK(r.local_rank == r.rank);  // one host
}

TEST_CASE("ranks agree on a token through MPI", "[distributed]") {
  const std::string mpirun = "/usr/bin/mpirun";
  if (!fs::exists(mpirun)) NDFUSE_SKIP("no mpirun here (scripts/setup-deps installs Open MPI where it can)");
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  // As root (CI), Open MPI wants to be told; three ranks on two cores need --oversubscribe. Under
  // AddressSanitizer the ranks report no leaks: Open MPI's own allocations outlive MPI_Finalize. A
  // hung launch fails after two minutes rather than holding the suite.
  const std::string cmd =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NDFUSE_TEST_CHILD=mpi_rank "
      "ASAN_OPTIONS=detect_leaks=0 timeout 120 " +
      mpirun + " --oversubscribe -x NDFUSE_TEST_CHILD -x ASAN_OPTIONS -np 3 '" + exe +
      "' \"an MPI rank's part of the rendezvous\" > /dev/null 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
}
