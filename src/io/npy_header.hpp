// The header of a NumPy .npy file: a Python dict literal such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
#pragma once
#include <string>
#include <string_view>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

struct npy_header {
  ndfuse::dtype dtype = dtype::float64;
  bool byte_swapped = false;  // the data's byte order differs from this machine's
  bool fortran_order = false;
  shape_t shape;
};

// Parses the dict text (any key order and whitespace, Python 2 'L' integer suffixes). Throws
// nf::error naming `file` when the text is malformed, nf::dtype_error for a dtype ndfuse lacks.
npy_header parse_npy_header(std::string_view text, const std::string& file);

// The descr NumPy writes for a native-order dtype: '<f8', '|b1', '<c16'.
std::string npy_descr(dtype t);

// The dict text exactly as np.save writes it, before the alignment padding.
std::string format_npy_header_dict(dtype t, const shape_t& shape);

}  // namespace ndfuse::io
