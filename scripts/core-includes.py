#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The folders of core/ and which others each includes (docs/architecture.md, "Folders and their
# includes"). Prints one line per folder; exits 1 when two folders include each other, directly or
# around a circle, naming a file that makes each edge of it. ctest runs it as tst_core_folders.
#   python3 scripts/core-includes.py [CORE_DIR]
import os
import re
import sys

core = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core")
folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)) and d != "translations")
edges, why = {f: set() for f in folders}, {}
for folder in folders:
    for name in sorted(os.listdir(os.path.join(core, folder))):
        if not name.endswith((".h", ".cpp")):
            continue
        text = open(os.path.join(core, folder, name), encoding="utf-8").read()
        for other in re.findall(r'#include "([a-z]+)/', text):
            if other != folder and other in edges:
                edges[folder].add(other)
                why.setdefault((folder, other), f"core/{folder}/{name}")


def path(start, goal):
    """A chain of folders from start to goal, or None."""
    stack, seen = [[start]], {start}
    while stack:
        chain = stack.pop()
        for n in sorted(edges[chain[-1]]):
            if n == goal:
                return chain + [n]
            if n not in seen:
                seen.add(n)
                stack.append(chain + [n])
    return None


for folder in folders:
    print(f"{folder:10} -> {' '.join(sorted(edges[folder])) or '(nothing)'}")
circles = []
for a in folders:
    for b in sorted(edges[a]):
        back = path(b, a)
        if back:
            circles.append([a] + back)
if circles:
    print("\ncore-includes.py: folders that include each other (each edge: a file that makes it):", file=sys.stderr)
    for c in circles:
        print("  " + " -> ".join(c) + "   (" + ", ".join(why[(x, y)] for x, y in zip(c, c[1:])) + ")", file=sys.stderr)
    sys.exit(1)
print("\nno circles between the folders of core/")
