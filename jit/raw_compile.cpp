#include "jit/raw_compile.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "jit/nvrtc_compiler.hpp"
#include "support/disk_cache.hpp"
#include "support/env.hpp"
#include "support/hash.hpp"
#include "support/log.hpp"

#ifndef NDFUSE_CUDA_INCLUDE_DIR
#define NDFUSE_CUDA_INCLUDE_DIR ""
#endif

namespace ndfuse::jit {

namespace {

namespace fs = std::filesystem;

const std::string& toolkit_include_dir() {
  static const std::string dir = [] {
    std::error_code ec;
    const std::string d = NDFUSE_CUDA_INCLUDE_DIR;
    return !d.empty() && fs::is_directory(d, ec) ? d : std::string();
  }();
  return dir;
}

// The -I / --include-path directories of an option list, in order.
std::vector<std::string> include_dirs(const std::vector<std::string>& options) {
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    for (const std::string flag : {"-I", "--include-path="}) {
      if (o.rfind(flag, 0) != 0) continue;
      if (o.size() > flag.size())
        dirs.push_back(o.substr(flag.size()));
      else if (flag == "-I" && i + 1 < options.size())
        dirs.push_back(options[++i]);
      break;
    }
    if (o == "--include-path" && i + 1 < options.size()) dirs.push_back(options[++i]);
  }
  return dirs;
}

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream os;
  os << f.rdbuf();
  return os.str();
}

bool under(const fs::path& file, const std::string& dir) {
  if (dir.empty()) return false;
  const std::string f = file.lexically_normal().string(), d = fs::path(dir).lexically_normal().string();
  return f.rfind(d, 0) == 0;
}

}  // namespace

std::vector<std::string> raw_options_for(const raw_request& r, int sm) {
  std::vector<std::string> o = r.options;
  o.push_back("--gpu-architecture=sm_" + std::to_string(sm));
  bool has_std = false;
  for (const auto& x : r.options) has_std |= x.rfind("-std=", 0) == 0 || x.rfind("--std=", 0) == 0;
  if (!has_std) o.push_back("-std=c++17");
  if (!toolkit_include_dir().empty()) o.push_back("-I" + toolkit_include_dir());
  return o;
}

header_scan scan_headers(const raw_request& r) {
  static const std::regex include_line(R"(^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"])",
                                       std::regex::multiline);
  const std::vector<std::string> dirs = include_dirs(r.options);
  header_scan scan;
  std::set<std::string> seen, missing;
  std::uint64_t h = support::fnv1a_basis;
  // (text, directory of the file it came from)
  std::vector<std::pair<std::string, fs::path>> pending{
      {r.source, r.source_dir.empty() ? fs::path(".") : fs::path(r.source_dir)}};
  while (!pending.empty()) {
    auto [text, here] = std::move(pending.back());
    pending.pop_back();
    for (std::sregex_iterator it(text.begin(), text.end(), include_line), end; it != end; ++it) {
      const bool quoted = (*it)[1] == "\"";
      const std::string name = (*it)[2];
      std::vector<fs::path> candidates;
      if (quoted) candidates.push_back(here / name);
      for (const auto& d : dirs) candidates.push_back(fs::path(d) / name);
      bool found = false;
      for (const auto& c : candidates) {
        std::error_code ec;
        if (!fs::is_regular_file(c, ec)) continue;
        found = true;
        const fs::path path = fs::weakly_canonical(c, ec);
        if (under(path, toolkit_include_dir())) break;  // the toolkit's version covers it
        if (!seen.insert(path.string()).second) break;
        auto contents = read_text(path);
        if (!contents) break;  // unreadable: NVRTC will say so
        scan.found.push_back(path.string());
        h = support::fnv1a(*contents, support::fnv1a(path.string(), h));
        pending.emplace_back(std::move(*contents), path.parent_path());
        break;
      }
      if (!found && missing.insert(name).second) scan.not_found.push_back(name);
    }
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  scan.digest = buf;
  return scan;
}

namespace {

// The cache entry: "nfraw1\n", the count of lowered names, each pair as two NUL-terminated
// strings, then the CUBIN.
std::string pack(const raw_binary& b) {
  std::string out = "nfraw1\n" + std::to_string(b.lowered_names.size()) + "\n";
  for (const auto& [e, l] : b.lowered_names) {
    out += e;
    out += '\0';
    out += l;
    out += '\0';
  }
  return out + b.cubin;
}

std::optional<raw_binary> unpack(const std::string& s) {
  const std::string magic = "nfraw1\n";
  if (s.rfind(magic, 0) != 0) return std::nullopt;
  std::size_t pos = magic.size();
  const std::size_t eol = s.find('\n', pos);
  if (eol == std::string::npos) return std::nullopt;
  const unsigned long count = std::stoul(s.substr(pos, eol - pos));
  pos = eol + 1;
  raw_binary b;
  for (unsigned long i = 0; i < count; ++i) {
    const std::size_t a = s.find('\0', pos);
    if (a == std::string::npos) return std::nullopt;
    const std::size_t c = s.find('\0', a + 1);
    if (c == std::string::npos) return std::nullopt;
    b.lowered_names.emplace_back(s.substr(pos, a - pos), s.substr(a + 1, c - a - 1));
    pos = c + 1;
  }
  b.cubin = s.substr(pos);
  return b;
}

}  // namespace

raw_binary compile_raw(const raw_request& r, int sm, support::disk_cache& cache) {
  const std::vector<std::string> options = raw_options_for(r, sm);
  const header_scan headers = scan_headers(r);
  std::string fingerprint = "raw\n";
  for (const auto& o : options) fingerprint += o + '\n';
  fingerprint += "names\n";
  for (const auto& e : r.name_expressions) fingerprint += e + '\n';
  fingerprint += "headers " + headers.digest + "\n";
  const std::string arch = "sm_" + std::to_string(sm);
  const std::string key = support::disk_cache::make_key(r.source, fingerprint, nvrtc_version(), arch);
  const bool inspect = !support::env::dump_dir().empty() || support::env::debug_level() >= 3;
  if (!inspect)
    if (auto hit = cache.load(key))
      if (auto b = unpack(*hit)) {
        b->from_disk = true;
        if (support::env::debug_level() >= 2)
          support::log_line(r.name + ": disk cache hit " + cache.entry_path(key));
        return std::move(*b);
      }
  compiled_binary bin = compile_program({r.source, r.name, options, r.name_expressions, false}, sm);
  raw_binary out;
  out.cubin.assign(bin.cubin.begin(), bin.cubin.end());
  out.lowered_names = std::move(bin.lowered_names);
  cache.store(key, pack(out));
  if (support::env::debug_level() >= 2)
    support::log_line(r.name + ": NVRTC compiled a raw module for " + arch);
  return out;
}

}  // namespace ndfuse::jit
