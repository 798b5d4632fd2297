// nf::config::allow_tf32: whether float32 products may use TF32 tensor cores (CUDA only). Off unless
// NDFUSE_ALLOW_TF32=1 or the call turns it on: NumPy's float32 products are IEEE float32.
#include <atomic>

#include "ndfuse/linalg.hpp"
#include "support/env.hpp"

namespace ndfuse::config {

namespace {

std::atomic<bool>& tf32_flag() {
  static std::atomic<bool> flag = support::env::allow_tf32();
  return flag;
}

}  // namespace

void allow_tf32(bool on) {
  tf32_flag() = on;
}

bool allow_tf32() {
  return tf32_flag();
}

}  // namespace ndfuse::config
