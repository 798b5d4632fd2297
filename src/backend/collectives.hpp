// Collectives over NCCL: the frontend's door for nf::distributed (src/frontend/distributed*.cpp),
// which materializes the arrays, converts dtypes NCCL lacks and allocates the outputs; here the
// calls go to NCCL on each GPU's current stream. NCCL is opened at run time (backend/cuda/nccl.cpp),
// so a build or a machine without it still runs on one device; without CUDA, or without NCCL, each
// entry point throws nf::device_error saying why.
#pragma once
#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ndfuse::detail::collectives {

using unique_id = std::array<char, 128>;

// NCCL's version as NCCL numbers it (22803 for 2.28.3), or 0 with the reason in `why` when it
// cannot be loaded (NDFUSE_NCCL_LIBRARY, else libnccl.so.2 on the library path or beside CUDA's).
int nccl_version(std::string* why = nullptr);
unique_id make_unique_id();

// One rank of a communicator, on one GPU; destroying the last handle destroys the NCCL communicator.
struct communicator;
// Ranks 0..n-1 on `gpus` in order, in this process (ncclCommInitAll).
std::vector<std::shared_ptr<communicator>> init_all(const std::vector<int>& gpus);
// This process's rank of `size`; throws device_error when the others do not finish setting up
// within `timeout` (the communicator is aborted, not left hanging).
std::shared_ptr<communicator> init_rank(const unique_id& id, int size, int rank, int gpu,
                                        std::chrono::milliseconds timeout);
int rank_of(const communicator& c);
int size_of(const communicator& c);
int gpu_of(const communicator& c);

enum class kind { all_reduce, reduce_scatter, all_gather, broadcast, reduce, send, recv };
// The element types NCCL reduces: the frontend sends every dtype as one of these.
enum class wire { int8, uint8, int32, uint32, int64, uint64, float16, float32, float64, bfloat16 };
enum class reduction { sum, prod, max, min, avg };

struct call {
  communicator* comm = nullptr;
  collectives::kind kind = kind::all_reduce;
  collectives::wire wire = wire::uint8;
  collectives::reduction op = reduction::sum;
  std::size_t count = 0;  // NCCL's count: per rank's input for reduce_scatter and all_gather
  int peer = 0;           // the root of broadcast and reduce, the other rank of send and recv
  const void* send = nullptr;
  void* recv = nullptr;
};

// Enqueues the calls, on each communicator's GPU's current stream, as one NCCL group (so that the
// ranks of one process, or a send and a recv, cannot wait on each other). Throws device_error
// naming NCCL's error and the failing communicator's rank.
void run(const std::vector<call>& calls);

}  // namespace ndfuse::detail::collectives
