#include "io/zip.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <ctime>
#include <limits>

#include "ndfuse/error.hpp"

#if NDFUSE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace ndfuse::io::zip {

namespace {

constexpr std::uint32_t local_signature = 0x04034b50;
constexpr std::uint32_t central_signature = 0x02014b50;
constexpr std::uint32_t end_signature = 0x06054b50;
constexpr std::uint32_t zip64_end_signature = 0x06064b50;
constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
constexpr std::uint16_t zip64_extra_id = 0x0001;
constexpr std::size_t local_header_size = 30, central_header_size = 46, end_size = 22;
constexpr std::size_t zip64_end_size = 56, zip64_locator_size = 20;
constexpr std::uint32_t max32 = 0xffffffff;
constexpr std::uint16_t max16 = 0xffff;
// "Version needed to extract": 2.0 for deflate, 4.5 for zip64 extra fields.
constexpr std::uint16_t version_zip64 = 45;
constexpr std::uint16_t made_by_unix = (3 << 8) | version_zip64;
constexpr std::uint16_t flag_encrypted = 1 << 0, flag_utf8 = 1 << 11;
constexpr std::size_t chunk = std::size_t{1} << 18;

std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
#if NDFUSE_HAVE_ZLIB
  while (n > 0) {
    const auto k = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
    crc = static_cast<std::uint32_t>(::crc32(crc, p, k));
    p += k;
    n -= k;
  }
  return crc;
#else
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
#endif
}

// Little-endian fields, appended to or read from a byte string.
template <class T>
void put_le(std::string& s, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    s += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
}

std::uint64_t get_le(const char* p, std::size_t bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}
std::uint16_t get16(const char* p) {
  return static_cast<std::uint16_t>(get_le(p, 2));
}
std::uint32_t get32(const char* p) {
  return static_cast<std::uint32_t>(get_le(p, 4));
}
std::uint64_t get64(const char* p) {
  return get_le(p, 8);
}

// MS-DOS time and date of now, local time, as zipfile stamps a member it writes.
std::pair<std::uint16_t, std::uint16_t> dos_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm t{};
  localtime_r(&now, &t);
  const int year = std::clamp(t.tm_year + 1900, 1980, 2107);
  return {static_cast<std::uint16_t>((t.tm_hour << 11) | (t.tm_min << 5) | (t.tm_sec / 2)),
          static_cast<std::uint16_t>(((year - 1980) << 9) | ((t.tm_mon + 1) << 5) | t.tm_mday)};
}

bool is_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::uint32_t clamp32(std::uint64_t v) {
  return v >= max32 ? max32 : static_cast<std::uint32_t>(v);
}

[[noreturn]] void damaged(const std::string& path, const std::string& what) {
  throw value_error("load_npz: '" + path + "' is not a valid .npz (zip) file: " + what);
}

}  // namespace

bool can_deflate() {
  return NDFUSE_HAVE_ZLIB != 0;
}

// ---- writing -------------------------------------------------------------------------------------

struct writer::member {
  std::string name;
  method how;
  std::uint16_t time, date, flags;
  std::uint32_t crc;
  std::uint64_t compressed, size, local_offset;
};

struct writer::deflater {
#if NDFUSE_HAVE_ZLIB
  z_stream z{};
  std::vector<unsigned char> out = std::vector<unsigned char>(chunk);
  deflater() {
    // Raw deflate (no zlib wrapper), zlib's default level: what zipfile's ZIP_DEFLATED writes.
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw out_of_memory("savez_compressed: zlib could not start a compressor");
  }
  ~deflater() {
    deflateEnd(&z);
  }
  // Compresses n bytes (or, with finish, the rest) and hands each full output buffer to emit.
  template <class Emit>
  void run(const void* data, std::size_t n, bool finish, Emit emit) {
    const auto* p = static_cast<const unsigned char*>(data);
    do {
      const auto k = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
      z.next_in = const_cast<unsigned char*>(p);
      z.avail_in = k;
      p += k;
      n -= k;
      const int flush = finish && n == 0 ? Z_FINISH : Z_NO_FLUSH;
      int rc;
      do {
        z.next_out = out.data();
        z.avail_out = static_cast<uInt>(out.size());
        rc = deflate(&z, flush);
        emit(out.data(), out.size() - z.avail_out);
      } while (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    } while (n > 0);
  }
#endif
};

writer::writer(std::ostream& out, std::string path) : out_(out), path_(std::move(path)) {}
writer::~writer() = default;

void writer::put(const void* data, std::size_t n) {
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  offset_ += n;
}

void writer::begin(const std::string& name, method how) {
  if (how == method::deflated && !can_deflate())
    throw value_error("savez_compressed: ndfuse was built without zlib, which deflate needs");
  if (name.size() > max16)
    throw value_error("savez: the member name '" + name.substr(0, 64) + "...' is too long");
  const auto [time, date] = dos_time_now();
  const std::uint16_t flags = is_ascii(name) ? 0 : flag_utf8;
  local_start_ = offset_;
  std::string h;
  put_le<std::uint32_t>(h, local_signature);
  put_le<std::uint16_t>(h, version_zip64);
  put_le<std::uint16_t>(h, flags);
  put_le<std::uint16_t>(h, static_cast<std::uint16_t>(how));
  put_le<std::uint16_t>(h, time);
  put_le<std::uint16_t>(h, date);
  put_le<std::uint32_t>(h, 0);      // CRC, rewritten by end()
  put_le<std::uint32_t>(h, max32);  // sizes: in the zip64 extra field
  put_le<std::uint32_t>(h, max32);
  put_le<std::uint16_t>(h, static_cast<std::uint16_t>(name.size()));
  put_le<std::uint16_t>(h, 20);
  h += name;
  put_le<std::uint16_t>(h, zip64_extra_id);
  put_le<std::uint16_t>(h, 16);
  put_le<std::uint64_t>(h, 0);  // uncompressed and compressed size, rewritten by end()
  put_le<std::uint64_t>(h, 0);
  put(h.data(), h.size());
  members_.push_back({name, how, time, date, flags, 0, 0, 0, local_start_});
#if NDFUSE_HAVE_ZLIB
  if (how == method::deflated) deflate_ = std::make_unique<deflater>();
#endif
  how_ = how;
  crc_ = 0;
  size_ = 0;
  written_ = offset_;
}

void writer::write(const void* data, std::size_t n) {
  if (n == 0) return;
  crc_ = crc32_update(crc_, data, n);
  size_ += n;
  if (how_ == method::stored) return put(data, n);
#if NDFUSE_HAVE_ZLIB
  deflate_->run(data, n, false, [&](const void* p, std::size_t k) { put(p, k); });
#endif
}

void writer::end() {
#if NDFUSE_HAVE_ZLIB
  if (how_ == method::deflated) {
    deflate_->run(nullptr, 0, true, [&](const void* p, std::size_t k) { put(p, k); });
    deflate_.reset();
  }
#endif
  member& m = members_.back();
  m.crc = crc_;
  m.size = size_;
  m.compressed = offset_ - written_;
  std::string crc_field, sizes;
  put_le<std::uint32_t>(crc_field, m.crc);
  put_le<std::uint64_t>(sizes, m.size);
  put_le<std::uint64_t>(sizes, m.compressed);
  out_.seekp(static_cast<std::streamoff>(local_start_ + 14));
  out_.write(crc_field.data(), 4);
  out_.seekp(static_cast<std::streamoff>(local_start_ + local_header_size + m.name.size() + 4));
  out_.write(sizes.data(), 16);
  out_.seekp(static_cast<std::streamoff>(offset_));
}

void writer::finish() {
  const std::uint64_t directory_start = offset_;
  for (const member& m : members_) {
    // The zip64 extra field holds, in this order, exactly the fields too large for their slot.
    std::string extra;
    if (m.size >= max32) put_le<std::uint64_t>(extra, m.size);
    if (m.compressed >= max32) put_le<std::uint64_t>(extra, m.compressed);
    if (m.local_offset >= max32) put_le<std::uint64_t>(extra, m.local_offset);
    std::string h;
    put_le<std::uint32_t>(h, central_signature);
    put_le<std::uint16_t>(h, made_by_unix);
    put_le<std::uint16_t>(h, version_zip64);
    put_le<std::uint16_t>(h, m.flags);
    put_le<std::uint16_t>(h, static_cast<std::uint16_t>(m.how));
    put_le<std::uint16_t>(h, m.time);
    put_le<std::uint16_t>(h, m.date);
    put_le<std::uint32_t>(h, m.crc);
    put_le<std::uint32_t>(h, clamp32(m.compressed));
    put_le<std::uint32_t>(h, clamp32(m.size));
    put_le<std::uint16_t>(h, static_cast<std::uint16_t>(m.name.size()));
    put_le<std::uint16_t>(h, static_cast<std::uint16_t>(extra.empty() ? 0 : extra.size() + 4));
    put_le<std::uint16_t>(h, 0);            // comment length
    put_le<std::uint16_t>(h, 0);            // disk
    put_le<std::uint16_t>(h, 0);            // internal attributes
    put_le<std::uint32_t>(h, 0644u << 16);  // a regular file, rw-r--r--
    put_le<std::uint32_t>(h, clamp32(m.local_offset));
    h += m.name;
    if (!extra.empty()) {
      put_le<std::uint16_t>(h, zip64_extra_id);
      put_le<std::uint16_t>(h, static_cast<std::uint16_t>(extra.size()));
      h += extra;
    }
    put(h.data(), h.size());
  }
  const std::uint64_t directory_size = offset_ - directory_start;
  const std::uint64_t count = members_.size();
  std::string e;
  if (count >= max16 || directory_size >= max32 || directory_start >= max32) {
    const std::uint64_t zip64_end_at = offset_;
    put_le<std::uint32_t>(e, zip64_end_signature);
    put_le<std::uint64_t>(e, zip64_end_size - 12);
    put_le<std::uint16_t>(e, made_by_unix);
    put_le<std::uint16_t>(e, version_zip64);
    put_le<std::uint32_t>(e, 0);
    put_le<std::uint32_t>(e, 0);
    put_le<std::uint64_t>(e, count);
    put_le<std::uint64_t>(e, count);
    put_le<std::uint64_t>(e, directory_size);
    put_le<std::uint64_t>(e, directory_start);
    put_le<std::uint32_t>(e, zip64_locator_signature);
    put_le<std::uint32_t>(e, 0);
    put_le<std::uint64_t>(e, zip64_end_at);
    put_le<std::uint32_t>(e, 1);
  }
  put_le<std::uint32_t>(e, end_signature);
  put_le<std::uint16_t>(e, 0);
  put_le<std::uint16_t>(e, 0);
  put_le<std::uint16_t>(e, static_cast<std::uint16_t>(std::min<std::uint64_t>(count, max16)));
  put_le<std::uint16_t>(e, static_cast<std::uint16_t>(std::min<std::uint64_t>(count, max16)));
  put_le<std::uint32_t>(e, clamp32(directory_size));
  put_le<std::uint32_t>(e, clamp32(directory_start));
  put_le<std::uint16_t>(e, 0);
  put(e.data(), e.size());
}

// ---- reading -------------------------------------------------------------------------------------

namespace {

std::string read_at(std::ifstream& in, std::uint64_t at, std::size_t n) {
  std::string s(n, '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  if (n && !in.read(s.data(), static_cast<std::streamsize>(n))) s.clear();
  return s;
}

}  // namespace

std::vector<entry> read_directory(std::ifstream& in, std::uint64_t file_size, const std::string& path) {
  if (file_size < end_size) damaged(path, "the file is too short");
  // The end record is the last thing in the file, before a comment of at most 64 KiB.
  const std::size_t tail_size =
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, end_size + max16));
  const std::uint64_t tail_at = file_size - tail_size;
  const std::string tail = read_at(in, tail_at, tail_size);
  if (tail.size() != tail_size) damaged(path, "the file cannot be read");
  std::size_t at = std::string::npos;
  for (std::size_t i = tail_size - end_size + 1; i-- > 0;) {
    if (get32(tail.data() + i) == end_signature && i + end_size + get16(tail.data() + i + 20) <= tail_size) {
      at = i;
      break;
    }
  }
  if (at == std::string::npos)
    damaged(path, "no end of central directory record (not a zip file, or truncated)");
  const char* e = tail.data() + at;
  if (get16(e + 4) != 0 || get16(e + 6) != 0)
    damaged(path, "archives spanning several disks are not supported");
  std::uint64_t count = get16(e + 10), directory_size = get32(e + 12), directory_start = get32(e + 16);
  const std::uint64_t end_at = tail_at + at;
  if (end_at >= zip64_locator_size) {
    const std::string locator = read_at(in, end_at - zip64_locator_size, zip64_locator_size);
    if (locator.size() == zip64_locator_size && get32(locator.data()) == zip64_locator_signature) {
      const std::uint64_t zip64_at = get64(locator.data() + 8);
      const std::string z =
          zip64_at + zip64_end_size <= file_size ? read_at(in, zip64_at, zip64_end_size) : "";
      if (z.size() != zip64_end_size || get32(z.data()) != zip64_end_signature)
        damaged(path, "the zip64 end of central directory record is missing");
      count = get64(z.data() + 32);
      directory_size = get64(z.data() + 40);
      directory_start = get64(z.data() + 48);
    }
  }
  if (directory_start > end_at || directory_size > end_at - directory_start)
    damaged(path, "the central directory lies outside the file (truncated?)");
  if (count > directory_size / central_header_size)
    damaged(path, "the central directory is too short for its entries");

  const std::string dir = read_at(in, directory_start, static_cast<std::size_t>(directory_size));
  if (dir.size() != directory_size) damaged(path, "the central directory cannot be read");
  std::vector<entry> entries;
  entries.reserve(static_cast<std::size_t>(count));
  std::size_t pos = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    if (pos + central_header_size > dir.size() || get32(dir.data() + pos) != central_signature)
      damaged(path, "central directory entry " + std::to_string(k) + " is damaged");
    const char* h = dir.data() + pos;
    const std::size_t name_len = get16(h + 28), extra_len = get16(h + 30), comment_len = get16(h + 32);
    if (pos + central_header_size + name_len + extra_len + comment_len > dir.size())
      damaged(path, "central directory entry " + std::to_string(k) + " runs past the directory");
    entry en;
    en.name.assign(h + central_header_size, name_len);
    if (get16(h + 8) & flag_encrypted) damaged(path, "member '" + en.name + "' is encrypted");
    en.how = static_cast<method>(get16(h + 10));
    en.crc = get32(h + 16);
    en.compressed = get32(h + 20);
    en.size = get32(h + 24);
    en.local_offset = get32(h + 42);
    // zip64: the extra field holds, in order, the 64-bit value of each field that reads 0xffffffff.
    const char* x = h + central_header_size + name_len;
    for (std::size_t xp = 0; xp + 4 <= extra_len;) {
      const std::uint16_t id = get16(x + xp), len = get16(x + xp + 2);
      if (xp + 4 + len > extra_len) break;
      if (id == zip64_extra_id) {
        std::size_t f = xp + 4;
        for (std::uint64_t* field : {&en.size, &en.compressed, &en.local_offset}) {
          if (*field != max32) continue;
          if (f + 8 > xp + 4 + len) damaged(path, "member '" + en.name + "' has a short zip64 field");
          *field = get64(x + f);
          f += 8;
        }
      }
      xp += 4 + len;
    }
    if (en.local_offset > directory_start || en.compressed > directory_start - en.local_offset)
      damaged(path, "member '" + en.name + "' lies outside the file (truncated?)");
    entries.push_back(std::move(en));
    pos += central_header_size + name_len + extra_len + comment_len;
  }
  return entries;
}

struct member_source::inflater {
#if NDFUSE_HAVE_ZLIB
  z_stream z{};
  std::vector<unsigned char> in = std::vector<unsigned char>(chunk);
  bool ended = false;
  inflater() {
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
      throw out_of_memory("load_npz: zlib could not start a decompressor");
  }
  ~inflater() {
    inflateEnd(&z);
  }
#endif
};

member_source::member_source(std::ifstream& in, std::uint64_t file_size, const entry& e, std::string name)
    : in_(in), entry_(e), name_(std::move(name)) {
  const std::string h = read_at(in_, e.local_offset, local_header_size);
  if (h.size() != local_header_size || get32(h.data()) != local_signature)
    damaged(name_, "its local header is damaged");
  const std::uint64_t data_at =
      e.local_offset + local_header_size + get16(h.data() + 26) + get16(h.data() + 28);
  if (data_at > file_size || e.compressed > file_size - data_at) damaged(name_, "the member is truncated");
  if (e.how != method::stored && e.how != method::deflated)
    throw value_error("load_npz: '" + name_ + "' uses compression method " +
                      std::to_string(static_cast<unsigned>(e.how)) +
                      "; only stored and deflated are supported");
  if (e.how == method::deflated) {
    if (!can_deflate())
      throw value_error("load_npz: '" + name_ + "' is deflated, and ndfuse was built without zlib");
#if NDFUSE_HAVE_ZLIB
    inflate_ = std::make_unique<inflater>();
#endif
  }
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(data_at));
  raw_left_ = e.compressed;
}

member_source::~member_source() = default;

bool member_source::read_raw(void* dst, std::size_t n) {
  if (n > raw_left_) return false;
  if (!in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n))) return false;
  raw_left_ -= n;
  return true;
}

bool member_source::read(void* dst, std::size_t n) {
  if (n > entry_.size - produced_) return false;
  if (entry_.how == method::stored) {
    if (!read_raw(dst, n)) return false;
  } else {
#if NDFUSE_HAVE_ZLIB
    z_stream& z = inflate_->z;
    auto* out = static_cast<unsigned char*>(dst);
    std::size_t left = n;
    while (left > 0) {
      if (inflate_->ended) return false;
      if (z.avail_in == 0 && raw_left_ > 0) {
        const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(raw_left_, inflate_->in.size()));
        if (!read_raw(inflate_->in.data(), k)) return false;
        z.next_in = inflate_->in.data();
        z.avail_in = static_cast<uInt>(k);
      }
      const auto want = static_cast<uInt>(std::min<std::size_t>(left, std::size_t{1} << 30));
      z.next_out = out;
      z.avail_out = want;
      const int rc = ::inflate(&z, Z_NO_FLUSH);
      const std::size_t got = want - z.avail_out;
      out += got;
      left -= got;
      if (rc == Z_STREAM_END) {
        inflate_->ended = true;
      } else if (rc == Z_BUF_ERROR && got == 0) {
        return false;  // no input left: the compressed data ends early
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw value_error("load_npz: '" + name_ + "' holds damaged compressed data" +
                          (z.msg ? std::string(" (") + z.msg + ")" : std::string()));
      }
    }
#endif
  }
  crc_ = crc32_update(crc_, dst, n);
  produced_ += n;
  return true;
}

void member_source::finish() {
  std::vector<char> rest(chunk);
  while (produced_ < entry_.size) {
    const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(entry_.size - produced_, rest.size()));
    if (!read(rest.data(), k)) damaged(name_, "the member is shorter than its directory entry says");
  }
  if (crc_ != entry_.crc) damaged(name_, "bad CRC-32 (the data is damaged)");
}

}  // namespace ndfuse::io::zip
