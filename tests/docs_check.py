#!/usr/bin/env python3
"""Checks that keep the user docs true to the code (CTest entries docs_*; stdlib only).

  docs_check.py api         every function and type a public header declares is listed in docs/api.md
  docs_check.py history     no work-log references in the product tree (they go in CHANGELOG.md)
  docs_check.py lengths     README.md and bench/README.md stay under 200 lines
  docs_check.py env         the NDFUSE_* table of docs/env-vars.md is src/support/env.cpp's, and no
                            file but env.cpp reads an NDFUSE_* variable itself
  docs_check.py blocks      every ```cmake block of README.md and docs/ is what tests/consumer/ builds
                            with (install_consumer runs it); every block names its language
  docs_check.py snippets DIR [PAGE...]
                            writes each ```cpp block of the pages as DIR/<page>_<n>.cpp, a program (a
                            block without main is wrapped in one) and prints their paths, for CMake to
                            build and CTest to run

The header scan is a small C++ scanner, not a compiler: it strips comments, preprocessor lines and
literals, tracks namespace, class and block scopes by their braces, and takes the name before the first
top-level parenthesis of each declaration at namespace scope or in a public section of a class.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = os.path.join(ROOT, "include", "ndfuse")
# Declared in public headers for the library's own use; not part of what a user calls.
INTERNAL = {"ndfuse::ir", "ndfuse::detail"}
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "alignof",
            "noexcept", "requires", "explicit", "operator", "throw", "new", "delete"}


def expand_declaring_macros(text):
    """A line `NDFUSE_UNARY(exp)` becomes `void exp();` when the macro declares a function named by its
    first parameter; other macro invocations at the start of a line are dropped."""
    macros = {}
    for m in re.finditer(r"#define\s+(\w+)\((\w+)[^)]*\)((?:.*\\\n)*.*)", text):
        macros[m[1]] = re.search(r"\b" + m[2] + r"\s*\(", m[3]) is not None

    def replace(m):
        if m[1] not in macros:
            return m[0]
        first = m[2].split(",")[0].strip()
        return f"void {first}();" if macros[m[1]] and re.fullmatch(r"\w+", first) else ""
    return re.sub(r"^[ \t]*(NDFUSE_\w+)\(([^)\n]*)\)[ \t]*;?", replace, text, flags=re.M)


def strip(text):
    text = expand_declaring_macros(re.sub(r"//[^\n]*", "", text))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\])*'", "''", text)
    text = re.sub(r"^[ \t]*#(?:.*\\\n)*.*", "", text, flags=re.M)  # directives, continuations included
    return text


def drop_templates(stmt):
    """The statement without its template parameter lists (angle brackets may hold parentheses)."""
    out, depth = [], 0
    for i, c in enumerate(stmt):
        if c == "<" and (depth or re.search(r"template\s*$", stmt[:i]) or re.search(r"[\w:>]\s*$", stmt[:i])):
            if not re.search(r"operator\s*$|<\s*$", stmt[:i]):
                depth += 1
                continue
        if c == ">" and depth:
            depth -= 1
            continue
        if not depth:
            out.append(c)
    return "".join(out)


def declared_name(stmt):
    """The function a declaration statement declares (name, is_operator), or None."""
    s = " ".join(stmt.split())
    if not s or re.match(r"(using|typedef|friend|return|static_assert|template\s*$|public|private|protected)\b", s):
        return None
    m = re.search(r"\boperator\s*(\(\)|[^\s(]+)\s*\(", s)
    if m:
        return ("operator" + m[1], True)
    s = drop_templates(s)
    depth, i = 0, 0
    while i < len(s):
        if s[i] == "(":
            head = s[:i].rstrip()
            m = re.search(r"(~?[A-Za-z_]\w*)$", head)
            if not m or m[1] in KEYWORDS:
                return None
            # A variable initialized with parentheses has no type-and-name before it; a call or a
            # constructor's initializer list has ':' or '=' first.
            if "=" in head or re.search(r"[^:]:[^:]", head + " "):
                return None
            return (m[1], False)
        i += 1
    return None


def scan(path):
    """[(kind, qualified name)] of a header: kind is 'function', 'member' (Class.name) or 'type'."""
    text = strip(open(path).read())
    found = []
    # Each scope: ("namespace", name) | ("class", name, public?) | ("block",)
    scopes = [("namespace", "")]
    stmt = ""
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            head = " ".join(stmt.split())
            m_ns = re.match(r"^(inline\s+)?namespace\s*([\w:]*)\s*$", head)
            m_cls = re.search(r"(?:^|\s|>)(class|struct|union)\s+(\w+)[^()]*$", head)
            m_enum = re.match(r"^enum\s+(class\s+)?(\w+)", head)
            scope_kind = scopes[-1][0]
            at_decl_scope = scope_kind == "namespace" or (scope_kind == "class" and scopes[-1][2])
            if m_ns:
                scopes.append(("namespace", m_ns[2]))
            elif m_cls and "(" not in head.split(m_cls[2])[0] and at_decl_scope:
                found.append(("type", qualify(scopes, m_cls[2])))
                scopes.append(("class", m_cls[2], m_cls[1] != "class"))
            elif m_enum and at_decl_scope:
                found.append(("type", qualify(scopes, m_enum[2])))
                scopes.append(("block",))
            else:
                if at_decl_scope:
                    record(found, scopes, head)
                scopes.append(("block",))
            stmt = ""
        elif c == "}":
            scopes.pop()
            stmt = ""
            # `};` and `} name;` close a class or an initializer
        elif c == ";":
            head = " ".join(stmt.split())
            scope_kind = scopes[-1][0]
            if scope_kind == "namespace" or (scope_kind == "class" and scopes[-1][2]):
                m_using = re.match(r"^using\s+(\w+)\s*=", head)
                m_fwd = re.match(r"^(class|struct)\s+(\w+)$", head)
                if m_using:
                    found.append(("type", qualify(scopes, m_using[1])))
                elif not m_fwd:
                    record(found, scopes, head)
            stmt = ""
        elif c == ":" and scopes[-1][0] == "class" and re.search(r"\b(public|private|protected)\s*$", stmt):
            access = re.search(r"\b(public|private|protected)\s*$", stmt)[1]
            scopes[-1] = ("class", scopes[-1][1], access == "public")
            stmt = ""
        else:
            stmt += c
        i += 1
    return found


def qualify(scopes, name):
    parts = []
    for s in scopes:
        if s[0] == "namespace" and s[1]:
            parts.append(s[1])
        elif s[0] == "class":
            parts.append(s[1])
    return "::".join(parts + [name])


def record(found, scopes, head):
    if head.startswith((",", ":")):  # the rest of a constructor's initializer list
        return
    got = declared_name(head)
    if not got:
        return
    name, _ = got
    if scopes[-1][0] == "class":
        cls = scopes[-1][1]
        if name in (cls, "~" + cls):
            return
        found.append(("member", qualify(scopes[:-1], cls) + "." + name))
    else:
        found.append(("function", qualify(scopes, name)))


def public_api():
    """{qualified name: kind} of every public header, internal namespaces left out."""
    api = {}
    for name in sorted(os.listdir(HEADERS)):
        if name.endswith(".hpp"):
            for kind, qname in scan(os.path.join(HEADERS, name)):
                if any(qname.startswith(ns + "::") for ns in INTERNAL):
                    continue
                api.setdefault(qname, kind)
    return api


def listed(api_md):
    """The names docs/api.md lists: `nf::a::b`, `nf::array.method` and `x.method` spellings in backticks."""
    text = open(api_md).read()
    names = set()
    for code in re.findall(r"`([^`]+)`", text):
        for m in re.finditer(r"\bnf::((?:\w+::)*(?:operator\S+?|~?\w+))(?:\.(\w+))?", code):
            base = "ndfuse::" + m[1]
            names.add(base + ("." + m[2] if m[2] else ""))
        for m in re.finditer(r"^(\w+)\.(\w+)", code):  # x.reshape(...) stands for nf::array.reshape
            names.add(f"ndfuse::array.{m[2]}")
    return names


def check_api():
    api = public_api()
    names = listed(os.path.join(ROOT, "docs", "api.md"))
    # Operators are listed in prose (docs/api.md, "The array"), not one by one.
    missing = [q for q in sorted(api) if q not in names and not re.search(r"(^|[.:])operator", q)]
    if missing:
        print(f"docs/api.md does not list {len(missing)} public name(s) declared in include/ndfuse/:")
        for q in missing:
            print(f"  {api[q]:8} {q.replace('ndfuse::', 'nf::', 1)}")
        return 1
    print(f"docs/api.md lists all {len(api)} public names of include/ndfuse/")
    return 0


# The product tree: history belongs in CHANGELOG.md and commit messages, findings in research/.
# The acceptance grep of the docs, spelled in pieces so that this file does not match itself.
HISTORY = re.compile(r"\b" + "sess" + r"ions?\b|" + "iss" + r"ue [0-9]", re.I)
PRODUCT = ("README.md", "docs", "bench", "src", "jit", "include", "tests", "scripts", "examples")


def check_history():
    bad = []
    for top in PRODUCT:
        path = os.path.join(ROOT, top)
        files = [path] if os.path.isfile(path) else [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]
        for f in sorted(files):
            try:
                text = open(f, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.split("\n"), 1):
                if HISTORY.search(line):
                    bad.append(f"{os.path.relpath(f, ROOT)}:{n}: {line.strip()[:120]}")
    if bad:
        print("history in the product tree (it belongs in CHANGELOG.md or a commit message):")
        print("\n".join("  " + b for b in bad))
        return 1
    print("no work-log references in the product tree")
    return 0


def check_lengths():
    status = 0
    for rel in ("README.md", os.path.join("bench", "README.md")):
        n = sum(1 for _ in open(os.path.join(ROOT, rel)))
        ok = n < 200
        print(f"{rel}: {n} lines ({'ok' if ok else 'over the 200 allowed'})")
        status |= not ok
    return status


def doc_pages():
    docs = os.path.join(ROOT, "docs")
    return [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def check_blocks():
    consumer = open(os.path.join(ROOT, "tests", "consumer", "CMakeLists.txt")).read()
    consumer_lines = {" ".join(line.split("#")[0].split()) for line in consumer.splitlines()}
    bad = []
    for page in doc_pages():
        rel = os.path.relpath(page, ROOT)
        text = open(page).read()
        for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M):
            if not lang and page.endswith("architecture.md"):
                continue  # the pipeline drawing
            if not lang:
                bad.append(f"{rel}: a code block without a language (cpp, sh or cmake)")
            if lang == "cmake":
                for line in block.splitlines():
                    code = " ".join(line.split("#")[0].split())
                    if code and code not in consumer_lines:
                        bad.append(f"{rel}: `{code}` is not in tests/consumer/CMakeLists.txt")
    if bad:
        print("\n".join(bad))
        return 1
    print("every cmake block is what tests/consumer builds with")
    return 0


WRAP_HEAD = """// Generated by tests/docs_check.py from {page}, block {n}. Edit the page, not this file.
#include <complex>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <ndfuse/ndfuse.hpp>

"""


def snippets(out_dir, pages):
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for page in pages:
        rel = os.path.relpath(page, ROOT)
        stem = re.sub(r"\W+", "_", os.path.splitext(rel)[0]).strip("_").lower()
        blocks = re.findall(r"^```cpp\n(.*?)^```", open(page).read(), flags=re.S | re.M)
        for n, block in enumerate(blocks, 1):
            head = WRAP_HEAD.format(page=rel, n=n)
            if re.search(r"\bint\s+main\s*\(", block):
                body = head + block
            else:
                indented = "".join("  " + line if line.strip() else line for line in block.splitlines(True))
                body = head + "int main() {\n" + indented + "  return 0;\n}\n"
            path = os.path.join(out_dir, f"{stem}_{n}.cpp")
            old = open(path).read() if os.path.exists(path) else None
            if old != body:  # unchanged files keep their time stamps, so nothing rebuilds
                with open(path, "w") as f:
                    f.write(body)
            written.append(path)
    print(";".join(written), end="")
    return 0


def env_declarations():
    """(name, type, default) of each row of src/support/env.cpp's table."""
    text = open(os.path.join(ROOT, "src", "support", "env.cpp"), encoding="utf-8").read()
    rows = re.findall(r'\{var::\w+,\s*"(NDFUSE_\w+)",\s*"([^"]*)",\s*"([^"]*)"', text)
    return rows


def check_env():
    declared = {name for name, _, _ in env_declarations()}
    page = open(os.path.join(ROOT, "docs", "env-vars.md"), encoding="utf-8").read()
    library_part = page.split("## Used by the build and the tests")[0]
    rows = {m[1]: (m[2].replace("`", "").strip(), m[3].replace("`", "").strip())
            for m in re.finditer(r"^\| `(NDFUSE_\w+)` \|([^|]*)\|([^|]*)\|", library_part, re.M)}
    documented = set(rows)
    problems = []
    for name, values, default in env_declarations():
        if name in rows and rows[name] != (values, default):
            problems.append(f"{name}: docs/env-vars.md says values {rows[name][0]!r}, default {rows[name][1]!r}; "
                            f"src/support/env.cpp {values!r}, {default!r}")
    for name in sorted(declared - documented):
        problems.append(f"{name} is declared in src/support/env.cpp but not documented in docs/env-vars.md")
    for name in sorted(documented - declared):
        problems.append(f"{name} is documented in docs/env-vars.md but not declared in src/support/env.cpp")
    # Read once, in one place: no other library file calls getenv on an NDFUSE_* name.
    for folder in ("src", "jit"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                path = os.path.join(dirpath, f)
                if not f.endswith((".cpp", ".hpp", ".cu", ".cuh")) or path.endswith(os.path.join("support", "env.cpp")):
                    continue
                for m in re.finditer(r'getenv\("(NDFUSE_\w+)"', open(path, encoding="utf-8").read()):
                    problems.append(f"{os.path.relpath(path, ROOT)} reads {m[1]} itself (use support/env.hpp)")
    for p in problems:
        print("docs_check env:", p)
    if not problems:
        print(f"docs_check env: {len(declared)} variables, declared once and documented")
    return 1 if problems else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    what = argv[1]
    if what == "api":
        return check_api()
    if what == "history":
        return check_history()
    if what == "lengths":
        return check_lengths()
    if what == "blocks":
        return check_blocks()
    if what == "env":
        return check_env()
    if what == "snippets":
        return snippets(argv[2], argv[3:])
    if what == "list-api":  # for writing docs/api.md: every public name, with the header it is in
        for q, kind in sorted(public_api().items()):
            print(kind, q)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
