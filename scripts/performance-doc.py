#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/performance.md, generated: the prose of docs/performance.md.in with every figure taken from one
benchmark run's JSON lines (docs/performance.jsonl, written by `scripts/bench.sh --gate --write-docs`).

    python3 scripts/performance-doc.py render RESULTS.jsonl   RESULTS into docs/performance.jsonl, then
                                                             docs/performance.md rendered from them
    python3 scripts/performance-doc.py table RESULTS.jsonl    the run's table alone (any tree), to print
    python3 scripts/performance-doc.py check [ROOT]           the test (ctest tst_performance_figures)

Placeholders in the template: {{gate-table}} (one row per figure of the run), {{run}} (the commit, date,
preset and machine of the run), {{BENCH.FIGURE}} (its value and unit, e.g. "0.390 ms"),
{{BENCH.FIGURE:target}} (the target it was judged against, e.g. "<= 0.5 ms") and {{BENCH.FIGURE:verdict}}.

A *figure* is a number followed by a unit of measurement (FIGURE below: "0.39 ms", "1,200 requests",
"12 %", "1.3 x"). `check` fails when
  - docs/performance.md is not what the template and the committed results render to (a figure edited
    by hand, or a template changed without rendering);
  - the template holds a figure outside a placeholder that docs/performance-figures.allow does not list
    with a reason (a figure with no generating command);
  - a result has no command, or the run is not one committed tree (commit with "+changes", or several);
  - a placeholder names a figure the run does not have.
"""
import json
import os
import re
import sys

UNITS = ["ms", "s", "µs", "us", "ns", "MiB", "KiB", "GiB", "MB", "KB", "GB", "B", "%", "x", "×", "1/s", "gen/s", "Hz",
         "requests", "beats", "generations", "attempts", "rows", "frames", "minutes", "hours", "days"]
NUMBER = r"(?<![\w.,/-])\d[\d,]*(?:\.\d+)?"
FIGURE = re.compile(NUMBER + r"\s?(?:" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) +
                    r")(?![\w/])")
PLACEHOLDER = re.compile(r"\{\{([^{}]+)\}\}")
TEMPLATE, RESULTS, OUTPUT, ALLOW = ("docs/performance.md.in", "docs/performance.jsonl", "docs/performance.md",
                                    "docs/performance-figures.allow")
KNOWN = "tests/bench/known-misses.txt"


def fail(message):
    sys.exit(f"performance-doc: {message}")


def read(path):
    try:
        return open(path, encoding="utf-8").read()
    except OSError as error:
        fail(f"{path}: {error.strerror}; run from the repository root, or render with `bash scripts/bench.sh --render-docs`")


def load_results(path, committed=True):
    rows = [json.loads(line) for line in read(path).splitlines() if line.strip()]
    if not rows:
        fail(f"{path}: no results; run `bash scripts/bench.sh --gate --write-docs` on a committed tree")
    for r in rows:
        if not r.get("command"):
            fail(f"{path}: {r.get('bench')} {r.get('figure')} has no command: every figure needs the one that made it")
    commits = {r.get("commit") for r in rows}
    if committed and len(commits) != 1 or not next(iter(commits)) or "+" in next(iter(commits)) or "unknown" in commits:
        fail(f"{path}: the results come from {sorted(map(str, commits))}, not one committed tree: "
             "commit your changes and run `bash scripts/bench.sh --gate --write-docs` again")
    return rows


def shown(value):
    if float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:.3f}" if abs(value) < 1000 else f"{value:,.0f}"


def gate_table(rows, known):
    out = ["| benchmark | figure | value | target | verdict | command |", "|---|---|---|---|---|---|"]
    for r in rows:
        what = f" ({r['what']})" if r.get("what") else ""
        out.append(f"| {r['bench']} | `{r['figure']}`{what} | {shown(r['value'])} {r['unit']} | "
                   f"{r['target'] or 'reported'} | {verdict(r, known)} | `{r['command']}` |")
    return "\n".join(out)


def verdict(r, known):
    if r["met"] is None:
        return ""
    if r["met"]:
        return "met"
    return "**missed**" + (" (known)" if (r["bench"], r["figure"]) in known else "")


def read_known(root):
    known = set()
    for line in read(os.path.join(root, KNOWN)).splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            known.add(tuple(words[:2]))
    return known


def render(template, rows, known):
    by_name = {f"{r['bench']}.{r['figure']}": r for r in rows}
    first = rows[0]

    def one(match):
        key = match.group(1).strip()
        if key == "gate-table":
            return gate_table(rows, known)
        if key == "run":
            return (f"commit `{first['commit']}`, {first['date']}, `{first['preset']}` preset, this 2-core machine")
        name, _, part = key.partition(":")
        r = by_name.get(name)
        if r is None:
            fail(f"{TEMPLATE}: {{{{{key}}}}} names no figure of the run; the run has: {', '.join(sorted(by_name))}")
        if part == "":
            return f"{shown(r['value'])} {r['unit']}"
        if part == "target":
            return f"{r['target']} {r['unit']}" if r["target"] else "reported"
        if part == "verdict":
            return verdict(r, known) or "reported"
        fail(f"{TEMPLATE}: {{{{{key}}}}}: want {{{{bench.figure}}}}, {{{{bench.figure:target}}}} or {{{{bench.figure:verdict}}}}")

    return PLACEHOLDER.sub(one, template)


def read_allow(path):
    allowed = {}
    for number, line in enumerate(read(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        text, sep, reason = line.partition(" # ")
        if not sep or not reason.strip() or not text.strip():
            fail(f"{path}:{number}: want 'the figure as written  # why it is not a measurement'")
        allowed[text.strip()] = reason.strip()
    return allowed


def unlisted_figures(template, allowed):
    """Figures written in the template outside placeholders, less those the allow-list gives a reason for."""
    found = []
    for number, line in enumerate(template.splitlines(), 1):
        bare = PLACEHOLDER.sub(" ", line)
        for figure in FIGURE.finditer(bare):
            if figure.group(0) not in allowed:
                found.append(f"{TEMPLATE}:{number}: '{figure.group(0)}'")
    return found


def check(root):
    template = read(os.path.join(root, TEMPLATE))
    allowed = read_allow(os.path.join(root, ALLOW))
    problems = unlisted_figures(template, allowed)
    unused = [a for a in allowed if a not in PLACEHOLDER.sub(" ", template)]
    problems += [f"{ALLOW}: '{a}' is not in the template any more: remove its line" for a in unused]
    expected = render(template, load_results(os.path.join(root, RESULTS)), read_known(root))
    if read(os.path.join(root, OUTPUT)) != expected:
        problems.append(f"{OUTPUT} is not what {TEMPLATE} and {RESULTS} render to: edit the template, then run "
                        "`bash scripts/bench.sh --render-docs` (or measure: `bash scripts/bench.sh --gate --write-docs`)")
    for p in problems:
        print(p)
    if problems:
        print(f"performance-doc: {len(problems)} problem(s); a figure in {OUTPUT} comes from a placeholder the run fills "
              f"(with its command), or is listed in {ALLOW} with why it is not a measurement")
        return 1
    print(f"performance-doc: {OUTPUT} is rendered from {RESULTS}; {len(allowed)} allow-listed prose figures")
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        return check(sys.argv[2] if len(sys.argv) > 2 else ".")
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        print(gate_table(load_results(sys.argv[2], committed=False), read_known(".")))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "render":
        rows = load_results(sys.argv[2])
        if os.path.abspath(sys.argv[2]) != os.path.abspath(RESULTS):
            with open(RESULTS, "w", encoding="utf-8") as out:
                out.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        text = render(read(TEMPLATE), rows, read_known("."))
        open(OUTPUT, "w", encoding="utf-8").write(text)
        print(f"performance-doc: {OUTPUT} rendered from {sys.argv[2]} ({len(rows)} figures, commit {rows[0]['commit']})")
        return 0
    print(__doc__.split("\n\n")[1])
    return 2


if __name__ == "__main__":
    sys.exit(main())
