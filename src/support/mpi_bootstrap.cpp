#include "support/mpi_bootstrap.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "ndfuse/error.hpp"
#include "support/env.hpp"

namespace ndfuse::support {

namespace {

// MPI's handles differ between implementations: Open MPI's MPI_Comm and MPI_Datatype are pointers
// to its predefined objects (ompi_mpi_comm_world, ompi_mpi_byte), MPICH's are integers with fixed
// values. The calls ndfuse makes take them by value, so each family gets its own signatures.
constexpr int mpich_comm_world = 0x44000000;
constexpr int mpich_byte = 0x4c00010d;

struct mpi_api {
  int (*initialized)(int*) = nullptr;
  int (*init)(int*, char***) = nullptr;
  int (*finalize)() = nullptr;
  int (*finalized)(int*) = nullptr;
  // Open MPI
  void* ompi_world = nullptr;
  void* ompi_byte = nullptr;
  int (*ompi_rank)(void*, int*) = nullptr;
  int (*ompi_size)(void*, int*) = nullptr;
  int (*ompi_bcast)(void*, int, void*, int, void*) = nullptr;
  // MPICH
  int (*mpich_rank)(int, int*) = nullptr;
  int (*mpich_size)(int, int*) = nullptr;
  int (*mpich_bcast)(void*, int, int, int, int) = nullptr;
  std::string why;  // empty when loaded
};

const mpi_api& mpi() {
  static const mpi_api api = [] {
    mpi_api a;
    std::vector<std::string> paths;
    if (const auto& v = env::raw(env::var::mpi_library); v && !v->empty())
      paths = {*v};
    else
      paths = {"libmpi.so.40", "libmpi.so.12", "libmpi.so"};
    void* h = nullptr;
    std::string tried;
    for (const auto& p : paths) {
      // RTLD_GLOBAL: Open MPI's components, opened by libmpi itself, resolve its symbols.
      h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (h) break;
      const char* e = ::dlerror();
      tried += (tried.empty() ? "" : "; ") + (e ? std::string(e) : p);
    }
    if (!h) {
      a.why =
          "MPI cannot be loaded (" + tried + "); install an MPI or set NDFUSE_MPI_LIBRARY to its libmpi.so";
      return a;
    }
    auto sym = [&](const char* name) { return ::dlsym(h, name); };
    a.initialized = reinterpret_cast<decltype(a.initialized)>(sym("MPI_Initialized"));
    a.init = reinterpret_cast<decltype(a.init)>(sym("MPI_Init"));
    a.finalize = reinterpret_cast<decltype(a.finalize)>(sym("MPI_Finalize"));
    a.finalized = reinterpret_cast<decltype(a.finalized)>(sym("MPI_Finalized"));
    a.ompi_world = sym("ompi_mpi_comm_world");
    a.ompi_byte = sym("ompi_mpi_byte");
    if (a.ompi_world && a.ompi_byte) {
      a.ompi_rank = reinterpret_cast<decltype(a.ompi_rank)>(sym("MPI_Comm_rank"));
      a.ompi_size = reinterpret_cast<decltype(a.ompi_size)>(sym("MPI_Comm_size"));
      a.ompi_bcast = reinterpret_cast<decltype(a.ompi_bcast)>(sym("MPI_Bcast"));
    } else {
      a.mpich_rank = reinterpret_cast<decltype(a.mpich_rank)>(sym("MPI_Comm_rank"));
      a.mpich_size = reinterpret_cast<decltype(a.mpich_size)>(sym("MPI_Comm_size"));
      a.mpich_bcast = reinterpret_cast<decltype(a.mpich_bcast)>(sym("MPI_Bcast"));
    }
    const bool calls = a.ompi_bcast || a.mpich_bcast;
    if (!a.initialized || !a.init || !a.finalize || !a.finalized || !calls)
      a.why = "the MPI library lacks MPI_Init, MPI_Comm_rank or MPI_Bcast";
    return a;
  }();
  return api;
}

void check(int rc, const char* call) {
  if (rc != 0)
    throw device_error(std::string("distributed::init_from_mpi: ") + call + " failed (MPI error " +
                       std::to_string(rc) + ")");
}

int local_rank_or(int rank) {
  for (const char* name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MPI_LOCAL_RANK", "SLURM_LOCALID"})
    if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
  return rank;
}

}  // namespace

mpi_rank rendezvous_mpi(const std::function<rendezvous_token()>& make_token) {
  const mpi_api& a = mpi();
  if (!a.why.empty()) throw device_error("distributed::init_from_mpi: " + a.why);
  static std::once_flag started;
  std::call_once(started, [&] {
    int is_on = 0;
    check(a.initialized(&is_on), "MPI_Initialized");
    if (is_on) return;
    check(a.init(nullptr, nullptr), "MPI_Init");
    // MPI started here ends here, at exit, unless the program ended it first.
    std::atexit([] {
      int done = 0;
      if (mpi().finalized(&done) == 0 && !done) mpi().finalize();
    });
  });
  mpi_rank r;
  if (a.ompi_bcast) {
    check(a.ompi_rank(a.ompi_world, &r.rank), "MPI_Comm_rank");
    check(a.ompi_size(a.ompi_world, &r.size), "MPI_Comm_size");
  } else {
    check(a.mpich_rank(mpich_comm_world, &r.rank), "MPI_Comm_rank");
    check(a.mpich_size(mpich_comm_world, &r.size), "MPI_Comm_size");
  }
  if (r.rank == 0) r.token = make_token();
  const int n = static_cast<int>(r.token.size());
  if (a.ompi_bcast)
    check(a.ompi_bcast(r.token.data(), n, a.ompi_byte, 0, a.ompi_world), "MPI_Bcast");
  else
    check(a.mpich_bcast(r.token.data(), n, mpich_byte, 0, mpich_comm_world), "MPI_Bcast");
  r.local_rank = local_rank_or(r.rank);
  return r;
}

}  // namespace ndfuse::support
