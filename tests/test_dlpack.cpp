// DLPack: export of every dtype (type codes and bits as the DLPack 1.1 header numbers them, shape,
// strides, byte offset, the buffer itself), import of tensors made by hand over host memory
// (strided, offset, legacy unversioned), the deleter called once and only when the last reader is
// gone, ops never writing into imported memory, round trips without a copy, and the refusals (each
// giving the tensor back through its deleter).
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "ir/node.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

// A tensor over host memory the test owns, counting deleter calls.
struct host_tensor {
  std::vector<double> values;
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;
  DLManagedTensorVersioned t{};
  host_tensor(std::vector<double> v, std::vector<std::int64_t> sh, std::vector<std::int64_t> st,
              std::uint64_t offset)
      : values(std::move(v)), shape(std::move(sh)), strides(std::move(st)) {
    t.version = {1, 1};
    t.manager_ctx = this;
    t.deleter = [](DLManagedTensorVersioned* self) {
      ++static_cast<host_tensor*>(self->manager_ctx)->deleted;
    };
    t.dl_tensor.data = values.data();
    t.dl_tensor.device = {kDLCPU, 0};
    t.dl_tensor.ndim = static_cast<std::int32_t>(shape.size());
    t.dl_tensor.dtype = {kDLFloat, 64, 1};
    t.dl_tensor.shape = shape.data();
    t.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    t.dl_tensor.byte_offset = offset;
  }
};

}  // namespace

TEST_CASE("to_dlpack exports every dtype without a copy", "[dlpack]") {
  nf::device_scope on(nf::device::cpu());
  // DLPack 1.1's codes: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLComplex 5, kDLBool 6.
  const struct {
    nf::dtype t;
    int code, bits;
  } expected[] = {{nf::bool_, 6, 8},      {nf::int8, 0, 8},         {nf::int16, 0, 16},
                  {nf::int32, 0, 32},     {nf::int64, 0, 64},       {nf::uint8, 1, 8},
                  {nf::uint16, 1, 16},    {nf::uint32, 1, 32},      {nf::uint64, 1, 64},
                  {nf::float16, 2, 16},   {nf::float32, 2, 32},     {nf::float64, 2, 64},
                  {nf::complex64, 5, 64}, {nf::complex128, 5, 128}, {nf::bfloat16, 4, 16}};
  for (const auto& e : expected) {
    CAPTURE(nf::dtype_name(e.t));
    const nf::array x = nf::arange(6).astype(e.t).reshape({2, 3});
    DLManagedTensorVersioned* t = nf::to_dlpack(x);
    REQUIRE(t);
    CHECK(t->version.major == 1);
    CHECK((t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
    const DLTensor& dl = t->dl_tensor;
    CHECK(dl.device.device_type == kDLCPU);
    CHECK(dl.dtype.code == e.code);
    CHECK(dl.dtype.bits == e.bits);
    CHECK(dl.dtype.lanes == 1);
    REQUIRE(dl.ndim == 2);
    CHECK(dl.shape[0] == 2);
    CHECK(dl.shape[1] == 3);
    CHECK(dl.strides[0] == 3);
    CHECK(dl.strides[1] == 1);
    CHECK(dl.byte_offset == 0);
    // The array's own bytes, where its buffer is.
    CHECK(std::memcmp(dl.data, x.to_host().bytes.data(), 6 * nf::itemsize(e.t)) == 0);
    t->deleter(t);
  }
}

TEST_CASE("to_dlpack of a view exports its strides and byte offset", "[dlpack]") {
  nf::device_scope on(nf::device::cpu());
  nf::array base = nf::arange(10.0);
  base.eval();
  const nf::array v = base(nf::slice(1, nf::none, 3));  // [1., 4., 7.]
  DLManagedTensorVersioned* t = nf::to_dlpack(v);
  const DLTensor& dl = t->dl_tensor;
  CHECK(dl.shape[0] == 3);
  CHECK(dl.strides[0] == 3);
  CHECK(dl.byte_offset == 8);
  const double* p = reinterpret_cast<const double*>(static_cast<const char*>(dl.data) + dl.byte_offset);
  CHECK(p[0] == 1.0);
  CHECK(p[3] == 4.0);
  CHECK(p[6] == 7.0);
  t->deleter(t);
}

TEST_CASE("from_dlpack reads host memory in place, strided and offset", "[dlpack]") {
  // A 2 x 3 view of columns 0, 2, 4 of a 2 x 6 buffer, starting one element in.
  host_tensor h({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 3}, {6, 2}, 8);
  {
    nf::array x = nf::from_dlpack(&h.t);
    const nf::array keep = x;
    CHECK(x.device() == nf::device::cpu());
    CHECK(x.shape() == nf::shape_t{2, 3});
    CHECK(x.to_vector<double>() == std::vector<double>{1, 3, 5, 7, 9, 11});
    nf::array y = x * 2.0;
    x *= 10.0;  // a new buffer: the lent memory is never written
    CHECK(y.to_vector<double>() == std::vector<double>{2, 6, 10, 14, 18, 22});
    CHECK(x.to_vector<double>() == std::vector<double>{10, 30, 50, 70, 90, 110});
    CHECK(h.values == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    // Zero copy: what the producer writes shows through.
    h.values[1] = -1.0;
    CHECK(keep.to_vector<double>()[0] == -1.0);
    CHECK(h.deleted == 0);
  }
  CHECK(h.deleted == 1);
}

TEST_CASE("from_dlpack of an exported array shares its buffer", "[dlpack]") {
  nf::device_scope on(nf::device::cpu());
  nf::array x = nf::arange(5.0) + 1.0;
  x.eval();
  nf::array y = nf::from_dlpack(nf::to_dlpack(x));
  CHECK(y.node()->storage->data == x.node()->storage->data);
  CHECK(y.to_vector<double>() == std::vector<double>{1, 2, 3, 4, 5});
  x = nf::array();  // y keeps the memory alive through the tensor
  CHECK(nf::sum(y).item<double>() == 15.0);
}

TEST_CASE("from_dlpack of a legacy DLManagedTensor", "[dlpack]") {
  std::vector<std::int32_t> v{7, 8, 9};
  std::int64_t shape = 3;
  static int deleted = 0;
  DLManagedTensor t{};
  t.dl_tensor.data = v.data();
  t.dl_tensor.device = {kDLCPU, 0};
  t.dl_tensor.ndim = 1;
  t.dl_tensor.dtype = {kDLInt, 32, 1};
  t.dl_tensor.shape = &shape;
  t.deleter = [](DLManagedTensor*) { ++deleted; };
  {
    nf::array x = nf::from_dlpack(&t);
    CHECK(x.dtype() == nf::int32);
    CHECK(x.to_vector<std::int32_t>() == v);
  }
  CHECK(deleted == 1);
}

TEST_CASE("from_dlpack refuses what it cannot take, giving the tensor back", "[dlpack]") {
  CHECK_THROWS_AS(nf::from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)), nf::value_error);
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.t.version = {2, 0};
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::value_error);
    CHECK(h.deleted == 1);
  }
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.t.dl_tensor.dtype.lanes = 4;
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::dtype_error);
    CHECK(h.deleted == 1);
  }
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.t.dl_tensor.dtype = {kDLFloat, 8, 1};  // no 8-bit float in ndfuse
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::dtype_error);
    CHECK(h.deleted == 1);
  }
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.t.dl_tensor.device = {kDLMetal, 0};
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::device_error);
    CHECK(h.deleted == 1);
  }
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.t.dl_tensor.device = {kDLCUDA, nf::cuda::device_count()};  // a GPU that is not there
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::device_error);
    CHECK(h.deleted == 1);
  }
  {
    host_tensor h({1, 2}, {2}, {}, 0);
    h.shape[0] = -2;
    CHECK_THROWS_AS(nf::from_dlpack(&h.t), nf::value_error);
    CHECK(h.deleted == 1);
  }
}

TEST_CASE("DLPack on a GPU: export and import in place", "[dlpack][cuda]") {
  if (nf::cuda::device_count() == 0) NDFUSE_SKIP("needs a GPU");
  nf::device_scope on(nf::device::cuda(0));
  nf::array x = nf::arange(8.0) * 2.0;
  DLManagedTensorVersioned* t = nf::to_dlpack(x);
  CHECK(t->dl_tensor.device.device_type == kDLCUDA);
  CHECK(t->dl_tensor.device.device_id == 0);
  nf::array y = nf::from_dlpack(t);
  CHECK(y.device() == nf::device::cuda(0));
  CHECK(y.node()->storage->data == x.node()->storage->data);
  CHECK(nf::sum(y).item<double>() == 56.0);
  // A consumer on its own stream: ordered after the array's computation, the host not blocked.
  nf::cuda::stream consumer;
  const nf::array z = nf::arange(1 << 20) * 3;
  DLManagedTensorVersioned* u = nf::to_dlpack(z, consumer);
  nf::array w;
  {
    nf::cuda::stream_scope in(consumer);
    w = nf::sum(nf::from_dlpack(u));
    w.eval();
  }
  CHECK(w.item<std::int64_t>() == 1649265868800);  // np.sum(np.arange(2**20) * 3)
  CHECK(nf::cuda::stream::external(consumer.handle(), 0).handle() == consumer.handle());
  CHECK_THROWS_AS(nf::cuda::stream::external(nullptr, nf::cuda::device_count()), nf::device_error);
}
