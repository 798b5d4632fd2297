// Copies between devices. A move is a node (op_code::move) until something downstream is
// evaluated; then the source is evaluated on its device and its bytes are copied into a buffer
// allocated on the destination, which the move node takes over. A GPU-to-GPU copy is a peer copy
// ordered on both GPUs' streams; a copy from a GPU to the CPU waits for it; a copy from the CPU is
// enqueued on the GPU's current stream from the CPU's finished buffer.
#include <memory>
#include <unordered_set>
#include <vector>

#include "ir/node.hpp"
#include "ir/shape_math.hpp"
#include "runtime/device.hpp"
#include "runtime/device_guard.hpp"
#include "runtime/realize.hpp"

namespace ndfuse::runtime {

std::shared_ptr<ir::node> copy_to_device(const std::shared_ptr<ir::node>& n, device d) {
  const std::shared_ptr<ir::node> src = in_c_order(n);
  const device from = device_of(*src);
  const std::size_t nbytes = itemsize(src->dt) * static_cast<std::size_t>(src->size());
  const void* data = static_cast<const char*>(src->storage->data) + src->offset * itemsize(src->dt);

  auto out = ir::new_node();
  out->place = ir::placement::of(d);
  out->op = ir::op_code::buffer;
  out->dt = src->dt;
  out->shape = src->shape;
  ir::set_contiguous_strides(out->strides, out->shape);
  {
    const device_guard on(d);
    out->storage = std::make_shared<ir::buffer>(&on.backend(), nbytes);
    if (nbytes && from.is_cuda() && d.is_cuda()) {
      on.backend().copy_peer(out->storage->data, d.index(), data, from.index(), nbytes);
    } else if (nbytes && d.is_cuda()) {
      on.backend().copy_from_host(out->storage->data, data, nbytes);
    }
  }
  if (nbytes && !d.is_cuda()) {
    const device_guard on(from);
    on.backend().copy_to_host(out->storage->data, data, nbytes);
  }
  out->publish();
  return out;
}

std::shared_ptr<ir::node> move_node(const std::shared_ptr<ir::node>& n, device d) {
  auto m = ir::new_node();
  m->place = ir::placement::of(d);
  m->op = ir::op_code::move;
  m->dt = n->dt;
  m->shape = n->shape;
  m->inputs = {n};
  m->reaches_move = true;  // a leaf for the fuser's growth counters: it adds no pending op
  return m;
}

void make_moves(std::span<const std::shared_ptr<ir::node>> roots) {
  bool any = false;
  for (const auto& r : roots) any = any || (r->reaches_move && !r->materialized());
  if (!any) return;
  // The unmade moves upstream, found under the graph lock (inputs change under it), made after it:
  // making one evaluates its source, which takes the lock again.
  std::vector<std::shared_ptr<ir::node>> moves;
  {
    const std::lock_guard lock(ir::graph_mutex());
    std::unordered_set<const ir::node*> seen;
    std::vector<const std::shared_ptr<ir::node>*> stack;
    for (const auto& r : roots) stack.push_back(&r);
    while (!stack.empty()) {
      const std::shared_ptr<ir::node>& n = *stack.back();
      stack.pop_back();
      if (n->materialized() || !n->reaches_move || !seen.insert(n.get()).second) continue;
      if (n->op == ir::op_code::move) {
        moves.push_back(n);
        continue;
      }
      for (const auto& in : n->inputs) stack.push_back(&in);
    }
  }
  for (const auto& m : moves) {
    std::shared_ptr<ir::node> source;
    {
      const std::lock_guard lock(ir::graph_mutex());
      if (m->materialized()) continue;  // another thread made it meanwhile
      source = m->inputs[0];
    }
    const std::shared_ptr<ir::node> copy = copy_to_device(source, device_of(*m));
    const std::lock_guard lock(ir::graph_mutex());
    if (m->materialized()) continue;
    m->storage = copy->storage;
    m->strides = copy->strides;
    m->offset = 0;
    m->publish();
    m->inputs.clear();
  }
}

}  // namespace ndfuse::runtime
