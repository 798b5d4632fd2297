#include "io/replace_file.hpp"

#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "ndfuse/error.hpp"

namespace ndfuse::io {

namespace {

std::string temporary_path(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

}  // namespace

replace_file::replace_file(std::string path, const char* op)
    : path_(std::move(path)), tmp_(temporary_path(path_)), op_(op) {
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw io_error(std::string(op_) + ": cannot create '" + tmp_ + "' (for '" + path_ +
                   "'): " + std::strerror(errno));
}

replace_file::~replace_file() {
  if (committed_) return;
  out_.close();
  std::remove(tmp_.c_str());
}

void replace_file::commit() {
  out_.flush();
  if (!out_) throw io_error(std::string(op_) + ": writing '" + path_ + "' failed: " + std::strerror(errno));
  out_.close();
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec)
    throw io_error(std::string(op_) + ": cannot move the written data into '" + path_ + "': " + ec.message());
  committed_ = true;
}

}  // namespace ndfuse::io
