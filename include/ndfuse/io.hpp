// NumPy .npy files.
#pragma once
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse {

void save(const std::string& path, const array& a);  // format version 1.0, C order, little-endian
array load(const std::string& path);  // versions 1.0-3.0, C or Fortran order, either endianness

}  // namespace ndfuse
