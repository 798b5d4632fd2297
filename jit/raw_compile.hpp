// Compile for raw modules (nf::raw_kernel, nf::raw_module): a user's whole CUDA program -> CUBIN for
// sm_<sm> through NVRTC and the disk cache, with the lowered names of its name expressions. Needs
// no device, so CI tests it.
//
// The cache key holds, besides the source, options, name expressions, NVRTC version and arch, the
// contents of every header the program includes that can be found (CuPy keys on the source
// alone, so an edited header is not seen: CuPy #6159). Headers are found by scanning #include
// lines, as NVRTC would resolve them: a quoted name next to the file that includes it (the main
// source: the current directory, or the module file's directory), then in each -I / --include-path
// directory. The scan is conservative (an include under an #if false still counts) and skips the
// CUDA toolkit's own include directory, whose headers the toolkit's version covers.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ndfuse::support {
class disk_cache;
}

namespace ndfuse::jit {

struct raw_request {
  std::string source;
  std::string name;                  // for messages and the dumped file: the kernel's name, or "raw_module"
  std::vector<std::string> options;  // the user's NVRTC options
  std::vector<std::string> name_expressions;  // template instances to find by their spelling
  std::string source_dir;                     // where a quoted #include of the source looks first
};

struct raw_binary {
  std::string cubin;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // name expression -> symbol
  bool from_disk = false;
};

// The options NVRTC is given for sm_<sm>: the user's, then --gpu-architecture=sm_<sm>, -std=c++17
// unless the user chose a standard, and -I of the toolkit's include directory when it exists (so
// <cuda_fp16.h> resolves, as it does in CuPy).
std::vector<std::string> raw_options_for(const raw_request& r, int sm);

// Paths and a digest of the contents of every header the source includes that the scan finds.
struct header_scan {
  std::vector<std::string> found;      // resolved paths, in the order first reached
  std::vector<std::string> not_found;  // names left to NVRTC (its built-in headers, or errors)
  std::string digest;                  // 16 hex digits over every found path and its contents
};
header_scan scan_headers(const raw_request& r);

// The CUBIN from the disk cache, else compiled (compile_error on failure) and stored.
raw_binary compile_raw(const raw_request& r, int sm, support::disk_cache& cache);

}  // namespace ndfuse::jit
