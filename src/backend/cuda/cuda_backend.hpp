// The CUDA backend, as backend selection sees it. No CUDA headers here: select.cpp includes this.
#pragma once
#include <memory>
#include <string>

#include "backend/backend.hpp"

namespace ndfuse::backend::cuda {

// Usable CUDA devices; 0, never an exception, without a driver or a GPU (`why` then says which).
int probe_device_count(std::string* why);

std::unique_ptr<device_backend> make_backend();

}  // namespace ndfuse::backend::cuda
