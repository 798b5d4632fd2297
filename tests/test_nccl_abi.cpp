// ndfuse declares NCCL's C interface itself (src/backend/cuda/nccl_abi.hpp), since NCCL is opened at
// run time and its header is not everywhere ndfuse builds. Where nccl.h is (the CUDA toolkit here
// and in CI ships it), this checks the declarations against it: the values of the enums, the unique
// id's size, and the prefix of ncclConfig_t ndfuse fills in. Skipped without nccl.h.
#include "catch.hpp"

#if defined(NDFUSE_WITH_CUDA) && __has_include(<nccl.h>)
#include <nccl.h>

#include <cstddef>

#include "backend/cuda/nccl_abi.hpp"

namespace nccl = ndfuse::backend::cuda::nccl;

static_assert(sizeof(nccl::unique_id_t) == sizeof(ncclUniqueId));
static_assert(nccl::success == ncclSuccess && nccl::in_progress == ncclInProgress);
static_assert(nccl::int8 == ncclInt8 && nccl::uint8 == ncclUint8 && nccl::int32 == ncclInt32 &&
              nccl::uint32 == ncclUint32 && nccl::int64 == ncclInt64 && nccl::uint64 == ncclUint64 &&
              nccl::float16 == ncclFloat16 && nccl::float32 == ncclFloat32 && nccl::float64 == ncclFloat64 &&
              nccl::bfloat16 == ncclBfloat16);
static_assert(nccl::sum == ncclSum && nccl::prod == ncclProd && nccl::max == ncclMax &&
              nccl::min == ncclMin && nccl::avg == ncclAvg);
// The config prefix: each field where nccl.h has it.
static_assert(offsetof(nccl::config_v21400, size) == offsetof(ncclConfig_t, size));
static_assert(offsetof(nccl::config_v21400, magic) == offsetof(ncclConfig_t, magic));
static_assert(offsetof(nccl::config_v21400, version) == offsetof(ncclConfig_t, version));
static_assert(offsetof(nccl::config_v21400, blocking) == offsetof(ncclConfig_t, blocking));
static_assert(offsetof(nccl::config_v21400, cga_cluster_size) == offsetof(ncclConfig_t, cgaClusterSize));
static_assert(offsetof(nccl::config_v21400, min_ctas) == offsetof(ncclConfig_t, minCTAs));
static_assert(offsetof(nccl::config_v21400, max_ctas) == offsetof(ncclConfig_t, maxCTAs));
static_assert(offsetof(nccl::config_v21400, net_name) == offsetof(ncclConfig_t, netName));
static_assert(offsetof(nccl::config_v21400, split_share) == offsetof(ncclConfig_t, splitShare));

TEST_CASE("ndfuse's NCCL declarations match nccl.h", "[nccl_abi]") {
  // The checks are the static_asserts above: this file compiling is the test.
  const ncclConfig_t header_default = NCCL_CONFIG_INITIALIZER;
  const nccl::config_v21400 ours;
  CHECK(ours.magic == header_default.magic);
  CHECK(ours.blocking == header_default.blocking);  // NCCL_CONFIG_UNDEF_INT: NCCL's default
}
#else
TEST_CASE("ndfuse's NCCL declarations match nccl.h", "[nccl_abi]") {
  NDFUSE_SKIP("no nccl.h in this build (or no CUDA): nothing to compare ndfuse's NCCL declarations with");
}
#endif
