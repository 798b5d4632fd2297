// The bootstrap of a communicator under MPI: the program was started by mpirun (or srun), MPI
// numbers the processes, and rank 0's token (NCCL's id) reaches the others through MPI_Bcast. MPI
// is opened at run time, so ndfuse neither needs nor links it; a program that initialized MPI
// keeps its own state, one that did not gets MPI_Init here (and MPI_Finalize at exit).
#pragma once
#include <functional>

#include "support/rendezvous.hpp"

namespace ndfuse::support {

struct mpi_rank {
  int rank = 0, size = 1;
  int local_rank = 0;  // among the processes of this host (the launcher's variables), else the rank
  rendezvous_token token{};
};

// Throws nf::device_error when MPI cannot be loaded (NDFUSE_MPI_LIBRARY, else Open MPI's
// libmpi.so.40, else MPICH's libmpi.so.12) or a call fails.
mpi_rank rendezvous_mpi(const std::function<rendezvous_token()>& make_token);

}  // namespace ndfuse::support
