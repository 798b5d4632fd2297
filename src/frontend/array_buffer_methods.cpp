// nf::array's members about its buffer and bytes (include/ndfuse/array.hpp): flags, base, data,
// view, byteswap; and choose and tolist, which NumPy also has as methods.
#include <cstring>
#include <string>

#include "frontend/build.hpp"
#include "ir/node.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/routines.hpp"

namespace ndfuse {

namespace {

bool c_contiguous(const shape_t& shape, const std::vector<std::int64_t>& strides) {
  std::int64_t expected = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool f_contiguous(const shape_t& shape, const std::vector<std::int64_t>& strides) {
  std::int64_t expected = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

}  // namespace

array_flags array::flags() const {
  eval();
  const auto& n = node();
  array_flags f;
  const std::int64_t count = size();
  f.c_contiguous = count == 0 || c_contiguous(n->shape, n->strides);
  f.f_contiguous = count == 0 || f_contiguous(n->shape, n->strides);
  f.owndata = !base().has_value();
  for (std::size_t i = 0; i < n->shape.size(); ++i)
    if (n->strides[i] == 0 && n->shape[i] > 1) f.writeable = false;
  return f;
}

std::optional<array> array::base() const {
  const auto& n = frontend::checked(*this, "base");
  if (n->view_of) return array(n->view_of);
  // An evaluated pending view holds its own copy; a pending one views its input (or what that views).
  if (n->op != ir::op_code::view || n->inputs.empty()) return std::nullopt;
  std::shared_ptr<ir::node> owner = n->inputs.at(0);
  while (owner->op == ir::op_code::view && !owner->inputs.empty()) owner = owner->inputs.at(0);
  return array(owner->view_of ? owner->view_of : owner);
}

const void* array::data() const {
  eval();
  const auto& n = node();
  if (!n->storage) return nullptr;
  return static_cast<const char*>(n->storage->data) + n->offset * static_cast<std::int64_t>(itemsize());
}

array array::view(ndfuse::dtype t) const {
  eval();
  const auto& n = node();
  const std::int64_t from = static_cast<std::int64_t>(itemsize()),
                     to = static_cast<std::int64_t>(ndfuse::itemsize(t));
  shape_t shape = n->shape;
  std::vector<std::int64_t> strides = n->strides;
  const std::int64_t offset_bytes = n->offset * from;
  if (from != to) {
    if (shape.empty())
      throw value_error(
          "view: Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    if (shape.back() != 1 && strides.back() != 1)
      throw value_error("view: To change to a dtype of a different size, the last axis must be contiguous");
    const std::int64_t last_bytes = shape.back() * from;
    if (last_bytes % to != 0)
      throw value_error(
          "view: When changing to a " + std::string(to > from ? "larger" : "smaller") +
          " dtype, its size must be a divisor of the total size in bytes of the last axis of the array.");
    shape.back() = last_bytes / to;
    strides.back() = 1;
  }
  // Element strides and offset of the new dtype: the byte ones must divide evenly.
  auto n2 = ir::new_node();
  for (std::size_t i = 0; i + (from != to ? 1 : 0) < strides.size(); ++i) {
    const std::int64_t bytes = strides[i] * from;
    if (bytes % to != 0) throw value_error("view: the array's strides do not fit the new dtype's size");
    strides[i] = bytes / to;
  }
  if (offset_bytes % to != 0) throw value_error("view: the array's offset does not fit the new dtype's size");
  n2->place = n->place;
  n2->op = ir::op_code::buffer;
  n2->dt = t;
  n2->shape = std::move(shape);
  n2->strides = std::move(strides);
  n2->offset = offset_bytes / to;
  n2->storage = n->storage;
  n2->view_of = n->view_of ? n->view_of : n;
  n2->publish();
  return array(std::move(n2));
}

array array::view(std::string_view t) const {
  return view(dtype_from_name(t));
}

namespace {

// x (an unsigned integer array) with its bytes reversed, by shifts and masks that fuse.
array swapped(const array& x) {
  switch (itemsize(x.dtype())) {
    case 2:
      return (x >> 8) | (x << 8);
    case 4:
      return ((x >> 24) & 0xffu) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
    case 8: {
      array r = zeros_like(x);
      for (int byte = 0; byte < 8; ++byte) {
        const array b = (x >> (8 * byte)) & std::uint64_t{0xff};
        r = r | (b << (8 * (7 - byte)));
      }
      return r;
    }
    default:
      return x;
  }
}

dtype unsigned_of_size(std::size_t bytes) {
  return bytes == 2 ? dtype::uint16 : bytes == 4 ? dtype::uint32 : dtype::uint64;
}

}  // namespace

array array::byteswap() const {
  const ndfuse::dtype t = dtype();
  if (itemsize() == 1) return copy();
  // A complex number swaps each part: its parts as the unsigned integers of their size.
  const std::size_t part = is_complex(t) ? itemsize() / 2 : itemsize();
  const array flat = reshape({size()}).copy();
  const array bits = flat.view(unsigned_of_size(part));
  return swapped(bits).copy().view(t).reshape(shape());
}

array array::choose(const std::vector<array>& choices, std::string_view mode) const {
  return ndfuse::choose(*this, choices, mode);
}

namespace {

// Element i as the Python scalar NumPy's tolist makes of it.
scalar python_scalar(const host_array& h, std::size_t i) {
  switch (h.dtype) {
    case dtype::bool_:
      return scalar(h.bytes[i] != std::byte{0});
    case dtype::int8:
      return scalar(h.raw<std::int8_t>(i));
    case dtype::int16:
      return scalar(h.raw<std::int16_t>(i));
    case dtype::int32:
      return scalar(h.raw<std::int32_t>(i));
    case dtype::int64:
      return scalar(h.raw<std::int64_t>(i));
    case dtype::uint8:
      return scalar(h.raw<std::uint8_t>(i));
    case dtype::uint16:
      return scalar(h.raw<std::uint16_t>(i));
    case dtype::uint32:
      return scalar(h.raw<std::uint32_t>(i));
    case dtype::uint64:
      return scalar(h.raw<std::uint64_t>(i));
    case dtype::float32:
      return scalar(static_cast<double>(h.raw<float>(i)));
    case dtype::float64:
      return scalar(h.raw<double>(i));
    case dtype::complex64:
      return scalar(std::complex<double>(h.raw<std::complex<float>>(i)));
    case dtype::complex128:
      return scalar(h.raw<std::complex<double>>(i));
    default:  // the 16-bit floats, which tolist reads as float32
      throw dtype_error("tolist: unexpected dtype " + std::string(dtype_name(h.dtype)));
  }
}

nested_list level(const host_array& h, std::size_t axis, std::size_t& next) {
  nested_list l;
  if (axis == h.shape.size()) {
    l.value = python_scalar(h, next++);
    return l;
  }
  for (std::int64_t i = 0; i < h.shape[axis]; ++i) l.items.push_back(level(h, axis + 1, next));
  return l;
}

}  // namespace

nested_list array::tolist() const {
  const ndfuse::dtype t = dtype();
  // The 16-bit floats become Python floats of their value: read them as float32 first.
  const host_array h =
      (t == dtype::float16 || t == dtype::bfloat16 ? astype(dtype::float32) : *this).to_host();
  std::size_t next = 0;
  return level(h, 0, next);
}

}  // namespace ndfuse
