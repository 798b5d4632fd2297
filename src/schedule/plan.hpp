// The fuser's output: an ordered list of steps. Each step is one fused kernel (kernel IR plus the
// nodes that feed and receive it). Library calls and copies join as later issues land.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/kernel_ir.hpp"
#include "ir/node.hpp"

namespace ndfuse::backend {
struct compiled_kernel;
}

namespace ndfuse::schedule {

// The compiled kernel a step ran last, as the runtime's kernel cache handed it out: a remembered
// plan (plan_memo.cpp) keeps it across evaluations, so that a cached step skips the cache's lock
// and key hash. Current while the cache's generation (bumped by clear_kernel_cache) is unchanged.
// Shared, not borrowed: a clear_kernel_cache on another thread between the generation check and
// the launch must not free the kernel this step is about to launch.
struct kernel_ref {
  std::shared_ptr<const backend::compiled_kernel> kernel;
  std::uint64_t generation = 0;
};

struct strided_leaf {
  std::shared_ptr<ir::node> node;     // materialized before the step runs
  std::vector<std::int64_t> strides;  // element strides over the collapsed iteration shape
  std::int64_t offset = 0;
};

// One step of a plan: a fused kernel, or (when `library` is set) a library call whose inputs and
// output are `inputs` and `outputs` (kernel, scalars and iotas then unused).
struct kernel_step {
  std::optional<ir::library_call> library;
  ir::kernel_ir kernel;
  std::string key;                                 // kernel.key(), computed once per plan
  std::string name;                                // k_<structural hash>: stable across runs
  shape_t iteration_shape;                         // as the user sees it
  shape_t iteration_dims;                          // reductions: the input's shape, kept axes first
  shape_t collapsed_shape;                         // what the kernel iterates over
  std::vector<strided_leaf> inputs;                // per kernel input slot
  std::vector<std::shared_ptr<ir::node>> scalars;  // per scalar slot: the node holding the value
  std::vector<ir::iota_params> iotas;              // per iota slot
  std::vector<std::shared_ptr<ir::node>> draws;    // per iota slot: the random node it draws, or null
  std::vector<std::shared_ptr<ir::node>> outputs;  // per kernel output: the node it materializes
  std::vector<int> donor;                          // per output: the input slot whose buffer it reuses, or -1
  // Reductions and scans (kernel.reduction set): the fold's starting value, and for scans the
  // element strides of the output over the collapsed iteration space (a scan writes every element,
  // in the input's C order, while it iterates kept dims first).
  ir::scalar_bits identity;
  std::vector<std::int64_t> output_strides;
  mutable kernel_ref compiled;       // set by the runtime when the step runs
  std::int64_t output_size() const;  // elements the step writes per output
};

struct plan {
  std::vector<kernel_step> steps;
};

// The fuser's passes, in order (NDFUSE_DEBUG=2 prints their names):
//   collect_pending -> choose_outputs -> fold_into_gemm -> attach_epilogues -> split_memory_reads
//   -> group_by_iteration_space -> lower_to_kernel_ir -> collapse_dimensions -> choose_reduce_strategy ->
//   classify_indices
//   -> choose_donations
// A DAG whose signature (plan_memo.cpp) was planned before reuses that plan, rebound to its nodes.
plan make_plan(const std::vector<std::shared_ptr<ir::node>>& roots);

// make_plan without the copy, for evaluations: a remembered plan is lent bound to the roots' DAG and
// unbound (its node references dropped) when the lease ends; a new one is owned by the lease.
class plan_lease {
 public:
  explicit plan_lease(std::span<const std::shared_ptr<ir::node>> roots);
  ~plan_lease();
  plan_lease(const plan_lease&) = delete;
  plan_lease& operator=(const plan_lease&) = delete;
  const plan& get() const;

 private:
  std::optional<plan> own_;
  void* lent_ = nullptr;  // the memo's entry
};

std::string describe(const plan& p);

}  // namespace ndfuse::schedule
