// A raw module's program (nf::raw_kernel, nf::raw_module): what the frontend hands the CUDA backend.
// The program is compiled per GPU architecture and loaded per GPU, on first use, and each compile
// goes through the disk cache (jit/raw_compile.hpp). Without CUDA, each entry point throws
// device_error.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ndfuse::detail {

struct raw_program {
  // From source: compiled by NVRTC.
  std::string source;
  std::string name;  // in messages and dumps: the kernel's name, or "raw_module"
  std::vector<std::string> options, name_expressions;
  // From a file: its bytes (CUBIN, PTX or fatbin), loaded as they are; empty for a source program.
  std::string image, image_path;

  bool from_source() const { return image.empty(); }

  // The backend's state, under `mutex`: CUBINs and lowered names by architecture (sm), modules by
  // GPU, functions by (GPU, symbol), and the dynamic shared memory each function was allowed.
  std::mutex mutex;
  std::map<int, std::string> cubins;
  std::map<int, std::vector<std::pair<std::string, std::string>>> lowered;
  std::map<int, void*> modules;
  std::map<std::pair<int, std::string>, void*> functions;
  std::map<void*, std::size_t> shared_allowed;

  raw_program() = default;
  raw_program(const raw_program&) = delete;
  raw_program& operator=(const raw_program&) = delete;
  ~raw_program();  // unloads the modules
};

struct raw_launch {
  unsigned grid[3], block[3];
  std::size_t shared_mem = 0;
};

// The current GPU's architecture (90 for sm_90); device_error when no GPU is usable.
int current_sm();
// Compiles p for sm_<sm> now (0: the current GPU's): compile_error on failure. A file's image has
// nothing to compile.
void compile(raw_program& p, int sm);
// The symbol `name` has in the CUBIN: its lowered name when it is one of p's name expressions
// (compiling for sm_<sm> where needed; 0: the current GPU's, else sm_90), else `name`.
std::string lowered_name(raw_program& p, const std::string& name, int sm);
// Launches p's kernel `name` on GPU `device`, which must be this thread's current one, on its
// current stream. `params` is cuLaunchKernel's kernelParams.
void launch(raw_program& p, const std::string& name, int device, const raw_launch& l, void** params);

}  // namespace ndfuse::detail
