#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads a benchmark's log (its JSON figure lines) and the list of known misses; prints the missed
figures that are not listed and exits 1 when there is one, or when nothing was missed at all (the
program then failed for another reason than a target). Used by scripts/bench.sh --gate."""
import json
import sys


def known_misses(path):
    known = set()
    for line in open(path, encoding="utf-8"):
        words = line.split("#", 1)[0].split()
        if words:
            if len(words) != 2:
                sys.exit(f"{path}: '{line.strip()}': want 'bench figure  # why'")
            known.add(tuple(words))
    return known


def main():
    log, listed = sys.argv[1], known_misses(sys.argv[2])
    missed = []
    for line in open(log, encoding="utf-8", errors="replace"):
        if line.startswith('{"bench"'):
            r = json.loads(line)
            if r.get("met") is False:
                missed.append((r["bench"], r["figure"]))
    unlisted = [f"{b} {f}" for b, f in missed if (b, f) not in listed]
    if unlisted or not missed:
        print(", ".join(unlisted) if unlisted else "no missed figure: the program failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
