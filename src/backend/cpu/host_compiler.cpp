#include "backend/cpu/host_compiler.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "ndfuse/error.hpp"
#include "support/disk_cache.hpp"
#include "support/env.hpp"
#include "support/log.hpp"

extern char** environ;

namespace ndfuse::backend::cpu {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& flags() {
  static const std::vector<std::string> f{"-std=c++20", "-O2", "-fPIC", "-shared", "-ffp-contract=off"};
  return f;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw io_error("cannot write " + p.string());
}

// Runs `argv` with stdout and stderr into `log`; its exit status (-1 when it could not start).
int run(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A directory of this process for one compile (kept when the compile fails, for the user).
fs::path scratch_dir() {
  static std::atomic<int> counter{0};
  fs::path dir = fs::temp_directory_path() /
                 ("ndfuse-host-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
  fs::create_directories(dir);
  return dir;
}

// The compiler's first --version line: part of every key, so another compiler misses the cache.
const std::string& compiler_identity() {
  static const std::string identity = [] {
    const fs::path dir = scratch_dir();
    const fs::path log = dir / "version.txt";
    const int status = run({host_compiler(), "--version"}, log);
    std::string first = read_file(log);
    fs::remove_all(dir);
    if (status != 0)
      throw device_error("user kernels on the CPU device are compiled with a C++ compiler, and '" +
                         host_compiler() + "' did not run (status " + std::to_string(status) +
                         "); set NDFUSE_HOST_CXX");
    return first.substr(0, first.find('\n'));
  }();
  return identity;
}

std::string machine() {
  utsname u{};
  return ::uname(&u) == 0 ? std::string(u.machine) : std::string("unknown");
}

std::string joined_flags() {
  std::string s;
  for (const auto& f : flags()) s += f + " ";
  return s;
}

void* open_module(const char* path) {
  void* h = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) throw compile_error(std::string("cannot load a compiled user kernel: ") + ::dlerror());
  return h;
}

// A cached shared object loaded from memory: written to an anonymous file and opened through its
// descriptor, so no file is left behind. The descriptor stays open while the module is loaded:
// dlopen knows a module by its path, and a reused descriptor number (the same /proc/self/fd/N)
// would hand back the module loaded before instead of this one.
void* open_bytes(const std::string& bytes, const std::string& name, int& fd) {
  fd = ::memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w <= 0) {
      ::close(fd);
      fd = -1;
      return nullptr;
    }
    done += static_cast<std::size_t>(w);
  }
  void* h = ::dlopen(("/proc/self/fd/" + std::to_string(fd)).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    ::close(fd);
    fd = -1;
  }
  return h;
}

}  // namespace

host_module::~host_module() {
  ::dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
}

void* host_module::symbol(const char* name) const {
  void* p = ::dlsym(handle_, name);
  if (!p) throw compile_error(std::string("compiled user kernel has no symbol '") + name + "'");
  return p;
}

const std::string& host_compiler() {
  static const std::string cxx = [] {
    const auto& set = support::env::raw(support::env::var::host_cxx);
    if (set && !set->empty()) return *set;
    return std::string(NDFUSE_HOST_CXX_DEFAULT);
  }();
  return cxx;
}

std::shared_ptr<const host_module> compile_host(const std::string& source, const std::string& name,
                                                support::disk_cache& cache) {
  const std::string key =
      support::disk_cache::make_key(source, joined_flags(), compiler_identity(), "host-" + machine());
  if (const auto bytes = cache.load(key)) {
    int fd = -1;
    if (void* h = open_bytes(*bytes, name, fd)) return std::make_shared<host_module>(h, true, fd);
  }

  const std::string& dump = support::env::dump_dir();
  if (!dump.empty()) {
    try {
      fs::create_directories(dump);
      write_file(fs::path(dump) / (name + ".cpp"), source);
    } catch (const std::exception& e) {  // a dump is a debugging aid: never fail the compile for it
      support::log_line(std::string("warning: NDFUSE_DUMP_DIR: ") + e.what());
    }
  }
  const fs::path dir = scratch_dir();
  const fs::path src = dir / (name + ".cpp"), out = dir / (name + ".so"), log = dir / "log.txt";
  write_file(src, source);
  std::vector<std::string> argv{host_compiler()};
  argv.insert(argv.end(), flags().begin(), flags().end());
  argv.insert(argv.end(), {"-o", out.string(), src.string()});
  const int status = run(argv, log);
  if (status != 0)
    throw compile_error(name + ": the host compiler (" + host_compiler() + ") failed:\n" + read_file(log) +
                        "source: " + src.string());
  const std::string bytes = read_file(out);
  cache.store(key, bytes);
  void* h = open_module(out.c_str());
  fs::remove_all(dir);
  return std::make_shared<host_module>(h, false);
}

std::shared_ptr<const host_module> compile_host(const std::string& source, const std::string& name) {
  // Each source compiles once per process; compiles of different sources may run at once.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const host_module>> loaded;
  {
    const std::lock_guard lock(mutex);
    if (auto it = loaded.find(source); it != loaded.end()) return it->second;
  }
  auto m = compile_host(source, name, support::disk_cache::global());
  const std::lock_guard lock(mutex);
  return loaded.try_emplace(source, std::move(m)).first->second;
}

}  // namespace ndfuse::backend::cpu
