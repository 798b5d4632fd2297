// NumPy .npy files and .npz archives.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

// As np.save and np.load: a path without the .npy suffix gets it when saving.
void save(const std::string& path, const array& a);  // format version 1.0, C order, little-endian
array load(const std::string& path);  // versions 1.0-3.0, C or Fortran order, either endianness

// np.savez and np.savez_compressed: a zip archive of one .npy member per array, stored or deflated
// (deflate needs zlib at build time). Named arrays become members "<name>.npy"; unnamed ones
// arr_0.npy, arr_1.npy, ... A path without the .npz suffix gets it. The archive is written whole
// or not at all: a bad array (bfloat16, a duplicate name) raises before anything is written.
using named_arrays = std::vector<std::pair<std::string, array>>;
void savez(const std::string& path, const named_arrays& arrays);
void savez(const std::string& path, const std::vector<array>& arrays);
void savez_compressed(const std::string& path, const named_arrays& arrays);
void savez_compressed(const std::string& path, const std::vector<array>& arrays);

// np.load of an .npz: the directory is read at once, each array when it is asked for (checked
// against the member's CRC-32, as zipfile checks it).
class npz_file {
 public:
  // The keys, in archive order: member names with ".npy" taken off (NpzFile.files).
  const std::vector<std::string>& files() const;
  bool contains(const std::string& key) const;
  std::size_t size() const;
  // Throws nf::index_error for a key the archive lacks (NumPy's KeyError), nf::value_error for a
  // member that is not a valid .npy file.
  array operator[](const std::string& key) const;
  const std::string& path() const;

 private:
  friend npz_file load_npz(const std::string& path);
  struct contents;
  std::shared_ptr<const contents> contents_;
};
npz_file load_npz(const std::string& path);

}  // namespace ndfuse
