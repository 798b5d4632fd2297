// The seed chain and a norm over an array split across every GPU of the machine: each GPU draws its
// own part of one random array, runs the chain on it as one fused kernel, and the norm joins the
// GPUs' partial sums with an NCCL all_reduce. The same program on one GPU gives the same values.
// Without two GPUs and NCCL it runs on the devices it has: shards on one device. Launched by torchrun
// (`torchrun --standalone --nproc_per_node=2 ./example_multi_gpu`), it runs one process per GPU: each
// computes its own shard, and the norm joins the processes.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <ndfuse/ndfuse.hpp>

namespace dist = nf::distributed;

namespace {

// The chain on the whole draw on one device: what the shards together must give.
double norm_on_one_device(nf::device d, std::int64_t n) {
  nf::device_scope on(d);
  nf::array y = nf::random::default_rng(42).random({n});
  y *= 5.0;
  y *= y;
  y += y;
  return nf::linalg::norm(y).item<double>();
}

// One process per GPU, from torchrun's RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT.
int one_process_per_gpu() {
  const dist::communicator comm = dist::init_from_env();
  const std::int64_t n = 250'000'000;
  auto x = dist::sharded_array::split(nf::random::default_rng(42).random({n}), comm);  // this rank's part
  x *= 5.0;
  x *= x;
  x += x;
  const double norm = dist::norm(x).gather(comm.device()).item<double>();  // the same on every rank
  if (comm.rank() != 0) return 0;
  const double one = norm_on_one_device(comm.device(), n);
  std::cout << "rank 0 of " << comm.size() << ", shard of " << x.shards()[0].shape()[0] << " on "
            << comm.device() << "\nnorm of the chain over " << n << " values: " << norm
            << " (on one GPU: " << one << ", relative difference " << std::abs(norm - one) / one << ")\n";
  return std::abs(norm - one) <= 1e-12 * one ? 0 : 1;
}

}  // namespace

int main() {
  if (std::getenv("RANK") && std::getenv("WORLD_SIZE")) {
    if (dist::is_available()) return one_process_per_gpu();
    std::cerr << "launched as one rank of several, but " << dist::unavailable_reason() << "\n";
    return 1;
  }
  std::vector<nf::device> devices;
  if (dist::is_available() && nf::cuda::device_count() >= 2) {
    for (int i = 0; i < nf::cuda::device_count(); ++i) devices.push_back(nf::device::cuda(i));
  } else {
    std::cout << "one device only (" << dist::unavailable_reason() << "): four shards on "
              << nf::current_device() << "\n";
    devices.assign(4, nf::current_device());
  }
  const std::int64_t n = nf::cuda::device_count() >= 2 ? 250'000'000 : 1'000'000;  // 2 GB of float64 on GPUs

  // The draw is split before it is made: no device ever holds the whole.
  auto x = dist::sharded_array::split(nf::random::default_rng(42).random({n}), devices);
  const auto t0 = std::chrono::steady_clock::now();
  x *= 5.0;
  x *= x;
  x += x;
  const double norm = dist::norm(x).gather(devices[0]).item<double>();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  std::cout << "shards:";
  for (const auto& s : x.shards()) std::cout << " " << s.shape()[0] << " on " << s.device();
  std::cout << "\nnorm of the chain over " << n << " values: " << norm << " (" << ms << " ms)\n";

  // The same on one device, for comparison: equal up to the order of the partial sums.
  const double one = norm_on_one_device(devices[0], n);
  std::cout << "on " << devices[0] << " alone: " << one << " (relative difference "
            << std::abs(norm - one) / one << ")\n";
  return std::abs(norm - one) <= 1e-12 * one ? 0 : 1;
}
