// Re-running the test executable as a child process, for tests that need a fresh process (the disk
// cache across processes) or another backend (NDFUSE_BACKEND is read once per process).
#pragma once
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "ndfuse/ndfuse.hpp"

extern char** environ;

namespace ndfuse_test {

// Starts this test executable again on one test case, with extra environment variables, without
// waiting for it; wait_child() waits and gives its exit code.
inline pid_t spawn_self(const std::string& test_name, const std::vector<std::string>& extra_env) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    bool overridden = false;
    for (const auto& x : extra_env)
      overridden = overridden || kv.substr(0, kv.find('=')) == x.substr(0, x.find('='));
    if (!overridden) env.push_back(kv);
  }
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp;
  for (auto& kv : env) envp.push_back(kv.data());
  envp.push_back(nullptr);
  std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string name = test_name;
  char* argv[] = {exe.data(), name.data(), nullptr};
  pid_t pid = 0;
  return posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()) == 0 ? pid : -1;
}

inline int wait_child(pid_t pid) {
  int status = 0;
  if (pid <= 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs this test executable again on one test case, with extra environment variables; its exit code.
inline int run_self(const std::string& test_name, const std::vector<std::string>& extra_env) {
  return wait_child(spawn_self(test_name, extra_env));
}

// Child test cases run only when a parent spawned them for that purpose (a tag filter would
// otherwise select them too).
inline bool is_child(const char* role) {
  const char* v = std::getenv("NDFUSE_TEST_CHILD");
  return v && std::strcmp(v, role) == 0;
}

// True where the process's backend is cuda (a GPU machine); NDFUSE_BACKEND=cuda without a device
// throws at first use, which counts as not active.
inline bool cuda_backend_active() {
  try {
    return nf::backend_name() == "cuda";
  } catch (const nf::error&) {
    return false;
  }
}

}  // namespace ndfuse_test
