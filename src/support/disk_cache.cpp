#include "support/disk_cache.hpp"
#include "support/env.hpp"
#include "support/hash.hpp"
#include "support/log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

namespace ndfuse::support {

namespace fs = std::filesystem;

namespace {

// Version 2 entries carry their own key: an entry is used only under the key it was written for, so
// a file copied or renamed to another kernel's name reads as a miss and is rewritten, never loaded
// as that kernel (version 1 entries, without it, read as damaged and are rewritten the same way).
constexpr char entry_magic[8] = {'N', 'D', 'F', 'C', 'U', 'B', '0', '2'};
constexpr std::size_t key_bytes = 32;
constexpr std::size_t header_bytes = 24 + key_bytes;  // magic, payload length, checksum, key
constexpr const char* entry_suffix = ".cubin";
constexpr const char* temp_prefix = ".tmp.";
// A temp file this old belongs to a writer that died; eviction sweeps it.
constexpr auto stale_temp_age = std::chrono::minutes(10);

void put_u64(char* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

std::string hex64(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = digits[v & 0xf];
  return s;
}

// Length-prefixed, so ("ab", "c") and ("a", "bc") hash differently.
void append_field(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

bool read_all(int fd, char* p, std::size_t n) {
  while (n > 0) {
    ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t put = ::write(fd, p, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) {
      if (put == 0) errno = EIO;
      return false;
    }
    p += put;
    n -= static_cast<std::size_t>(put);
  }
  return true;
}

bool is_key(std::string_view s) {
  return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

struct entry_file {
  fs::path path;
  std::uint64_t bytes;
  fs::file_time_type mtime;
};

// Every entry in the cache (and every stale temp file, removed on the way). Errors are skipped:
// another process may be evicting the same directory concurrently.
std::vector<entry_file> scan(const std::string& dir) {
  std::vector<entry_file> out;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator shard(dir, ec), end; !ec && shard != end; shard.increment(ec)) {
    const std::string shard_name = shard->path().filename().string();
    if (shard_name.size() != 2 || !shard->is_directory(ec)) continue;
    std::error_code ec2;
    for (fs::directory_iterator it(shard->path(), ec2), end2; !ec2 && it != end2; it.increment(ec2)) {
      const std::string name = it->path().filename().string();
      std::error_code ec3;
      auto mtime = it->last_write_time(ec3);
      if (ec3) continue;
      if (name.rfind(temp_prefix, 0) == 0) {
        if (now - mtime > stale_temp_age) fs::remove(it->path(), ec3);
        continue;
      }
      if (name.size() <= std::strlen(entry_suffix) || !name.ends_with(entry_suffix)) continue;
      auto bytes = it->file_size(ec3);
      if (!ec3) out.push_back({it->path(), bytes, mtime});
    }
  }
  return out;
}

std::uint64_t parse_bytes(const char* text, std::uint64_t fallback) {
  if (!text || !*text) return fallback;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    support::log_line(std::string("warning: NDFUSE_CACHE_MAX_BYTES=") + text +
                      " is not a byte count; using " + std::to_string(fallback));
    return fallback;
  }
  return v;
}

std::string default_directory() {
  if (const auto& d = support::env::raw(support::env::var::cache_dir)) return *d;  // set but empty: disabled
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/ndfuse";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/ndfuse";
  return "";
}

}  // namespace

disk_cache::disk_cache(std::string dir, std::uint64_t max_bytes)
    : dir_(std::move(dir)), max_bytes_(max_bytes) {}

std::string disk_cache::make_key(std::string_view source, std::string_view options,
                                 std::string_view nvrtc_version, std::string_view arch) {
  std::string material;
  material.reserve(source.size() + options.size() + 64);
  append_field(material, "ndfuse-cubin-v1");
  append_field(material, source);
  append_field(material, options);
  append_field(material, nvrtc_version);
  append_field(material, arch);
  // Two 64-bit hashes with unrelated seeds: a collision would load the wrong kernel, so 128 bits.
  const std::uint64_t a = support::fnv1a(material);
  const std::uint64_t b = support::fnv1a(material, 0x84222325cbf29ce4ull ^ material.size());
  return hex64(a) + hex64(b);
}

std::string disk_cache::entry_path(const std::string& key) const {
  return dir_ + "/" + key.substr(0, 2) + "/" + key + entry_suffix;
}

bool disk_cache::writable() const {
  std::lock_guard lock(mutex_);
  return writable_ && !dir_.empty();
}

std::optional<std::string> disk_cache::load(const std::string& key) {
  if (dir_.empty() || !is_key(key)) return std::nullopt;
  const std::string path = entry_path(key);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> payload;
  struct stat st {};
  char header[header_bytes];
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<std::uint64_t>(st.st_size) >= header_bytes && read_all(fd, header, header_bytes) &&
      std::memcmp(header, entry_magic, sizeof entry_magic) == 0) {
    const std::uint64_t length = get_u64(header + 8);
    const bool own_key = std::string_view(header + 24, key_bytes) == key;
    if (own_key && length == static_cast<std::uint64_t>(st.st_size) - header_bytes) {
      std::string data(length, '\0');
      if (read_all(fd, data.data(), length) && support::fnv1a(data) == get_u64(header + 16))
        payload = std::move(data);
    }
  }
  ::close(fd);
  if (!payload) {
    // Damaged, or another key's entry: remove it so the next store rewrites it. Renames are atomic,
    // so this is never a half-written entry of a live writer; worst case we delete a good entry
    // that just replaced it.
    ::unlink(path.c_str());
    return std::nullopt;
  }
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // LRU: a hit is a use (fails harmlessly if read-only)
  return payload;
}

bool disk_cache::store(const std::string& key, std::string_view payload) {
  if (dir_.empty() || !is_key(key)) return false;
  const std::uint64_t entry_bytes = header_bytes + payload.size();
  std::lock_guard lock(mutex_);
  if (!writable_ || entry_bytes > max_bytes_) return false;

  const fs::path shard = fs::path(dir_) / key.substr(0, 2);
  std::error_code ec;
  fs::create_directories(shard, ec);
  if (ec) {
    disable_writes("cannot create " + shard.string() + ": " + ec.message());
    return false;
  }
  static std::atomic<std::uint64_t> temp_counter{0};
  const std::string temp =
      (shard / (temp_prefix + key + "." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++)))
          .string();
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    disable_writes("cannot create " + temp + ": " + std::strerror(errno));
    return false;
  }
  char header[header_bytes];
  std::memcpy(header, entry_magic, sizeof entry_magic);
  put_u64(header + 8, payload.size());
  put_u64(header + 16, support::fnv1a(payload));
  std::memcpy(header + 24, key.data(), key_bytes);
  bool ok = write_all(fd, header, header_bytes) && write_all(fd, payload.data(), payload.size());
  int write_errno = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    write_errno = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    disable_writes("cannot write " + temp + ": " + std::strerror(write_errno));
    return false;
  }
  evict_locked(entry_bytes);
  if (::rename(temp.c_str(), entry_path(key).c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temp.c_str());
    disable_writes("cannot rename into " + entry_path(key) + ": " + std::strerror(rename_errno));
    return false;
  }
  *estimated_bytes_ += entry_bytes;
  return true;
}

std::uint64_t disk_cache::total_bytes() {
  std::uint64_t total = 0;
  for (const auto& e : scan(dir_)) total += e.bytes;
  return total;
}

void disk_cache::evict_locked(std::uint64_t incoming) {
  if (estimated_bytes_ && *estimated_bytes_ + incoming <= max_bytes_) return;
  auto entries = scan(dir_);
  std::uint64_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  if (total + incoming > max_bytes_) {
    std::sort(entries.begin(), entries.end(),
              [](const entry_file& a, const entry_file& b) { return a.mtime < b.mtime; });
    for (const auto& e : entries) {
      if (total + incoming <= max_bytes_) break;
      std::error_code ec;
      fs::remove(e.path, ec);
      // Gone either way (we removed it, or another process evicted it first).
      total -= e.bytes;
    }
  }
  estimated_bytes_ = total;
}

void disk_cache::disable_writes(const std::string& why) {
  if (!writable_) return;
  writable_ = false;
  support::log_line("warning: kernel cache directory " + dir_ + " is not writable (" + why +
                    "); compiled kernels stay in memory only for this process");
}

disk_cache& disk_cache::global() {
  static disk_cache cache(
      default_directory(),
      parse_bytes(support::env::raw(support::env::var::cache_max_bytes).value_or("").c_str(),
                  default_max_bytes));
  return cache;
}

}  // namespace ndfuse::support
