// Collectives in a build without CUDA: each entry point says why it cannot run.
#if !defined(NDFUSE_WITH_CUDA)
#include "backend/collectives.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::detail::collectives {

namespace {
constexpr const char* reason = "ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF), so NCCL cannot run";
[[noreturn]] void unavailable() {
  throw device_error(std::string("nf::distributed: ") + reason);
}
}  // namespace

struct communicator {};

int nccl_version(std::string* why) {
  if (why) *why = reason;
  return 0;
}
unique_id make_unique_id() {
  unavailable();
}
std::vector<std::shared_ptr<communicator>> init_all(const std::vector<int>&) {
  unavailable();
}
std::shared_ptr<communicator> init_rank(const unique_id&, int, int, int, std::chrono::milliseconds) {
  unavailable();
}
int rank_of(const communicator&) {
  unavailable();
}
int size_of(const communicator&) {
  unavailable();
}
int gpu_of(const communicator&) {
  unavailable();
}
void run(const std::vector<call>&) {
  unavailable();
}

}  // namespace ndfuse::detail::collectives
#endif
