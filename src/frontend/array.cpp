// The nf::array handle. It counts handles per node: the fuser writes a node that a handle still
// holds as an extra kernel output, so later reads never recompute it.
#include "ndfuse/array.hpp"

#include <utility>

#include "frontend/build.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/config.hpp"
#include "ndfuse/math.hpp"
#include "runtime/device.hpp"
#include "runtime/realize.hpp"

namespace ndfuse {

array::array(std::shared_ptr<ir::node> n) : node_(std::move(n)) {
  if (node_) ++node_->handles;
}
array::array(const array& other) : node_(other.node_) {
  if (node_) ++node_->handles;
}
array::array(array&& other) noexcept : node_(std::move(other.node_)) {}
array& array::operator=(const array& other) & {
  if (this != &other) {
    if (other.node_) ++other.node_->handles;
    if (node_) --node_->handles;
    node_ = other.node_;
  }
  return *this;
}
array& array::operator=(array&& other) & noexcept {
  if (this != &other) {
    if (node_) --node_->handles;
    node_ = std::move(other.node_);
  }
  return *this;
}
array::~array() {
  if (node_) --node_->handles;
}

const shape_t& array::shape() const {
  return frontend::checked(*this, "shape")->shape;
}
std::int64_t array::ndim() const {
  return static_cast<std::int64_t>(shape().size());
}
std::int64_t array::size() const {
  return ir::shape_size(shape());
}
dtype array::dtype() const {
  return frontend::checked(*this, "dtype")->dt;
}

array array::astype(std::string_view t) const& {
  return astype(dtype_from_name(t));
}

array array::astype(std::string_view t) && {
  return std::move(*this).astype(dtype_from_name(t));
}

array array::astype(ndfuse::dtype t) const& {
  const auto& n = frontend::checked(*this, "astype");
  if (n->dt == t) return *this;
  return frontend::finish(frontend::cast_node(n, t));
}
array array::astype(ndfuse::dtype t) && {
  return frontend::consume(*this, std::as_const(*this).astype(t));  // see array.hpp
}

array& array::eval() {
  const auto& n = frontend::checked(*this, "eval");
  if (!n->materialized()) runtime::realize({&n, 1});
  return *this;
}
const array& array::eval() const {
  const auto& n = frontend::checked(*this, "eval");
  if (!n->materialized()) runtime::realize({&n, 1});
  return *this;
}
bool array::is_evaluated() const {
  return frontend::checked(*this, "is_evaluated")->materialized();
}

host_array array::to_host() const {
  eval();
  return runtime::read_to_host(node_);
}

ndfuse::device array::device() const {
  return runtime::device_of(*frontend::checked(*this, "device"));
}

array array::to(ndfuse::device d) const {
  const auto& n = frontend::checked(*this, "to");
  runtime::check_exists(d);
  if (runtime::device_of(*n) == d) return *this;
  return frontend::finish(runtime::move_node(n, d));
}

array array::get() const {
  return to(ndfuse::device::cpu());
}

array asarray(const array& x) {
  return x.to(current_device());
}

array asarray(const array& x, device d) {
  return x.to(d);
}

array asnumpy(const array& x) {
  return x.get();
}

array array::from_host_copy(ndfuse::dtype t, const shape_t& shape, const void* data) {
  const std::int64_t n = ir::checked_size(shape, ndfuse::itemsize(t), "asarray");
  if (n > 0 && data == nullptr) throw value_error("asarray: the host data pointer is null");
  return array(runtime::upload(t, shape, data));
}

array array::from_host_copy(ndfuse::dtype t, const shape_t& shape, const void* data, std::size_t count) {
  const std::int64_t n = ir::checked_size(shape, ndfuse::itemsize(t), "asarray");
  if (static_cast<std::uint64_t>(n) != count)
    throw value_error("asarray: cannot reshape array of size " + std::to_string(count) + " into shape " +
                      shape_str(shape));
  return from_host_copy(t, shape, data);
}

array asarray(const host_array& h) {
  const std::size_t size = itemsize(h.dtype);
  if (h.bytes.size() % size != 0)
    throw value_error("asarray: host_array holds " + std::to_string(h.bytes.size()) +
                      " bytes, not a whole number of " + std::string(dtype_name(h.dtype)) + " elements");
  return array::from_host_copy(h.dtype, h.shape, h.bytes.data(), h.bytes.size() / size);
}

array& array::assign(const array& value, casting rule) {
  *this = frontend::assign_like(*this, value, rule, "assign");
  return *this;
}

// In-place operators: compute, then cast back with same_kind (NumPy's rule for x op= y). Eager mode
// evaluates after the handle is rebound, so the old buffer can be reused in place.
template <class Build>
array& rebind_in_place(array& self, Build&& build, const char* op) {
  array result;
  {
    runtime::defer_eager defer;
    result = frontend::assign_like(self, build(), casting::same_kind, op);
  }
  self = std::move(result);
  if (eager_enabled()) self.eval();
  return self;
}

#define NDFUSE_INPLACE(op, fn)                              \
  array& array::operator op(const array& o) {               \
    return rebind_in_place(                                 \
        *this, [&] { return fn(*this, o); }, #fn);          \
  }                                                         \
  array& array::operator op(scalar s) {                     \
    return rebind_in_place(                                 \
        *this, [&] { return fn(*this, operand(s)); }, #fn); \
  }
NDFUSE_INPLACE(+=, add)
NDFUSE_INPLACE(-=, subtract)
NDFUSE_INPLACE(*=, multiply)
NDFUSE_INPLACE(/=, true_divide)
NDFUSE_INPLACE(%=, remainder)
NDFUSE_INPLACE(&=, bitwise_and)
NDFUSE_INPLACE(|=, bitwise_or)
NDFUSE_INPLACE(^=, bitwise_xor)
NDFUSE_INPLACE(<<=, left_shift)
NDFUSE_INPLACE(>>=, right_shift)
#undef NDFUSE_INPLACE

}  // namespace ndfuse
