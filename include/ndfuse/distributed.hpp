// Beyond one GPU: NCCL's collectives on nf::array (torch.distributed's and cupyx.distributed's
// calls). NCCL is opened at run time; without it, or without a GPU, each call here throws
// nf::device_error saying why, and everything else runs as before.
//
// Two ways to hold ranks:
//   - one process driving several GPUs: init_all(devices) gives one communicator per device, and
//     the collectives that take vectors run every rank's part as one NCCL group;
//   - one process per GPU: init_from_tcp, init_from_file or init_from_env (torchrun's variables)
//     agree on NCCL's unique id, and the collectives that take one array run this rank's part.
//
// Every collective is eager, as in torch.distributed: ranks must call the same collectives in the
// same order, so each runs when it is called. Its inputs are evaluated, its outputs are fresh
// arrays (value semantics: no input is written), and the work is queued on each array's GPU's
// current stream; nothing waits on the host except barrier().
#pragma once
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse {

namespace detail::collectives {
struct communicator;
}
namespace detail {
struct communicator_access;
}

namespace distributed {

// NumPy's elementwise meaning across ranks: sum is a0 + a1 + ... in the array's dtype (for bool,
// logical or; prod, logical and), avg is sum / size for the inexact dtypes.
enum class reduce_op { sum, prod, min, max, avg };

// NCCL's version (22803 for 2.28.3), or 0 when it cannot be loaded.
int nccl_version();
// True when NCCL loads and a GPU is usable; unavailable_reason() says why not ("" when it is).
bool is_available();
std::string unavailable_reason();

using unique_id = std::array<char, 128>;  // NCCL's ncclUniqueId
unique_id make_unique_id();

inline constexpr std::chrono::milliseconds default_timeout{std::chrono::minutes(5)};

// One rank of a group, on one GPU. Copies share the NCCL communicator, which goes with the last.
class communicator {
 public:
  communicator() = default;  // an empty handle; using it throws nf::value_error
  int rank() const;
  int size() const;
  ndfuse::device device() const;
  // Whether each collective first checks, with the other ranks, that all passed the same shape,
  // dtype, op and root (on by default): a mismatch then throws on every rank at the call rather
  // than hanging or reading past a buffer. The check is one small all_gather and a wait for it.
  // A one-process group (init_all) checks on the host and needs none.
  bool checks() const;
  void set_checks(bool on);

 private:
  friend struct detail::communicator_access;
  struct state;
  std::shared_ptr<state> s_;
};

// One process, several GPUs: rank i on devices[i] (every GPU when none are given).
std::vector<communicator> init_all(const std::vector<ndfuse::device>& devices);
std::vector<communicator> init_all();
// One process per GPU, from an id rank 0 made and handed to the others some other way.
communicator init_rank(const unique_id& id, int size, int rank, ndfuse::device d,
                       std::chrono::milliseconds timeout = default_timeout);
// The same, rank 0 handing the id over a file all ranks see (which must not exist yet) ...
communicator init_from_file(const std::string& path, int size, int rank, ndfuse::device d,
                            std::chrono::milliseconds timeout = default_timeout);
// ... or a TCP connection to rank 0, which listens on host:port. A rank that never comes makes rank
// 0 throw nf::device_error naming it, and the others with it.
communicator init_from_tcp(const std::string& host, int port, int size, int rank, ndfuse::device d,
                           std::chrono::milliseconds timeout = default_timeout);
// torchrun's environment: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT and LOCAL_RANK (the GPU),
// through init_from_tcp. Under torchrun's own store (TORCHELASTIC_USE_AGENT_STORE=True), which
// holds MASTER_PORT, rank 0 listens on MASTER_PORT + 1; NDFUSE_MASTER_PORT overrides both.
communicator init_from_env(std::chrono::milliseconds timeout = default_timeout);
// Under mpirun or srun: MPI's rank and size of MPI_COMM_WORLD, rank 0's id sent with MPI_Bcast, on
// GPU d (by default the process's local rank among its host's, modulo the GPUs there). MPI is opened
// at run time (NDFUSE_MPI_LIBRARY, else Open MPI's or MPICH's library) and started here if the
// program has not started it. A process that never comes is MPI's to report (mpirun ends the job).
communicator init_from_mpi(std::optional<ndfuse::device> d = std::nullopt,
                           std::chrono::milliseconds timeout = default_timeout);

// ---- One rank per process: x is on c's device. -----------------------------------------------------
array all_reduce(const communicator& c, const array& x, reduce_op op = reduce_op::sum);
// x's first axis, split in c.size() equal parts: rank r gets part r of the reduction.
array reduce_scatter(const communicator& c, const array& x, reduce_op op = reduce_op::sum);
// Every rank's x, concatenated along the first axis in rank order (torch's all_gather_into_tensor).
array all_gather(const communicator& c, const array& x);
// The root's x on every rank; the others' x gives only the shape and dtype.
array broadcast(const communicator& c, const array& x, int root);
// The reduction on the root; the other ranks get their x back.
array reduce(const communicator& c, const array& x, int root, reduce_op op = reduce_op::sum);
void send(const communicator& c, const array& x, int peer);
array recv(const communicator& c, const shape_t& shape, dtype t, int peer);
// Sends x to `to` and receives an array of x's shape and dtype from `from`, together (so that a
// ring shift, every rank sending and receiving, cannot deadlock).
array send_recv(const communicator& c, const array& x, int to, int from);
// Returns when every rank has reached it and this rank's queued GPU work is done.
void barrier(const communicator& c);

// ---- Every rank in this process at once: parts[i] is on comms[i]'s device. --------------------------
std::vector<array> all_reduce(const std::vector<communicator>& comms, const std::vector<array>& parts,
                              reduce_op op = reduce_op::sum);
std::vector<array> reduce_scatter(const std::vector<communicator>& comms, const std::vector<array>& parts,
                                  reduce_op op = reduce_op::sum);
std::vector<array> all_gather(const std::vector<communicator>& comms, const std::vector<array>& parts);
std::vector<array> broadcast(const std::vector<communicator>& comms, const std::vector<array>& parts,
                             int root);
std::vector<array> reduce(const std::vector<communicator>& comms, const std::vector<array>& parts, int root,
                          reduce_op op = reduce_op::sum);
void barrier(const std::vector<communicator>& comms);

}  // namespace distributed
}  // namespace ndfuse
