// The one test header: Catch2 3 where it is installed (the GPU machine), else Catch2 2.13 (Debian).
// Tests include this, never Catch2 directly, so they build unchanged against either.
#pragma once

// CMake says which Catch2 it linked (NDFUSE_CATCH2_MAJOR); __has_include is the fallback for builds
// that compile a test outside tests/CMakeLists.txt.
#if !defined(NDFUSE_CATCH2_MAJOR)
#if __has_include(<catch2/catch_all.hpp>)
#define NDFUSE_CATCH2_MAJOR 3
#else
#define NDFUSE_CATCH2_MAJOR 2
#endif
#endif

#if NDFUSE_CATCH2_MAJOR >= 3
#include <catch2/catch_all.hpp>
using Catch::Approx;  // Catch2 2 has it in the global namespace
#else
#include <catch2/catch.hpp>
#endif

namespace ndfuse_test {
// Counts a skipped test case when Catch2 has no SKIP of its own (tests/main.cpp turns a run where
// every test case skipped into exit code 4, which CTest reports as skipped).
void note_skip();
}  // namespace ndfuse_test

// NDFUSE_SKIP(msg): this test case cannot run here (no device, no oracle, ...). It is reported as
// skipped, never as passed. `msg` may stream: NDFUSE_SKIP("needs " << what). Use it in the test case
// body, not inside a helper function, since the fallback returns from the enclosing function.
#if defined(SKIP)
#define NDFUSE_CATCH2_NATIVE_SKIP 1
#define NDFUSE_SKIP(msg) SKIP(msg)
#else
#define NDFUSE_CATCH2_NATIVE_SKIP 0
#define NDFUSE_SKIP(msg)        \
  do {                          \
    WARN("SKIPPED: " << msg);   \
    ::ndfuse_test::note_skip(); \
    return;                     \
  } while (false)
#endif
