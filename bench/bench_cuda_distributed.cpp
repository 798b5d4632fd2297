// NCCL's all_reduce through nf::distributed: float32 arrays of 1 MB to 1 GB on every GPU of the
// machine, one process driving them all (init_all), summed in place of torch.distributed's
// all_reduce (bench/peers/torch_distributed.py: one process per GPU, the same sizes). Wall clock from
// the call to the end of a synchronize of every GPU, median of the repetitions. Reported as NCCL's
// tests report it: algbw = bytes / time, busbw = algbw * 2 (n - 1) / n, the rate each link carries,
// which a ring all_reduce keeps below the link's bandwidth. Each result is checked (rank r holds
// r + 1: every element of the sum is n (n + 1) / 2). And the seed chain on 2 GB of float64 split
// over 1, 2, 4, ... GPUs (sharded_array), the speed-up of sharding. Without NCCL or two GPUs it says
// so and exits 0.
#include <benchmark/benchmark.h>

#include <iostream>

#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include <chrono>
#include <cmath>

#include "cuda_timing.hpp"

namespace {

namespace dist = nf::distributed;
bool wrong_results = false;

std::vector<dist::communicator>& comms() {
  static std::vector<dist::communicator> c = dist::init_all();
  return c;
}

void BM_all_reduce(benchmark::State& state, std::int64_t bytes) {
  const auto& cs = comms();
  const int n = static_cast<int>(cs.size());
  const std::int64_t elements = bytes / 4;
  std::vector<nf::array> parts;
  for (const auto& c : cs) {
    nf::device_scope on(c.device());
    // The dtype is given: a C++ float is a weak scalar, which nf::full makes float64 (NumPy's).
    parts.push_back(nf::full({elements}, 1.0 + c.rank(), nf::dtype::float32));
    parts.back().eval();
  }
  std::vector<nf::array> sums = dist::all_reduce(cs, parts);  // warm-up: NCCL sets up its channels
  nf::synchronize();
  double total = 0;
  for (auto _ : state) {
    sums.clear();
    nf::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    sums = dist::all_reduce(cs, parts);
    nf::synchronize();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += s;
    state.SetIterationTime(s);
  }
  const float want = static_cast<float>(n * (n + 1) / 2);
  for (const auto& s : sums) {
    if (s.dtype() != nf::dtype::float32) {
      std::cerr << "all_reduce of " << bytes << " bytes: " << nf::dtype_name(s.dtype()) << ", not float32\n";
      wrong_results = true;
    }
    const auto ends =
        nf::concatenate({s(nf::slice(0, 1)), s(nf::slice(elements - 1, elements))}).to_vector<float>();
    if (ends != std::vector<float>{want, want}) {
      std::cerr << "all_reduce of " << bytes << " bytes: wrong result\n";
      wrong_results = true;
    }
  }
  const double per = total / static_cast<double>(state.iterations());
  const double algbw = static_cast<double>(bytes) / per / 1e9;
  state.counters["ranks"] = n;
  state.counters["algbw_GB/s"] = algbw;
  state.counters["GB/s"] = algbw * 2.0 * (n - 1) / n;  // busbw
}

// The seed chain on 2 GB of float64 split over the first k GPUs (k = 1: all on GPU 0), from the
// build to the end of a synchronize: the speed-up of sharding, each GPU running one fused kernel on
// its part. The input is made once; each run writes new shards.
void BM_sharded_seed(benchmark::State& state, int k) {
  constexpr std::int64_t n = 250'000'000;
  std::vector<nf::device> devices;
  for (int i = 0; i < k; ++i) devices.push_back(nf::device::cuda(i));
  auto x = dist::sharded_array::split(nf::arange(n) % 1000 / 1000.0 + 1.0, devices);
  x.eval();
  dist::sharded_array y;
  double total = 0;
  for (auto _ : state) {
    y = dist::sharded_array();
    nf::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    y = x;
    y *= 5.0;
    y *= y;
    y += y;
    y.eval();
    nf::synchronize();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total += s;
    state.SetIterationTime(s);
  }
  // Element n - 1: ((n - 1) % 1000 / 1000 + 1) = 1.999; 2 (5 * 1.999)^2.
  const double last = y.shards().back()(nf::slice(-1, nf::none)).to_vector<double>()[0];
  const double want = 2 * (5 * 1.999) * (5 * 1.999);
  if (std::abs(last - want) > 1e-9 * want) {
    std::cerr << "sharded seed chain on " << k << " GPUs: wrong result " << last << "\n";
    wrong_results = true;
  }
  const double per = total / static_cast<double>(state.iterations());
  state.counters["gpus"] = k;
  state.counters["GB/s"] = 2.0 * n * 8 / per / 1e9;  // read and write of every element
}

void register_all() {
  if (!dist::is_available() || nf::cuda::device_count() < 2) {
    std::cout << "bench_cuda_distributed: needs NCCL and two GPUs ("
              << (dist::is_available() ? std::string("one GPU") : dist::unavailable_reason())
              << "); nothing to measure\n";
    return;
  }
  for (const std::int64_t mb : {1, 4, 16, 64, 256, 1024}) {
    auto* b = benchmark::RegisterBenchmark(("all_reduce/float32/" + std::to_string(mb) + "MB").c_str(),
                                           BM_all_reduce, mb << 20);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(mb >= 256 ? 5 : 20)->Repetitions(3);
    b->ReportAggregatesOnly(true);
  }
  for (int k = 1; k <= nf::cuda::device_count(); k *= 2) {
    auto* b = benchmark::RegisterBenchmark(("sharded_seed/float64/2GB/gpus" + std::to_string(k)).c_str(),
                                           BM_sharded_seed, k);
    b->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10)->Repetitions(3);
    b->ReportAggregatesOnly(true);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return bench_cuda::run_cuda_benchmarks(argc, argv, "bench_cuda_distributed", register_all, wrong_results);
}

#else

int main() {
  std::cout << "bench_cuda_distributed: ndfuse was built without CUDA; nothing to measure\n";
  return 0;
}

#endif
