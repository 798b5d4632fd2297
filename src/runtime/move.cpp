// Copies between devices. Each is made at the call: the source is evaluated on its device, then
// its bytes are copied into a buffer allocated on the destination. A GPU-to-GPU copy is a peer copy
// ordered on both GPUs' streams; a copy from a GPU to the CPU waits for it; a copy from the CPU
// is enqueued on the GPU's current stream from the CPU's finished buffer.
#include <memory>

#include "ir/node.hpp"
#include "ir/shape_math.hpp"
#include "runtime/device.hpp"
#include "runtime/device_guard.hpp"
#include "runtime/realize.hpp"

namespace ndfuse::runtime {

std::shared_ptr<ir::node> copy_to_device(const std::shared_ptr<ir::node>& n, device d) {
  realize({&n, 1});
  std::shared_ptr<ir::node> src = n;
  if (!ir::has_contiguous_strides(n->shape, n->strides)) {
    // A strided view: gathered into a contiguous buffer on its own device first.
    src = ir::new_node();
    src->place = n->place;
    src->op = ir::op_code::cast;
    src->dt = n->dt;
    src->shape = n->shape;
    src->inputs = {n};
    realize({&src, 1});
  }
  const device from = device_of(*src);
  const std::size_t nbytes = itemsize(src->dt) * static_cast<std::size_t>(src->size());
  const void* data = static_cast<const char*>(src->storage->data) + src->offset * itemsize(src->dt);

  auto out = ir::new_node();
  out->place = ir::placement::of(d);
  out->op = ir::op_code::buffer;
  out->dt = src->dt;
  out->shape = src->shape;
  ir::set_contiguous_strides(out->strides, out->shape);
  {
    const device_guard on(d);
    out->storage = std::make_shared<ir::buffer>(&on.backend(), nbytes);
    if (nbytes && from.is_cuda() && d.is_cuda()) {
      on.backend().copy_peer(out->storage->data, d.index(), data, from.index(), nbytes);
    } else if (nbytes && d.is_cuda()) {
      on.backend().copy_from_host(out->storage->data, data, nbytes);
    }
  }
  if (nbytes && !d.is_cuda()) {
    const device_guard on(from);
    on.backend().copy_to_host(out->storage->data, data, nbytes);
  }
  out->publish();
  return out;
}

}  // namespace ndfuse::runtime
