// nf::array's NumPy methods (x.sum(), x.sort(), ...): each forwards to the free function of the
// same name; the in-place ones rebind the handle, as the in-place operators do.
#include <fstream>
#include <utility>

#include "frontend/build.hpp"
#include "frontend/operands_device.hpp"
#include "ir/node.hpp"
#include "ndfuse/composites.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/sorting.hpp"

namespace ndfuse {

array array::sum(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) const& {
  return ndfuse::sum(*this, axis, keepdims, dt);
}
array array::sum(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) && {
  return frontend::consume(*this, std::as_const(*this).sum(axis, keepdims, dt));
}
array array::prod(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) const& {
  return ndfuse::prod(*this, axis, keepdims, dt);
}
array array::prod(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) && {
  return frontend::consume(*this, std::as_const(*this).prod(axis, keepdims, dt));
}
array array::mean(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) const& {
  return ndfuse::mean(*this, axis, keepdims, dt);
}
array array::mean(axes axis, bool keepdims, std::optional<ndfuse::dtype> dt) && {
  return frontend::consume(*this, std::as_const(*this).mean(axis, keepdims, dt));
}
array array::max(axes axis, bool keepdims) const& {
  return ndfuse::max(*this, axis, keepdims);
}
array array::max(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).max(axis, keepdims));
}
array array::min(axes axis, bool keepdims) const& {
  return ndfuse::min(*this, axis, keepdims);
}
array array::min(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).min(axis, keepdims));
}
array array::all(axes axis, bool keepdims) const& {
  return ndfuse::all(*this, axis, keepdims);
}
array array::all(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).all(axis, keepdims));
}
array array::any(axes axis, bool keepdims) const& {
  return ndfuse::any(*this, axis, keepdims);
}
array array::any(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).any(axis, keepdims));
}
array array::argmax(axes axis, bool keepdims) const& {
  return ndfuse::argmax(*this, axis, keepdims);
}
array array::argmax(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).argmax(axis, keepdims));
}
array array::argmin(axes axis, bool keepdims) const& {
  return ndfuse::argmin(*this, axis, keepdims);
}
array array::argmin(axes axis, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).argmin(axis, keepdims));
}
array array::var(axes axis, double ddof, bool keepdims) const& {
  return ndfuse::var(*this, axis, ddof, keepdims);
}
array array::var(axes axis, double ddof, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).var(axis, ddof, keepdims));
}
array array::std(axes axis, double ddof, bool keepdims) const& {
  return ndfuse::std(*this, axis, ddof, keepdims);
}
array array::std(axes axis, double ddof, bool keepdims) && {
  return frontend::consume(*this, std::as_const(*this).std(axis, ddof, keepdims));
}
array array::cumsum(std::optional<int> axis, std::optional<ndfuse::dtype> dt) const& {
  return ndfuse::cumsum(*this, axis, dt);
}
array array::cumsum(std::optional<int> axis, std::optional<ndfuse::dtype> dt) && {
  return frontend::consume(*this, std::as_const(*this).cumsum(axis, dt));
}
array array::cumprod(std::optional<int> axis, std::optional<ndfuse::dtype> dt) const& {
  return ndfuse::cumprod(*this, axis, dt);
}
array array::cumprod(std::optional<int> axis, std::optional<ndfuse::dtype> dt) && {
  return frontend::consume(*this, std::as_const(*this).cumprod(axis, dt));
}
array array::trace(std::int64_t offset, int axis1, int axis2) const {
  return ndfuse::trace(*this, offset, axis1, axis2);
}
array array::clip(const operand& lo, const operand& hi) const& {
  return ndfuse::clip(*this, lo, hi);
}
array array::clip(const operand& lo, const operand& hi) && {
  return frontend::consume(*this, std::as_const(*this).clip(lo, hi));
}
array array::round(int decimals) const& {
  return ndfuse::round(*this, decimals);
}
array array::round(int decimals) && {
  return frontend::consume(*this, std::as_const(*this).round(decimals));
}
array array::conj() const& {
  return ndfuse::conj(*this);
}
array array::conj() && {
  return frontend::consume(*this, std::as_const(*this).conj());
}
array array::conjugate() const& {
  return ndfuse::conjugate(*this);
}
array array::conjugate() && {
  return frontend::consume(*this, std::as_const(*this).conjugate());
}
array array::real() const& {
  return ndfuse::real(*this);
}
array array::real() && {
  return frontend::consume(*this, std::as_const(*this).real());
}
array array::imag() const& {
  return ndfuse::imag(*this);
}
array array::imag() && {
  return frontend::consume(*this, std::as_const(*this).imag());
}
std::vector<array> array::nonzero() const {
  return ndfuse::nonzero(*this);
}
array array::repeat(std::int64_t repeats, std::optional<int> axis) const {
  return ndfuse::repeat(*this, repeats, axis);
}
array array::take(const array& indices) const {
  return ndfuse::take(*this, indices);
}
array array::take(const array& indices, int axis) const {
  return ndfuse::take(*this, indices, axis);
}
array array::compress(const array& condition) const {
  return ndfuse::compress(condition, *this);
}
array array::compress(const array& condition, int axis) const {
  return ndfuse::compress(condition, *this, axis);
}
array array::argsort(int axis) const {
  return ndfuse::argsort(*this, axis);
}
array array::argpartition(std::int64_t kth, int axis) const {
  return ndfuse::argpartition(*this, kth, axis);
}
array array::searchsorted(const array& v, std::string_view side) const {
  return ndfuse::searchsorted(*this, v, side);
}
void array::sort(int axis) {
  *this = ndfuse::sort(*this, axis);
}
void array::partition(std::int64_t kth, int axis) {
  *this = ndfuse::partition(*this, kth, axis);
}
void array::fill(scalar value) {
  const frontend::operands_device on_its_device(*this);
  *this = full(shape(), value, dtype());
}
void array::put(const array& indices, const array& values) {
  ndfuse::put(*this, indices, values);
}
array array::mT() const& {
  return matrix_transpose(*this);
}
array array::mT() && {
  return frontend::consume(*this, std::as_const(*this).mT());
}
shape_t array::strides() const {
  eval();
  shape_t bytes(node()->strides.begin(), node()->strides.end());
  for (auto& s : bytes) s *= static_cast<std::int64_t>(itemsize());
  return bytes;
}
std::string array::tobytes() const {
  const host_array h = to_host();
  return std::string(reinterpret_cast<const char*>(h.bytes.data()), h.bytes.size());
}
void array::tofile(const std::string& path) const {
  const std::string bytes = tobytes();
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw io_error("tofile: cannot write " + path);
}

}  // namespace ndfuse
