#include "support/log.hpp"

#include <cstdio>
#include <string>

namespace ndfuse::support {

void log_line(std::string_view line) {
  std::string text = "[ndfuse] ";
  text.append(line);
  text += '\n';
  std::fwrite(text.data(), 1, text.size(), stderr);  // one call: POSIX keeps it from interleaving
}

}  // namespace ndfuse::support
