#include "frontend/shard_slice.hpp"

#include <mutex>
#include <unordered_map>

namespace ndfuse::frontend {

namespace {

bool elementwise(ir::op_code op) {
  return op == ir::op_code::cast || op == ir::op_code::where || op > ir::op_code::reduced;
}

struct slicer {
  std::size_t root_ndim;
  int axis;
  std::int64_t start, stop;
  ir::placement place;
  std::unordered_map<const ir::node*, std::shared_ptr<ir::node>> made;  // a shared node is sliced once

  std::shared_ptr<ir::node> operator()(const std::shared_ptr<ir::node>& n) {
    if (auto it = made.find(n.get()); it != made.end()) return it->second;
    if (n->materialized() || n->reaches_move) return nullptr;
    const bool leaf =
        n->op == ir::op_code::scalar || n->op == ir::op_code::iota || n->op == ir::op_code::random;
    if (!leaf && !elementwise(n->op)) return nullptr;
    auto out = ir::new_node();
    out->op = n->op;
    out->dt = n->dt;
    out->place = n->place.kind == ir::placement::anywhere ? n->place : place;
    out->shape = n->shape;
    out->value = n->value;
    // The node's own axis for the split one (broadcasting aligns shapes on the right); a node
    // without it, or of length 1 there, is read whole by every part.
    const std::int64_t k = axis - static_cast<std::int64_t>(root_ndim - n->shape.size());
    const bool cut = k >= 0 && n->shape[static_cast<std::size_t>(k)] != 1;
    if (cut) out->shape[static_cast<std::size_t>(k)] = stop - start;
    if (n->op == ir::op_code::iota || n->op == ir::op_code::random) {
      out->params().iota = n->params().iota;
      out->params().random = n->params().random;
      if (cut) out->params().iota.offset += start * n->params().iota.coeffs[static_cast<std::size_t>(k)];
    }
    for (const auto& in : n->inputs) {
      auto s = (*this)(in);
      if (!s) return nullptr;
      out->inputs.push_back(std::move(s));
    }
    // The growth counters bound what a plan may fuse; the part has at most the whole's.
    out->pending_ops.store(n->pending_ops.load(std::memory_order_relaxed), std::memory_order_relaxed);
    out->pending_leaves.store(n->pending_leaves.load(std::memory_order_relaxed), std::memory_order_relaxed);
    made.emplace(n.get(), out);
    return out;
  }
};

}  // namespace

std::shared_ptr<ir::node> slice_generated(const std::shared_ptr<ir::node>& x, int axis, std::int64_t start,
                                          std::int64_t stop, device d) {
  // Reads other nodes' inputs, which another thread's evaluation may clear.
  const std::lock_guard lock(ir::graph_mutex());
  slicer s{x->shape.size(), axis, start, stop, ir::placement::of(d), {}};
  return s(x);
}

}  // namespace ndfuse::frontend
