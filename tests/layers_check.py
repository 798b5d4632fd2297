#!/usr/bin/env python3
"""Fails when a library file includes a header of a later pipeline stage (CTest: include_layers).

The stages, in pipeline order (docs/architecture.md): src/support, src/ir, src/io, src/frontend,
src/schedule, src/runtime, jit, src/backend. A file may include its own stage's headers and those of
earlier stages, plus the two doors the pipeline goes through forward: the frontend asks the runtime
to evaluate (runtime/realize.hpp) and which device a node is on (runtime/device.hpp), and the runtime drives a backend through its interface
(backend/backend.hpp). Raw kernels (nf::raw_kernel) skip the DAG: the frontend launches them
through their own door (backend/raw_program.hpp), on the arrays' device (runtime/device_guard.hpp),
and so do NCCL's collectives (backend/collectives.hpp), which run when they are called.
src/support includes no other stage at all. Public headers (ndfuse/...) are
everyone's.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = ["support", "ir", "io", "frontend", "schedule", "runtime", "jit", "backend"]
DOORS = {"runtime/realize.hpp": {"frontend"}, "runtime/device.hpp": {"frontend"}, "backend/backend.hpp": {"runtime"},
         "backend/raw_program.hpp": {"frontend"}, "runtime/device_guard.hpp": {"frontend"},
         "backend/collectives.hpp": {"frontend"}}


def stage_of(path):
    """The stage of a repository-relative path, or None outside the library."""
    parts = path.split("/")
    if parts[0] == "jit":
        return "jit"
    if parts[0] == "src" and len(parts) > 2 and parts[1] in ORDER:
        return parts[1]
    return None


def included_path(name):
    """The repository path an #include "name" resolves to in the library's include dirs, or None."""
    for candidate in ("src/" + name, name):
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def main():
    problems = []
    for top in ("src", "jit"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp", ".cu", ".cuh")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), ROOT).replace(os.sep, "/")
                here = stage_of(path)
                if here is None:
                    continue
                text = open(os.path.join(ROOT, path), encoding="utf-8").read()
                for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
                    target = included_path(m[1])
                    there = stage_of(target) if target else None
                    if there is None or there == here:
                        continue
                    later = ORDER.index(there) > ORDER.index(here)
                    door = here in DOORS.get(m[1], set())
                    if (later and not door) or here == "support":
                        problems.append(f"{path} ({here}) includes {m[1]} ({there})")
    for p in problems:
        print("include_layers:", p)
    if not problems:
        print("include_layers: every include goes to its own or an earlier stage")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
