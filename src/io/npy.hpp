// .npy reading and writing on host data; nf::save and nf::load wrap these.
#pragma once
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

// Writes format 1.0 (2.0 when the header needs it) through a temporary file renamed into place.
void write_npy(const std::string& path, const host_array& h);
// Reads versions 1.0-3.0, either byte order, C or Fortran order; returns C-order native data.
host_array read_npy(const std::string& path);

}  // namespace ndfuse::io
