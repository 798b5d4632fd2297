#include "jit/nvrtc_compiler.hpp"

#include <nvrtc.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "jit/prelude.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"
#include "support/hash.hpp"
#include "support/log.hpp"

namespace ndfuse::jit {

namespace {

namespace fs = std::filesystem;

void check(nvrtcResult r, const char* call, const std::string& name) {
  if (r != NVRTC_SUCCESS)
    throw compile_error(std::string("NVRTC ") + call + " failed for " + name + ": " + nvrtcGetErrorString(r));
}

using support::env::debug_level;

// Destroys the program on every path out of a compile.
struct program {
  nvrtcProgram handle = nullptr;
  std::string name;
  // A user's own program (a raw module) gets no prelude: its includes are its own.
  program(const std::string& source, const std::string& program_name, bool with_prelude = true)
      : name(program_name) {
    // The embedded prelude views string literals, so data() is null-terminated as NVRTC needs.
    std::vector<const char*> text_ptrs, name_ptrs;
    if (with_prelude)
      for (const auto& f : prelude_files()) {
        text_ptrs.push_back(f.text.data());
        name_ptrs.push_back(f.name.data());
      }
    check(nvrtcCreateProgram(&handle, source.c_str(), (name + ".cu").c_str(),
                             static_cast<int>(text_ptrs.size()), text_ptrs.data(), name_ptrs.data()),
          "nvrtcCreateProgram", name);
  }
  ~program() {
    if (handle) nvrtcDestroyProgram(&handle);  // cannot fail for a valid handle; nothing to report
  }
  program(const program&) = delete;
  program& operator=(const program&) = delete;

  // Returns whether it compiled; the log either way.
  bool compile(const std::vector<std::string>& options, std::string& log) {
    std::vector<const char*> opts;
    for (const auto& o : options) opts.push_back(o.c_str());
    const nvrtcResult r = nvrtcCompileProgram(handle, static_cast<int>(opts.size()), opts.data());
    std::size_t n = 0;
    check(nvrtcGetProgramLogSize(handle, &n), "nvrtcGetProgramLogSize", name);
    log.assign(n, '\0');
    if (n > 0) check(nvrtcGetProgramLog(handle, log.data()), "nvrtcGetProgramLog", name);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    if (r == NVRTC_ERROR_COMPILATION) return false;
    check(r, "nvrtcCompileProgram", name);
    return true;
  }
};

void write_file(const fs::path& path, std::string_view text) {
  std::ofstream f(path, std::ios::binary);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!f) throw io_error("cannot write " + path.string());
}

// Writes the prelude headers into `dir` once per process and directory, so dumps compile alone.
void write_prelude(const fs::path& dir) {
  static std::mutex mutex;
  static std::set<std::string> done;
  std::lock_guard lock(mutex);
  if (!done.insert(dir.string()).second) return;
  for (const auto& f : prelude_files()) write_file(dir / std::string(f.name), f.text);
}

fs::path dump_source(const fs::path& dir, const std::string& source, const std::string& name) {
  fs::create_directories(dir);
  write_prelude(dir);
  const fs::path path = dir / (name + ".cu");
  write_file(path, source);
  return path;
}

// Where a failed program goes when NDFUSE_DUMP_DIR is unset: a directory of this process.
fs::path failure_dir() {
  static std::atomic<int> counter{0};
  return fs::temp_directory_path() /
         ("ndfuse-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
}

std::string get_ptx(const std::string& source, const std::string& name, int sm) {
  program p(source, name);
  auto options = compile_options(sm);
  options[0] = "--gpu-architecture=compute_" + std::to_string(sm);
  std::string log;
  if (!p.compile(options, log)) return "(PTX compile failed)\n" + log;
  std::size_t n = 0;
  check(nvrtcGetPTXSize(p.handle, &n), "nvrtcGetPTXSize", name);
  std::string ptx(n, '\0');
  check(nvrtcGetPTX(p.handle, ptx.data()), "nvrtcGetPTX", name);
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  return support::fnv1a(s, h);
}

}  // namespace

std::vector<std::string> compile_options(int sm) {
  return {"--gpu-architecture=sm_" + std::to_string(sm), "-std=c++17", "--fmad=false"};
}

compiled_binary compile_to_cubin(const std::string& source, const std::string& name, int sm) {
  return compile_program({source, name, compile_options(sm), {}, true}, sm);
}

compiled_binary compile_program(const program_request& r, int sm) {
  const std::string& source = r.source;
  const std::string& name = r.name;
  const int level = debug_level();
  const std::string& dump_dir = support::env::dump_dir();
  fs::path dumped;
  if (!dump_dir.empty()) {
    try {
      dumped = dump_source(dump_dir, source, name);
    } catch (const std::exception& e) {  // a dump is a debugging aid: never fail the compile for it
      support::log_line(std::string("warning: NDFUSE_DUMP_DIR: ") + e.what());
    }
  }
  if (level >= 3) support::log_line("source of " + name + " (sm_" + std::to_string(sm) + "):\n" + source);

  compiled_binary out;
  out.name = name;
  out.sm = sm;
  program p(source, name, r.with_prelude);
  for (const auto& e : r.name_expressions)
    check(nvrtcAddNameExpression(p.handle, e.c_str()), "nvrtcAddNameExpression", name);
  const bool ok = p.compile(r.options, out.log);
  if (level >= 4 && !out.log.empty()) support::log_line("NVRTC log of " + name + ":\n" + out.log);
  if (!ok) {
    if (dumped.empty()) {
      try {
        dumped = dump_source(failure_dir(), source, name);
      } catch (const std::exception& e) {
        dumped = std::string("(could not dump: ") + e.what() + ")";
      }
    }
    throw compile_error("NVRTC could not compile kernel " + name + " for sm_" + std::to_string(sm) +
                        "; source: " + dumped.string() + "\n" + out.log);
  }
  std::size_t n = 0;
  check(nvrtcGetCUBINSize(p.handle, &n), "nvrtcGetCUBINSize", name);
  out.cubin.resize(n);
  check(nvrtcGetCUBIN(p.handle, out.cubin.data()), "nvrtcGetCUBIN", name);
  for (const auto& e : r.name_expressions) {
    const char* lowered = nullptr;
    check(nvrtcGetLoweredName(p.handle, e.c_str(), &lowered), "nvrtcGetLoweredName", name);
    out.lowered_names.emplace_back(e, lowered);
  }
  if (level >= 4 && r.with_prelude) support::log_line("PTX of " + name + ":\n" + get_ptx(source, name, sm));
  return out;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion", "version query");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<int> supported_sms() {
  int n = 0;
  check(nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs", "arch query");
  std::vector<int> archs(static_cast<std::size_t>(n));
  if (n > 0) check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs", "arch query");
  return archs;
}

std::string compile_fingerprint(int sm) {
  // Memoized: a disk-cache lookup asks for it on every miss of the in-memory cache.
  static std::mutex mutex;
  static std::map<int, std::string> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(sm); it != known.end()) return it->second;
  std::uint64_t h = fnv1a(support::fnv1a_basis, "nvrtc " + nvrtc_version());
  for (const auto& o : compile_options(sm)) h = fnv1a(fnv1a(h, o), "\n");
  for (const auto& f : prelude_files()) h = fnv1a(fnv1a(fnv1a(h, f.name), "\n"), f.text);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return known.emplace(sm, buf).first->second;
}

}  // namespace ndfuse::jit
