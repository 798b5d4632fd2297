// nf::distributed on NCCL with several GPUs (CTest entry distributed_gpu, label multi_gpu; every
// case skips without NCCL or with fewer than two GPUs): every collective of gen_distributed.py's
// oracle, for every dtype and op, with one process driving all GPUs and with one process per GPU
// bootstrapped over TCP, a file and torchrun's variables; the errors at the call; value semantics.
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "catch.hpp"
#include "child_process.hpp"
#include "distributed_support.hpp"
#include "ndfuse/ndfuse.hpp"

namespace dist = nf::distributed;
using dist::reduce_op;
using namespace std::chrono_literals;

namespace {

int gpus_for_nccl() {
  if (!dist::is_available()) return 0;
  return std::min(nf::cuda::device_count(), 4);  // the oracle has cases of 2, 3 and 4 ranks
}

#define NEED_GPUS()                                                                           \
  if (gpus_for_nccl() < 2)                                                                    \
    NDFUSE_SKIP("needs NCCL and two GPUs: " << (dist::is_available() ? std::string("one GPU") \
                                                                     : dist::unavailable_reason()));

std::vector<dist::communicator> group(int n) {
  std::vector<nf::device> devices;
  for (int i = 0; i < n; ++i) devices.push_back(nf::device::cuda(i));
  return dist::init_all(devices);
}

// The oracle case on every rank of this process: parts[r] moved to GPU r first.
std::vector<nf::array> run_group(const std::vector<dist::communicator>& comms, const dist_oracle::case_id& c,
                                 const std::vector<nf::array>& parts) {
  std::vector<nf::array> on;
  for (std::size_t r = 0; r < parts.size(); ++r) on.push_back(parts[r].to(comms[r].device()));
  const reduce_op op = dist_oracle::op_of(c.op);
  if (c.collective == "all_reduce") return dist::all_reduce(comms, on, op);
  if (c.collective == "reduce_scatter") return dist::reduce_scatter(comms, on, op);
  if (c.collective == "all_gather") return dist::all_gather(comms, on);
  return dist::broadcast(comms, on, 1);
}

// This process's rank of the case.
std::vector<nf::array> run_rank(const dist::communicator& c, const dist_oracle::case_id& id,
                                const std::vector<nf::array>& parts) {
  const nf::array x = parts[static_cast<std::size_t>(c.rank())].to(c.device());
  const reduce_op op = dist_oracle::op_of(id.op);
  if (id.collective == "all_reduce") return {dist::all_reduce(c, x, op)};
  if (id.collective == "reduce_scatter") return {dist::reduce_scatter(c, x, op)};
  if (id.collective == "all_gather") return {dist::all_gather(c, x)};
  return {dist::broadcast(c, x, 1)};
}

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : -1;
}

constexpr const char* child_case = "one process per GPU: a rank's part";

}  // namespace

TEST_CASE("one process, every GPU: every collective, dtype and op against NumPy", "[distributed_gpu]") {
  NEED_GPUS();
  const std::string dir = oracle::oracle_dir("distributed");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_distributed.py writes it");
  const int n = gpus_for_nccl();
  const auto comms = group(n);
  REQUIRE(comms.size() == std::size_t(n));
  for (int r = 0; r < n; ++r) {
    CHECK(comms[r].rank() == r);
    CHECK(comms[r].size() == n);
    CHECK(comms[r].device() == nf::device::cuda(r));
  }
  const int checked = dist_oracle::check_cases(
      dir, n, [&](const auto& c, const auto& parts) { return run_group(comms, c, parts); }, true);
  CHECK(checked > 100);
}

TEST_CASE("one process, every GPU: reduce, bfloat16, barrier and value semantics", "[distributed_gpu]") {
  NEED_GPUS();
  const int n = gpus_for_nccl();
  const auto comms = group(n);
  std::vector<nf::array> parts;
  for (int r = 0; r < n; ++r) {
    nf::device_scope on(comms[r].device());
    parts.push_back(nf::arange(6.0) + 10.0 * r);  // rank r: 10r, 10r + 1, ..., 10r + 5
  }
  // reduce: the root gets the sum, the others their own array back.
  const auto reduced = dist::reduce(comms, parts, 1, reduce_op::sum);
  const double tens = 10.0 * n * (n - 1) / 2;  // 10 * (0 + 1 + ... + n-1)
  CHECK(reduced[1].to_vector<double>() ==
        std::vector<double>{tens, tens + n, tens + 2 * n, tens + 3 * n, tens + 4 * n, tens + 5 * n});
  CHECK(reduced[0].to_vector<double>() == parts[0].to_vector<double>());
  // Inputs are never written; outputs fuse into what follows, on their rank's GPU.
  const auto before = parts[0].to_vector<double>();
  const auto sums = dist::all_reduce(comms, parts);
  nf::array doubled = sums[n - 1] * 2.0 + 1.0;
  CHECK(doubled.device() == nf::device::cuda(n - 1));
  CHECK(doubled.to_vector<double>()[0] == 2 * tens + 1);
  CHECK(parts[0].to_vector<double>() == before);
  // bfloat16 (no NumPy type): small integers add exactly.
  std::vector<nf::array> halves;
  for (int r = 0; r < n; ++r) halves.push_back(parts[r].astype(nf::dtype::bfloat16));
  const auto bsum = dist::all_reduce(comms, halves);
  CHECK(bsum[0].dtype() == nf::dtype::bfloat16);
  CHECK(bsum[0].astype(nf::dtype::float64).to_vector<double>()[5] == tens + 5 * n);
  dist::barrier(comms);
  // A lazy input is evaluated first.
  std::vector<nf::array> lazy;
  for (int r = 0; r < n; ++r) lazy.push_back(parts[r] * 0.0 + 1.0);
  CHECK(dist::all_reduce(comms, lazy)[0].to_vector<double>()[3] == n);
}

TEST_CASE("one process, every GPU: mismatched calls throw at the call", "[distributed_gpu]") {
  NEED_GPUS();
  const int n = gpus_for_nccl();
  const auto comms = group(n);
  std::vector<nf::array> parts;
  for (int r = 0; r < n; ++r) {
    nf::device_scope on(comms[r].device());
    parts.push_back(nf::ones({4, 2}));
  }
  auto shapes = parts;
  {
    nf::device_scope on(comms[1].device());
    shapes[1] = nf::ones({4, 3});
  }
  CHECK_THROWS_AS(dist::all_reduce(comms, shapes), nf::shape_error);
  auto dtypes = parts;
  dtypes[1] = parts[1].astype(nf::dtype::float32);
  CHECK_THROWS_AS(dist::all_reduce(comms, dtypes), nf::dtype_error);
  auto places = parts;
  places[1] = parts[0];  // on GPU 0, given for rank 1
  CHECK_THROWS_AS(dist::all_reduce(comms, places), nf::device_error);
  // The other ranks absent. (Braces alone would pick the per-rank overload: one rank's call, which
  // waits for the others as NCCL does.)
  CHECK_THROWS_AS(
      dist::all_reduce(std::vector<dist::communicator>{comms[0]}, std::vector<nf::array>{parts[0]}),
      nf::value_error);
  std::vector<nf::array> fives;  // 5 rows split among 2, 3 or 4 ranks
  for (const auto& c : comms) {
    nf::device_scope on(c.device());
    fives.push_back(nf::ones({5, 2}));
  }
  CHECK_THROWS_AS(dist::reduce_scatter(comms, fives), nf::shape_error);
  std::vector<nf::array> complex;
  for (const auto& p : parts) complex.push_back(p.astype(nf::dtype::complex64));
  CHECK_THROWS_AS(dist::all_reduce(comms, complex, reduce_op::max), nf::dtype_error);
  CHECK_THROWS_AS(dist::broadcast(comms, parts, n), nf::value_error);
  CHECK_THROWS_AS(dist::init_all({nf::device::cuda(0), nf::device::cuda(0)}), nf::value_error);
  // Nothing ran: the group still works.
  CHECK(dist::all_reduce(comms, parts)[0].to_vector<double>()[0] == n);
}

// A child: one rank of a group of separate processes (the parent below starts them).
TEST_CASE("one process per GPU: a rank's part", "[distributed_gpu]") {
  if (!ndfuse_test::is_child("distributed_rank")) NDFUSE_SKIP("run by the test below, one process per rank");
  const std::string mode = std::getenv("NDFUSE_TEST_BOOTSTRAP");
  const int rank = env_int("RANK"), size = env_int("WORLD_SIZE");
  dist::communicator c;
  if (mode == "env") {
    c = dist::init_from_env(60s);
  } else if (mode == "file") {
    c = dist::init_from_file(std::getenv("NDFUSE_TEST_RENDEZVOUS_FILE"), size, rank, nf::device::cuda(rank),
                             60s);
  } else {
    c = dist::init_from_tcp("127.0.0.1", env_int("MASTER_PORT"), size, rank, nf::device::cuda(rank), 60s);
  }
  REQUIRE(c.rank() == rank);
  REQUIRE(c.size() == size);
  nf::device_scope on(c.device());
  const std::string dir = oracle::oracle_dir("distributed");
  REQUIRE(!dir.empty());
  const int checked = dist_oracle::check_cases(
      dir, size, [&](const auto& id, const auto& parts) { return run_rank(c, id, parts); }, true, rank);
  CHECK(checked > 100);
  // A ring shift: every rank sends to the next and receives from the previous.
  const nf::array mine = nf::full({3}, double(rank));
  const nf::array got = dist::send_recv(c, mine, (rank + 1) % size, (rank + size - 1) % size);
  CHECK(got.to_vector<double>() == std::vector<double>(3, double((rank + size - 1) % size)));
  // send and recv between ranks 0 and 1.
  if (rank == 0) dist::send(c, nf::arange(5.0), 1);
  if (rank == 1) CHECK(dist::recv(c, {5}, nf::dtype::float64, 0).to_vector<double>()[4] == 4.0);
  // A rank that passes another shape: every rank throws at the call, and nothing hangs.
  const nf::array odd = rank == 1 ? nf::ones({5}) : nf::ones({4});
  CHECK_THROWS_AS(dist::all_reduce(c, odd), nf::shape_error);
  const nf::array wrong_type = rank == 1 ? nf::ones({4}, nf::dtype::float32) : nf::ones({4});
  CHECK_THROWS_AS(dist::all_reduce(c, wrong_type), nf::dtype_error);
  dist::barrier(c);
  CHECK(dist::all_reduce(c, nf::ones({4})).to_vector<double>()[0] == size);

  // A sharded array over the ranks: each computes its own part of the draw, and together they
  // give the unsplit draw; the seed chain runs on each part; the norm joins them.
  const std::int64_t n = 1000 * size;
  auto x = dist::sharded_array::split(nf::random::default_rng(7).standard_normal({n}), c);
  CHECK(x.shards()[0].shape()[0] == 1000);
  CHECK_FALSE(x.shards()[0].is_evaluated());
  nf::array whole = nf::random::default_rng(7).standard_normal({n});
  CHECK(x.gather(c.device()).to_host().bytes == whole.to_host().bytes);
  x *= 5.0;
  x *= x;
  x += x;
  whole *= 5.0;
  whole *= whole;
  whole += whole;
  CHECK(x.gather(c.device()).to_host().bytes == whole.to_host().bytes);
  const double norm = dist::norm(x).gather(c.device()).item<double>();
  CHECK(std::abs(norm - nf::linalg::norm(whole).item<double>()) <= 1e-12 * norm);

  // Shards of unequal length (NumPy's array_split: the first ranks one row more), along axis 1 of
  // a 2-d draw: the gather gives the whole back.
  const std::int64_t cols = 7 * size + 3;
  auto uneven = dist::sharded_array::split(nf::random::default_rng(9).random({3, cols}), c, 1);
  CHECK(uneven.shards()[0].shape()[1] == cols / size + (rank < cols % size ? 1 : 0));
  const nf::array joined = uneven.gather(c.device());
  CHECK(joined.shape() == nf::shape_t{3, cols});
  CHECK(joined.to_host().bytes == nf::random::default_rng(9).random({3, cols}).to_host().bytes);
}

TEST_CASE("one process per GPU, bootstrapped over TCP, a file and torchrun's variables",
          "[distributed_gpu]") {
  NEED_GPUS();
  const int n = gpus_for_nccl();
  for (const std::string mode : {"tcp", "file", "env"}) {
    INFO("bootstrap " << mode);
    const int port = dist_oracle::free_port();
    const std::string file =
        std::string(std::getenv("NDFUSE_TEST_TMP") ? std::getenv("NDFUSE_TEST_TMP") : "/tmp") + "/nccl_id_" +
        std::to_string(::getpid());
    std::vector<pid_t> children;
    for (int r = 0; r < n; ++r)
      children.push_back(ndfuse_test::spawn_self(
          child_case,
          {"NDFUSE_TEST_CHILD=distributed_rank", "NDFUSE_TEST_BOOTSTRAP=" + mode, "RANK=" + std::to_string(r),
           "WORLD_SIZE=" + std::to_string(n), "LOCAL_RANK=" + std::to_string(r), "MASTER_ADDR=127.0.0.1",
           "MASTER_PORT=" + std::to_string(port), "NDFUSE_TEST_RENDEZVOUS_FILE=" + file}));
    for (int r = 0; r < n; ++r) {
      INFO("rank " << r);
      CHECK(ndfuse_test::wait_child(children[static_cast<std::size_t>(r)]) == 0);
    }
  }
}

TEST_CASE("one process per GPU: rank 0 alone names the rank that never joined", "[distributed_gpu]") {
  if (ndfuse_test::is_child("distributed_alone")) {
    try {
      dist::init_from_tcp("127.0.0.1", env_int("MASTER_PORT"), 2, 0, nf::device::cuda(0), 2s);
      FAIL("init_from_tcp returned without rank 1");
    } catch (const nf::device_error& e) {
      CHECK(std::string(e.what()).find("rank 1 of 2 never joined") != std::string::npos);
    }
    return;
  }
  NEED_GPUS();
  CHECK(ndfuse_test::run_self("one process per GPU: rank 0 alone names the rank that never joined",
                              {"NDFUSE_TEST_CHILD=distributed_alone",
                               "MASTER_PORT=" + std::to_string(dist_oracle::free_port())}) == 0);
}
