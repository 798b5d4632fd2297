// NCCL's C interface, as much of it as ndfuse calls, declared here rather than taken from nccl.h:
// NCCL is opened at run time, and its header is not on every machine that builds ndfuse. The
// values are NCCL's stable ABI; tests/test_nccl_abi.cpp checks them against nccl.h where it exists.
#pragma once
#include <cstddef>

struct ncclComm;
struct CUstream_st;

namespace ndfuse::backend::cuda::nccl {

using comm_t = ncclComm*;
using stream_t = CUstream_st*;
using result_t = int;  // ncclResult_t
struct unique_id_t {
  char internal[128];
};

constexpr result_t success = 0;
constexpr result_t in_progress = 7;  // a nonblocking communicator's call still running

// ncclConfig_t as NCCL 2.14 laid it out; later NCCLs read a config by its version field, so this
// prefix stays valid. blocking = 0 makes initialization return at once, so ndfuse can give up on
// a rank that never comes.
struct config_v21400 {
  std::size_t size = sizeof(config_v21400);
  unsigned int magic = 0xcafebeef;
  unsigned int version = 21400;    // NCCL_VERSION(2, 14, 0)
  int blocking = -2147483647 - 1;  // NCCL_CONFIG_UNDEF_INT: NCCL's default
  int cga_cluster_size = -2147483647 - 1;
  int min_ctas = -2147483647 - 1;
  int max_ctas = -2147483647 - 1;
  const char* net_name = nullptr;
  int split_share = -2147483647 - 1;
};

// The functions, resolved with dlsym. Each may be null only where marked optional.
struct api {
  result_t (*get_version)(int*);
  const char* (*get_error_string)(result_t);
  const char* (*get_last_error)(comm_t);  // optional (NCCL 2.13+)
  result_t (*get_unique_id)(unique_id_t*);
  result_t (*comm_init_rank_config)(comm_t*, int, unique_id_t, int, config_v21400*);
  result_t (*comm_init_all)(comm_t*, int, const int*);
  result_t (*comm_destroy)(comm_t);
  result_t (*comm_abort)(comm_t);
  result_t (*comm_get_async_error)(comm_t, result_t*);
  result_t (*all_reduce)(const void*, void*, std::size_t, int, int, comm_t, stream_t);
  result_t (*reduce_scatter)(const void*, void*, std::size_t, int, int, comm_t, stream_t);
  result_t (*all_gather)(const void*, void*, std::size_t, int, comm_t, stream_t);
  result_t (*broadcast)(const void*, void*, std::size_t, int, int, comm_t, stream_t);
  result_t (*reduce)(const void*, void*, std::size_t, int, int, int, comm_t, stream_t);
  result_t (*send)(const void*, std::size_t, int, int, comm_t, stream_t);
  result_t (*recv)(void*, std::size_t, int, int, comm_t, stream_t);
  result_t (*group_start)();
  result_t (*group_end)();
};

// ncclDataType_t and ncclRedOp_t values.
enum data_type : int {
  int8 = 0,
  uint8 = 1,
  int32 = 2,
  uint32 = 3,
  int64 = 4,
  uint64 = 5,
  float16 = 6,
  float32 = 7,
  float64 = 8,
  bfloat16 = 9
};
enum red_op : int { sum = 0, prod = 1, max = 2, min = 3, avg = 4 };

}  // namespace ndfuse::backend::cuda::nccl
