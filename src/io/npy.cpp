#include "io/npy.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "io/npy_header.hpp"
#include "io/replace_file.hpp"
#include "ndfuse/io.hpp"

namespace ndfuse {

namespace io {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_len = 6;
constexpr std::size_t array_align = 64;

std::size_t byte_count(const host_array& h) {
  std::size_t n = itemsize(h.dtype);
  for (std::int64_t d : h.shape) n *= static_cast<std::size_t>(d);
  return n;
}

std::string errno_text() {
  return std::strerror(errno);
}

// Complex values swap each component, not the pair.
void swap_bytes(std::vector<std::byte>& bytes, dtype t) {
  const std::size_t width = is_complex(t) ? itemsize(t) / 2 : itemsize(t);
  if (width <= 1) return;
  for (std::size_t i = 0; i + width <= bytes.size(); i += width)
    std::reverse(bytes.begin() + i, bytes.begin() + i + width);
}

// Fortran-order data is C-order data of the reversed shape; this gathers it into C order.
std::vector<std::byte> fortran_to_c(const std::vector<std::byte>& src, const shape_t& shape,
                                    std::size_t item) {
  std::vector<std::byte> out(src.size());
  if (src.empty()) return out;
  const std::size_t ndim = shape.size();
  std::vector<std::size_t> fstride(ndim, 1);
  for (std::size_t k = 1; k < ndim; ++k) fstride[k] = fstride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
  std::vector<std::int64_t> idx(ndim, 0);
  std::size_t src_elem = 0;
  const std::size_t count = src.size() / item;
  for (std::size_t dst = 0; dst < count; ++dst) {
    std::memcpy(out.data() + dst * item, src.data() + src_elem * item, item);
    // Advance the C-order odometer, keeping the Fortran offset in step.
    for (std::size_t k = ndim; k-- > 0;) {
      if (++idx[k] < shape[k]) {
        src_elem += fstride[k];
        break;
      }
      src_elem -= fstride[k] * static_cast<std::size_t>(shape[k] - 1);
      idx[k] = 0;
    }
  }
  return out;
}

}  // namespace

std::string npy_prefix(dtype t, const shape_t& shape) {
  const std::string dict = format_npy_header_dict(t, shape);
  // Pad with spaces and a final newline so that the data starts on a 64-byte boundary. Like
  // np.save, use format 1.0 unless the header length does not fit its 16-bit field.
  auto padding = [&](std::size_t length_bytes) {
    return array_align - (magic_len + 2 + length_bytes + dict.size() + 1) % array_align;
  };
  const unsigned major = dict.size() + 1 + padding(2) > 0xffff ? 2 : 1;
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  const std::size_t pad = padding(length_bytes);
  const std::size_t total = dict.size() + 1 + pad;
  std::string header(magic, magic_len);
  header += static_cast<char>(major);
  header += '\0';
  for (std::size_t i = 0; i < length_bytes; ++i) header += static_cast<char>((total >> (8 * i)) & 0xff);
  header += dict;
  header.append(pad, ' ');
  header += '\n';
  return header;
}

host_array decode_npy(byte_source& in, const std::string& name) {
  const std::uint64_t total_size = in.size();
  auto malformed = [&](const std::string& what) {
    return value_error("load: '" + name + "' is not a valid .npy file: " + what);
  };

  char prefix[magic_len + 2];
  if (total_size < sizeof prefix || !in.read(prefix, sizeof prefix)) throw malformed("the file is too short");
  if (std::memcmp(prefix, magic, magic_len) != 0) {
    if (std::memcmp(prefix, "PK\x03\x04", 4) == 0 || std::memcmp(prefix, "PK\x05\x06", 4) == 0)
      throw value_error("load: '" + name +
                        "' is an .npz archive, not a .npy file: read it with nf::load_npz");
    throw malformed("it does not start with the .npy magic string");
  }
  const unsigned major = static_cast<unsigned char>(prefix[6]);
  const unsigned minor = static_cast<unsigned char>(prefix[7]);
  if (major < 1 || major > 3 || minor != 0) {
    throw malformed("unsupported format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  unsigned char len_buf[4] = {};
  if (!in.read(len_buf, length_bytes)) throw malformed("the file ends inside the header length");
  std::size_t header_len = 0;
  for (std::size_t i = 0; i < length_bytes; ++i)
    header_len |= static_cast<std::size_t>(len_buf[i]) << (8 * i);
  const std::uint64_t data_start = sizeof prefix + length_bytes + header_len;
  if (data_start > total_size) throw malformed("the file ends inside the header (truncated)");
  std::string text(header_len, '\0');
  if (!in.read(text.data(), header_len)) throw malformed("the file ends inside the header (truncated)");
  const npy_header header = parse_npy_header(text, name);

  host_array h;
  h.dtype = header.dtype;
  h.shape = header.shape;
  const std::size_t nbytes = byte_count(h);
  if (total_size - data_start < nbytes) {
    throw malformed("truncated data: shape " + shape_str(h.shape) + " needs " + std::to_string(nbytes) +
                    " bytes, the file holds " + std::to_string(total_size - data_start));
  }
  h.bytes.resize(nbytes);
  if (nbytes && !in.read(h.bytes.data(), nbytes)) throw malformed("reading the data failed (truncated?)");
  if (header.byte_swapped) swap_bytes(h.bytes, h.dtype);
  if (h.dtype == dtype::bool_) {
    // Any nonzero byte is True to NumPy; ndfuse's bool must hold exactly 0 or 1.
    for (auto& b : h.bytes) b = b != std::byte{0} ? std::byte{1} : std::byte{0};
  }
  if (header.fortran_order && h.shape.size() > 1) h.bytes = fortran_to_c(h.bytes, h.shape, itemsize(h.dtype));
  return h;
}

void write_npy(const std::string& path, const host_array& h) {
  const std::string header = npy_prefix(h.dtype, h.shape);
  const std::size_t nbytes = byte_count(h);
  if (h.bytes.size() < nbytes)
    throw value_error("save: '" + path + "': the host data is smaller than its shape says");
  replace_file file(path, "save");
  file.stream().write(header.data(), static_cast<std::streamsize>(header.size()));
  file.stream().write(reinterpret_cast<const char*>(h.bytes.data()), static_cast<std::streamsize>(nbytes));
  file.commit();
}

namespace {

class file_source final : public byte_source {
 public:
  file_source(std::ifstream& in, std::uint64_t size) : in_(in), size_(size) {}
  std::uint64_t size() const override { return size_; }
  bool read(void* dst, std::size_t n) override {
    return static_cast<bool>(in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n)));
  }

 private:
  std::ifstream& in_;
  std::uint64_t size_;
};

}  // namespace

host_array read_npy(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw io_error("load: '" + path + "' is a directory, not a .npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error("load: cannot open '" + path + "': " + errno_text());
  in.seekg(0, std::ios::end);
  const auto file_size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  file_source source(in, file_size);
  return decode_npy(source, path);
}

}  // namespace io

void save(const std::string& path, const array& a) {
  io::write_npy(path.ends_with(".npy") ? path : path + ".npy", a.to_host());
}

array load(const std::string& path) {
  return asarray(io::read_npy(path));
}

}  // namespace ndfuse
