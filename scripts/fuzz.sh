#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (`fuzz` preset: clang, ASan + UBSan) and runs each for a fixed time
# (default 30 s) from seeds written by fuzz_seeds (the simulator's own responses, the built-in
# scenarios, example settings). New inputs accumulate in build/fuzz/corpus/<target>/. Any crash, leak,
# sanitizer report or hang (> 10 s per input) fails the run; the input is kept in
# build/fuzz/artifacts/. Prints the executions per target. The targets run side by side, as many at
# once as there are cores.
#   bash scripts/fuzz.sh [seconds per target]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}

cmake --preset fuzz > /dev/null
cmake --build --preset fuzz --parallel "$(nproc)"
if [ ! -x build/dev/tests/fuzz_seeds ]; then
    cmake --preset dev > /dev/null
    cmake --build --preset dev --target fuzz_seeds
fi
seeds=build/fuzz/seeds
rm -rf "$seeds"
build/dev/tests/fuzz_seeds "$seeds"
mkdir -p build/fuzz/artifacts

# The targets run side by side, one per core: each gets the whole of its time on a core of its own.
run_target() { # target
    local target=$1 corpus=build/fuzz/corpus/$1 log=build/fuzz/$1.log rc=0
    mkdir -p "$corpus" "$seeds/$target" # a target fuzz_seeds writes nothing for starts from its committed corpus
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "build/fuzz/tests/fuzz/$target" "$corpus" "$seeds/$target" tests/fuzz/corpus/"$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$target-" > "$log" 2>&1 || rc=$?
    echo "$rc" > "build/fuzz/$target.rc"
}
targets=(fuzz_provider_body fuzz_sse_stream fuzz_storyboard fuzz_scenario fuzz_settings fuzz_api_request fuzz_api_query fuzz_engine_json fuzz_http_framing fuzz_service_request)
jobs_at_once=$(nproc)
running=0
for target in "${targets[@]}"; do
    rm -f "build/fuzz/$target.rc"
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs_at_once" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

status=0
printf '%-22s %12s %10s %s\n' target executions "exec/s" result
for target in "${targets[@]}"; do
    log=build/fuzz/$target.log
    rc=$(cat "build/fuzz/$target.rc" 2> /dev/null || echo 1)
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
    if [ "$rc" -eq 0 ]; then
        printf '%-22s %12s %10s %s\n' "$target" "$runs" "$rate" ok
    else
        printf '%-22s %12s %10s %s\n' "$target" "$runs" "$rate" "FAILED (exit $rc), see $log"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20 || true
        status=1
    fi
done
exit $status
