// What test_distributed.cpp (the dtype plans, on the CPU) and test_distributed_gpu.cpp (NCCL on
// several GPUs) share: gen_distributed.py's cases, run through a function that gives each rank's
// result, and the comparison with NumPy's fold.
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace dist_oracle {

struct case_id {
  std::string collective, op, dtype;
  int ranks = 0;
};

inline case_id parse(const std::string& id) {
  const auto f = oracle::split(id, '.');
  return {f.at(0), f.at(1), f.at(2), std::stoi(f.at(3))};
}

inline nf::distributed::reduce_op op_of(const std::string& op) {
  using nf::distributed::reduce_op;
  if (op == "prod") return reduce_op::prod;
  if (op == "min") return reduce_op::min;
  if (op == "max") return reduce_op::max;
  if (op == "avg") return reduce_op::avg;
  return reduce_op::sum;
}

// A TCP port nothing listens on now (the kernel's pick for port 0).
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

inline double magnitude(const nf::host_array& h, std::size_t i) {
  return std::abs(oracle::element_c(h, i));
}

// A sum or mean of n values in another order than NumPy's: within n units of roundoff of the sum
// of the magnitudes (a reordered sum's error bound), else exactly NumPy's value. Element i of the
// result reduces element offset + i of each part (reduce_scatter's rank r: r times its size).
inline std::string compare_reordered(const nf::host_array& got, const nf::host_array& expected,
                                     const std::vector<nf::host_array>& parts, int n, std::size_t offset) {
  if (got.dtype != expected.dtype || got.shape != expected.shape) return oracle::compare(got, expected, {});
  const double eps = oracle::precision_level(expected.dtype) == 0   ? 0x1p-11
                     : oracle::precision_level(expected.dtype) == 1 ? 0x1p-24
                                                                    : 0x1p-53;
  const std::size_t count = oracle::element_count(expected);
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const auto g = oracle::element_c(got, i), e = oracle::element_c(expected, i);
    if (!std::isfinite(std::abs(e))) {
      if (oracle::element_close(got, expected, i, {})) continue;
    } else {
      double bound = 0;
      for (const auto& p : parts) bound += magnitude(p, offset + i);
      if (std::abs(g - e) <= 2.0 * n * eps * bound) continue;
    }
    out += "\n  [" + std::to_string(i) + "] got " + oracle::value_str(got, i) + ", expected " +
           oracle::value_str(expected, i);
  }
  return out;
}

using runner = std::function<std::vector<nf::array>(const case_id&, const std::vector<nf::array>&)>;

// Runs every case of `ranks` ranks (0: every case) through `run`; each rank's result against
// NumPy's, or the error ndfuse must throw. `reordered`: sums and means may add in another order.
// `only_rank` >= 0: `run` gives that rank's result alone (one process of several).
inline int check_cases(const std::string& dir, int ranks, const runner& run, bool reordered,
                       int only_rank = -1) {
  int checked = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const case_id c = parse(row[0]);
    if (ranks != 0 && c.ranks != ranks) continue;
    INFO(row[0]);
    std::vector<nf::array> parts;
    for (const auto& f : oracle::split(row[1], ',')) parts.push_back(nf::load(dir + "/" + f));
    if (row[2].rfind("RAISES:", 0) == 0) {
      CHECK(oracle::thrown_error([&] {
              for (auto& r : run(c, parts)) r.eval();
            }) == oracle::split(row[2], ':')[1]);
      ++checked;
      continue;
    }
    const std::vector<nf::array> got = run(c, parts);
    auto expected = oracle::split(row[2], ',');
    if (only_rank >= 0) expected = {expected.at(static_cast<std::size_t>(only_rank))};
    REQUIRE(got.size() == expected.size());
    std::vector<nf::host_array> hosts;
    for (const auto& p : parts) hosts.push_back(p.to_host());
    const bool inexact_sum = nf::is_inexact(parts[0].dtype()) && (c.op == "sum" || c.op == "avg");
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::size_t r = only_rank >= 0 ? static_cast<std::size_t>(only_rank) : k;
      INFO("rank " << r);
      const auto want = oracle::read_npy(dir + "/" + expected[k]);
      if (reordered && inexact_sum)
        CHECK(compare_reordered(got[k].to_host(), want, hosts, c.ranks,
                                c.collective == "reduce_scatter" ? r * oracle::element_count(want) : 0) ==
              "");
      else
        CHECK(oracle::compare(got[k].to_host(), want, {}) == "");
    }
    ++checked;
  }
  return checked;
}

}  // namespace dist_oracle
