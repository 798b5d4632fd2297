// The CPU backend: interprets kernel IR over cache-sized blocks on all cores.
#pragma once
#include "backend/backend.hpp"

namespace ndfuse::backend::cpu {

std::unique_ptr<device_backend> make_backend();

}  // namespace ndfuse::backend::cpu
