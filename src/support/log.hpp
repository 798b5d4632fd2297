// Debug logging to stderr (NDFUSE_DEBUG): one "[ndfuse] ..." line per call, written whole even when
// threads log at once.
#pragma once
#include <string_view>

#include "support/env.hpp"

namespace ndfuse::support {

// Whether NDFUSE_DEBUG asks for messages of this level (1: steps, 2: plans and caches, 3: sources,
// 4: NVRTC logs).
inline bool logging(int level) {
  return env::debug_level() >= level;
}

// Writes "[ndfuse] " + line + "\n" to stderr in one piece.
void log_line(std::string_view line);

}  // namespace ndfuse::support
