// The on-disk kernel cache (support/disk_cache): sharding, checksums that turn damaged entries into
// misses, atomic writes, the LRU size bound, and one warning when the directory cannot be written.
// Plain files only, so it runs in CI without a GPU; the NVRTC case needs the CUDA toolkit.
#include "catch.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "ndfuse/ndfuse.hpp"
#include "support/disk_cache.hpp"
#if defined(NDFUSE_WITH_CUDA)
#include "backend/cuda/runtime/kernel_binary.hpp"
#include "jit/cuda_tuning.hpp"
#include "schedule/plan.hpp"
#endif

namespace fs = std::filesystem;
using ndfuse::support::disk_cache;

namespace {

// An entry's header: magic, payload length, checksum and the entry's own 32-hex key.
constexpr std::size_t entry_header = 56;

// A fresh directory per test case under NDFUSE_TEST_TMP.
fs::path fresh_dir(const std::string& name) {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(tmp && *tmp ? tmp : fs::temp_directory_path().string()) / ("disk_cache_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A payload that is never all-zero and differs per seed.
std::string payload(std::size_t n, unsigned seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 7 + 1) & 0xff);
  return s;
}

std::string key_of(unsigned i) {
  return disk_cache::make_key("source " + std::to_string(i), "-arch=sm_90", "13.0", "sm_90");
}

void set_mtime_seconds_ago(const fs::path& p, int seconds) {
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
}

// Captures what the cache writes to std::cerr while alive.
struct capture_cerr {
  std::ostringstream text;
  std::streambuf* previous = std::cerr.rdbuf(text.rdbuf());
  ~capture_cerr() { std::cerr.rdbuf(previous); }
};

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

std::size_t files_under(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) ++n;
  return n;
}

}  // namespace

TEST_CASE("disk cache keys hash every field, and entries are sharded by their first two hex digits",
          "[disk_cache][cpu]") {
  const std::string k = disk_cache::make_key("src", "opts", "13.0", "sm_90");
  CHECK(k.size() == 32);
  CHECK(k == disk_cache::make_key("src", "opts", "13.0", "sm_90"));  // stable
  CHECK(k != disk_cache::make_key("src2", "opts", "13.0", "sm_90"));
  CHECK(k != disk_cache::make_key("src", "opts2", "13.0", "sm_90"));
  CHECK(k != disk_cache::make_key("src", "opts", "13.1", "sm_90"));
  CHECK(k != disk_cache::make_key("src", "opts", "13.0", "sm_100"));
  CHECK(disk_cache::make_key("ab", "c", "", "") != disk_cache::make_key("a", "bc", "", ""));

  fs::path dir = fresh_dir("shard");
  disk_cache cache(dir.string());
  CHECK_FALSE(cache.load(k).has_value());
  const std::string data = payload(5000, 1);
  REQUIRE(cache.store(k, data));
  const fs::path entry = cache.entry_path(k);
  CHECK(entry.parent_path() == dir / k.substr(0, 2));
  CHECK(fs::is_regular_file(entry));
  CHECK(files_under(dir) == 1);  // no temp file left behind
  auto back = cache.load(k);
  REQUIRE(back.has_value());
  CHECK(*back == data);

  // A second cache object on the same directory (a second process) finds it.
  disk_cache other(dir.string());
  CHECK(other.load(k) == data);
  // Keys that are not 32 hex digits never touch the file system (no path tricks).
  CHECK_FALSE(cache.store("../../etc/x", data));
  CHECK_FALSE(cache.load("../../etc/x").has_value());
}

TEST_CASE("a damaged disk cache entry reads as a miss, is removed, and can be stored again",
          "[disk_cache][cpu]") {
  fs::path dir = fresh_dir("corrupt");
  disk_cache cache(dir.string());
  const std::string k = key_of(1);
  const std::string data = payload(4096, 2);
  const fs::path entry = cache.entry_path(k);

  SECTION("a flipped payload byte fails the checksum") {
    REQUIRE(cache.store(k, data));
    {
      std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(entry_header + 1000);
      char c = 0;
      f.get(c);
      f.seekp(entry_header + 1000);
      f.put(static_cast<char>(c ^ 0x10));
    }
  }
  SECTION("a truncated entry fails the length check") {
    REQUIRE(cache.store(k, data));
    fs::resize_file(entry, entry_header + 100);
  }
  SECTION("a header-only stub fails the length check") {
    REQUIRE(cache.store(k, data));
    fs::resize_file(entry, 10);
  }
  SECTION("a file of garbage fails the magic check") {
    fs::create_directories(entry.parent_path());
    std::ofstream(entry, std::ios::binary) << payload(300, 9);
  }
  SECTION("an empty file") {
    fs::create_directories(entry.parent_path());
    std::ofstream(entry, std::ios::binary).flush();
  }
  SECTION("another kernel's valid entry, copied under this key's name") {
    const std::string other = key_of(2);
    REQUIRE(cache.store(other, payload(4096, 3)));
    fs::create_directories(entry.parent_path());
    fs::copy_file(cache.entry_path(other), entry, fs::copy_options::overwrite_existing);
    CHECK(cache.load(other) == payload(4096, 3));  // still good under its own key
  }
  SECTION("an entry of the format before keys were stored (version 1)") {
    REQUIRE(cache.store(k, data));
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(7);
    f.put('1');
  }
  CHECK_FALSE(cache.load(k).has_value());
  CHECK_FALSE(fs::exists(entry));  // removed, so it cannot be hit again
  REQUIRE(cache.store(k, data));
  CHECK(cache.load(k) == data);
}

TEST_CASE("an unwritable disk cache directory turns stores off with exactly one warning",
          "[disk_cache][cpu]") {
  fs::path dir = fresh_dir("readonly");
  std::string data = payload(1000, 3);

  SECTION("the directory lies under a regular file, so it cannot be created (works as root too)") {
    std::ofstream(dir / "plain_file") << "not a directory";
    disk_cache cache((dir / "plain_file" / "cache").string());
    capture_cerr err;
    CHECK_FALSE(cache.store(key_of(1), data));
    CHECK_FALSE(cache.store(key_of(2), data));
    CHECK_FALSE(cache.store(key_of(3), data));
    CHECK_FALSE(cache.writable());
    CHECK_FALSE(cache.load(key_of(1)).has_value());
    CHECK(count(err.text.str(), "warning") == 1);
    CHECK(count(err.text.str(), "in memory only") == 1);
  }
  SECTION("a chmod 0555 directory that already holds entries still serves them") {
    disk_cache writer(dir.string());
    REQUIRE(writer.store(key_of(1), data));
    // Make every shard read-only; root ignores modes, so probe whether the chmod bites.
    fs::create_directories(dir / key_of(2).substr(0, 2));
    for (const auto& e : fs::directory_iterator(dir)) ::chmod(e.path().c_str(), 0555);
    ::chmod(dir.c_str(), 0555);
    const bool chmod_bites = ::access((dir / key_of(2).substr(0, 2)).c_str(), W_OK) != 0;
    disk_cache cache(dir.string());
    {
      capture_cerr err;
      bool stored_2 = cache.store(key_of(2), data);
      bool stored_3 = cache.store(key_of(3), data);
      if (chmod_bites) {
        CHECK_FALSE(stored_2);
        CHECK_FALSE(stored_3);
        CHECK(count(err.text.str(), "warning") == 1);
      } else {
        WARN("running as root: chmod 0555 does not stop writes; the plain-file section covers this");
        CHECK(stored_2);
      }
    }
    CHECK(cache.load(key_of(1)) == data);  // reads keep working
    for (const auto& e : fs::directory_iterator(dir)) ::chmod(e.path().c_str(), 0755);
    ::chmod(dir.c_str(), 0755);
  }
  SECTION("an empty directory name disables the cache silently") {
    disk_cache cache("");
    capture_cerr err;
    CHECK_FALSE(cache.store(key_of(1), data));
    CHECK_FALSE(cache.load(key_of(1)).has_value());
    CHECK(err.text.str().empty());
  }
}

TEST_CASE("the disk cache stays under its size bound by evicting least recently used entries",
          "[disk_cache][cpu]") {
  fs::path dir = fresh_dir("evict");
  const std::size_t n = 10000;
  const std::uint64_t entry_bytes = entry_header + n;
  disk_cache cache(dir.string(), 3 * entry_bytes + 100);  // room for three entries
  for (unsigned i = 0; i < 3; ++i) {
    REQUIRE(cache.store(key_of(i), payload(n, i)));
    set_mtime_seconds_ago(cache.entry_path(key_of(i)), 300 - 100 * static_cast<int>(i));  // 0 oldest
  }
  CHECK(cache.total_bytes() == 3 * entry_bytes);
  // A hit on the oldest refreshes it, so entry 1 becomes the least recently used.
  REQUIRE(cache.load(key_of(0)).has_value());
  REQUIRE(cache.store(key_of(3), payload(n, 3)));
  CHECK(cache.total_bytes() <= cache.max_bytes());
  CHECK(cache.load(key_of(0)).has_value());
  CHECK_FALSE(cache.load(key_of(1)).has_value());
  CHECK(cache.load(key_of(2)).has_value());
  CHECK(cache.load(key_of(3)) == payload(n, 3));

  // Other processes' entries count too: a second cache object fills the directory behind our back.
  disk_cache other(dir.string(), cache.max_bytes());
  for (unsigned i = 10; i < 14; ++i) REQUIRE(other.store(key_of(i), payload(n, i)));
  REQUIRE(cache.store(key_of(20), payload(n, 20)));
  CHECK(cache.total_bytes() <= cache.max_bytes());
  CHECK(cache.load(key_of(20)).has_value());

  // An entry larger than the whole bound is refused rather than flushing everything.
  CHECK_FALSE(cache.store(key_of(30), payload(4 * n, 30)));
  CHECK(cache.writable());  // a refusal for size is not a broken directory
  CHECK(cache.load(key_of(20)).has_value());
}

TEST_CASE("disk cache writes are atomic: a reader sees a whole entry or none", "[disk_cache][cpu]") {
  fs::path dir = fresh_dir("atomic");
  disk_cache writer(dir.string());
  disk_cache reader(dir.string());
  const std::string big = payload(4 << 20, 5);
  const std::string k = key_of(5);
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, hits{0};
  std::thread watcher([&] {
    while (!done) {
      if (auto got = reader.load(k)) {
        ++hits;
        if (*got != big) ++torn;
      }
    }
  });
  for (int i = 0; i < 20; ++i) {
    REQUIRE(writer.store(k, big));  // rewrites replace the entry atomically too
    fs::remove(writer.entry_path(k));
  }
  REQUIRE(writer.store(k, big));
  done = true;
  watcher.join();
  CHECK(torn == 0);
  CHECK(reader.load(k) == big);
  CHECK(files_under(dir) == 1);  // no temp files left

  // A writer that died mid-write leaves a temp file: never read as an entry, swept once stale.
  const fs::path temp = dir / k.substr(0, 2) / (".tmp." + key_of(6) + ".999.0");
  std::ofstream(temp, std::ios::binary) << "partial";
  CHECK_FALSE(reader.load(key_of(6)).has_value());
  set_mtime_seconds_ago(temp, 3600);
  disk_cache sweeper(dir.string(), entry_header + big.size() + 10);  // full: the next store scans and evicts
  REQUIRE(sweeper.store(key_of(7), payload(8, 7)));
  CHECK_FALSE(fs::exists(temp));
}

#if defined(NDFUSE_WITH_CUDA)
TEST_CASE("the CUDA backend's compile step finds NVRTC's CUBIN in the disk cache the second time",
          "[disk_cache][nvrtc]") {
  // The seed chain's kernel IR (with arange fused in), as the fuser hands it to the backend. Nothing
  // is evaluated, so no backend is involved and this runs under any NDFUSE_BACKEND.
  nf::array x = nf::arange(10).astype(nf::float64);
  x *= 5;
  x *= x;
  x += x;
  auto plan = ndfuse::schedule::make_plan({x.node()});
  REQUIRE(plan.steps.size() == 1);
  const ndfuse::jit::tuned_ir k = ndfuse::jit::tuned(plan.steps[0]);

  fs::path dir = fresh_dir("nvrtc");
  disk_cache cache(dir.string());
  namespace cu = ndfuse::backend::cuda;
  cu::kernel_binary cold = cu::cubin_for(k, 90, cache);
  CHECK_FALSE(cold.from_disk);
  CHECK(cold.name == plan.steps[0].name);
  REQUIRE(cold.cubin.size() > 4);
  CHECK(cold.cubin.substr(0, 4) ==
        "\x7f"
        "ELF");  // a CUBIN is an ELF image
  CHECK(files_under(dir) == 1);

  cu::kernel_binary warm = cu::cubin_for(k, 90, cache);
  CHECK(warm.from_disk);
  CHECK(warm.cubin == cold.cubin);

  // Another architecture is another entry; disk loads can be refused (a rejected image is recompiled).
  CHECK_FALSE(cu::cubin_for(k, 80, cache).from_disk);
  CHECK(files_under(dir) == 2);
  CHECK_FALSE(cu::cubin_for(k, 90, cache, /*allow_disk_loads=*/false).from_disk);

  // A damaged entry is a miss: NVRTC runs again and the entry is rewritten.
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) fs::resize_file(e.path(), 100);
  cu::kernel_binary again = cu::cubin_for(k, 90, cache);
  CHECK_FALSE(again.from_disk);
  CHECK(again.cubin == cold.cubin);
  CHECK(cu::cubin_for(k, 90, cache).from_disk);
}

#endif
