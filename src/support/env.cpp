#include "support/env.hpp"

#include <array>
#include <cstdlib>
#include <mutex>

namespace ndfuse::support::env {

namespace {

// clang-format off
constexpr std::array<declaration, 18> declarations = {{
  {var::device, "NDFUSE_DEVICE", "cpu, cuda, cuda:N", "GPU 0 when the library was built with CUDA and a GPU is usable, else cpu",
   "The process default device: where arrays are made outside every device scope."},
  {var::backend, "NDFUSE_BACKEND", "cpu, cuda", "cuda when the library was built with CUDA and a device is present, else cpu",
   "Read as NDFUSE_DEVICE=cpu or cuda:0 when NDFUSE_DEVICE is unset."},
  {var::debug, "NDFUSE_DEBUG", "0–4", "0",
   "Logging to stderr: steps and times, the fusion plan, the generated source, the NVRTC log."},
  {var::eager, "NDFUSE_EAGER", "1 (any value but 0)", "unset",
   "Evaluates every op as soon as it is built, one kernel each."},
  {var::plan_memo, "NDFUSE_PLAN_MEMO", "0", "on",
   "0 turns the plan memo off: every evaluation runs the fuser's passes."},
  {var::allow_tf32, "NDFUSE_ALLOW_TF32", "1 (any value but 0)", "unset",
   "CUDA: float32 matrix products may use TF32 tensor cores."},
  {var::keep_freed, "NDFUSE_KEEP_FREED", "0", "on",
   "CUDA: 0 stops freed device blocks from being kept for the next allocation of their size."},
  {var::jacobi_max_sweeps, "NDFUSE_JACOBI_MAX_SWEEPS", "a positive integer", "40",
   "CUDA: the sweeps the Jacobi eigh and svd kernels make before a matrix counts as not converged."},
  {var::fft_four_step, "NDFUSE_FFT_FOUR_STEP", "0", "on",
   "CUDA: 0 sends the largest complex128 1-d transforms to cuFFT instead of the two-pass kernel."},
  {var::threads, "NDFUSE_THREADS", "a positive integer, at most 4 x the hardware threads",
   "hardware concurrency", "Threads of the CPU backend's pool."},
  {var::dump_dir, "NDFUSE_DUMP_DIR", "a directory", "unset",
   "CUDA: one .cu file per compiled kernel, with the prelude headers beside it."},
  {var::cache_dir, "NDFUSE_CACHE_DIR", "a directory; empty disables", "$XDG_CACHE_HOME/ndfuse, else ~/.cache/ndfuse",
   "CUDA: the on-disk cache of compiled kernels."},
  {var::cache_max_bytes, "NDFUSE_CACHE_MAX_BYTES", "bytes", "1 GiB",
   "CUDA: size bound of the disk cache."},
  {var::host_cxx, "NDFUSE_HOST_CXX", "a compiler command", "the C++ compiler ndfuse was built with",
   "CPU: the compiler of user kernels' host code."},
  {var::copy_threads, "NDFUSE_COPY_THREADS", "a positive integer (at most 64 are used)", "half the hardware threads, at most 16",
   "CUDA: threads copying between the caller's memory and pinned staging in host<->GPU moves."},
  {var::nccl_library, "NDFUSE_NCCL_LIBRARY", "a path to libnccl.so", "libnccl.so.2 on the library path, else the CUDA toolkit's",
   "CUDA: the NCCL library nf::distributed opens."},
  {var::master_port, "NDFUSE_MASTER_PORT", "a TCP port", "MASTER_PORT, or MASTER_PORT + 1 under torchrun's own store",
   "CUDA: the port rank 0 listens on in nf::distributed::init_from_env."},
  {var::mpi_library, "NDFUSE_MPI_LIBRARY", "a path to libmpi.so", "Open MPI's libmpi.so.40, else MPICH's libmpi.so.12",
   "CUDA: the MPI library nf::distributed::init_from_mpi opens."},
}};
// clang-format on

bool on_unless_zero(var v) {
  const auto& r = raw(v);
  return !(r && *r == "0");
}

bool on_when_set(var v) {
  const auto& r = raw(v);
  return r && !r->empty() && *r != "0";
}

// Each declaration sits at its enumerator's index.
constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < declarations.size(); ++i)
    if (static_cast<std::size_t>(declarations[i].id) != i) return false;
  return true;
}
static_assert(in_enum_order());

}  // namespace

std::span<const declaration> table() {
  return declarations;
}

const std::optional<std::string>& raw(var v) {
  static std::array<std::optional<std::string>, declarations.size()> values;
  static std::once_flag read;
  std::call_once(read, [] {
    for (const declaration& d : declarations)
      if (const char* value = std::getenv(d.name)) values[static_cast<std::size_t>(d.id)] = value;
  });
  return values[static_cast<std::size_t>(v)];
}

// Each reading is made once and kept: debug_level and eager are asked on every step.
int debug_level() {
  static const int level = [] {
    const auto& r = raw(var::debug);
    return r ? std::atoi(r->c_str()) : 0;
  }();
  return level;
}
bool eager() {
  static const bool on = on_when_set(var::eager);
  return on;
}
bool plan_memo() {
  static const bool on = on_unless_zero(var::plan_memo);
  return on;
}
bool allow_tf32() {
  static const bool on = on_when_set(var::allow_tf32);
  return on;
}
bool keep_freed() {
  static const bool on = on_unless_zero(var::keep_freed);
  return on;
}
bool fft_four_step() {
  static const bool on = on_unless_zero(var::fft_four_step);
  return on;
}
int jacobi_max_sweeps() {
  static const int sweeps = [] {
    const auto& r = raw(var::jacobi_max_sweeps);
    const int n = r ? std::atoi(r->c_str()) : 0;
    return n > 0 ? n : 40;
  }();
  return sweeps;
}
int copy_threads() {
  static const int n = [] {
    const auto& r = raw(var::copy_threads);
    const int v = r ? std::atoi(r->c_str()) : 0;
    return v > 0 ? v : 0;
  }();
  return n;
}
const std::string& dump_dir() {
  static const std::string dir = raw(var::dump_dir).value_or("");
  return dir;
}

}  // namespace ndfuse::support::env
