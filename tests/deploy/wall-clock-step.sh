#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_wall_clock_step: an engine's wall clock steps back one hour (tests/support/wallstep.cpp
# preloaded, as an NTP correction or a person setting the clock would move it) while an operator works and its prober probes every
# second. Durations run on the monotonic clock (scripts/wall-clock.py), so after the step:
# - the operator's token is never answered 429 (a rate limiter on wall time refuses it for an hour);
# - the prober still probes (rows written before the step lie in the future; read as recent traffic
#   they would silence it for an hour).
#   bash tests/deploy/wall-clock-step.sh <bullpen-engine> <libwallstep.so>
set -euo pipefail
engine_bin="${1:?usage: wall-clock-step.sh <bullpen-engine> <libwallstep.so>}"
wallstep="${2:?usage: wall-clock-step.sh <bullpen-engine> <libwallstep.so>}"
fail() { echo "FAIL tst_wall_clock_step: $*" >&2; exit 1; }
trap 'fail "line $LINENO: a command failed (set -e)"' ERR # never a silent exit
[[ -f $wallstep ]] || fail "$wallstep is missing (cmake --build build/dev --target wallstep)"
work=$(mktemp -d)
engine=
cleanup() {
    [[ -n $engine ]] && { kill -9 "$engine" && wait "$engine"; } 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

token=$("$engine_bin" token add operator --role operator --data-dir "$work/store" 2> /dev/null)
port=$((23700 + RANDOM % 2000))
echo 0 > "$work/offset" # seconds; the shim reads it again every 50 ms
# Only the wall clock moves: the monotonic clock, sleeps and timeouts stay real, as when NTP steps the time.
# An engine built with AddressSanitizer (the dev build) needs its runtime first in the preload list.
# awk reads ldd's output to its end: leaving at the first match could end ldd by SIGPIPE, and under
# pipefail that failed this line (1 run in 100 here).
asan_runtime=$(ldd "$engine_bin" | awk '/libasan/ && !found { print $3; found = 1 }')
LD_PRELOAD=${asan_runtime:+$asan_runtime:}$wallstep BULLPEN_WALLSTEP_FILE=$work/offset \
    "$engine_bin" --simulator --listen "127.0.0.1:$port" --data-dir "$work/store" --rate 20 --probe-every 1s \
    > "$work/engine.log" 2>&1 &
engine=$!
for _ in $(seq 1 150); do
    curl -fs "http://127.0.0.1:$port/readyz" > /dev/null 2>&1 && break
    kill -0 "$engine" 2> /dev/null || { cat "$work/engine.log" >&2; fail "the engine did not start"; }
    sleep 0.1
done
probes() { # probes this engine has sent so far (every target, ok or failed)
    curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/metrics" \
        | awk '$1 ~ /^bullpen_probes_total\{/ { n += $2 } END { print n + 0 }'
}
work_for() { # seconds: an operator's requests, 10 a second (half the token's rate); prints the refused ones
    local refused=0 code
    for _ in $(seq 1 $(($1 * 10))); do
        code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/config")
        [[ $code == 200 ]] || refused=$((refused + 1))
        sleep 0.1 # the operator's pace, not a wait for a condition
    done
    echo "$refused"
}
before=$(work_for 3)
[[ $before == 0 ]] || fail "$before of 30 requests refused before the step (the rate is 20 a second)"
probes_before=$(probes)
(( probes_before > 0 )) || fail "the prober sent no probe in 3 s at --probe-every 1s"
engine_wall() { # the engine's wall clock in seconds, from its own last_heartbeat (GET /v1/instances)
    curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/instances" \
        | python3 -c 'import json, sys, datetime; i = json.load(sys.stdin); i = i.get("instances", i) if isinstance(i, dict) else i
print(int(datetime.datetime.fromisoformat(i[0]["last_heartbeat"].replace("Z", "+00:00")).timestamp()))'
}
echo -3600 > "$work/offset"
behind=unknown
for _ in $(seq 1 40); do # the shim reads the file again within 50 ms
    wall=$(engine_wall 2> /dev/null) || wall=
    [[ -n $wall ]] && behind=$(($(date +%s) - wall))
    [[ $behind != unknown ]] && ((behind > 3500)) && break
    sleep 0.05
done
[[ $behind != unknown ]] || fail "GET /v1/instances was never answered after the step (refused by a rate limit on wall time?)"
echo "tst_wall_clock_step: the engine's wall clock is $behind s behind this machine's"
(( behind > 3500 )) || fail "the engine's wall clock did not step back (it is $behind s behind), or GET /v1/instances was refused after the step (a rate limit on wall time?)"
after=$(work_for 4)
probes_after=$(probes)
echo "tst_wall_clock_step: before the step 0 of 30 requests refused, $probes_before probes; after it $after of 40 refused, $((probes_after - probes_before)) probes in 4 s"
[[ $after == 0 ]] || fail "$after of 40 requests were refused after the wall clock stepped back (a rate limit on wall time?)"
(( probes_after - probes_before >= probes_before / 2 )) || fail "the prober nearly stopped probing after the wall clock stepped back (fewer than half as many probes in 4 s as in the 3 s before)"
# The per-provider windows of /v1/stats/providers (and /metrics) run on the monotonic clock: a user's
# generation finished a moment ago stays in the last 5 minutes when the wall clock then steps forward
# two hours (on wall time it would fall out of every window at once).
recent_attempts() { # attempts in the last 5 minutes, every provider
    curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/stats/providers" \
        | python3 -c 'import json, sys; print(sum(p.get("attempts", 0) for p in json.load(sys.stdin)["last_5m"].values()))'
}
gen=$(curl -fs -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"story": "A cat finds a hat.", "fresh": true}' "http://127.0.0.1:$port/v1/generations" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["generation_id"])') || fail "POST /v1/generations was refused"
for _ in $(seq 1 200); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/generations/$gen") == 200 ]] && break
    sleep 0.05
done
counted=0
for _ in $(seq 1 40); do # the figure is computed at most once a second
    counted=$(recent_attempts) && ((counted > 0)) && break
    sleep 0.05
done
((counted > 0)) || fail "a finished generation's attempts are not in /v1/stats/providers' last 5 minutes"
echo 3600 > "$work/offset" # two hours forward from an hour behind
ahead=unknown
for _ in $(seq 1 40); do
    wall=$(engine_wall 2> /dev/null) || wall=
    [[ -n $wall ]] && ahead=$((wall - $(date +%s)))
    [[ $ahead != unknown ]] && ((ahead > 3500)) && break
    sleep 0.05
done
[[ $ahead != unknown ]] && ((ahead > 3500)) || fail "the engine's wall clock did not step forward ($ahead s ahead)"
still=
for _ in $(seq 1 60); do # the figure is cached for a second: wait for one computed after the step (its at_ms)
    still=$(curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/stats/providers" \
        | python3 -c 'import json, sys, time; f = json.load(sys.stdin)
if f["at_ms"] / 1000 - time.time() > 3500: print(sum(p.get("attempts", 0) for p in f["last_5m"].values()))') && [[ -n $still ]] && break
    sleep 0.05
done
[[ -n $still ]] || fail "/v1/stats/providers was not computed again after the step"
echo "tst_wall_clock_step: $counted attempts in the last 5 minutes; after the wall clock stepped 2 h forward, $still"
((still == counted)) || fail "after the wall clock stepped forward the last 5 minutes hold $still attempts, not $counted (windows on wall time)"
echo "PASS tst_wall_clock_step"
