// realize(): evaluate nodes. Plans with the fuser, then allocates, donates, compiles (through the
// kernel cache) and launches each step on the current backend, and finally turns every planned
// output node into a materialized buffer node.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ir/node.hpp"

namespace ndfuse::runtime {

// A span, so that evaluating one array (`realize({&n, 1})`) builds no vector.
void realize(std::span<const std::shared_ptr<ir::node>> roots, bool automatic_split = false);
std::string explain(const std::vector<std::shared_ptr<ir::node>>& roots);

// A library call run at once, outside any plan: the solvers, whose info codes the caller reads at
// the call. Evaluates the inputs (the caller made each one C-contiguous, lazily or not), allocates
// one C-order buffer per output (dtype, shape) and enqueues the call on the current backend. The
// call is skipped when an input is empty; the outputs are then zero-filled.
std::vector<std::shared_ptr<ir::node>> run_library_now(const ir::library_call& c,
                                                       const std::vector<std::shared_ptr<ir::node>>& inputs,
                                                       const std::vector<std::pair<dtype, shape_t>>& outputs);

// n evaluated, with its elements in C order from its offset: n itself, or (for a strided view) a
// contiguous copy on its device.
std::shared_ptr<ir::node> in_c_order(const std::shared_ptr<ir::node>& n);
// Reads a node's elements to the host in C order (a strided node is copied first).
host_array read_to_host(const std::shared_ptr<ir::node>& n);
// A new materialized C-order node on device d whose elements are not yet written: the output of a
// call made outside any plan (a solver's, a collective's).
std::shared_ptr<ir::node> allocate_on(device d, dtype t, const shape_t& shape);
// A new materialized node holding a copy of host data, on this thread's current device.
std::shared_ptr<ir::node> upload(dtype t, const shape_t& shape, const void* data);
// A new materialized node on device d holding n's elements in C order (n is evaluated first, and
// gathered where it is strided): a peer copy between GPUs, a host copy otherwise.
std::shared_ptr<ir::node> copy_to_device(const std::shared_ptr<ir::node>& n, device d);
// n moved to device d when evaluated (x.to): an op_code::move node of d reading n. Building it
// does no work; evaluating anything downstream first makes the copy (make_moves).
std::shared_ptr<ir::node> move_node(const std::shared_ptr<ir::node>& n, device d);
// Makes every unmade move upstream of `roots` (each evaluates its source on the source's device,
// then copies), so that the plans after it see buffers. realize() calls it; so do explain and
// nf::jit::source, whose plans cannot span devices either.
void make_moves(std::span<const std::shared_ptr<ir::node>> roots);

// While alive, eager mode waits: an in-place operator builds its node, rebinds the handle, and only
// then evaluates, so the old buffer (now unheld) can be donated as NumPy's in-place ops write in place.
class defer_eager {
 public:
  defer_eager();
  ~defer_eager();
  defer_eager(const defer_eager&) = delete;
  defer_eager& operator=(const defer_eager&) = delete;

 private:
  bool previous_;
};

}  // namespace ndfuse::runtime
