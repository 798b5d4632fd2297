// Every NDFUSE_* environment variable the library reads, declared once in one table (name, type,
// default, one doc line: env.cpp) and read once, the first time the library asks for it; the value
// then holds for the process (a test that needs another value runs a child process with it).
// docs/env-vars.md lists the same variables; the env_vars test compares the two.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ndfuse::support::env {

enum class var {
  device,
  backend,
  debug,
  eager,
  plan_memo,
  allow_tf32,
  keep_freed,
  jacobi_max_sweeps,
  fft_four_step,
  threads,
  dump_dir,
  cache_dir,
  cache_max_bytes,
  host_cxx,
  copy_threads,
  nccl_library,
  master_port,
  mpi_library,
};

struct declaration {
  var id;
  const char* name;          // "NDFUSE_DEBUG"
  const char* type;          // what a value may be: "0-4", "flag", "directory", ...
  const char* default_text;  // in words, as docs/env-vars.md gives it
  const char* doc;           // one line
};
std::span<const declaration> table();

// The variable's value as first read (nullopt when unset; set but empty is "").
const std::optional<std::string>& raw(var v);

// Typed readings, each following the variable's declaration.
int debug_level();              // NDFUSE_DEBUG: 0 unless set to a number
bool eager();                   // NDFUSE_EAGER: on when set to anything but "" or "0"
bool plan_memo();               // NDFUSE_PLAN_MEMO: on unless "0"
bool allow_tf32();              // NDFUSE_ALLOW_TF32: on when set to anything but "" or "0"
bool keep_freed();              // NDFUSE_KEEP_FREED: on unless "0"
bool fft_four_step();           // NDFUSE_FFT_FOUR_STEP: on unless "0"
int jacobi_max_sweeps();        // NDFUSE_JACOBI_MAX_SWEEPS: a positive integer, else 40
int copy_threads();             // NDFUSE_COPY_THREADS: a positive integer, else 0 (the default)
const std::string& dump_dir();  // NDFUSE_DUMP_DIR: "" when unset

}  // namespace ndfuse::support::env
