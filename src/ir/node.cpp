#include "ir/node.hpp"

#include <cstring>

#include "backend/backend.hpp"
#include "runtime/stats.hpp"

namespace ndfuse::ir {

buffer::buffer(backend::device_backend* o, std::size_t n) : owner(o), nbytes(n) {
  data = owner->allocate(n == 0 ? 1 : n);
  runtime::note_allocation(nbytes);
}

buffer::~buffer() {
  owner->deallocate(data, nbytes == 0 ? 1 : nbytes);
  runtime::note_release(nbytes);
}

std::int64_t shape_size(const shape_t& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::vector<std::int64_t> contiguous_strides(const shape_t& s) {
  std::vector<std::int64_t> st(s.size());
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}

std::int64_t node::size() const {
  return shape_size(shape);
}

const char* op_name(op_code op) {
  switch (op) {
    case op_code::op_code_buffer:
      return "buffer";
    case op_code::op_code_scalar:
      return "scalar";
    case op_code::op_code_iota:
      return "iota";
    case op_code::op_code_cast:
      return "cast";
    case op_code::op_code_where:
      return "where";
    case op_code::op_code_reduce:
      return "reduce";
    case op_code::op_code_scan:
      return "scan";
    case op_code::op_code_view:
      return "view";
    case op_code::op_code_guard:
      return "guard";
    case op_code::op_code_gather:
      return "gather";
    case op_code::op_code_library:
      return "library";
    case op_code::op_code_reduced:
      return "reduced";
#define NDFUSE_OP_NAME(name, arity) \
  case op_code::op_code_##name:     \
    return #name;
      NDFUSE_ELEMENTWISE_OPS(NDFUSE_OP_NAME)
#undef NDFUSE_OP_NAME
    case op_code::op_code_count:
      break;
  }
  return "?";
}

const char* library_op_name(library_op op) {
  switch (op) {
    case library_op::library_op_sort:
      return "sort";
    case library_op::library_op_flatnonzero:
      return "flatnonzero";
    case library_op::library_op_searchsorted:
      return "searchsorted";
    case library_op::library_op_scatter:
      return "scatter";
    case library_op::library_op_bincount:
      return "bincount";
    case library_op::library_op_gemm:
      return "gemm";
    case library_op::library_op_solve:
      return "solve";
    case library_op::library_op_inv:
      return "inv";
    case library_op::library_op_lu:
      return "lu";
    case library_op::library_op_cholesky:
      return "cholesky";
    case library_op::library_op_qr:
      return "qr";
    case library_op::library_op_eigh:
      return "eigh";
    case library_op::library_op_svd:
      return "svd";
    case library_op::library_op_eig:
      return "eig";
    case library_op::library_op_fft:
      return "fft";
  }
  return "?";
}

std::optional<std::complex<double>> float_scalar_value(const node& n) {
  if (n.op != op_code::op_code_scalar) return std::nullopt;
  switch (n.dt) {
    case dtype::float32:
    case dtype::complex64: {
      float f[2];
      std::memcpy(f, n.value.bytes, sizeof f);
      return std::complex<double>(f[0], n.dt == dtype::complex64 ? f[1] : 0.0f);
    }
    case dtype::float64:
    case dtype::complex128: {
      double d[2];
      std::memcpy(d, n.value.bytes, sizeof d);
      return std::complex<double>(d[0], n.dt == dtype::complex128 ? d[1] : 0.0);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace ndfuse::ir
