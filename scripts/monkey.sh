#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The console monkey (docs/console.md, "The monkey"): random real input on the real console — clicks,
# keys, context menus, dialogs accepted and rejected, resizes, palette switches — while the embedded
# engine runs outages under it. Fails on a crash or sanitizer report, a Qt warning that means a bug,
# or a GUI thread blocked for over --watchdog-ms (1 s). A failure prints the seed, how to replay it
# and the last 50 actions.
#   bash scripts/monkey.sh [--seconds N] [--seed S] [--engine URL] [--build DIR] [--lang en|ko] [--theme light|dark]
#                          [--watchdog-ms MS]
# The build tree defaults to build/dev (the sanitizer build; CI's harden.sh uses it too); the
# bullpen-monkey target is built there first if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-options.sh
build=build/dev
args=()
seed=7
seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --engine|--lang|--theme|--watchdog-ms) args+=("$1" "$2"); shift 2 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "monkey.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$build/tests/bullpen-monkey" ] || cmake --build "$build" --target bullpen-monkey
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# A session bus of its own where one can be had: desktop notifications go somewhere, and nothing of
# the desktop the script was started from is touched.
runner=()
command -v dbus-run-session > /dev/null && runner=(dbus-run-session --)
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "${runner[@]}" "$build/tests/bullpen-monkey" "${args[@]}" --seed "$seed" \
    --seconds "$seconds" --log "$log" || status=$?
if [ "$status" -ne 0 ]; then
    echo "monkey.sh: FAILED (exit $status) with seed $seed; replay: bash scripts/monkey.sh --seed $seed --seconds $seconds --build $build" >&2
    echo "monkey.sh: the last 50 actions:" >&2
    tail -n 50 "$log" >&2
fi
exit "$status"
