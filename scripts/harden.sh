#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI's hardening stages, run after the README's test command (scripts/test.sh) has built `dev`:
#   1. fault soak: every simulator scenario through the whole pipeline; fails on any docs/contract.md §11 invariant;
#   2. cluster soak: PostgreSQL, three bullpen-engine instances, one killed and restarted mid-run
#      (scripts/cluster-soak.sh); fails on any invariant over the union; then again through HAProxy;
#   2b. replay round trip (scripts/replay-roundtrip.sh): every built-in scenario × provider × stream,
#      generated and replayed as recorded; fails on any that is not reproduced;
#   3. fuzzing: each libFuzzer target for a fixed time (scripts/fuzz.sh), failing on any finding;
#   4. sanitizers: the `asan` preset (ASan + UBSan, LeakSanitizer on) built with warnings as errors and
#      every test run under it but the source checks and the SDK wire check, failing on any report;
#   4b. the console monkey (scripts/monkey.sh) on the asan build: 5 minutes of random real input over
#      fixed seeds and one random seed, failing on a crash, a report, a bug's Qt warning or a blocked GUI;
#   5. ThreadSanitizer: the `tsan` preset over the threaded suites, Qt's event queue modelled
#      (scripts/tsan.sh; tests/README.md says which and why), failing on any report or on a seeded race
#      not reported.
# Each stage prints how long it took and the free disk space when it starts. With BULLPEN_PRUNE_BUILDS=1
# (.ci/run sets it; CI's clone is thrown away) each build tree is deleted after the last stage that uses it.
#   bash scripts/harden.sh [fuzz seconds per target, default 30] [soak count, default 600]
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds=${1:-30}
soak_count=${2:-600}

stage() {
    printf '\n=== %s (%s; %s free on disk)\n' "$1" "$(date -u +%H:%M:%S)" "$(df -h --output=avail . | tail -1 | tr -d ' ')"
    SECONDS=0
}
prune() {
    [ "${BULLPEN_PRUNE_BUILDS:-}" = 1 ] || return 0
    for tree in "$@"; do echo "harden.sh: deleting $tree, which no later stage uses (BULLPEN_PRUNE_BUILDS=1)"; rm -rf "$tree"; done
}
done_stage() { printf '=== %s took %d s\n' "$1" "$SECONDS"; }

stage "fault soak: $soak_count generations, every scenario"
soak_dir=$(mktemp -d)
build/dev/app/bullpen-cli soak --count "$soak_count" --scenario-mix all --concurrency 16 \
    --primary-timeout 2s --fallback-timeout 2s --data-dir "$soak_dir"
rm -rf "$soak_dir"
done_stage "fault soak"

stage "cluster soak: 1500 generations over three engines on PostgreSQL, one killed mid-run"
bash scripts/cluster-soak.sh 1500 build/dev
done_stage "cluster soak"

stage "cluster soak through HAProxy: the same, every request and the event stream through the balancer"
CLUSTER_SOAK_BALANCER=1 bash scripts/cluster-soak.sh 1500 build/dev
done_stage "cluster soak through HAProxy"

stage "replay round trip: every scenario × each provider as primary × streaming on and off"
bash scripts/replay-roundtrip.sh build/dev > build/dev/replay-roundtrip.md || { cat build/dev/replay-roundtrip.md; exit 1; }
tail -1 build/dev/replay-roundtrip.md
done_stage "replay round trip"

stage "fuzzing: ${fuzz_seconds} s per target"
bash scripts/fuzz.sh "$fuzz_seconds"
done_stage "fuzzing"
prune build/dev build/fuzz

stage "sanitizers: asan preset, every test"
cmake --preset asan > /dev/null
cmake --build --preset asan --parallel "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
# Every test but the checks of the sources alone (label `source`: format, function length, folders, wall clock,
# alert rules), the official SDKs' wire check (label `sdk`) and the rolling restart behind HAProxy (label
# `deploy`: three engines whose timing ASan would judge, not their memory): all run in test.sh; the simulator
# the SDKs talk to runs under ASan in tst_simulatormatrix (every scenario, provider and stream) and the fuzzers.
asan_log=$(mktemp)
QT_QPA_PLATFORM=offscreen ctest --preset asan --parallel "$(nproc)" --label-exclude "source|sdk|deploy" 2>&1 | tee "$asan_log"
# As in test.sh: in CI a test that did not run (skipped, or a dependency failed) is a failure here too.
if [ "${CI:-}" = true ]; then
    not_run=$(sed -n '/The following tests did not run:/,/^$/p' "$asan_log" | grep -E '^\s+[0-9]+ - ' | grep -v '(Disabled)$' || true)
    [ -z "$not_run" ] || { echo "harden.sh: under ASan these tests did not run:" >&2; echo "$not_run" >&2; exit 1; }
    echo "sanitizers: 0 skipped"
fi
rm -f "$asan_log"
done_stage "sanitizers"

stage "console monkey under ASan: 5 × 60 s (seeds 7, 1, 2, 3 and one random)"
random_seed=$(( $(od -An -N4 -tu4 /dev/urandom) % 100000 ))
echo "monkey: the random seed is $random_seed"
for seed in 7 1 2 3 "$random_seed"; do
    bash scripts/monkey.sh --build build/asan --seconds 60 --seed "$seed"
done
done_stage "console monkey"
prune build/asan

stage "ThreadSanitizer: tsan preset, the store, analytics, breakers, generation service, engine threads, relay and event stream suites"
bash scripts/tsan.sh
done_stage "ThreadSanitizer"
prune build/tsan
