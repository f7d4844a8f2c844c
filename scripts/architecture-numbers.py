#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The architecture's numbers (docs/architecture.md, "The numbers"), regenerated from the tree rather
# than counted by hand, so a before and an after are the same measurement:
#
#   python3 scripts/architecture-numbers.py [--list] [ROOT]
#
#   dialect branches      files of the product that branch on the wire dialect: `case WireDialect::`
#                         arms of a switch, and `== / != WireDialect::` comparisons
#   policy spellings      files that spell the storyboard policy's JSON by hand (its field names as
#                         string literals: "primary_ms", "primary_timeout", "total_budget", ...; a
#                         file with only "fallback_provider" names an attempt's field, not a policy)
#   ui reaching inside    ui/ files that include a store/ or runtime/ header or name `Store *`
#   mutable statics       process-wide mutable objects in core/ (function-local or namespace `static`
#                         that is neither const, constexpr, atomic nor a mutex, or a const smart
#                         pointer to a non-const object): the globals that can be written after start-up
#   longest function      the longest function with no exemption (scripts/longest-functions.py, which
#                         exempts none)
#   base-url rewrites     the lines between the settings file and the request that assign a
#                         provider's base URL (each a hop where the URL may change)
#
# --list prints the files and lines behind each number. Heuristics, stated as such: each number names
# what it matches, so a reader can check it against --list.
import os
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
LIST = "--list" in sys.argv
ROOT = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PRODUCT = ("core", "ui", "app")


def sources(*roots):
    for top in roots:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, ROOT), open(path, encoding="utf-8").read()


def code_only(text):
    """The text without // comments (string literals kept: some numbers count them)."""
    return re.sub(r"//[^\n]*", "", text)


def dialect_branches():
    files = {}
    for path, text in sources(*PRODUCT):
        body = code_only(text)
        arms = len(re.findall(r"\bcase\s+WireDialect::", body))
        compares = len(re.findall(r"[=!]=\s*WireDialect::", body))
        switches = len(re.findall(r"\bswitch\s*\((?:[^()]|\([^()]*\))*\)\s*\{\s*case\s+WireDialect::", body))
        if arms or compares:
            files[path] = (arms, compares, switches)
    return files


POLICY_KEYS = r'"(primary_ms|fallback_ms|budget_ms|primary_timeout|fallback_timeout|fallback_provider|total_budget)"'


def policy_spellings():
    out = {}
    for path, text in sources(*PRODUCT):
        body = code_only(text)
        keys = sorted(set(re.findall(POLICY_KEYS, body)))
        # A policy is named with its routing beside its timeouts; an attempt's own fields are not.
        if set(keys) - {"fallback_provider"} and re.search(r'"(primary|fallback|policy)"', body):
            out[path] = keys
    return out


def ui_reaching_inside():
    out = {}
    for path, text in sources("ui"):
        hits = re.findall(r'#include "((?:store|runtime)/[a-z]+\.h)"', text) + (["Store *"] if re.search(r"\bStore\s*\*", text) else [])
        if hits:
            out[path] = sorted(set(hits))
    return out


def mutable_statics():
    out = []
    pattern = re.compile(r"^\s*static\s+(?!const\b|constexpr\b|inline\b|std::atomic|QMutex\b|thread_local\b)([\w:<>, ]+?)\s+(\w+)\s*(?:\{[^}]*\}|=[^;(]*)?;", re.M)
    # A const handle to a mutable object is a mutable object too: `static const std::shared_ptr<T> x`.
    handle = re.compile(r"^\s*static\s+const\s+(std::(?:shared_ptr|unique_ptr)<(?!const\b)[\w:]+>)\s+(\w+)\s*(?:\{[^}]*\}|=[^;]*)?;", re.M)
    for path, text in sources("core"):
        body = code_only(text)
        for m in sorted([*pattern.finditer(body), *handle.finditer(body)], key=lambda m: m.start()):
            line = body.count("\n", 0, m.start()) + 1
            out.append(f"{path}:{line}  {m.group(1).strip()} {m.group(2)}")
    return out


def longest_function():
    script = os.path.join(ROOT, "scripts", "longest-functions.py")
    text = subprocess.run([sys.executable, script, "--top", "60"], cwd=ROOT, capture_output=True, text=True).stdout
    for line in text.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)\s+(\S+)", line)
        if m:
            return int(m.group(1)), f"{m.group(2)} {m.group(3)}"
    return 0, "(none)"


def base_url_rewrites():
    out = []
    pattern = re.compile(r"\b(?:baseUrl|base_url)\s*=[^=]|setBaseUrl\(")
    for path, text in sources("core", "app"):
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(code_only(line)):
                out.append(f"{path}:{n}  {line.strip()}")
    return out


branches = dialect_branches()
policy = policy_spellings()
ui = ui_reaching_inside()
statics = mutable_statics()
longest = longest_function()
rewrites = base_url_rewrites()

print(f"dialect branches:   {len(branches)} files, {sum(b[2] for b in branches.values())} switches with "
      f"{sum(b[0] for b in branches.values())} arms, {sum(b[1] for b in branches.values())} comparisons")
print(f"policy spellings:   {len(policy)} files spell the storyboard policy's JSON")
print(f"ui reaching inside: {len(ui)} ui/ files include store/ or runtime/ headers or name Store *")
print(f"mutable statics:    {len(statics)} process-wide mutable objects in core/")
print(f"longest function:   {longest[0]} lines, {longest[1]} (no exemption)")
print(f"base-url rewrites:  {len(rewrites)} assignments to a provider's base URL in core/ and app/")
if LIST:
    print("\n# dialect branches")
    for path, (a, c, n) in sorted(branches.items()):
        print(f"  {path}: {n} switches, {a} arms, {c} comparisons")
    print("\n# policy spellings")
    for path, keys in sorted(policy.items()):
        print(f"  {path}: {' '.join(keys)}")
    print("\n# ui reaching inside")
    for path, hits in sorted(ui.items()):
        print(f"  {path}: {', '.join(hits)}")
    print("\n# mutable statics")
    for s in statics:
        print("  " + s)
    print("\n# base-url rewrites")
    for r in rewrites:
        print("  " + r)
