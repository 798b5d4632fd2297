// Zip archives, as far as .npz files need them: members stored or deflated, zip64 when sizes,
// offsets or the member count pass the 32- and 16-bit fields, no encryption, one disk.
#pragma once
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace ndfuse::io::zip {

enum class method : std::uint16_t { stored = 0, deflated = 8 };

// False when ndfuse was built without zlib: deflated members can then be neither written nor read.
bool can_deflate();

// Appends members to an open stream, one at a time: begin, write the data in any pieces, end;
// finish writes the central directory. Every local header carries a zip64 extra field, as NumPy's
// savez writes them, so that a member's size is never limited; the header is rewritten with the
// sizes and CRC once the member ends.
class writer {
 public:
  writer(std::ostream& out, std::string path);  // `path` is for errors
  ~writer();
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;

  void begin(const std::string& name, method how);
  void write(const void* data, std::size_t n);
  void end();
  void finish();

 private:
  struct member;
  struct deflater;
  void put(const void* data, std::size_t n);
  std::ostream& out_;
  std::string path_;
  std::vector<member> members_;
  std::unique_ptr<deflater> deflate_;
  std::uint64_t offset_ = 0;  // bytes written so far
  std::uint64_t local_start_ = 0, written_ = 0, size_ = 0;
  std::uint32_t crc_ = 0;
  method how_ = method::stored;
};

// An archive's central directory, checked against the file's size.
struct entry {
  std::string name;
  method how = method::stored;
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, size = 0, local_offset = 0;
};
// Throws nf::value_error naming `path` when the file is not a zip archive or is damaged.
std::vector<entry> read_directory(std::ifstream& in, std::uint64_t file_size, const std::string& path);

// One member's data in order, inflated when deflated. finish() reads what is left and checks the
// length and the CRC, as zipfile does (a mismatch is nf::value_error).
class member_source final : public byte_source {
 public:
  member_source(std::ifstream& in, std::uint64_t file_size, const entry& e, std::string name);
  ~member_source() override;
  std::uint64_t size() const override { return entry_.size; }
  bool read(void* dst, std::size_t n) override;
  void finish();

 private:
  struct inflater;
  bool read_raw(void* dst, std::size_t n);
  std::ifstream& in_;
  entry entry_;
  std::string name_;
  std::unique_ptr<inflater> inflate_;
  std::uint64_t raw_left_ = 0, produced_ = 0;
  std::uint32_t crc_ = 0;
};

}  // namespace ndfuse::io::zip
