#include "support/log.hpp"

#include <iostream>
#include <string>

namespace ndfuse::support {

void log_line(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);  // a message may end its own line
  std::string text = "[ndfuse] ";
  text.append(line);
  text += '\n';
  std::cerr << text;  // one insertion: one write, which threads do not interleave
}

}  // namespace ndfuse::support
