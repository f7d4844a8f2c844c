#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# No wall clock for durations (docs/architecture.md, "Wall time and durations"): finds every read of the wall clock in the
# product's sources (core/, ui/, app/) and fails on a file that reads it more often than the allow list
# says. An entry is a file that needs the date (a record's or a log line's timestamp, a time shown to a
# person, a date in an HTTP header), its number of reads and why. Durations, intervals, rate windows and
# silence checks use QElapsedTimer, QDeadlineTimer or std::chrono::steady_clock: a step of the wall
# clock (NTP, a person setting the time) must not change them. An entry whose file now reads the clock
# less often fails too, so the list only ever shrinks. ctest runs it as tst_wall_clock.
#   python3 scripts/wall-clock.py [--allow scripts/wall-clock.allow] [SOURCE_DIR]
import os
import re
import sys

READS = re.compile(
    r"QDateTime::currentDateTime(Utc)?\s*\(|QDateTime::currentM?Secs(Since)?Epoch\s*\(|QDateTime::currentSecsSinceEpoch\s*\("
    r"|QDate::currentDate\s*\(|QTime::currentTime\s*\(|system_clock|high_resolution_clock|\bgettimeofday\s*\("
    r"|CLOCK_REALTIME|(?<![\w:.>])time\s*\(\s*(nullptr|NULL|0)?\s*\)|std::time\s*\(|\bclock\s*\(\s*\)")


def reads_in(path):
    n, lines = 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            code = line.split("//", 1)[0]
            found = len(READS.findall(code))
            if found:
                n += found
                lines.append(number)
    return n, lines


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    allow_path = os.path.join(here, "wall-clock.allow")
    if "--allow" in argv:
        i = argv.index("--allow")
        allow_path = argv[i + 1]
        del argv[i:i + 2]
    root = argv[0] if argv else os.path.join(here, "..")
    allowed = {}
    for number, line in enumerate(open(allow_path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or not parts[1].isdigit():
            print(f"{allow_path}:{number}: expected '<file> <reads> <why it needs the date>'")
            return 1
        allowed[parts[0]] = int(parts[1])
    failures, total = [], 0
    for top in ("core", "ui", "app"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                n, lines = reads_in(path)
                total += n
                if n > allowed.get(rel, 0):
                    failures.append(f"{rel}: {n} wall-clock read(s) (lines {', '.join(map(str, lines))}), {allowed.get(rel, 0)} allowed. "
                                    "For a duration use QElapsedTimer, QDeadlineTimer or std::chrono::steady_clock; if it truly "
                                    f"needs the date, add or raise its entry in {os.path.relpath(allow_path, root)} saying why")
                elif rel in allowed and n < allowed[rel]:
                    failures.append(f"{rel}: {n} wall-clock read(s), {allowed[rel]} allowed: lower its entry in "
                                    f"{os.path.relpath(allow_path, root)} to {n}")
    for rel in sorted(allowed):
        if not os.path.exists(os.path.join(root, rel)):
            failures.append(f"{rel}: listed in {os.path.relpath(allow_path, root)} but no longer exists: remove the entry")
    for f in failures:
        print("FAIL tst_wall_clock: " + f)
    if not failures:
        print(f"PASS tst_wall_clock: {total} wall-clock reads in {len(allowed)} files, each one allowed for a date")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
