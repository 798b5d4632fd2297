// The on-disk kernel cache: compiled CUBINs under NDFUSE_CACHE_DIR (default ~/.cache/ndfuse), so a
// second process compiles nothing. Plain files and POSIX calls only: no CUDA, so CI tests it.
//
// Layout: <dir>/<first 2 hex of key>/<key>.cubin. Each entry is a 56-byte header (magic, payload
// length, FNV-1a 64 checksum of the payload, the entry's own key) followed by the payload; an entry
// whose key is not the one asked for is a miss, removed so that the next store rewrites it. Writers fill a
// private temp file and rename() it into place, so a reader sees a whole entry or none; a damaged entry (torn
// write, bit rot, truncation) fails the length or checksum test, is removed, and reads as a miss.
// Total size is bounded (NDFUSE_CACHE_MAX_BYTES, default 1 GiB): past it the least recently used
// entries (by mtime, which a hit refreshes) are deleted. A directory that cannot be written
// (read-only, full, not a directory) turns stores off with one warning on stderr; the in-memory
// kernel cache keeps working, and existing entries can still be read.
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace ndfuse::support {

class disk_cache {
 public:
  static constexpr std::uint64_t default_max_bytes = std::uint64_t{1} << 30;

  // An empty `dir` disables the cache (loads miss, stores do nothing, no warning).
  explicit disk_cache(std::string dir, std::uint64_t max_bytes = default_max_bytes);

  // The key of one compiled kernel: 32 hex digits hashing everything that changes the CUBIN.
  static std::string make_key(std::string_view source, std::string_view options,
                              std::string_view nvrtc_version, std::string_view arch);

  // The payload stored under `key`, or nothing (missing, damaged, unreadable). A hit refreshes the
  // entry's mtime so eviction keeps it.
  std::optional<std::string> load(const std::string& key);
  // Writes the entry atomically and evicts old entries past the size bound. False when the entry
  // was not written (cache disabled, directory unwritable, payload larger than the bound).
  bool store(const std::string& key, std::string_view payload);

  const std::string& directory() const { return dir_; }
  std::uint64_t max_bytes() const { return max_bytes_; }
  // False once a store failed: this process keeps kernels in memory only from then on.
  bool writable() const;
  std::string entry_path(const std::string& key) const;  // where `key` lives (whether or not it exists)
  std::uint64_t total_bytes();                           // of all entries now on disk (scans)

  // The process's cache, configured from NDFUSE_CACHE_DIR and NDFUSE_CACHE_MAX_BYTES at first use.
  static disk_cache& global();

 private:
  void disable_writes(const std::string& why);
  void evict_locked(std::uint64_t incoming);

  std::string dir_;
  std::uint64_t max_bytes_;
  mutable std::mutex mutex_;
  bool writable_ = true;
  // Bytes on disk as last scanned plus what this process stored since; a rescan (which also sees
  // other processes' entries) happens only when this estimate crosses the bound.
  std::optional<std::uint64_t> estimated_bytes_;
};

}  // namespace ndfuse::support
