#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The longest functions of the product (core/, ui/, app/) and its dev support (devsupport/): each function body's lines, from the line of
# its opening brace to the line of its closing one, lambdas and local classes inside counted with it.
# No function is exempt, paint routines included (the timeline lays out apart from painting).
#
#   python3 scripts/longest-functions.py [--bound N] [--top K] [--allow FILE]
#
# Prints the K longest (default 15) and how many exceed 100 lines; exits 1 when a function exceeds the
# bound (default 120). Comments and string literals are skipped, so braces
# inside them do not count. With --allow (scripts/longest-functions.allow, CI), the functions listed
# there ("lines path name") may stay over the bound, but not grow: the list only shrinks as they are
# split.
import argparse
import os
import re
import sys

ROOTS = ("core", "ui", "app", "devsupport")
SCOPE_WORDS = {"namespace", "class", "struct", "union", "enum"}


def strip(text):
    """The source with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
            out.append(c)  # a digit separator: 60'000
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = strip(open(path, encoding="utf-8", errors="replace").read())
    stack = []  # (kind, start line, name) per open brace
    found = []
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            before = text[max(0, i - 400):i]
            head = before[max(before.rfind(";"), before.rfind("}"), before.rfind("{")) + 1:].strip()
            inside_function = any(kind == "function" for kind, _, _ in stack)
            words = set(re.findall(r"[A-Za-z_]\w*", head.split("(")[0]))
            if inside_function:
                kind = "block"
            elif words & SCOPE_WORDS and "(" not in head.split("{")[0].split(":")[0]:
                kind = "scope"
            elif re.search(r"\)\s*(const|override|final|noexcept|mutable|->[^{]*|:[^{]*|\s)*$", head) or head.endswith(")"):
                kind = "function"
            else:
                kind = "block"
            name = ""
            if kind == "function":
                m = re.search(r"([~\w:]+(?:operator\S*)?)\s*\(", head)  # the first call-like name: a constructor's, not its members'
                name = m.group(1) if m else head[:60]
            stack.append((kind, line, name))
        elif c == "}" and stack:
            kind, start, name = stack.pop()
            if kind == "function":
                found.append((line - start + 1, f"{path}:{start}", name))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bound", type=int, default=120)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--allow", help="functions still over the bound, each at most its listed length")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    every = []
    for root in ROOTS:
        for folder, _, files in os.walk(root):
            for f in files:
                if f.endswith((".cpp", ".h")):
                    every += functions(os.path.join(folder, f))
    every.sort(reverse=True)
    for lines, where, name in every[: args.top]:
        print(f"{lines:5d}  {where}  {name}")
    over100 = sum(1 for lines, _, _ in every if lines > 100)
    over = [(l, w, n) for l, w, n in every if l > args.bound]
    allowed = {}
    if args.allow:
        for entry in open(args.allow):
            if entry.strip() and not entry.startswith("#"):
                lines, path, name = entry.split()
                allowed[(path, name)] = int(lines)
    over = [(l, w, n) for l, w, n in over if l > allowed.get((w.split(":")[0], n), 0)]
    print(f"{len(every)} functions; {over100} over 100 lines; {len(over)} over {args.bound}")
    for lines, where, name in over:
        print(f"over the bound: {lines} lines  {where}  {name}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
