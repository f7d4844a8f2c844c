#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The folders of core/ and which others each includes (docs/architecture.md, "Folders and their
# includes"). Prints one line per folder; exits 1 when two folders include each other, directly or
# around a circle, naming a file that makes each edge of it. A folder's sub-folders count as the folder
# (core/dialects/gemini/ is dialects). The dialect folders (core/dialects/<name>/) include no other
# dialect, except the bases declared in DIALECT_BASES below; a dialect that does exits 1 too.
# It checks the folders above core/ too (BOUNDARIES below): the console's views and models reach the
# engine through its connection (pipeline/engineconnection.h), never a store/ or runtime/ header, and
# only the console's program includes the console. A file that crosses exits 1, named.
# ctest runs it as tst_core_folders.
#   python3 scripts/core-includes.py [CORE_DIR]
import os
import re
import sys

core = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core")
folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)) and d != "translations")
# A dialect that builds on another's format (DashScope's compatible mode is OpenAI's Chat Completions).
DIALECT_BASES = {"dashscope": {"openai"}}


def sources(folder):
    """(path below core/, text) of every source in the folder and its sub-folders."""
    for dirpath, _, names in sorted(os.walk(os.path.join(core, folder))):
        for name in sorted(names):
            if name.endswith((".h", ".cpp")):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, core), open(path, encoding="utf-8").read()


edges, why, crossings = {f: set() for f in folders}, {}, []
for folder in folders:
    for rel, text in sources(folder):
        for other in re.findall(r'#include "([a-z]+)/', text):
            if other != folder and other in edges:
                edges[folder].add(other)
                why.setdefault((folder, other), f"core/{rel}")
        parts = rel.split(os.sep)
        if folder == "dialects" and len(parts) > 2:
            own = parts[1]
            for other in re.findall(r'#include "(?:dialects/)?([a-z]+)/[a-z]+\.h"', text):
                if other != own and os.path.isdir(os.path.join(core, "dialects", other)) and other not in DIALECT_BASES.get(own, set()):
                    crossings.append(f"core/{rel} includes the {other} dialect")


# (folder above core/, the folders of core/ and ui/ it may not include, why). ui/tour/ is the screenshot
# tour, a tool with a library of its own outside the product's (docs/architecture.md): it drives an
# engine it makes, so it is not one of them.
UI_ONLY = ("views", "models", "tour")
BOUNDARIES = [
    ("ui/views", ("store", "runtime"), "a view reaches the engine through EngineConnection (replays, history, export)"),
    ("ui/models", ("store", "runtime"), "a model reads HistoryReader and value types, never the store or the runtime"),
    ("app/cli", UI_ONLY, "the headless programs link no Widgets"),
    ("app/engine", UI_ONLY, "the headless programs link no Widgets"),
    ("app/sim", UI_ONLY, "the headless programs link no Widgets"),
    ("core", UI_ONLY, "core links only Qt Core, Network, Sql (docs/architecture.md)"),
]


def crossings_above(root):
    """(file, header, why) of every include that crosses a boundary in BOUNDARIES."""
    out = []
    for folder, banned, why in BOUNDARIES:
        top = os.path.join(root, folder)
        if not os.path.isdir(top):
            out.append((folder, "(missing)", "the folder is gone: update BOUNDARIES in scripts/core-includes.py"))
            continue
        for dirpath, _, names in sorted(os.walk(top)):
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    path = os.path.join(dirpath, name)
                    for header in re.findall(r'#include "([a-z]+/[a-z_]+\.h)"', open(path, encoding="utf-8").read()):
                        if header.split("/")[0] in banned:
                            out.append((os.path.relpath(path, root), header, why))
    return out


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
if crossings:
    print("\ncore-includes.py: a dialect includes another (each is one folder; declare a base in DIALECT_BASES):", file=sys.stderr)
    for c in crossings:
        print("  " + c, file=sys.stderr)
if circles:
    print("\ncore-includes.py: folders that include each other (each edge: a file that makes it):", file=sys.stderr)
    for c in circles:
        print("  " + " -> ".join(c) + "   (" + ", ".join(why[(x, y)] for x, y in zip(c, c[1:])) + ")", file=sys.stderr)
above = crossings_above(os.path.join(core, ".."))
if above:
    print("\ncore-includes.py: files that include across a boundary (use the interface named, or move the code):", file=sys.stderr)
    for path_, header, why in above:
        print(f"  {path_} includes {header}: {why}", file=sys.stderr)
if circles or crossings or above:
    sys.exit(1)
print("\nno circles between the folders of core/; no dialect includes another but its declared base")
print("ui/views and ui/models include no store/ or runtime/ header; only app/gui and app/tour include ui/; core includes no ui/")
