// A node of the lazy expression DAG. Building an op creates one; evaluating it fills `storage` and
// drops `inputs`, so everything upstream that nobody holds is freed.
#pragma once
#include <array>
#include <atomic>
#include <complex>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "ir/library.hpp"
#include "ir/memory_owner.hpp"
#include "ir/op_code.hpp"
#include "ir/placement.hpp"
#include "ir/reduction.hpp"
#include "ir/user_kernel.hpp"
#include "ir/view.hpp"
#include "ndfuse/array.hpp"

namespace ndfuse::ir {

// Owns one allocation of a backend. Freed when the last node viewing it goes away.
struct buffer {
  memory_owner* owner = nullptr;
  void* data = nullptr;
  std::size_t nbytes = 0;
  // Memory another library lent (DLPack): never donated to an output, never counted in
  // stats().bytes_in_use; `owner` is told when the last node lets go of it.
  bool adopted = false;
  buffer(memory_owner* o, std::size_t n);
  buffer(memory_owner* o, void* lent, std::size_t n);
  ~buffer();
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
};

// iota: value = start + step * (sum_d index_d * coeffs[d]), computed in float64 (or int64 for
// integer dtypes), then cast to the node's dtype; coeffs are per dim of the node's shape and may be
// negative (eye uses column - row).
struct iota_spec {
  std::complex<double> start = 0, step = 0;
  std::vector<std::int64_t> coeffs;
  std::int64_t offset = 0;  // added to the affine index before scaling (eye's -k)
  bool equals = false;      // eye: value = (affine index == 0)
};

// random: a draw of nf::random. The element at affine index a (iota_spec's coeffs and offset over
// the node's shape, start and step unused) is the value jit/prelude/nf_random.cuh's nf_random
// computes from this stream at a: a pure function, so every backend and every grid agree.
enum class random_engine : std::uint8_t {
  philox4x64,  // NumPy's Philox: words `first + a` of the stream continuing from block `ctr`
  philox4x32,  // ndfuse's default: block ctr + first + a / per (per: elements a block gives the form)
};
enum class random_form : std::uint8_t {
  bits64,         // uint64 words
  bits32,         // uint32 words (NumPy's next_uint32 on philox4x64)
  unit_double,    // float64 in [0, 1), NumPy's next_double
  unit_float,     // float32 in [0, 1), NumPy's next_float
  normal_double,  // float64 standard normals, Box-Muller pairs
  normal_float,   // float32 standard normals, Box-Muller pairs computed in float64
};
struct random_stream {
  random_engine engine = random_engine::philox4x32;
  random_form form = random_form::unit_double;
  std::array<std::uint64_t, 2> key{};
  std::array<std::uint64_t, 4> ctr{};
  std::uint64_t first = 0;  // philox4x64: a word position (a half's, for 32-bit forms); philox4x32: a block
  // philox4x64 32-bit forms: element 0 is NumPy's kept upper half when `carries`: 1, of the word
  // `carried` words before `first`; 2, `carried` itself.
  std::uint64_t carried = 0;
  int carries = 0;
};
// Elements a philox4x32 block gives a form (the prelude's nf_random_per_block).
int random_per_block(random_form f);

// The parameters of the rarer ops (iota, random, view, gather, library call): see node::params().
struct rare_params {
  iota_spec iota;
  random_stream random;
  // view: the remap from this node's index to inputs[0]'s.
  view_params view;
  // gather: inputs[0] is the source; inputs[1 + j] (int64, of this node's shape, in range) indexes
  // source axis gather_axes[j]. This node's shape is (the index shape..., the source's other axes...),
  // each inputs[1 + j] broadcast over the trailing ones.
  std::vector<int> gather_axes;
  // library: the call; inputs are its operands.
  library_call library;
  // user: the kernel and which of its outputs this node is; inputs are its operands, in the order
  // ir/user_kernel.hpp gives.
  std::shared_ptr<const user_kernel> user;
  int user_output = 0;
};

struct node {
  op_code op = op_code::buffer;
  dtype dt = dtype::float64;
  placement place;  // the device: this thread's current one at creation, or the operands'
  // An unmade move (op_code::move) may lie upstream: the runtime looks for moves only from such
  // roots, so evaluations without moves never walk their DAG for them.
  bool reaches_move = false;

  shape_t shape;
  // Inline room for two: most ops have one or two operands, and a heap block per node would show.
  boost::container::small_vector<std::shared_ptr<node>, 2> inputs;

  // Op parameters. scalar: `value` (inline: scalars are common); reduce and scan: `reduction`,
  // inputs[0] reduced over `reduction.axes` (shape is the result's shape). The rarer ops' parameters
  // live out of line (see rare_params), so the common node is small: building and freeing nodes is
  // a large share of a small array's host time.
  scalar_bits value;
  reduction_params reduction;
  rare_params& params();              // creates them on first use
  const rare_params& params() const;  // defaults when there are none
  // An int64 node whose values were checked (an index validated before a gather): its min and max,
  // so indexing with it again needs no second check.
  // A builder's bound (searchsorted's [0, length]) rather than the values' own min and max: an
  // index check it fails reads the values before raising.
  bool range_known = false;
  bool range_is_bound = false;
  std::int64_t range_min = 0, range_max = -1;

  // Storage of a materialized node: element strides and offset into `storage`. Written once, before
  // publish(); a thread that sees materialized() then reads them whole (see docs/architecture.md,
  // "Threads").
  std::shared_ptr<buffer> storage;
  std::vector<std::int64_t> strides;
  std::int64_t offset = 0;
  // A view of another node's storage: that node, the buffer's owner (never a view itself), for
  // NumPy's x.base. Null for a node that owns its storage.
  std::shared_ptr<node> view_of;

  // Bounded DAG growth: pending elementwise ops upstream until the nearest materialized nodes
  // (an over-estimate when the DAG shares nodes, which only splits earlier; the frontend then
  // counts exactly). Atomic (relaxed) because
  // a builder on one thread reads them while an evaluation on another zeroes them.
  std::atomic<std::uint32_t> pending_ops{0};
  // Leaves (buffers, scalars, iotas) those pending ops read: a bound on a fused kernel's inputs.
  std::atomic<std::uint32_t> pending_leaves{1};
  // Number of nf::array handles pointing here. A held node is written when a plan consumes it.
  std::atomic<int> handles{0};

  std::unique_ptr<rare_params> rare;  // params()'s storage: null on most nodes

 private:
  std::atomic<bool> ready_{false};

 public:
  bool materialized() const { return ready_.load(std::memory_order_acquire); }
  // Makes storage, strides and offset, written before, visible with materialized() to every thread.
  void publish() { ready_.store(true, std::memory_order_release); }
  std::int64_t size() const;

  node() = default;
  // Hands the shape and strides vectors (with their heap blocks) to new_node's per-thread pool.
  ~node();
  node(const node&) = delete;
  node& operator=(const node&) = delete;
};

// A new empty node. Nodes come from a per-thread free list: a loop over small arrays builds and
// frees a few per step, and the general-purpose allocator is a visible part of that. Its shape
// comes empty but usually with room for a few dimensions, from the pool of freed nodes' vectors.
std::shared_ptr<node> new_node();

std::int64_t shape_size(const shape_t& s);
// The value of a scalar node of dtype float32, float64, complex64 or complex128; nothing for any other
// node or dtype (what folding a scale into a library call's alpha reads).
std::optional<std::complex<double>> float_scalar_value(const node& n);
std::vector<std::int64_t> contiguous_strides(const shape_t& s);
// strides = contiguous_strides(s), reusing strides' heap block or a pooled one (no allocation on
// the evaluation path).
void set_contiguous_strides(std::vector<std::int64_t>& strides, const shape_t& s);
// Whether `strides` equals contiguous_strides(s), without building that vector.
bool has_contiguous_strides(const shape_t& s, const std::vector<std::int64_t>& strides);

// The graph lock. Handles may share a DAG across threads, and an evaluation rewrites the nodes it
// computes (each becomes a buffer and drops its inputs): so planning and evaluating run under this
// process-wide lock, as does any builder that reads another node's inputs or records on it (matmul's
// operand analysis, an index's range). Builders otherwise read only what a node publishes once
// (materialized(), with its storage, strides and offset) and relaxed counters. Recursive: an
// evaluation may start another (an automatic split, eager mode inside a builder).
std::recursive_mutex& graph_mutex();

}  // namespace ndfuse::ir
