// View chains: how the fuser sees a node lowered below views. A view costs no instruction; the
// chain of views between a kernel's iteration space and a node is applied to the strides of the
// leaves under it (fuser.cpp, lower.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "ir/node.hpp"

namespace ndfuse::schedule {

// The views between a kernel's iteration space and a node being lowered, outermost first. A node
// reached through different views (a[:-1] + a[1:]) is lowered once per chain, so chains are interned
// and (node, chain id) keys every memo. Chain 0 has no view.
struct view_chains {
  std::vector<std::vector<const ir::node*>> chain{{}};
  std::map<std::pair<int, const ir::node*>, int> child;
  int push(int ctx, const ir::node* view) {
    auto [it, fresh] = child.try_emplace({ctx, view}, static_cast<int>(chain.size()));
    if (fresh) {
      auto c = chain[ctx];
      c.push_back(view);
      chain.push_back(std::move(c));
    }
    return it->second;
  }
};

// A node as lowered: through which views, and under which guard (the SSA value that says where
// its loads may happen, or -1).
struct node_in_chain {
  const ir::node* node;
  int chain;
  int guard = -1;
  bool operator==(const node_in_chain&) const = default;
};
struct node_in_chain_hash {
  std::size_t operator()(const node_in_chain& k) const {
    return std::hash<const void*>()(k.node) ^ (static_cast<std::size_t>(k.chain) * 0x9e3779b97f4a7c15ull) ^
           (static_cast<std::size_t>(k.guard + 1) << 40);
  }
};

// A leaf's strides (and offset) over its own shape -> over the shape of the outermost view of the
// chain (returned), each view applied from the innermost out. False when a reshape needs a copy.
inline bool through_views(const std::vector<const ir::node*>& chain, shape_t& shape,
                          std::vector<std::int64_t>& strides, std::int64_t& offset) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const ir::node* v = *it;
    const shape_t& in = v->inputs[0]->shape;
    strides = ir::broadcast_strides(shape, strides, in);
    if (!ir::apply_view(v->params().view, in, v->shape, strides, offset)) return false;
    shape = v->shape;
  }
  return true;
}

}  // namespace ndfuse::schedule
