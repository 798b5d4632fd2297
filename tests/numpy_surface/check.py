#!/usr/bin/env python3
"""How much of the NumPy surface ndfuse has (CTest: numpy_surface).

Compiles one using-declaration per name of names.txt against the public headers, in one translation
unit (the compiler reports every failing line, so each name is found or not on its own), and prints
the counts per group and the missing names:
  top     `using ndfuse::NAME;`                                  (np.NAME)
  member  `struct s : ndfuse::array { using ndfuse::array::NAME; };`  (np.ndarray.NAME)
  linalg  `using ndfuse::linalg::NAME;`                          (np.linalg.NAME)
A NumPy name that is a C++ keyword is looked up with a trailing underscore (`delete` -> `delete_`);
spellings.txt maps the few others ndfuse spells its own way (`LinAlgError` -> `ndfuse::linalg_error`).

Usage: check.py --cxx COMPILER --include DIR [--min top=N,member=N,linalg=N]
Exit status: 1 when a group has fewer names than its --min (the floor that keeps the count from
falling back), or when the compiler cannot even start; 0 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEYWORDS = {"and", "or", "not", "xor", "delete", "new", "bool", "int", "float", "double", "char", "long",
            "short", "signed", "unsigned", "void", "class", "struct", "union", "enum", "template",
            "typename", "operator", "this", "true", "false", "default", "register", "auto", "const",
            "volatile", "inline", "export", "module", "import", "concept", "requires"}
GROUPS = ("top", "member", "linalg")


def read_pairs(name):
    rows = []
    with open(os.path.join(HERE, name)) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                rows.append(line)
    return rows


def declaration(group, name, spelled, k):
    if spelled:
        target = spelled
    else:
        cpp = name + "_" if name in KEYWORDS else name
        target = {"top": "ndfuse::", "member": "ndfuse::array::", "linalg": "ndfuse::linalg::"}[group] + cpp
    if group == "member":
        return f"struct surface_{k} : ndfuse::array {{ using {target}; }};"
    return f"namespace surface_{k} {{ using {target}; }}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    p.add_argument("--include", required=True)
    p.add_argument("--min", default="")
    args = p.parse_args()
    spellings = {(g, n): s for g, n, s in read_pairs("spellings.txt")}
    names = [(g, n) for g, n in read_pairs("names.txt")]
    lines = ["#include <ndfuse/ndfuse.hpp>"]
    where = {}
    for k, (g, n) in enumerate(names):
        where[len(lines) + 1] = (g, n)
        lines.append(declaration(g, n, spellings.get((g, n)), k))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "surface.cpp")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([args.cxx, "-std=c++20", "-fsyntax-only", "-fmax-errors=0", "-I", args.include, src],
                           capture_output=True, text=True)
    failed = set()
    for m in re.finditer(r"surface\.cpp:(\d+):\d+: error", r.stderr):
        line = int(m[1])
        if line not in where:
            print(r.stderr[:4000])
            print("numpy_surface: an error outside the using-declarations: the headers do not compile")
            return 1
        failed.add(where[line])
    if r.returncode != 0 and not failed:
        print(r.stderr[:4000])
        return 1
    floors = dict(kv.split("=") for kv in args.min.split(",") if kv)
    status = 0
    for g in GROUPS:
        group = [n for gg, n in names if gg == g]
        missing = [n for n in group if (g, n) in failed]
        have = len(group) - len(missing)
        print(f"numpy_surface: {g:6} {have:3} of {len(group)}")
        if missing:
            print("  missing: " + " ".join(missing))
        if g in floors and have < int(floors[g]):
            print(f"numpy_surface: {g} fell below its floor of {floors[g]}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
