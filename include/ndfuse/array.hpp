// nf::array: a cheap value-semantics handle to a node of the lazy expression DAG.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ndfuse/device.hpp"
#include "ndfuse/dtype.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse {

// An array's shape, outermost size first: a std::vector<std::int64_t> of its own type, so that
// `std::cout << x.shape()` prints (2, 3) as Python prints a shape.
struct shape_t : std::vector<std::int64_t> {
  using std::vector<std::int64_t>::vector;
  shape_t() = default;
  shape_t(const std::vector<std::int64_t>& v) : std::vector<std::int64_t>(v) {}
  shape_t(std::vector<std::int64_t>&& v) : std::vector<std::int64_t>(std::move(v)) {}
};
std::ostream& operator<<(std::ostream& os, const shape_t& s);

namespace ir {
struct node;
}
struct operand;  // ndfuse/math.hpp: an array or a weak C++ scalar

// A host copy of an array's data, in C order (what cupy's .get() returns).
struct host_array {
  ndfuse::dtype dtype = dtype::float64;
  shape_t shape;
  std::vector<std::byte> bytes;
  template <element_type E>
  std::span<const E> values() const {
    if (dtype_of<E> != dtype) throw dtype_error("host_array::values: element type does not match the dtype");
    return {reinterpret_cast<const E*>(bytes.data()), bytes.size() / sizeof(E)};
  }
  // The i-th T of the bytes, whatever the dtype (a float16's bits as std::uint16_t, a complex
  // number's parts as two floats).
  template <class T>
  T raw(std::size_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
  }
};

std::string shape_str(const shape_t& s);

// The `axis=None` of NumPy.
struct none_t {
  explicit constexpr none_t(int) {}
};
inline constexpr none_t none{0};

// Which axes a reduction runs over: none (all), one axis, or several.
class axes {
 public:
  axes() = default;  // all axes
  axes(none_t) {}
  axes(int axis) : list_{axis}, all_(false) {}
  axes(std::initializer_list<int> list) : list_(list), all_(false) {}
  axes(std::vector<int> list) : list_(std::move(list)), all_(false) {}
  bool all() const { return all_; }
  const std::vector<int>& list() const { return list_; }

 private:
  std::vector<int> list_;
  bool all_ = true;
};

struct all_t;  // nf::all: the reduction, and in indexing the whole-axis placeholder (reduce.hpp)
class indexed;
struct index_item;  // "(2, 3)", as NumPy prints shapes

// x.tolist(): the elements as nested lists (NumPy's Python lists); each leaf holds one element
// as an nf::scalar (a Python int, float, complex or bool). operator<< prints it as Python prints
// the list.
struct nested_list {
  std::optional<scalar> value;     // a leaf
  std::vector<nested_list> items;  // or the next level
};
std::ostream& operator<<(std::ostream& os, const nested_list& l);

// NumPy's x.flags, of the evaluated layout.
struct array_flags {
  bool c_contiguous = true;
  bool f_contiguous = true;
  bool owndata = true;    // not a view of another array's buffer
  bool writeable = true;  // false for broadcast views, as NumPy's broadcast_to
  bool aligned = true;
};

class array {
 public:
  array() = default;  // an empty handle; using it throws
  // nf::array({1.0, 2.0}), nf::array({{1, 2}, {3, 4}}): the element type's dtype, except that
  // C++ int literals give int64, NumPy's integer for Python ints (docs/numpy-differences.md).
  template <element_type E>
  array(std::initializer_list<E> values);
  template <element_type E>
  array(std::initializer_list<std::initializer_list<E>> rows);

  explicit array(std::shared_ptr<ir::node> n);
  array(const array& other);
  array(array&& other) noexcept;
  // Lvalues only: assigning to a temporary would silently do nothing (x(...) = v is indexed's).
  array& operator=(const array& other) &;
  array& operator=(array&& other) & noexcept;
  ~array();

  const shape_t& shape() const;
  std::int64_t ndim() const;
  std::int64_t size() const;
  ndfuse::dtype dtype() const;
  // The device the array lives on (torch's x.device, CuPy's x.device).
  ndfuse::device device() const;
  std::size_t itemsize() const { return ndfuse::itemsize(dtype()); }
  std::size_t nbytes() const { return itemsize() * static_cast<std::size_t>(size()); }

  // Casts with NumPy's astype rules (unsafe casting allowed, as NumPy's default).
  // Each method that makes a new array has a form for temporaries (`(a * b).astype(t)`): the
  // temporary's handle goes at once, so a plan evaluated before the full expression ends still
  // fuses through it rather than writing it (a node a handle holds is written, DESIGN.md §3).
  array astype(ndfuse::dtype t) const&;
  array astype(ndfuse::dtype t) &&;
  // astype("f"), astype("<f4"), astype("single"): any spelling numpy.dtype() accepts for a
  // supported dtype (nf::dtype_from_name; dtype_error for others).
  array astype(std::string_view t) const&;
  array astype(std::string_view t) &&;
  // Enqueues the computation of this array and returns; only host reads wait.
  array& eval();
  const array& eval() const;
  bool is_evaluated() const;

  template <element_type E>
  E item() const;
  template <element_type E>
  std::vector<E> to_vector() const;
  host_array to_host() const;
  // The array on device d: itself when it is there already, else a lazy copy (a peer copy between
  // GPUs, a staged copy between the host and a GPU), made when something downstream is evaluated.
  array to(ndfuse::device d) const;
  // The array on the CPU device (CuPy's x.get()).
  array get() const;

  // The in-place operators rebind this handle to a new node; the result is cast back to this
  // array's dtype with NumPy's same_kind rule, and the result shape must equal this array's shape.
  array& operator+=(const array& o);
  array& operator-=(const array& o);
  array& operator*=(const array& o);
  array& operator/=(const array& o);
  array& operator%=(const array& o);
  array& operator&=(const array& o);
  array& operator|=(const array& o);
  array& operator^=(const array& o);
  array& operator<<=(const array& o);
  array& operator>>=(const array& o);
  array& operator+=(scalar s);
  array& operator-=(scalar s);
  array& operator*=(scalar s);
  array& operator/=(scalar s);
  array& operator%=(scalar s);
  array& operator&=(scalar s);
  array& operator|=(scalar s);
  array& operator^=(scalar s);
  array& operator<<=(scalar s);
  array& operator>>=(scalar s);

  // Rebinds this handle to `value`, cast with same_kind and broadcast to this array's shape.
  // This is what every `out=` form of an op does.
  array& assign(const array& value, casting rule = casting::same_kind);

  // Basic indexing, NumPy's x[...]: integers, nf::slice, nf::all, nf::newaxis, nf::ellipsis
  // (index.hpp). The result is a view; on a non-const array it can also be assigned through.
  template <class... I>
  indexed operator()(const I&... idx);
  template <class... I>
  array operator()(const I&... idx) const;

  // Shape manipulation as methods, as NumPy's ndarray has them (views where NumPy gives views).
  array reshape(const shape_t& shape) const&;  // one dim may be -1
  array reshape(const shape_t& shape) &&;
  // x.reshape(2, 3), as NumPy's x.reshape(2, 3).
  template <std::integral... I>
  requires(sizeof...(I) > 0) array reshape(I... dims)
  const& { return reshape(shape_t{static_cast<std::int64_t>(dims)...}); }
  template <std::integral... I>
  requires(sizeof...(I) > 0) array reshape(I... dims) && {
    return std::move(*this).reshape(shape_t{static_cast<std::int64_t>(dims)...});
  }
  array ravel() const&;
  array ravel() &&;
  array flatten() const&;  // always a new array (a lazy copy)
  array flatten() &&;
  array transpose() const&;
  array transpose() &&;
  array transpose(const std::vector<int>& axes) const&;
  array transpose(const std::vector<int>& axes) &&;
  // x.transpose(1, 0), as NumPy's x.transpose(1, 0).
  template <std::integral... I>
  requires(sizeof...(I) > 0) array transpose(I... axes)
  const& { return transpose(std::vector<int>{static_cast<int>(axes)...}); }
  template <std::integral... I>
  requires(sizeof...(I) > 0) array transpose(I... axes) && {
    return std::move(*this).transpose(std::vector<int>{static_cast<int>(axes)...});
  }
  array T() const&;  // the transpose, NumPy's .T
  array T() &&;
  array dot(const array& other) const;  // nf::dot(*this, other)
  array swapaxes(int a, int b) const&;
  array swapaxes(int a, int b) &&;
  array squeeze(axes axis = {}) const&;
  array squeeze(axes axis = {}) &&;
  array diagonal(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) const&;
  array diagonal(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) &&;
  array copy() const&;
  array copy() &&;

  // NumPy's ndarray methods over the free functions of the same names (x.sum(0) is nf::sum(x, 0)).
  // NumPy's in-place methods (sort, partition, fill, put) rebind this handle, as in-place operators
  // do: other handles of the old value keep it. Each method that makes an array has a form for
  // temporaries, as astype has: `(x * 2).clip(-1, 1).sum()` is one kernel.
  array sum(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) const&;
  array sum(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) &&;
  array prod(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) const&;
  array prod(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) &&;
  array mean(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) const&;
  array mean(axes axis = {}, bool keepdims = false, std::optional<ndfuse::dtype> dt = std::nullopt) &&;
  array max(axes axis = {}, bool keepdims = false) const&;
  array max(axes axis = {}, bool keepdims = false) &&;
  array min(axes axis = {}, bool keepdims = false) const&;
  array min(axes axis = {}, bool keepdims = false) &&;
  array all(axes axis = {}, bool keepdims = false) const&;
  array all(axes axis = {}, bool keepdims = false) &&;
  array any(axes axis = {}, bool keepdims = false) const&;
  array any(axes axis = {}, bool keepdims = false) &&;
  array argmax(axes axis = {}, bool keepdims = false) const&;
  array argmax(axes axis = {}, bool keepdims = false) &&;
  array argmin(axes axis = {}, bool keepdims = false) const&;
  array argmin(axes axis = {}, bool keepdims = false) &&;
  array var(axes axis = {}, double ddof = 0, bool keepdims = false) const&;
  array var(axes axis = {}, double ddof = 0, bool keepdims = false) &&;
  array std(axes axis = {}, double ddof = 0, bool keepdims = false) const&;
  array std(axes axis = {}, double ddof = 0, bool keepdims = false) &&;
  array cumsum(std::optional<int> axis = std::nullopt, std::optional<ndfuse::dtype> dt = std::nullopt) const&;
  array cumsum(std::optional<int> axis = std::nullopt, std::optional<ndfuse::dtype> dt = std::nullopt) &&;
  array cumprod(std::optional<int> axis = std::nullopt,
                std::optional<ndfuse::dtype> dt = std::nullopt) const&;
  array cumprod(std::optional<int> axis = std::nullopt, std::optional<ndfuse::dtype> dt = std::nullopt) &&;
  array trace(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) const;
  array clip(const operand& lo, const operand& hi) const&;
  array clip(const operand& lo, const operand& hi) &&;
  array round(int decimals = 0) const&;
  array round(int decimals = 0) &&;
  array conj() const&;
  array conj() &&;
  array conjugate() const&;
  array conjugate() &&;
  array real() const&;
  array real() &&;
  array imag() const&;
  array imag() &&;
  std::vector<array> nonzero() const;
  array repeat(std::int64_t repeats, std::optional<int> axis = std::nullopt) const;
  array take(const array& indices) const;  // of the flattened array
  array take(const array& indices, int axis) const;
  array compress(const array& condition) const;  // of the flattened array
  array compress(const array& condition, int axis) const;
  array argsort(int axis = -1) const;
  array argpartition(std::int64_t kth, int axis = -1) const;
  array searchsorted(const array& v, std::string_view side = "left") const;
  void sort(int axis = -1);
  void partition(std::int64_t kth, int axis = -1);
  void fill(scalar value);  // every element `value`, in this array's dtype
  void put(const array& indices, const array& values);
  array mT() const&;  // the last two axes swapped
  array mT() &&;
  // Bytes between neighbours along each axis, of the evaluated layout (a view's are its base's).
  shape_t strides() const;
  array_flags flags() const;
  // The array whose buffer this view reads (NumPy's base: the buffer's owner, through views of
  // views), or nothing for an array that is not a view.
  std::optional<array> base() const;
  // The address of the first element, once evaluated (CuPy's x.data.ptr): device memory for a GPU
  // array. Read only: other handles may share the buffer.
  const void* data() const;
  // The same bytes as another dtype, sharing the buffer (NumPy's x.view(dtype)): for another
  // itemsize the last axis must be contiguous and its byte length divisible (value_error).
  array view(ndfuse::dtype t) const;
  array view(std::string_view t) const;
  // The bytes of each element in reverse order (each part of a complex number); a new array.
  array byteswap() const;
  // choices[x] elementwise (nf::choose); mode "raise", "wrap" or "clip".
  array choose(const std::vector<array>& choices, std::string_view mode = "raise") const;
  nested_list tolist() const;
  // The elements in C order as raw bytes (NumPy's tobytes), or written to a file (tofile).
  std::string tobytes() const;
  void tofile(const std::string& path) const;

  // The DAG node (library internals and tests). Inline: every op reads it, several times per step.
  const std::shared_ptr<ir::node>& node() const { return node_; }

  // A copy of host data in C order: `count` elements of dtype t at `data`, which must be exactly
  // what `shape` holds (value_error otherwise, or for a null `data` with elements to read).
  static array from_host_copy(ndfuse::dtype t, const shape_t& shape, const void* data, std::size_t count);
  // The same where the caller has sized `data` from `shape` itself.
  static array from_host_copy(ndfuse::dtype t, const shape_t& shape, const void* data);

 private:
  std::shared_ptr<ir::node> node_;
};

// How an initializer list's elements are stored: int (a literal's type) as int64, bool as bytes
// (std::vector<bool> has no data()), the rest as themselves.
template <class E>
using list_element_t = std::conditional_t<std::is_same_v<E, int>, std::int64_t,
                                          std::conditional_t<std::is_same_v<E, bool>, std::uint8_t, E>>;
template <class E>
inline constexpr ndfuse::dtype list_dtype = std::is_same_v<E, int> ? dtype::int64 : dtype_of<E>;

template <element_type E>
array::array(std::initializer_list<E> values) {
  const std::vector<list_element_t<E>> flat(values.begin(), values.end());
  *this = from_host_copy(list_dtype<E>, {std::int64_t(values.size())}, flat.data());
}

template <element_type E>
array::array(std::initializer_list<std::initializer_list<E>> rows) {
  std::vector<list_element_t<E>> flat;
  std::int64_t cols = rows.size() ? std::int64_t(rows.begin()->size()) : 0;
  for (const auto& r : rows) {
    if (std::int64_t(r.size()) != cols) throw shape_error("array: nested initializer lists are ragged");
    flat.insert(flat.end(), r.begin(), r.end());
  }
  *this = from_host_copy(list_dtype<E>, {std::int64_t(rows.size()), cols}, flat.data());
}

template <element_type E>
std::vector<E> array::to_vector() const {
  host_array h = astype(dtype_of<E>).to_host();
  auto v = h.values<E>();
  return {v.begin(), v.end()};
}
template <element_type E>
E array::item() const {
  if (size() != 1)
    throw value_error("item: can only convert an array of size 1 to a scalar, got shape " +
                      shape_str(shape()));
  return to_vector<E>()[0];
}

// Host data -> array (cp.asarray / np.asarray). The data is copied.
template <element_type E>
array asarray(std::span<const E> data, const shape_t& shape) {
  return array::from_host_copy(dtype_of<E>, shape, data.data(), data.size());
}
template <element_type E>
array asarray(const std::vector<E>& data, const shape_t& shape) {
  return asarray(std::span<const E>(data), shape);
}
template <element_type E>
array asarray(const std::vector<E>& data) {
  return asarray(std::span<const E>(data), shape_t{std::int64_t(data.size())});
}
array asarray(const host_array& h);

// An array on this thread's current device: `x` itself when it is there, else x.to(current_device())
// (cp.asarray of a device array); and on device d (x.to(d)).
array asarray(const array& x);
array asarray(const array& x, device d);
// The array on the CPU device (cp.asnumpy): x.get().
array asnumpy(const array& x);

// Prints like NumPy's repr: array([1., 2.]), with dtype= when NumPy would show it, and device= for an
// array that is not on the process default device, as PyTorch prints device='cuda:1'.
std::ostream& operator<<(std::ostream& os, const array& a);
std::string repr(const array& a);

// The out= argument of ops: nf::exp(x, nf::out(y)) rebinds y to the result (same_kind cast).
struct out {
  array& target;
  explicit out(array& t) : target(t) {}
};

}  // namespace ndfuse

#include "ndfuse/index.hpp"  // operator()'s definitions (needs array complete)
