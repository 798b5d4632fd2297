// .npy reading and writing on host data; nf::save, nf::load and the .npz archives build on these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

// What decode_npy reads from, front to back: a plain file, or a member of an .npz archive.
class byte_source {
 public:
  virtual ~byte_source() = default;
  virtual std::uint64_t size() const = 0;           // the bytes it holds in all
  virtual bool read(void* dst, std::size_t n) = 0;  // the next n bytes; false when fewer are left
};

// The bytes before the data, exactly as np.save writes them: magic, version (1.0, or 2.0 when the
// header needs it), header length, the dict padded so that the data starts 64-byte aligned. Throws
// nf::dtype_error for a dtype the format cannot name (bfloat16).
std::string npy_prefix(dtype t, const shape_t& shape);
// Reads versions 1.0-3.0, either byte order, C or Fortran order; returns C-order native data.
// `name` (a path, or archive:member) is in every error.
host_array decode_npy(byte_source& in, const std::string& name);

// Writes through a temporary file renamed into place.
void write_npy(const std::string& path, const host_array& h);
host_array read_npy(const std::string& path);

}  // namespace ndfuse::io
