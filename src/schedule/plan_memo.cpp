// The plan memo: a loop that evaluates the same expression on every iteration (x *= s; x *= x;
// x += x; x.eval()) builds a DAG of the same structure each time, and the fuser's passes would
// reach the same plan each time. The memo keys a plan by everything the passes read from the DAG
// (its signature) and, on a hit, rebinds a copy of the remembered plan to the new DAG's nodes.
// That takes a small array's evaluation from the passes' microseconds to a hash lookup and a copy.
//
// What the passes read, and the signature therefore holds, per node (in first-seen DFS order, so
// equal signatures mean equal DAG shapes, sharing included):
// - every node: op, dtype, shape, its use count and whether a handle holds it (what is written and
//   what may be donated depend on them), and its op's parameters (view, reduction, iota, gather);
// - a materialized node (a leaf): its strides and offset, and its buffer's size, use count and
//   identity among the DAG's buffers (donation).
// Scalar values are not read by the passes (they are launch arguments) and are not in it: a loop
// over changing scalars reuses one plan. A DAG with a library call is never memoized, because
// fold_into_gemm reads scalar values and rewrites the DAG.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "schedule/passes.hpp"
#include "support/env.hpp"
#include "support/lru_cache.hpp"
#include "support/stats.hpp"

namespace ndfuse::schedule {

namespace {

// Larger DAGs are not memoized: their kernels run long enough that planning does not show.
constexpr std::size_t max_nodes = 64;
constexpr std::size_t capacity = 256;
constexpr std::int64_t leaf_word = 1 << 20;  // not an op code, and not a back reference (< 0)

struct words_hash {
  std::size_t operator()(const std::vector<std::int64_t>& w) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::int64_t x : w) {
      h ^= static_cast<std::uint64_t>(x);
      h *= 1099511628211ull;
      h ^= h >> 29;
    }
    return static_cast<std::size_t>(h);
  }
};

// A remembered plan: node pointers replaced by indices into the signature's node order (stored in
// the pointers' place as indices below). Constants the lowering made (gather strides) stay.
struct plan_template {
  plan p;
  std::vector<int> input_refs, scalar_refs, output_refs;  // per step, concatenated; -1: keep
  std::vector<int> draw_refs;                             // per step's iota slots; -1: an iota
  // Per draw: what lowering added to the node's `first` (a view's offset, in whole blocks).
  std::vector<std::uint64_t> first_shifts;
};

// Writes the signature through a cursor into a buffer it grows itself: a few dozen words per
// evaluation, where vector::push_back's capacity check on every word was a visible share of a
// small array's step.
struct signer {
  std::unique_ptr<std::int64_t[]> buf;
  std::size_t cap = 0, len = 0;
  std::vector<std::int64_t> key;       // the words as a cache key, made only when the cache needs one
  std::vector<const node_ptr*> nodes;  // first-seen order; pointers into the DAG, valid while it is
  std::vector<const ir::buffer*> buffers;
  bool ok = true;

  std::span<const std::int64_t> words() const { return {buf.get(), len}; }
  const std::vector<std::int64_t>& words_as_key() {
    key.assign(buf.get(), buf.get() + len);
    return key;
  }

  int find(const ir::node* n) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i]->get() == n) return static_cast<int>(i);
    return -1;
  }
  // Room for k more words at the cursor.
  std::int64_t* room(std::size_t k) {
    if (len + k > cap) {
      const std::size_t grown = std::max({len + k, 2 * cap, std::size_t{256}});
      auto bigger = std::make_unique<std::int64_t[]>(grown);
      std::copy(buf.get(), buf.get() + len, bigger.get());
      buf = std::move(bigger);
      cap = grown;
    }
    return buf.get() + len;
  }
  static void put(std::int64_t*& w, const std::vector<std::int64_t>& v) {
    *w++ = static_cast<std::int64_t>(v.size());
    for (std::int64_t x : v) *w++ = x;
  }
  template <class T>
  static void put_bits(std::int64_t*& w, const T& v) {
    static_assert(sizeof(T) <= 2 * sizeof(std::int64_t));
    std::int64_t b[2] = {0, 0};
    std::memcpy(b, &v, sizeof(T));
    *w++ = b[0];
    *w++ = b[1];
  }

  void sign(const node_ptr& np) {
    const ir::node& n = *np;
    if (int i = find(&n); i >= 0) {
      *room(1) = -1 - i;  // a node seen before: shared
      ++len;
      return;
    }
    if (nodes.size() == max_nodes || n.op == ir::op_code::library) {
      ok = false;
      return;
    }
    nodes.push_back(&np);
    // Every word this node writes, bounded: 7 fixed words, the shape, and the larger of the leaf's
    // and the op parameters' words.
    std::size_t bound = 8 + n.shape.size();
    if (n.materialized()) {
      bound += 6 + n.strides.size();
    } else if (n.op == ir::op_code::view) {
      bound += 3 + n.params().view.base.size() + n.params().view.coeff.size();
    } else if (n.op == ir::op_code::iota) {
      bound += 7 + n.params().iota.coeffs.size();
    } else if (n.op == ir::op_code::random) {
      bound += 4 + n.params().iota.coeffs.size();
    } else if (n.op == ir::op_code::gather) {
      bound += 1 + n.params().gather_axes.size();
    } else {
      bound += 7;  // reduce and scan (a user combine adds a word), user
    }
    std::int64_t* w = room(bound);
    // A materialized node is a buffer to the passes, whatever op once computed it.
    *w++ = n.materialized() ? leaf_word : static_cast<std::int64_t>(n.op);
    *w++ = static_cast<std::int64_t>(n.dt);
    put(w, n.shape);
    *w++ = np.use_count();
    *w++ = n.handles > 0;
    if (n.materialized()) {
      put(w, n.strides);
      *w++ = n.offset;
      int b = -1;
      for (std::size_t i = 0; i < buffers.size() && b < 0; ++i)
        if (buffers[i] == n.storage.get()) b = static_cast<int>(i);
      if (b < 0) {
        b = static_cast<int>(buffers.size());
        buffers.push_back(n.storage.get());
      }
      *w++ = b;
      *w++ = static_cast<std::int64_t>(n.storage->nbytes);
      *w++ = n.storage.use_count();
      len = static_cast<std::size_t>(w - buf.get());
      return;
    }
    switch (n.op) {
      case ir::op_code::view:
        *w++ = n.params().view.reshape;
        put(w, n.params().view.base);
        put(w, n.params().view.coeff);
        break;
      case ir::op_code::reduce:
      case ir::op_code::scan:
        *w++ = static_cast<std::int64_t>(n.reduction.kind);
        *w++ = static_cast<std::int64_t>(n.reduction.combine);
        *w++ = static_cast<std::int64_t>(n.reduction.acc_dt);
        *w++ = static_cast<std::int64_t>(n.reduction.axes);
        put_bits(w, n.reduction.identity.bytes);
        // A user kernel's combine: its instance (plans of two kernels must not be shared).
        if (n.reduction.combine == ir::op_code::user) *w++ = static_cast<std::int64_t>(n.params().user->id);
        break;
      case ir::op_code::iota: {
        const ir::iota_spec& io = n.params().iota;
        put_bits(w, io.start);
        put_bits(w, io.step);
        put(w, io.coeffs);
        *w++ = io.offset;
        *w++ = io.equals;
      } break;
      case ir::op_code::random: {
        // The stream's position (key, counter, first, carried half) is rebound like a scalar's
        // value: a loop that draws afresh each step reuses its plan.
        const ir::random_stream& r = n.params().random;
        put(w, n.params().iota.coeffs);
        *w++ = n.params().iota.offset;
        *w++ = static_cast<std::int64_t>(r.engine) << 8 | static_cast<std::int64_t>(r.form);
      } break;
      case ir::op_code::user:
        // The kernel instance: the same object for every call with the same argument dtypes.
        *w++ = static_cast<std::int64_t>(n.params().user->id);
        *w++ = n.params().user_output;
        break;
      case ir::op_code::gather: {
        const auto& axes = n.params().gather_axes;
        *w++ = static_cast<std::int64_t>(axes.size());
        for (int a : axes) *w++ = a;
      } break;
      default:
        break;
    }
    *w++ = static_cast<std::int64_t>(n.inputs.size());
    len = static_cast<std::size_t>(w - buf.get());
    for (const auto& in : n.inputs) {
      sign(in);
      if (!ok) return;
    }
  }

  void sign_roots(std::span<const node_ptr> roots) {
    len = 0;
    nodes.clear();
    buffers.clear();
    ok = true;
    // The device too: a DAG on the CPU and the same DAG on a GPU run different kernels.
    *room(1) = static_cast<std::int64_t>(roots.size()) |
               (roots.empty() ? 0 : static_cast<std::int64_t>(roots[0]->place.bits()) << 32);
    ++len;
    for (const auto& r : roots) {
      sign(r);
      if (!ok) return;
    }
  }
};

struct plan_memo {
  signer sig;
  support::lru_cache<std::vector<std::int64_t>, plan_template, words_hash> cache{capacity};
  int leases = 0;  // plans lent out now: a nested evaluation then plans without the memo

  // The template of p, or nothing when p holds a node the signature does not know.
  std::optional<plan_template> make_template(const plan& p) const {
    plan_template t;
    t.p = p;
    auto ref = [&](std::shared_ptr<ir::node>& n, std::vector<int>& refs, bool may_keep) {
      int i = sig.find(n.get());
      if (i < 0 && !may_keep) return false;
      refs.push_back(i);
      if (i >= 0) n.reset();  // the template must not keep the DAG alive
      return true;
    };
    for (auto& st : t.p.steps) {
      for (auto& in : st.inputs)
        if (!ref(in.node, t.input_refs, false)) return std::nullopt;
      for (auto& s : st.scalars)
        if (!ref(s, t.scalar_refs, true)) return std::nullopt;
      for (auto& o : st.outputs)
        if (!ref(o, t.output_refs, false)) return std::nullopt;
      for (std::size_t k = 0; k < st.draws.size(); ++k) {
        if (st.draws[k])
          t.first_shifts.push_back(st.iotas[k].random->first - st.draws[k]->params().random.first);
        if (!ref(st.draws[k], t.draw_refs, true)) return std::nullopt;
      }
    }
    return t;
  }

  // Points the template's node slots at this DAG's nodes (bind) or at nothing again (unbind).
  void bind(plan_template& t, bool on) const {
    std::size_t i = 0, s = 0, o = 0;
    auto set = [&](std::shared_ptr<ir::node>& slot, int ref) {
      if (ref < 0) return;
      if (on)
        slot = *sig.nodes[ref];
      else
        slot.reset();
    };
    std::size_t d = 0, f = 0;
    for (auto& st : t.p.steps) {
      for (auto& in : st.inputs) set(in.node, t.input_refs[i++]);
      for (auto& sc : st.scalars) set(sc, t.scalar_refs[s++]);
      for (auto& out : st.outputs) set(out, t.output_refs[o++]);
      for (std::size_t k = 0; k < st.draws.size(); ++k) {
        const int ref = t.draw_refs[d++];
        if (ref < 0) continue;
        const std::uint64_t shift = t.first_shifts[f++];
        set(st.draws[k], ref);
        if (!on) continue;
        // This DAG's draw: its stream, moved by the same whole blocks as the remembered one's.
        ir::random_stream& stream = *st.iotas[k].random;
        const ir::random_stream& now = st.draws[k]->params().random;
        stream.key = now.key;
        stream.ctr = now.ctr;
        stream.first = now.first + shift;
        stream.carried = now.carried;
        stream.carries = now.carries;
      }
    }
  }

  // The remembered template for roots' DAG, bound to it; or nullptr after planning it into `own`
  // (and remembering it when it can be).
  plan_template* find_or_plan(std::span<const node_ptr> roots, std::optional<plan>& own) {
    // NDFUSE_PLAN_MEMO=0 plans every evaluation from scratch (to rule the memo out when debugging).
    static const bool off = !support::env::plan_memo();
    if (off || leases > 0) {
      own = plan_from_passes(roots);
      return nullptr;
    }
    sig.sign_roots(roots);
    if (!sig.ok) {
      own = plan_from_passes(roots);
      return nullptr;
    }
    bool fresh = false;
    // A loop evaluates the same DAG shape each iteration: its entry is then the most recent one.
    // Otherwise get() finds it, or makes it on a miss; one that cannot be a template stays empty.
    plan_template* recent = cache.most_recent_equal(sig.words());
    auto& entry = recent ? *recent : cache.get(sig.words_as_key(), [&] {
      fresh = true;
      return plan_template{};
    });
    if (!fresh && !entry.p.steps.empty()) {
      ++support::counters_here().plans_reused;
      trace_pass("plan reused (same DAG signature)");
      bind(entry, true);
      return &entry;
    }
    own = plan_from_passes(roots);
    if (fresh)
      if (auto t = make_template(*own)) entry = std::move(*t);
    return nullptr;
  }
};

plan_memo& thread_memo() {
  thread_local plan_memo memo;
  return memo;
}

}  // namespace

plan_lease::plan_lease(std::span<const node_ptr> roots) {
  auto& memo = thread_memo();
  if (auto* t = memo.find_or_plan(roots, own_)) {
    lent_ = t;
    ++memo.leases;
  }
}

plan_lease::~plan_lease() {
  if (!lent_) return;
  auto& memo = thread_memo();
  memo.bind(*static_cast<plan_template*>(lent_), false);
  --memo.leases;
}

const plan& plan_lease::get() const {
  return lent_ ? static_cast<const plan_template*>(lent_)->p : *own_;
}

plan make_plan(const std::vector<node_ptr>& roots) {
  plan_lease lease(roots);
  return lease.get();
}

}  // namespace ndfuse::schedule
