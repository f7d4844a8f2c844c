#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ThreadSanitizer over the threaded suites: the store writer and its leases, the WAL checkpointer,
# retention's purges on the writer thread, the analytics readers, the breakers, the generation service
# and the tuner's candidates on every core (threads that meet through Bullpen's own locks and atomics);
# and the engine threads with the local engine and the egress guard (also through a CONNECT proxy, two
# engines in one process), the hand-over of large answers to a pool thread, and the event stream (threads that meet through Qt's event queue, which
# tests/support/tsanqueue.cpp models for ThreadSanitizer). Fails on any report.
#
# Each suite of the second kind is run a second time with a data race seeded on purpose
# (core/engine/tsanseed.h, BULLPEN_TSAN_SEED=<site>) and must then be reported, at the seeded place: the
# model of Qt's queue orders what Qt orders, and this shows it does not order away a real race.
#
# Not here, and why (tests/README.md, "ThreadSanitizer"): the suites that start child processes
# (tst_engineservice, tst_durability, tst_cli, tst_proxy): clang 14's ThreadSanitizer runtime stops at
# QProcess's clone().
#   bash scripts/tsan.sh [BUILD_DIR, default build/tsan]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/tsan}
# Every suite of the stage, and the race seeded in it ("-": none; core/engine/tsanseed.h names the sites).
declare -A seeds=(
    [tst_store]=- [tst_retention]=- [tst_analytics]=- [tst_breakers]=- [tst_generationservice]=- [tst_tunebreaker]=-
    [tst_localengine]=engine [tst_hostileproviders]=parse [tst_alertstream]=stream [tst_enginecontext]=engine
)
mapfile -t suites < <(printf '%s\n' "${!seeds[@]}" | sort)
started=$SECONDS
cmake --preset tsan -B "$build" > /dev/null
cmake --build "$build" --parallel "$(nproc)" --target "${suites[@]}"
echo "tsan: built in $((SECONDS - started)) s"
export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=1 exitcode=66 second_deadlock_stack=1"
export QT_QPA_PLATFORM=offscreen
failed=()
for suite in "${suites[@]}"; do
    log="$build/$suite.tsan.log"
    if "$build/tests/$suite" > "$log" 2>&1 && ! grep -q "ThreadSanitizer" "$log"; then
        echo "tsan: $suite clean ($(grep -m1 '^Totals' "$log"))"
        # Under CI a skipped test fails the stage, as in test.sh: a suite that skips judged nothing there.
        # The one exception is a row of the other store backend: the stage runs the store's suites on
        # SQLite, and a "PostgreSQL only" row (a connection to lose) runs in their PostgreSQL variant in
        # test.sh (under ASan); it is listed, not counted.
        if [[ ${CI:-} == true ]] && grep '^SKIP' "$log" | grep -v 'PostgreSQL only' > /dev/null; then
            echo "tsan: $suite skipped tests under CI=true:" && grep '^SKIP' "$log"
            failed+=("$suite")
        elif grep -q '^SKIP' "$log"; then
            echo "tsan: $suite: rows of the PostgreSQL backend not run here (test.sh runs them):" && grep '^SKIP' "$log"
        fi
    else
        echo "tsan: $suite FAILED"
        grep -A40 -m1 "ThreadSanitizer\|FAIL!" "$log" || tail -40 "$log"
        failed+=("$suite")
    fi
done
# The seeded races: each must be reported, between the threads the site names (tsanseed.h).
for suite in "${suites[@]}"; do
    seed=${seeds[$suite]}
    [[ $seed == - ]] && continue
    log="$build/$suite.seeded.tsan.log"
    BULLPEN_TSAN_SEED=$seed "$build/tests/$suite" > "$log" 2>&1 || true
    if grep -q "WARNING: ThreadSanitizer: data race" "$log" && grep -q "Location is global 'bullpen::tsanseed::racedOn'" "$log"; then
        echo "tsan: $suite: the race seeded at \"$seed\" is reported"
    else
        echo "tsan: $suite: the race seeded at \"$seed\" was NOT reported: the model of Qt's queue hides real races"
        tail -20 "$log"
        failed+=("$suite (seed $seed)")
    fi
done
echo "tsan: build and run $((SECONDS - started)) s"
if ((${#failed[@]})); then
    echo "tsan: ${#failed[@]} suite(s) failed: ${failed[*]}" >&2
    exit 1
fi
echo "tsan: ${#suites[@]} suites, no report"
