// Arrays split along one axis over several devices (jax's sharded arrays, a DistributedArray):
// each shard is an ordinary nf::array on its device, so elementwise work builds per-shard lazy
// expressions that fuse and run where the shard lives; a reduction over the split axis reduces
// each shard, then combines the partial results with an NCCL all_reduce (nf::distributed).
//
// Shards follow np.array_split: the first size % n shards hold one element more along the axis.
// Three layouts:
//   - several GPUs of this process, one shard each (NCCL between them; the communicators are made
//     once per set of GPUs);
//   - several shards on one device (the CPU, or one GPU): the same program on a single device,
//     the partial results combined there;
//   - one process per GPU: each process holds its rank's shard of the whole (split with a
//     communicator), and every process makes the same calls.
// A reduction's result, the same on every shard's device, is a replicated sharded_array: one copy
// per shard, each on its shard's device, so that it combines with the shards elementwise.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/distributed.hpp"

namespace ndfuse::distributed {

class sharded_array {
 public:
  sharded_array() = default;  // an empty handle; using it throws nf::value_error

  // x split along `axis` over `devices`, shard i on devices[i]. Distinct GPUs, or one device
  // repeated; a device may not appear twice among several. Where x is a lazy expression of
  // generated values (nf::random draws, arange, full) and elementwise ops, each shard computes its
  // own part on its device and x itself is never made whole; otherwise x is evaluated and its parts
  // are copied to their devices. A random draw gives the values of the unsplit draw, whatever the
  // number of shards.
  static sharded_array split(const array& x, const std::vector<device>& devices, int axis = 0);
  // This process's part of x over the ranks of c: shard c.rank() of c.size(), on c's GPU.
  static sharded_array split(const array& x, const communicator& c, int axis = 0);

  const shape_t& shape() const;  // of the whole
  ndfuse::dtype dtype() const;
  std::int64_t ndim() const { return static_cast<std::int64_t>(shape().size()); }
  std::int64_t size() const;
  int axis() const;         // the split axis; -1 when replicated
  bool replicated() const;  // every shard holds the whole (a reduction's result)
  // This process's shards, in order, and their devices.
  const std::vector<array>& shards() const;
  std::vector<device> devices() const;

  // The whole array on device d (for one process per GPU: on every rank, through all_gather, whose
  // parts are padded to the longest shard when the split was uneven).
  array gather(device d) const;
  // Starts every shard's evaluation.
  sharded_array& eval();

  // f applied to each shard (f gets each shard as an array on its device, and must keep the split
  // axis's length): what the operators below are made of, and the way to any other elementwise op.
  sharded_array map(const std::function<array(const array&)>& f) const;
  // f applied to the shards of a and b side by side.
  static sharded_array zip(const sharded_array& a, const sharded_array& b,
                           const std::function<array(const array&, const array&)>& f);
  // f applied to each shard of a and the matching part of a whole array b, which broadcasts
  // against a as NumPy broadcasts: b's part along the split axis where b spans it, all of b where
  // it does not (a length of 1 there, or fewer dimensions), copied to each shard's device.
  static sharded_array zip(const sharded_array& a, const array& b,
                           const std::function<array(const array&, const array&)>& f);

  sharded_array& operator+=(const sharded_array& b);
  sharded_array& operator-=(const sharded_array& b);
  sharded_array& operator*=(const sharded_array& b);
  sharded_array& operator/=(const sharded_array& b);
  sharded_array& operator+=(scalar b);
  sharded_array& operator-=(scalar b);
  sharded_array& operator*=(scalar b);
  sharded_array& operator/=(scalar b);

  struct layout;  // how the shards lie (sharded.cpp)

 private:
  std::shared_ptr<const layout> layout_;
  std::vector<array> shards_;
  sharded_array(std::shared_ptr<const layout> l, std::vector<array> shards);
  friend struct sharded_access;
};

sharded_array operator+(const sharded_array& a, const sharded_array& b);
sharded_array operator-(const sharded_array& a, const sharded_array& b);
sharded_array operator*(const sharded_array& a, const sharded_array& b);
sharded_array operator/(const sharded_array& a, const sharded_array& b);
sharded_array operator+(const sharded_array& a, scalar b);
sharded_array operator-(const sharded_array& a, scalar b);
sharded_array operator*(const sharded_array& a, scalar b);
sharded_array operator/(const sharded_array& a, scalar b);
sharded_array operator+(scalar a, const sharded_array& b);
sharded_array operator-(scalar a, const sharded_array& b);
sharded_array operator*(scalar a, const sharded_array& b);
sharded_array operator/(scalar a, const sharded_array& b);
sharded_array operator+(const sharded_array& a, const array& b);
sharded_array operator-(const sharded_array& a, const array& b);
sharded_array operator*(const sharded_array& a, const array& b);
sharded_array operator/(const sharded_array& a, const array& b);
sharded_array operator+(const array& a, const sharded_array& b);
sharded_array operator-(const array& a, const sharded_array& b);
sharded_array operator*(const array& a, const sharded_array& b);
sharded_array operator/(const array& a, const sharded_array& b);
sharded_array operator-(const sharded_array& a);

// Reductions over every axis, or one. Over the split axis (or all axes) the result is replicated;
// over another axis it stays split.
sharded_array sum(const sharded_array& x, std::optional<int> axis = std::nullopt);
sharded_array prod(const sharded_array& x, std::optional<int> axis = std::nullopt);
sharded_array min(const sharded_array& x, std::optional<int> axis = std::nullopt);
sharded_array max(const sharded_array& x, std::optional<int> axis = std::nullopt);
sharded_array mean(const sharded_array& x, std::optional<int> axis = std::nullopt);
// The 2-norm of all elements (NumPy's norm(x) of a vector, the Frobenius norm of a matrix).
sharded_array norm(const sharded_array& x);

// a @ b with one operand split: a split along its rows (axis 0) times a whole b gives a result
// split along its rows; a whole a times b split along its columns (axis 1) a result split along
// its columns; a split along its columns times b split along its rows (the contraction) the
// replicated sum of the shards' products.
sharded_array matmul(const sharded_array& a, const array& b);
sharded_array matmul(const array& a, const sharded_array& b);
sharded_array matmul(const sharded_array& a, const sharded_array& b);

}  // namespace ndfuse::distributed
