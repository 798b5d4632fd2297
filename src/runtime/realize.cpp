#include "runtime/realize.hpp"

#include <boost/container/small_vector.hpp>
#include <chrono>
#include <span>

#include "backend/backend.hpp"
#include "ndfuse/config.hpp"
#include "runtime/device.hpp"
#include "runtime/device_guard.hpp"
#include "runtime/kernel_cache.hpp"
#include "schedule/plan.hpp"
#include "support/env.hpp"
#include "support/log.hpp"
#include "support/stats.hpp"

namespace ndfuse {

namespace runtime {

namespace {

using support::env::debug_level;

// The launch arguments of a step, in storage kept per thread: a small array's step would otherwise
// spend a good part of its host time allocating them.
const ir::kernel_args& launch_args(const schedule::kernel_step& step,
                                   std::span<const std::shared_ptr<ir::buffer>> outs) {
  thread_local ir::kernel_args a;
  a.shape = step.collapsed_shape;
  a.inputs.resize(step.inputs.size());
  for (std::size_t i = 0; i < step.inputs.size(); ++i) {
    const auto& in = step.inputs[i];
    a.inputs[i].data = in.node->storage->data;
    a.inputs[i].offset = in.offset;
    a.inputs[i].strides = in.strides;
  }
  a.scalars.clear();
  for (const auto& s : step.scalars) a.scalars.push_back(s->value);
  a.iotas = step.iotas;
  a.outputs.clear();
  for (const auto& b : outs) a.outputs.push_back(b->data);
  a.identity = step.identity;
  a.output_strides = step.output_strides;
  return a;
}

// The output becomes a buffer; its producers are released unless someone else holds them.
void finish(ir::node& node, std::shared_ptr<ir::buffer> storage) {
  node.storage = std::move(storage);
  ir::set_contiguous_strides(node.strides, node.shape);
  node.offset = 0;
  node.pending_ops.store(0, std::memory_order_relaxed);
  node.publish();
  node.inputs.clear();  // under the evaluation lock, which every reader of another node's inputs holds
}

void run_library_step(backend::device_backend& b, const schedule::kernel_step& step) {
  auto& node = *step.outputs[0];
  std::shared_ptr<ir::buffer> out;
  if (!step.donor.empty() && step.donor[0] >= 0) {
    out = step.inputs[step.donor[0]].node->storage;  // gemm's C, updated in place
    ++support::counters_here().buffers_donated;
  } else {
    out = std::make_shared<ir::buffer>(&b, itemsize(node.dt) * static_cast<std::size_t>(node.size()));
  }
  std::vector<const void*> inputs;
  for (const auto& in : step.inputs)
    inputs.push_back(static_cast<const char*>(in.node->storage->data) +
                     in.node->offset * static_cast<std::int64_t>(itemsize(in.node->dt)));
  if (node.size() > 0) {
    b.run_library(*step.library, inputs, {out->data});
    ++support::counters_here().library_calls;
  }
  finish(node, std::move(out));
}

void run_step(backend::device_backend& b, const schedule::kernel_step& step) {
  if (step.library) return run_library_step(b, step);
  // Read only when the step's time is printed: a clock read per step shows on small arrays.
  const auto t0 =
      debug_level() >= 1 ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  boost::container::small_vector<std::shared_ptr<ir::buffer>, 4> outs;
  for (std::size_t o = 0; o < step.outputs.size(); ++o) {
    const auto& node = step.outputs[o];
    if (step.donor[o] >= 0) {
      outs.push_back(step.inputs[step.donor[o]].node->storage);
      ++support::counters_here().buffers_donated;
    } else {
      outs.push_back(
          std::make_shared<ir::buffer>(&b, itemsize(node->dt) * static_cast<std::size_t>(node->size())));
    }
  }
  // A reduction over empty axes still writes its identity (a sum of nothing is 0).
  if (step.output_size() > 0 && (step.kernel.reduction || ir::shape_size(step.iteration_shape) > 0)) {
    const std::string& key = step.key;
    auto& counts = support::counters_here();
    const std::uint64_t memory_hits = counts.cache_hits_memory.get();
    const std::uint64_t disk_hits = counts.cache_hits_disk.get();
    const auto& compiled = global_kernel_cache().get(b, step.kernel, key, step.compiled);
    if (support::logging(2))
      support::log_line(step.name + (counts.cache_hits_memory.get() > memory_hits ? " cache hit"
                                     : counts.cache_hits_disk.get() > disk_hits
                                         ? " cache miss: loaded from the disk cache"
                                         : " cache miss: compiled"));
    b.launch(compiled, step.kernel, launch_args(step, {outs.data(), outs.size()}));
    ++support::counters_here().kernels_launched;
  }
  for (std::size_t o = 0; o < step.outputs.size(); ++o) finish(*step.outputs[o], std::move(outs[o]));
  if (debug_level() >= 1) {
    b.synchronize();  // so the time printed is the step's, not only its enqueueing
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    support::log_line("kernel " + step.name + " " + shape_str(step.iteration_shape) + " " +
                      std::to_string(step.kernel.code.size()) + " instrs, " +
                      std::to_string(step.outputs.size()) + " outputs: " + std::to_string(ms) + " ms");
  }
}

}  // namespace

void realize(std::span<const std::shared_ptr<ir::node>> roots, bool automatic_split) {
  bool any = false, one_device = true;
  for (const auto& r : roots) {
    any = any || !r->materialized();
    one_device = one_device && r->place == roots[0]->place;
  }
  if (!any) return;
  make_moves(roots);
  const device d = device_of(*roots[0]);
  if (!one_device) {
    // A plan never spans devices: each device's roots are one evaluation.
    std::vector<std::shared_ptr<ir::node>> here, elsewhere;
    for (const auto& r : roots) (device_of(*r) == d ? here : elsewhere).push_back(r);
    if (!elsewhere.empty()) {
      realize(here, automatic_split);
      realize(elsewhere, automatic_split);
      return;
    }
  }
  // One plan at a time: a node shared with another thread is computed once, by whichever thread
  // plans it first; the other's plan then finds it materialized.
  const std::lock_guard lock(ir::graph_mutex());
  const schedule::plan_lease lease(roots);
  const schedule::plan& p = lease.get();
  if (debug_level() >= 2)
    support::log_line((automatic_split ? "automatic split, " : "") + schedule::describe(p));
  ++support::counters_here().evaluations;
  if (automatic_split) ++support::counters_here().automatic_splits;
  const device_guard on(d);
  for (const auto& step : p.steps) run_step(on.backend(), step);
}

std::string explain(const std::vector<std::shared_ptr<ir::node>>& roots) {
  bool any = false;
  for (const auto& r : roots) any = any || !r->materialized();
  if (!any) return "plan: nothing to compute (already evaluated)\n";
  make_moves(roots);
  const std::lock_guard lock(ir::graph_mutex());
  return schedule::describe(schedule::make_plan(roots));
}

std::vector<std::shared_ptr<ir::node>> run_library_now(
    const ir::library_call& c, const std::vector<std::shared_ptr<ir::node>>& inputs,
    const std::vector<std::pair<dtype, shape_t>>& outputs) {
  realize(inputs);
  // The call's device: its inputs' (the caller built them from one array), else this thread's.
  const device d = inputs.empty() ? current_device() : device_of(*inputs[0]);
  const device_guard on(d);
  auto& b = on.backend();
  bool empty = false;
  std::vector<const void*> in;
  for (const auto& n : inputs) {
    if (!ir::has_contiguous_strides(n->shape, n->strides))
      throw error(std::string("library call ") + ir::library_op_name(c.op) +
                  ": an input is not C-contiguous");
    empty = empty || n->size() == 0;
    in.push_back(static_cast<const char*>(n->storage->data) +
                 n->offset * static_cast<std::int64_t>(itemsize(n->dt)));
  }
  std::vector<std::shared_ptr<ir::node>> result;
  std::vector<void*> out;
  for (const auto& [t, shape] : outputs) {
    auto n = allocate_on(d, t, shape);
    const std::size_t nbytes = n->storage->nbytes;
    if (empty && nbytes) {
      const std::vector<char> zeros(nbytes, 0);
      b.copy_from_host(n->storage->data, zeros.data(), nbytes);
    }
    out.push_back(n->storage->data);
    result.push_back(std::move(n));
  }
  if (!empty) {
    b.run_library(c, in, out);
    ++support::counters_here().library_calls;
  }
  return result;
}

std::shared_ptr<ir::node> allocate_on(device d, dtype t, const shape_t& shape) {
  auto n = ir::new_node();
  n->place = ir::placement::of(d);
  n->op = ir::op_code::buffer;
  n->dt = t;
  n->shape = shape;
  ir::set_contiguous_strides(n->strides, shape);
  const device_guard on(d);
  n->storage = std::make_shared<ir::buffer>(&on.backend(),
                                            itemsize(t) * static_cast<std::size_t>(ir::shape_size(shape)));
  n->publish();
  return n;
}

std::shared_ptr<ir::node> upload(dtype t, const shape_t& shape, const void* data) {
  auto n = ir::new_node();
  n->op = ir::op_code::buffer;
  n->dt = t;
  n->shape = shape;
  ir::set_contiguous_strides(n->strides, shape);
  std::size_t nbytes = itemsize(t) * static_cast<std::size_t>(ir::shape_size(shape));
  const device_guard on(device_of(*n));
  auto& b = on.backend();
  n->storage = std::make_shared<ir::buffer>(&b, nbytes);
  if (nbytes) b.copy_from_host(n->storage->data, data, nbytes);
  n->publish();
  return n;
}

std::shared_ptr<ir::node> in_c_order(const std::shared_ptr<ir::node>& n) {
  realize({&n, 1});
  if (ir::has_contiguous_strides(n->shape, n->strides)) return n;
  // A strided view: gathered into a contiguous buffer on its device. A contiguous one at an offset
  // (a slice of rows) is read from where it starts, with no kernel.
  auto src = ir::new_node();
  src->place = n->place;
  src->op = ir::op_code::cast;
  src->dt = n->dt;
  src->shape = n->shape;
  src->inputs = {n};
  realize({&src, 1});
  return src;
}

host_array read_to_host(const std::shared_ptr<ir::node>& n) {
  const std::shared_ptr<ir::node> src = in_c_order(n);
  host_array h;
  h.dtype = src->dt;
  h.shape = src->shape;
  h.bytes.resize(itemsize(src->dt) * static_cast<std::size_t>(src->size()));
  if (!h.bytes.empty()) {
    const device_guard on(device_of(*src));
    on.backend().copy_to_host(h.bytes.data(),
                              static_cast<const char*>(src->storage->data) + src->offset * itemsize(src->dt),
                              h.bytes.size());
  }
  return h;
}

namespace {
thread_local bool eager_flag = false;
thread_local bool eager_deferred = false;
bool eager_env() {
  return support::env::eager();
}
}  // namespace

defer_eager::defer_eager() : previous_(eager_deferred) {
  eager_deferred = true;
}
defer_eager::~defer_eager() {
  eager_deferred = previous_;
}

}  // namespace runtime

bool eager_enabled() {
  return !runtime::eager_deferred && (runtime::eager_flag || runtime::eager_env());
}
eager_scope::eager_scope() : previous_(runtime::eager_flag) {
  runtime::eager_flag = true;
}
eager_scope::~eager_scope() {
  runtime::eager_flag = previous_;
}

void eval(std::vector<array*> arrays) {
  std::vector<std::shared_ptr<ir::node>> roots;
  for (auto* a : arrays) {
    if (!a->node()) throw value_error("eval: the array handle is empty (default-constructed)");
    roots.push_back(a->node());
  }
  runtime::realize(roots);
}

std::string explain(const array& a) {
  if (!a.node()) throw value_error("explain: the array handle is empty (default-constructed)");
  return runtime::explain({a.node()});
}

void clear_kernel_cache() {
  runtime::global_kernel_cache().clear();
}
std::string backend_name() {
  return std::string(backend::of(current_device()).name());
}

}  // namespace ndfuse
