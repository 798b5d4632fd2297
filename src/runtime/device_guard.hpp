// The guard that points a device's backend at it while this thread runs work there.
#pragma once
#include "backend/backend.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse::runtime {

// While alive, d's backend runs this thread's calls on d (the CUDA backend: GPU d.index()).
class device_guard {
 public:
  explicit device_guard(device d);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;
  backend::device_backend& backend() const { return backend_; }

 private:
  backend::device_backend& backend_;
  int previous_;
};

}  // namespace ndfuse::runtime
