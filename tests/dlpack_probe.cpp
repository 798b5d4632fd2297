// The C side of tests/dlpack_numpy.py: ndfuse arrays exported to NumPy and NumPy's read by ndfuse,
// through DLManagedTensorVersioned pointers (what a Python C extension would wrap in capsules).
#include <atomic>
#include <string>

#include "ndfuse/ndfuse.hpp"

namespace {
std::atomic<int> deleted{0};
void (*ndfuse_deleter)(DLManagedTensorVersioned*) = nullptr;
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
