// nf::savez, nf::savez_compressed and nf::load_npz: .npy members (io/npy.hpp) in a zip archive
// (io/zip.hpp), laid out as NumPy's savez lays them out.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "io/npy.hpp"
#include "io/replace_file.hpp"
#include "io/zip.hpp"
#include "ndfuse/io.hpp"

namespace ndfuse {

namespace {

std::string with_suffix(const std::string& path, const std::string& suffix) {
  return path.ends_with(suffix) ? path : path + suffix;
}

void write_archive(const std::string& given_path, const named_arrays& arrays, io::zip::method how,
                   const char* op) {
  const std::string path = with_suffix(given_path, ".npz");
  if (how == io::zip::method::deflated && !io::zip::can_deflate())
    throw value_error(std::string(op) + ": ndfuse was built without zlib, which deflate needs");
  // Everything that can be refused is refused before the file is created.
  std::set<std::string> names;
  std::vector<std::string> prefixes;
  for (const auto& [name, a] : arrays) {
    if (!names.insert(name).second)
      throw value_error(std::string(op) + ": the name '" + name + "' is given twice");
    prefixes.push_back(io::npy_prefix(a.dtype(), a.shape()));
  }
  io::replace_file file(path, op);
  io::zip::writer zip(file.stream(), path);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const host_array h = arrays[i].second.to_host();  // one host copy at a time
    zip.begin(arrays[i].first + ".npy", how);
    zip.write(prefixes[i].data(), prefixes[i].size());
    zip.write(h.bytes.data(), h.bytes.size());
    zip.end();
  }
  zip.finish();
  file.commit();
}

named_arrays numbered(const std::vector<array>& arrays) {
  named_arrays out;
  for (std::size_t i = 0; i < arrays.size(); ++i) out.emplace_back("arr_" + std::to_string(i), arrays[i]);
  return out;
}

std::uint64_t open_archive(std::ifstream& in, const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw io_error("load_npz: '" + path + "' is a directory, not an .npz file");
  in.open(path, std::ios::binary);
  if (!in) throw io_error("load_npz: cannot open '" + path + "': " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  return static_cast<std::uint64_t>(in.tellg());
}

}  // namespace

void savez(const std::string& path, const named_arrays& arrays) {
  write_archive(path, arrays, io::zip::method::stored, "savez");
}
void savez(const std::string& path, const std::vector<array>& arrays) {
  write_archive(path, numbered(arrays), io::zip::method::stored, "savez");
}
void savez_compressed(const std::string& path, const named_arrays& arrays) {
  write_archive(path, arrays, io::zip::method::deflated, "savez_compressed");
}
void savez_compressed(const std::string& path, const std::vector<array>& arrays) {
  write_archive(path, numbered(arrays), io::zip::method::deflated, "savez_compressed");
}

struct npz_file::contents {
  std::string path;
  std::vector<std::string> keys;
  std::vector<io::zip::entry> entries;  // entries[i] holds keys[i]
};

npz_file load_npz(const std::string& path) {
  std::ifstream in;
  const std::uint64_t size = open_archive(in, path);
  auto c = std::make_shared<npz_file::contents>();
  c->path = path;
  c->entries = io::zip::read_directory(in, size, path);
  for (const auto& e : c->entries) {
    const bool npy = e.name.ends_with(".npy");
    c->keys.push_back(npy ? e.name.substr(0, e.name.size() - 4) : e.name);
  }
  npz_file f;
  f.contents_ = std::move(c);
  return f;
}

const std::vector<std::string>& npz_file::files() const {
  return contents_->keys;
}
std::size_t npz_file::size() const {
  return contents_->keys.size();
}
const std::string& npz_file::path() const {
  return contents_->path;
}
bool npz_file::contains(const std::string& key) const {
  const auto& k = contents_->keys;
  return std::find(k.begin(), k.end(), key) != k.end();
}

array npz_file::operator[](const std::string& key) const {
  const auto& k = contents_->keys;
  // As NpzFile: a key is a member's name without .npy, or the member's full name.
  auto it = std::find(k.begin(), k.end(), key);
  if (it == k.end()) {
    const auto& es = contents_->entries;
    auto named = std::find_if(es.begin(), es.end(), [&](const auto& e) { return e.name == key; });
    if (named == es.end())
      throw index_error("load_npz: '" + key + "' is not a file in the archive '" + contents_->path + "'");
    it = k.begin() + (named - es.begin());
  }
  const io::zip::entry& e = contents_->entries[static_cast<std::size_t>(it - k.begin())];
  std::ifstream in;
  const std::uint64_t size = open_archive(in, contents_->path);
  io::zip::member_source member(in, size, e, contents_->path + ":" + e.name);
  host_array h = io::decode_npy(member, contents_->path + ":" + e.name);
  member.finish();
  return asarray(std::move(h));
}

}  // namespace ndfuse
