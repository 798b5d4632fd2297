// DLPack export and import (include/ndfuse/dlpack.hpp). Export hands out the evaluated node's own
// buffer, kept alive by the tensor's manager context; import wraps the producer's memory in an
// adopted ir::buffer whose owner calls the producer's deleter when the last node lets go of it.
#include "ndfuse/dlpack.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "frontend/build.hpp"
#include "ir/node.hpp"
#include "ir/shape_math.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"
#include "runtime/realize.hpp"

namespace ndfuse {

namespace {

DLDataType dl_dtype(dtype t) {
  const auto bits = static_cast<std::uint8_t>(itemsize(t) * 8);
  switch (t) {
    case dtype::bool_:
      return {kDLBool, 8, 1};
    case dtype::bfloat16:
      return {kDLBfloat, 16, 1};
    case dtype::complex64:
    case dtype::complex128:
      return {kDLComplex, bits, 1};
    case dtype::float16:
    case dtype::float32:
    case dtype::float64:
      return {kDLFloat, bits, 1};
    default:
      return {static_cast<std::uint8_t>(is_unsigned_integer(t) ? kDLUInt : kDLInt), bits, 1};
  }
}

dtype from_dl_dtype(DLDataType d) {
  if (d.lanes != 1)
    throw dtype_error("from_dlpack: vector dtypes (lanes " + std::to_string(d.lanes) + ") are not supported");
  for (int i = 0; i < dtype_count; ++i) {
    const auto t = static_cast<dtype>(i);
    const DLDataType m = dl_dtype(t);
    if (m.code == d.code && m.bits == d.bits) return t;
  }
  throw dtype_error("from_dlpack: no ndfuse dtype for DLPack type code " + std::to_string(d.code) + " with " +
                    std::to_string(d.bits) + " bits");
}

struct exported {
  std::shared_ptr<ir::node> node;  // keeps the buffer alive
  std::vector<std::int64_t> shape, strides;
  DLManagedTensorVersioned tensor{};
};

// The producer's memory, given back through its deleter when the buffer dies.
template <class Tensor>
class lent_memory final : public ir::memory_owner {
 public:
  explicit lent_memory(Tensor* t) : tensor_(t) {}
  void* allocate(std::size_t) override { throw error("from_dlpack: lent memory does not allocate"); }
  void deallocate(void*, std::size_t) override {
    if (tensor_->deleter) tensor_->deleter(tensor_);
    delete this;
  }

 private:
  Tensor* tensor_;
};

template <class Tensor>
array adopt(Tensor* t, const char* what) {
  if (!t) throw value_error(std::string(what) + ": a null tensor");
  // Whatever goes wrong below, the tensor was handed over: give it back.
  auto give_back = [t] {
    if (t->deleter) t->deleter(t);
  };
  try {
    const DLTensor& dl = t->dl_tensor;
    if constexpr (std::is_same_v<Tensor, DLManagedTensorVersioned>)
      if (t->version.major != DLPACK_MAJOR_VERSION)
        throw value_error(std::string(what) + ": DLPack version " + std::to_string(t->version.major) + "." +
                          std::to_string(t->version.minor) + " (ndfuse reads 1.x)");
    const dtype dt = from_dl_dtype(dl.dtype);
    device d;
    if (dl.device.device_type == kDLCPU || dl.device.device_type == kDLCUDAHost)
      d = device::cpu();
    else if (dl.device.device_type == kDLCUDA || dl.device.device_type == kDLCUDAManaged)
      d = device::cuda(dl.device.device_id);
    else
      throw device_error(std::string(what) + ": DLPack device type " + std::to_string(dl.device.device_type) +
                         " is neither the CPU nor a CUDA GPU");
    runtime::check_exists(d);
    if (dl.ndim < 0 || (dl.ndim > 0 && !dl.shape))
      throw value_error(std::string(what) + ": a malformed shape");
    shape_t shape(dl.shape, dl.shape + dl.ndim);
    for (auto n : shape)
      if (n < 0) throw value_error(std::string(what) + ": a negative dimension");
    const std::int64_t size = ir::checked_size(shape, itemsize(dt), what);
    std::vector<std::int64_t> strides = dl.strides
                                            ? std::vector<std::int64_t>(dl.strides, dl.strides + dl.ndim)
                                            : ir::contiguous_strides(shape);
    if (size > 0 && !dl.data) throw value_error(std::string(what) + ": a null data pointer");

    auto n = ir::new_node();
    n->place = ir::placement::of(d);
    n->op = ir::op_code::buffer;
    n->dt = dt;
    n->shape = std::move(shape);
    n->strides = std::move(strides);
    n->offset = 0;
    void* base = static_cast<char*>(dl.data) + dl.byte_offset;
    n->storage = std::make_shared<ir::buffer>(new lent_memory<Tensor>(t), base,
                                              static_cast<std::size_t>(size) * itemsize(dt));
    n->publish();
    return array(std::move(n));
  } catch (...) {
    give_back();
    throw;
  }
}

// The exported tensor of an evaluated node.
DLManagedTensorVersioned* export_node(const std::shared_ptr<ir::node>& n, device d) {
  auto e = std::make_unique<exported>();
  e->node = n;
  e->shape.assign(n->shape.begin(), n->shape.end());
  e->strides.assign(n->strides.begin(), n->strides.end());
  DLManagedTensorVersioned& t = e->tensor;
  t.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  t.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  t.deleter = [](DLManagedTensorVersioned* self) { delete static_cast<exported*>(self->manager_ctx); };
  DLTensor& dl = t.dl_tensor;
  dl.data = n->storage->data;
  dl.byte_offset = static_cast<std::uint64_t>(n->offset) * itemsize(n->dt);
  dl.device = d.is_cpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, d.index()};
  dl.ndim = static_cast<std::int32_t>(n->shape.size());
  dl.dtype = dl_dtype(n->dt);
  dl.shape = e->shape.data();
  dl.strides = e->strides.data();
  t.manager_ctx = e.get();
  return &e.release()->tensor;
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(const array& x) {
  const auto& n = frontend::checked(x, "to_dlpack");
  runtime::realize({&n, 1});
  const device d = runtime::device_of(*n);
  if (d.is_cuda()) {  // the array's GPU only: the others' work is not the consumer's concern
    const cuda::device on(d.index());
    cuda::synchronize();
  }
  return export_node(n, d);
}

DLManagedTensorVersioned* to_dlpack(const array& x, const cuda::stream& consumer) {
  const auto& n = frontend::checked(x, "to_dlpack");
  runtime::realize({&n, 1});
  const device d = runtime::device_of(*n);
  if (d.is_cuda()) {
    if (consumer.device_id() != d.index())
      throw device_error("to_dlpack: the array is on " + d.str() +
                         " and the consumer's stream on cuda:" + std::to_string(consumer.device_id()));
    // Ordered after the work this thread queued on the array's GPU, where its computation went.
    const cuda::device on(d.index());
    cuda::event computed(/*disable_timing=*/true);
    computed.record();
    computed.wait(consumer);
  }
  return export_node(n, d);
}

array from_dlpack(DLManagedTensorVersioned* t) {
  return adopt(t, "from_dlpack");
}

array from_dlpack(DLManagedTensor* t) {
  return adopt(t, "from_dlpack");
}

}  // namespace ndfuse
