// A kernel's source with the prelude pasted in, for users who rebuild it with nvcc alone.
#include <string>
#include <string_view>
#include <unordered_set>

#include "jit/prelude.hpp"

namespace ndfuse::jit {

namespace {

const prelude_file* find_prelude(std::string_view name) {
  for (const auto& f : prelude_files())
    if (f.name == name) return &f;
  return nullptr;
}

// The prelude file a line includes (`#include "nf_types.cuh" ...`), or null for any other line.
const prelude_file* included_prelude(std::string_view line) {
  constexpr std::string_view directive = "#include \"";
  if (!line.starts_with(directive)) return nullptr;
  line.remove_prefix(directive.size());
  const auto end = line.find('"');
  return end == std::string_view::npos ? nullptr : find_prelude(line.substr(0, end));
}

// Copies `text` into `out`, each prelude include replaced by that file's text the first time and
// dropped after it (the files have include guards, so this is what the preprocessor would see).
void expand(std::string_view text, std::unordered_set<std::string_view>& done, std::string& out) {
  while (!text.empty()) {
    const auto eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (const prelude_file* f = included_prelude(line)) {
      if (!done.insert(f->name).second) continue;
      out += "// ---- ";
      out += f->name;
      out += " (ndfuse's device prelude) ----\n";
      expand(f->text, done, out);
      out += "// ---- end of ";
      out += f->name;
      out += " ----\n";
      continue;
    }
    out += line;
    out += '\n';
  }
}

}  // namespace

std::string inline_prelude(std::string_view source) {
  std::unordered_set<std::string_view> done;
  std::string out;
  out.reserve(source.size() + 64 * 1024);
  expand(source, done, out);
  return out;
}

}  // namespace ndfuse::jit
