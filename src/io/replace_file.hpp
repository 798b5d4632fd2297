// Writing a file whole or not at all: the data goes to a temporary file beside the target, renamed
// over it once complete, so that a failed save never leaves a truncated file or harms an old one.
#pragma once
#include <fstream>
#include <string>

namespace ndfuse::io {

class replace_file {
 public:
  // `op` names the calling function in errors (nf::io_error).
  replace_file(std::string path, const char* op);
  ~replace_file();  // removes the temporary file unless commit() ran
  replace_file(const replace_file&) = delete;
  replace_file& operator=(const replace_file&) = delete;

  std::ofstream& stream() { return out_; }
  // Throws nf::io_error naming the target if any write failed, else renames into place.
  void commit();

 private:
  std::string path_, tmp_;
  const char* op_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace ndfuse::io
