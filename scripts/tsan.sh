#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ThreadSanitizer over the suites whose threads meet through Bullpen's own synchronisation: the store
# writer and its leases, the WAL checkpointer, retention's purges on the writer thread, the analytics
# readers, the breakers and the generation service. Fails on any report.
#
# Not here, and why (tests/README.md, "ThreadSanitizer"): the suites whose threads meet through Qt's
# event queue (the engine threads, the egress relay, the local engine). Debian's Qt is not built with
# ThreadSanitizer, so the ordering a queued call gives is invisible to it and every value handed over
# that way is reported as a race; and suites that start child processes (QProcess's clone() is not
# supported by ThreadSanitizer's runtime). tests/support/tsanqueue.cpp (-DBULLPEN_TSAN_QT_QUEUE=ON) is
# a first model of Qt's event queue for ThreadSanitizer; not yet good enough to add those suites
# (tests/README.md, "ThreadSanitizer").
#   bash scripts/tsan.sh [BUILD_DIR, default build/tsan]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/tsan}
suites=(tst_store tst_retention tst_analytics tst_breakers tst_generationservice)
cmake --preset tsan -B "$build" > /dev/null
cmake --build "$build" --parallel "$(nproc)" --target "${suites[@]}"
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
        # test.sh and the ASan stage; it is listed, not counted.
        if [[ ${CI:-} == true ]] && grep '^SKIP' "$log" | grep -qv 'PostgreSQL only'; then
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
if ((${#failed[@]})); then
    echo "tsan: ${#failed[@]} suite(s) failed: ${failed[*]}" >&2
    exit 1
fi
echo "tsan: ${#suites[@]} suites, no report"
