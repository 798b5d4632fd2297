// Compile: CUDA source -> CUBIN through NVRTC, for the device's own architecture. The second of
// jit/'s three pieces (render, compile, load); loading the CUBIN (cuModuleLoadData) is the CUDA
// backend's job, and caching wraps this step.
//
// Observability (read on every call):
//   NDFUSE_DUMP_DIR  each compiled program is written there as <name>.cu, next to the prelude
//                    headers it includes, so `nvcc -c <dir>/<name>.cu` reproduces it;
//   NDFUSE_DEBUG=3   the source goes to stderr before compiling;
//   NDFUSE_DEBUG=4   also NVRTC's log and the PTX (from a second compile for compute_<sm>).
// A failed compile throws nf::compile_error holding NVRTC's log and the path of the dumped source
// (NDFUSE_DUMP_DIR, or a fresh directory under the system temp directory when it is unset).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ndfuse::jit {

struct compiled_binary {
  std::string name;  // the program's name (the kernel name for single-kernel programs)
  int sm = 0;        // compiled for sm_<sm>
  std::vector<char> cubin;
  std::string log;  // NVRTC's log: warnings, usually empty
  // Each name expression asked for, with the name its __global__ function has in the CUBIN.
  std::vector<std::pair<std::string, std::string>> lowered_names;
};

// One NVRTC program: its source, name (of the dumped file and in messages), full option list and
// the name expressions (template instances) whose lowered names to report.
struct program_request {
  std::string source, name;
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
  bool with_prelude = true;  // the device prelude's headers are there to include
};

// The NVRTC options used for sm_<sm>: CUBIN for that arch, C++17, and no contraction of a * b + c
// into fma (each NumPy ufunc rounds on its own; explicit fma() calls in the prelude still fuse).
// No --use_fast_math: division, sqrt and libdevice math keep full accuracy.
std::vector<std::string> compile_options(int sm);

// Compiles a program from render()/render_program(). The prelude headers are supplied in memory.
compiled_binary compile_to_cubin(const std::string& source, const std::string& name, int sm);
// Any program, with its own options (which must name the architecture sm_<sm>): the raw modules.
compiled_binary compile_program(const program_request& r, int sm);

// "13.0": the NVRTC library this process uses (part of any disk-cache key).
std::string nvrtc_version();
// The sm_XX values this NVRTC can compile for, ascending.
std::vector<int> supported_sms();
// Everything besides the source that determines the CUBIN: NVRTC version, options and the prelude
// text, as a 16-hex-digit digest (for cache keys).
std::string compile_fingerprint(int sm);

}  // namespace ndfuse::jit
