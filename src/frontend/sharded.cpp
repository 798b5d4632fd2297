// nf::distributed::sharded_array: the layouts, splitting (per-shard generated parts, or copies),
// the per-shard operations, and the reductions and products that combine shards through NCCL.
#include "ndfuse/sharded.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "frontend/shard_slice.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::distributed {

enum class shard_mode { one_device, gpus, ranks };

struct sharded_array::layout {
  shape_t shape;
  ndfuse::dtype dt = dtype::float64;
  int axis = 0;                     // -1: replicated
  std::vector<std::int64_t> sizes;  // every shard's length along the axis, in order
  int first = 0;                    // this process's first shard among them (its rank, one per GPU)
  std::vector<device> devices;      // this process's shards' devices
  shard_mode mode = shard_mode::one_device;
  std::vector<communicator> comms;  // ranks: this process's communicator
};

struct sharded_access {
  static sharded_array make(std::shared_ptr<const sharded_array::layout> l, std::vector<array> shards) {
    return sharded_array(std::move(l), std::move(shards));
  }
  static const sharded_array::layout& of(const sharded_array& x, const char* op) {
    if (!x.layout_) throw value_error(std::string("nf::distributed::") + op + ": an empty sharded_array");
    return *x.layout_;
  }
  static const std::shared_ptr<const sharded_array::layout>& ptr(const sharded_array& x) { return x.layout_; }
};

namespace {

using layout = sharded_array::layout;
using access = sharded_access;

std::string prefix(const char* op) {
  return std::string("nf::distributed::") + op + ": ";
}

int normalized_axis(int axis, std::int64_t ndim, const char* op) {
  if (ndim == 0) throw shape_error(prefix(op) + "a 0-d array has no axis to split");
  if (axis < -ndim || axis >= ndim)
    throw shape_error(prefix(op) + "axis " + std::to_string(axis) +
                      " is out of bounds for an array of dimension " + std::to_string(ndim));
  return axis < 0 ? static_cast<int>(axis + ndim) : axis;
}

// np.array_split's sizes: the first len % n parts one longer.
std::vector<std::int64_t> split_sizes(std::int64_t len, std::int64_t n) {
  std::vector<std::int64_t> s(static_cast<std::size_t>(n), len / n);
  for (std::int64_t i = 0; i < len % n; ++i) ++s[static_cast<std::size_t>(i)];
  return s;
}

std::int64_t start_of(const layout& l, std::size_t shard) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < shard; ++i) s += l.sizes[i];
  return s;
}

// The communicators of a set of GPUs, made once per set and kept for the process: never destroyed,
// since destroying an NCCL communicator at exit may come after the CUDA runtime has gone.
const std::vector<communicator>& group_for(const std::vector<device>& devices) {
  static std::mutex mutex;
  static auto& groups = *new std::map<std::vector<int>, std::vector<communicator>>;
  std::vector<int> key;
  for (const auto& d : devices) key.push_back(d.index());
  const std::lock_guard lock(mutex);
  auto it = groups.find(key);
  if (it == groups.end()) it = groups.emplace(key, init_all(devices)).first;
  return it->second;
}

// Shard i of x: built on its device from x's generated values where it can be, else cut from x
// (evaluated once, by the first cut) and copied there.
array part_of(const array& x, int axis, std::int64_t start, std::int64_t stop, std::int64_t n, std::size_t i,
              device d, std::vector<array>& cut) {
  if (auto s = frontend::slice_generated(x.node(), axis, start, stop, d)) return array(std::move(s));
  if (cut.empty()) cut = array_split(x, n, axis);
  return cut[i].to(d);
}

shard_mode mode_of(const std::vector<device>& devices, const char* op) {
  if (devices.empty()) throw value_error(prefix(op) + "no devices given");
  if (std::all_of(devices.begin(), devices.end(), [&](const device& d) { return d == devices[0]; }))
    return shard_mode::one_device;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i].is_cuda())
      throw device_error(prefix(op) + "shards on several devices must be on GPUs (NCCL joins them); " +
                         devices[i].str() + " is not one");
    for (std::size_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        throw value_error(prefix(op) + devices[i].str() +
                          " holds two shards of several devices: give each GPU one shard, or put every shard "
                          "on one device");
  }
  return shard_mode::gpus;
}

// The shape the shards' results make together: shard 0's, with the split axis's total length.
shape_t whole_shape(const layout& l, const std::vector<array>& shards, const char* op) {
  shape_t s = shards.at(0).shape();
  if (l.axis < 0) return s;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const auto& si = shards[i].shape();
    if (static_cast<int>(si.size()) <= l.axis || si[static_cast<std::size_t>(l.axis)] != l.sizes[l.first + i])
      throw shape_error(prefix(op) + "shard " + std::to_string(l.first + i) + " became " + shape_str(si) +
                        ": an operation on shards must keep the split axis's length");
  }
  // Every shard's length is the split's, this process's or not (one process per GPU).
  std::int64_t total = 0;
  for (auto n : l.sizes) total += n;
  s[static_cast<std::size_t>(l.axis)] = total;
  return s;
}

sharded_array rebuilt(const layout& base, std::vector<array> shards, const char* op) {
  auto l = std::make_shared<layout>(base);
  l->shape = whole_shape(base, shards, op);
  l->dt = shards.at(0).dtype();
  return access::make(std::move(l), std::move(shards));
}

sharded_array replicated_from(const layout& base, std::vector<array> copies) {
  auto l = std::make_shared<layout>(base);
  l->axis = -1;
  l->shape = copies.at(0).shape();
  l->dt = copies.at(0).dtype();
  return access::make(std::move(l), std::move(copies));
}

// ---- combining partial results ----------------------------------------------------------------------

array fold(const array& a, const array& b, reduce_op op) {
  switch (op) {
    case reduce_op::sum:
    case reduce_op::avg:
      return a + b;
    case reduce_op::prod:
      return a * b;
    case reduce_op::min:
      return minimum(a, b);
    case reduce_op::max:
      return maximum(a, b);
  }
  return a + b;
}

// One partial result per local shard, each on its shard's device, combined into copies of the
// whole result, one per shard: on one device by ordinary ops, across GPUs and ranks by all_reduce.
std::vector<array> combine(const layout& l, std::vector<array> partials, reduce_op op) {
  switch (l.mode) {
    case shard_mode::one_device: {
      array total = partials[0];
      for (std::size_t i = 1; i < partials.size(); ++i) total = fold(total, partials[i], op);
      return std::vector<array>(partials.size(), total);
    }
    case shard_mode::gpus:
      return all_reduce(group_for(l.devices), partials, op);
    case shard_mode::ranks:
      return {all_reduce(l.comms[0], partials[0], op)};
  }
  return partials;
}

// A value no element of dtype t beats under min or max: what an empty shard contributes.
scalar identity_for(reduce_op op, ndfuse::dtype t) {
  const bool lowest = op == reduce_op::max;
  if (t == dtype::bool_) return scalar(!lowest);
  if (is_inexact(t))
    return scalar(lowest ? -std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::infinity());
  const iinfo range(t);
  return lowest ? scalar(range.min) : scalar(range.max);
}

sharded_array reduce_with(const sharded_array& x, std::optional<int> axis, reduce_op op, const char* name,
                          array (*reduce_one)(const array&, axes, bool)) {
  const layout& l = access::of(x, name);
  const auto& shards = x.shards();
  if (l.axis < 0) {  // replicated: the same reduction on each copy
    std::vector<array> r;
    for (const auto& s : shards) r.push_back(axis ? reduce_one(s, *axis, false) : reduce_one(s, {}, false));
    return replicated_from(l, std::move(r));
  }
  if (axis) {
    const int a = normalized_axis(*axis, x.ndim(), name);
    if (a != l.axis) {  // along another axis: each shard alone, the result still split
      std::vector<array> r;
      for (const auto& s : shards) r.push_back(reduce_one(s, a, false));
      layout moved = l;
      if (a < l.axis) --moved.axis;
      return rebuilt(moved, std::move(r), name);
    }
  }
  std::vector<array> partials;
  for (const auto& s : shards) {
    const bool empty = s.shape()[static_cast<std::size_t>(l.axis)] == 0;
    if (empty && (op == reduce_op::min || op == reduce_op::max)) {
      // NumPy refuses an empty max; the whole is not empty, so an empty shard adds the identity.
      shape_t rs = s.shape();
      if (axis)
        rs.erase(rs.begin() + l.axis);
      else
        rs.clear();
      const device_scope on(s.device());
      partials.push_back(full(rs, identity_for(op, s.dtype()), s.dtype()));
      continue;
    }
    partials.push_back(axis ? reduce_one(s, *axis, false) : reduce_one(s, {}, false));
  }
  return replicated_from(l, combine(l, std::move(partials), op));
}

array sum_of(const array& a, axes ax, bool keepdims) {
  return ndfuse::sum(a, std::move(ax), keepdims);
}
array prod_of(const array& a, axes ax, bool keepdims) {
  return ndfuse::prod(a, std::move(ax), keepdims);
}
array min_of(const array& a, axes ax, bool keepdims) {
  return ndfuse::min(a, std::move(ax), keepdims);
}
array max_of(const array& a, axes ax, bool keepdims) {
  return ndfuse::max(a, std::move(ax), keepdims);
}

}  // namespace

// ---- the handle ---------------------------------------------------------------------------------------

sharded_array::sharded_array(std::shared_ptr<const layout> l, std::vector<array> shards)
    : layout_(std::move(l)), shards_(std::move(shards)) {}

sharded_array sharded_array::split(const array& x, const std::vector<device>& devices, int axis) {
  constexpr const char* op = "sharded_array::split";
  auto l = std::make_shared<layout>();
  l->mode = mode_of(devices, op);
  l->axis = normalized_axis(axis, x.ndim(), op);
  l->shape = x.shape();
  l->dt = x.dtype();
  const auto n = static_cast<std::int64_t>(devices.size());
  l->sizes = split_sizes(x.shape()[static_cast<std::size_t>(l->axis)], n);
  l->devices = devices;
  std::vector<array> shards, cut;
  std::int64_t start = 0;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    shards.push_back(part_of(x, l->axis, start, start + l->sizes[i], n, i, devices[i], cut));
    start += l->sizes[i];
  }
  return access::make(std::move(l), std::move(shards));
}

sharded_array sharded_array::split(const array& x, const communicator& c, int axis) {
  constexpr const char* op = "sharded_array::split";
  auto l = std::make_shared<layout>();
  l->mode = shard_mode::ranks;
  l->axis = normalized_axis(axis, x.ndim(), op);
  l->shape = x.shape();
  l->dt = x.dtype();
  l->sizes = split_sizes(x.shape()[static_cast<std::size_t>(l->axis)], c.size());
  l->first = c.rank();
  l->devices = {c.device()};
  l->comms = {c};
  std::vector<array> cut;
  const auto r = static_cast<std::size_t>(c.rank());
  const std::int64_t start = start_of(*l, r);
  std::vector<array> shards{part_of(x, l->axis, start, start + l->sizes[r], c.size(), r, c.device(), cut)};
  return access::make(std::move(l), std::move(shards));
}

const shape_t& sharded_array::shape() const {
  return access::of(*this, "sharded_array.shape").shape;
}
dtype sharded_array::dtype() const {
  return access::of(*this, "sharded_array.dtype").dt;
}
std::int64_t sharded_array::size() const {
  std::int64_t n = 1;
  for (auto d : shape()) n *= d;
  return n;
}
int sharded_array::axis() const {
  return access::of(*this, "sharded_array.axis").axis;
}
bool sharded_array::replicated() const {
  return axis() < 0;
}
const std::vector<array>& sharded_array::shards() const {
  access::of(*this, "sharded_array.shards");
  return shards_;
}
std::vector<device> sharded_array::devices() const {
  return access::of(*this, "sharded_array.devices").devices;
}

array sharded_array::gather(device d) const {
  const layout& l = access::of(*this, "sharded_array.gather");
  if (l.axis < 0) return shards_[0].to(d);
  if (l.mode != shard_mode::ranks) {
    std::vector<array> moved;
    for (const auto& s : shards_) moved.push_back(s.to(d));
    return concatenate(moved, l.axis);
  }
  const array front = ascontiguousarray(moveaxis(shards_[0], l.axis, 0));
  const std::int64_t longest = *std::max_element(l.sizes.begin(), l.sizes.end());
  if (std::all_of(l.sizes.begin(), l.sizes.end(), [&](std::int64_t n) { return n == longest; }))
    return moveaxis(all_gather(l.comms[0], front), 0, l.axis).to(d);
  // NCCL's all_gather takes equal parts: each rank sends its shard padded to the longest, and the
  // padding is dropped from the joined blocks (every rank knows every length from the split).
  std::vector<std::pair<std::int64_t, std::int64_t>> widths(front.shape().size(), {0, 0});
  widths[0].second = longest - front.shape()[0];
  const array blocks = all_gather(l.comms[0], pad(front, widths));
  std::vector<array> parts;
  for (std::size_t r = 0; r < l.sizes.size(); ++r) {
    const std::int64_t start = static_cast<std::int64_t>(r) * longest;
    parts.push_back(blocks(slice(start, start + l.sizes[r])));
  }
  return moveaxis(concatenate(parts, 0), 0, l.axis).to(d);
}

sharded_array& sharded_array::eval() {
  access::of(*this, "sharded_array.eval");
  for (auto& s : shards_) s.eval();
  return *this;
}

sharded_array sharded_array::map(const std::function<array(const array&)>& f) const {
  const layout& l = access::of(*this, "sharded_array.map");
  std::vector<array> out;
  for (const auto& s : shards_) out.push_back(f(s));
  if (l.axis < 0) return replicated_from(l, std::move(out));
  return rebuilt(l, std::move(out), "sharded_array.map");
}

sharded_array sharded_array::zip(const sharded_array& a, const sharded_array& b,
                                 const std::function<array(const array&, const array&)>& f) {
  constexpr const char* op = "sharded_array.zip";
  const layout& la = access::of(a, op);
  const layout& lb = access::of(b, op);
  if (la.axis >= 0 && lb.axis >= 0 && (la.axis != lb.axis || la.sizes != lb.sizes || la.first != lb.first))
    throw shape_error(prefix(op) + "the arrays are split differently (shapes " + shape_str(la.shape) +
                      " and " + shape_str(lb.shape) + ", axes " + std::to_string(la.axis) + " and " +
                      std::to_string(lb.axis) + ", " + std::to_string(la.sizes.size()) + " and " +
                      std::to_string(lb.sizes.size()) + " shards)");
  if (la.devices != lb.devices || la.mode != lb.mode || la.first != lb.first)
    throw device_error(prefix(op) + "the two arrays' shards lie on different devices");
  std::vector<array> out;
  for (std::size_t i = 0; i < a.shards_.size(); ++i) out.push_back(f(a.shards_[i], b.shards_[i]));
  const layout& base = la.axis >= 0 ? la : lb;
  if (base.axis < 0) return replicated_from(base, std::move(out));
  return rebuilt(base, std::move(out), op);
}

sharded_array sharded_array::zip(const sharded_array& a, const array& b,
                                 const std::function<array(const array&, const array&)>& f) {
  constexpr const char* op = "sharded_array.zip";
  const layout& l = access::of(a, op);
  // b's own axis for the split one, aligned on the right as broadcasting aligns shapes.
  const std::int64_t k = l.axis - (a.ndim() - b.ndim());
  const bool spans = l.axis >= 0 && k >= 0 && b.shape()[static_cast<std::size_t>(k)] != 1;
  if (spans && b.shape()[static_cast<std::size_t>(k)] != l.shape[static_cast<std::size_t>(l.axis)])
    throw shape_error(prefix(op) + "operands could not be broadcast together with shapes " +
                      shape_str(l.shape) + " " + shape_str(b.shape()));
  std::vector<array> out;
  for (std::size_t i = 0; i < a.shards_.size(); ++i) {
    const array& s = a.shards_[i];
    array part = b;
    if (spans) {  // a view of the rows (or columns, ...) this shard meets
      const std::size_t shard = static_cast<std::size_t>(l.first) + i;
      const std::int64_t start = start_of(l, shard);
      std::vector<index_item> items(static_cast<std::size_t>(k), index_item(all));
      items.emplace_back(slice(start, start + l.sizes[shard]));
      part = index(b, items);
    }
    out.push_back(f(s, part.to(s.device())));
  }
  if (l.axis < 0) return replicated_from(l, std::move(out));
  return rebuilt(l, std::move(out), op);
}

sharded_array& sharded_array::operator+=(const sharded_array& b) {
  return *this = *this + b;
}
sharded_array& sharded_array::operator-=(const sharded_array& b) {
  return *this = *this - b;
}
sharded_array& sharded_array::operator*=(const sharded_array& b) {
  return *this = *this * b;
}
sharded_array& sharded_array::operator/=(const sharded_array& b) {
  return *this = *this / b;
}
sharded_array& sharded_array::operator+=(scalar b) {
  return *this = map([&](const array& s) {
    array r = s;
    r += b;
    return r;
  });
}
sharded_array& sharded_array::operator-=(scalar b) {
  return *this = map([&](const array& s) {
    array r = s;
    r -= b;
    return r;
  });
}
sharded_array& sharded_array::operator*=(scalar b) {
  return *this = map([&](const array& s) {
    array r = s;
    r *= b;
    return r;
  });
}
sharded_array& sharded_array::operator/=(scalar b) {
  return *this = map([&](const array& s) {
    array r = s;
    r /= b;
    return r;
  });
}

#define NDFUSE_SHARDED_BINARY(sym)                                                           \
  sharded_array operator sym(const sharded_array& a, const sharded_array& b) {               \
    return sharded_array::zip(a, b, [](const array& x, const array& y) { return x sym y; }); \
  }                                                                                          \
  sharded_array operator sym(const sharded_array& a, scalar b) {                             \
    return a.map([&](const array& x) { return x sym b; });                                   \
  }                                                                                          \
  sharded_array operator sym(scalar a, const sharded_array& b) {                             \
    return b.map([&](const array& y) { return a sym y; });                                   \
  }                                                                                          \
  sharded_array operator sym(const sharded_array& a, const array& b) {                       \
    return sharded_array::zip(a, b, [](const array& x, const array& y) { return x sym y; }); \
  }                                                                                          \
  sharded_array operator sym(const array& a, const sharded_array& b) {                       \
    return sharded_array::zip(b, a, [](const array& y, const array& x) { return x sym y; }); \
  }
NDFUSE_SHARDED_BINARY(+)
NDFUSE_SHARDED_BINARY(-)
NDFUSE_SHARDED_BINARY(*)
NDFUSE_SHARDED_BINARY(/)
#undef NDFUSE_SHARDED_BINARY

sharded_array operator-(const sharded_array& a) {
  return a.map([](const array& x) { return -x; });
}

// ---- reductions and products ----------------------------------------------------------------------------

sharded_array sum(const sharded_array& x, std::optional<int> axis) {
  return reduce_with(x, axis, reduce_op::sum, "sum", sum_of);
}
sharded_array prod(const sharded_array& x, std::optional<int> axis) {
  return reduce_with(x, axis, reduce_op::prod, "prod", prod_of);
}
sharded_array min(const sharded_array& x, std::optional<int> axis) {
  return reduce_with(x, axis, reduce_op::min, "min", min_of);
}
sharded_array max(const sharded_array& x, std::optional<int> axis) {
  return reduce_with(x, axis, reduce_op::max, "max", max_of);
}

sharded_array mean(const sharded_array& x, std::optional<int> axis) {
  // NumPy's mean: integers and bools in float64, the sum divided by the count it covered.
  const sharded_array in =
      is_inexact(x.dtype()) ? x : x.map([](const array& s) { return s.astype(dtype::float64); });
  std::int64_t count = x.size();
  if (axis) count = x.shape()[static_cast<std::size_t>(normalized_axis(*axis, x.ndim(), "mean"))];
  return sum(in, axis) / scalar(static_cast<double>(count));
}

sharded_array norm(const sharded_array& x) {
  const sharded_array squares = x.map([](const array& s) {
    const array m = is_complex(s.dtype()) ? abs(s) : (is_inexact(s.dtype()) ? s : s.astype(dtype::float64));
    return m * m;
  });
  return sum(squares).map([](const array& t) { return sqrt(t); });
}

namespace {

void need_matrix(const shape_t& s, const char* what) {
  if (s.size() != 2)
    throw shape_error(prefix("matmul") + what + " is " + shape_str(s) + "; sharded products take 2-D arrays");
}

}  // namespace

sharded_array matmul(const sharded_array& a, const array& b) {
  const layout& l = access::of(a, "matmul");
  need_matrix(a.shape(), "a");
  need_matrix(b.shape(), "b");
  if (l.axis != 0)
    throw value_error(prefix("matmul") + "a must be split along its rows (axis 0) to multiply a whole b");
  return a.map([&](const array& s) { return ndfuse::matmul(s, b.to(s.device())); });
}

sharded_array matmul(const array& a, const sharded_array& b) {
  const layout& l = access::of(b, "matmul");
  need_matrix(a.shape(), "a");
  need_matrix(b.shape(), "b");
  if (l.axis != 1)
    throw value_error(prefix("matmul") + "b must be split along its columns (axis 1) when a is whole");
  return b.map([&](const array& s) { return ndfuse::matmul(a.to(s.device()), s); });
}

sharded_array matmul(const sharded_array& a, const sharded_array& b) {
  const layout& la = access::of(a, "matmul");
  const layout& lb = access::of(b, "matmul");
  need_matrix(a.shape(), "a");
  need_matrix(b.shape(), "b");
  if (la.axis != 1 || lb.axis != 0 || la.sizes != lb.sizes || la.devices != lb.devices)
    throw value_error(prefix("matmul") +
                      "two split operands must be a split along its columns and b along its "
                      "rows, the same way on the same devices (the contraction is split)");
  if (a.shape()[1] != b.shape()[0])
    throw shape_error(prefix("matmul") + "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                      " are not aligned");
  std::vector<array> partials;
  for (std::size_t i = 0; i < a.shards().size(); ++i)
    partials.push_back(ndfuse::matmul(a.shards()[i], b.shards()[i]));
  return replicated_from(la, combine(la, std::move(partials), reduce_op::sum));
}

}  // namespace ndfuse::distributed
