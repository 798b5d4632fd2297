// The seed chain and a norm over an array split across every GPU of the machine: each GPU draws its
// own part of one random array, runs the chain on it as one fused kernel, and the norm joins the
// GPUs' partial sums with an NCCL all_reduce. The same program on one GPU gives the same values.
// Without two GPUs and NCCL it runs on the devices it has: shards on one device.
#include <chrono>
#include <cmath>
#include <iostream>
#include <vector>

#include <ndfuse/ndfuse.hpp>

namespace dist = nf::distributed;

int main() {
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
  nf::device_scope on(devices[0]);
  nf::array y = nf::random::default_rng(42).random({n});
  y *= 5.0;
  y *= y;
  y += y;
  const double one = nf::linalg::norm(y).item<double>();
  std::cout << "on " << devices[0] << " alone: " << one << " (relative difference "
            << std::abs(norm - one) / one << ")\n";
  return std::abs(norm - one) <= 1e-12 * one ? 0 : 1;
}
