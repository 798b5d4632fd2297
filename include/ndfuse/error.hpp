// Exception types. Every bad call throws one of these at the call that built the bad node.
#pragma once
#include <stdexcept>
#include <string>

namespace ndfuse {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct shape_error : error {
  using error::error;
};
struct dtype_error : error {
  using error::error;
};
struct index_error : error {
  using error::error;
};
// NumPy's ValueError for a bad value in the data (bincount of a negative number).
struct value_error : error {
  using error::error;
};
struct linalg_error : error {
  using error::error;
};
// Names the file holding the dumped kernel source, so the user can read what failed to compile.
struct compile_error : error {
  using error::error;
};
struct device_error : error {
  using error::error;
};
struct out_of_memory : error {
  using error::error;
};
// A file that cannot be opened, read or written (NumPy's OSError). A file that opens but is not
// what it claims to be (a malformed .npy) is a value_error, as NumPy's ValueError.
struct io_error : error {
  using error::error;
};

}  // namespace ndfuse
