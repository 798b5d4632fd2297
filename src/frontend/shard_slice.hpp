// A part of a lazy array of generated values, built anew on another device: what lets a sharded
// array's shards each compute only their own part of a random draw or an arange, with the values
// the whole would have had (a random element's value is a function of its index in the whole).
#pragma once
#include <cstdint>
#include <memory>

#include "ir/node.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse::frontend {

// x's elements [start, stop) along `axis`, as a new lazy DAG placed on d whose leaves are x's
// iotas, random draws and scalars, sliced. Null when x holds anything else (a buffer, a reduction,
// a view, a library call, a move): the caller then evaluates x and copies its parts.
std::shared_ptr<ir::node> slice_generated(const std::shared_ptr<ir::node>& x, int axis, std::int64_t start,
                                          std::int64_t stop, device d);

}  // namespace ndfuse::frontend
