// The C side of tests/dlpack_numpy.py and tests/dlpack_gpu.py: ndfuse arrays exported to NumPy,
// PyTorch and CuPy, and theirs read by ndfuse, through DLManagedTensorVersioned pointers (what a
// Python C extension would wrap in capsules).
#include <atomic>
#include <cstdint>
#include <string>

#include "ndfuse/ndfuse.hpp"

namespace {
std::atomic<int> deleted{0};
void (*ndfuse_deleter)(DLManagedTensorVersioned*) = nullptr;
std::atomic<std::uintptr_t> exported_data{0};
std::atomic<int> imported_device{-2};

std::uintptr_t first_element(const DLManagedTensorVersioned* t) {
  return reinterpret_cast<std::uintptr_t>(t->dl_tensor.data) + t->dl_tensor.byte_offset;
}
}  // namespace

extern "C" {

// arange(6).reshape(2, 3).astype(dtype) on the CPU, as a DLPack tensor whose deleter is counted.
DLManagedTensorVersioned* probe_export(const char* dtype_name) {
  nf::device_scope on(nf::device::cpu());
  DLManagedTensorVersioned* t =
      nf::to_dlpack(nf::arange(6).reshape({2, 3}).astype(nf::dtype_from_name(dtype_name)));
  ndfuse_deleter = t->deleter;
  t->deleter = [](DLManagedTensorVersioned* self) {
    ++deleted;
    ndfuse_deleter(self);
  };
  return t;
}

int probe_deleted() {
  return deleted.load();
}

// ndfuse's sum of a float64 tensor NumPy lent (ndfuse calls its deleter when done).
double probe_sum_strided(DLManagedTensorVersioned* t) {
  return nf::sum(nf::from_dlpack(t)).item<double>();
}
}

// The GPU side of tests/dlpack_gpu.py (PyTorch and CuPy in the same process).
extern "C" {

// arange(n).astype(dtype), computed on GPU `device` and exported for a consumer that reads on
// `stream`: the DLPack protocol's integer (1: the legacy default stream, 2: the per-thread one,
// else a cudaStream_t; 0: none given, so the export waits on the host).
DLManagedTensorVersioned* probe_export_cuda(const char* dtype_name, int device, long long n,
                                            std::uintptr_t stream) {
  nf::device_scope on(nf::device::cuda(device));
  const nf::array x = nf::arange(n).astype(nf::dtype_from_name(dtype_name));
  DLManagedTensorVersioned* t =
      stream ? nf::to_dlpack(x, nf::cuda::stream::external(reinterpret_cast<void*>(stream), device))
             : nf::to_dlpack(x);
  exported_data = first_element(t);
  ndfuse_deleter = t->deleter;
  t->deleter = [](DLManagedTensorVersioned* self) {
    ++deleted;
    ndfuse_deleter(self);
  };
  return t;
}

// Where the last probe_export_cuda's first element is: a consumer that did not copy reads there.
std::uintptr_t probe_exported_data() {
  return exported_data.load();
}

// ndfuse's sum of a tensor another library lent, as float64; records the array's device
// (probe_imported_device: -1 for the CPU, else the GPU's index).
double probe_sum(DLManagedTensorVersioned* t) {
  const nf::array x = nf::from_dlpack(t);
  imported_device = x.device().is_cpu() ? -1 : x.device().index();
  return nf::sum(x.astype(nf::dtype::float64)).item<double>();
}

int probe_imported_device() {
  return imported_device.load();
}

// The address ndfuse reads a lent tensor's first element at: taken over, exported again, and both
// released. Equal to the lender's own address when the import copied nothing.
std::uintptr_t probe_import_address(DLManagedTensorVersioned* t) {
  DLManagedTensorVersioned* again = nf::to_dlpack(nf::from_dlpack(t));
  const std::uintptr_t address = first_element(again);
  again->deleter(again);
  return address;
}
}
