#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_rolling_restart: three bullpen-engine instances on one throwaway PostgreSQL store
# behind the shipped balancer file (deploy/haproxy/bullpen.cfg), as docs/operations.md deploys them.
# 1. A rolling restart under load: each engine in turn is sent SIGTERM, waited for and started again
#    while clients POST generations through the balancer without pause (at least 200). Lost is a
#    request not answered 2xx whose generation is not recorded either, or an accepted generation that
#    never reaches a final state. Judged: 0 lost.
# 2. A half-sent flood: 4,200 connections through the balancer each send half a request head and hold
#    it; meanwhile other clients' GET /readyz are timed. Judged: every one answered 200.
# Prints the figures (docs/performance.md quotes them). Needs haproxy and PostgreSQL's server binaries
# (scripts/install-deps.sh); without them it fails: it is never skipped.
#   bash tests/deploy/rolling-restart.sh <source dir> <build dir>
set -euo pipefail
root="${1:?usage: rolling-restart.sh <source dir> <build dir>}"
build="${2:?usage: rolling-restart.sh <source dir> <build dir>}"
engine_bin=$build/app/bullpen-engine
fail() { echo "FAIL tst_rolling_restart: $*" >&2; exit 1; }
command -v haproxy > /dev/null || fail "haproxy is not installed (apt-get install haproxy)"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
[[ -n "$pg_bin" && -x "$pg_bin/initdb" ]] || fail "no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)"
as_pg=()
if [[ $(id -u) == 0 ]]; then as_pg=(runuser -u postgres --); fi # initdb and pg_ctl refuse root

work=$(mktemp -d)
chmod 755 "$work"
declare -A pids=()
cleanup() {
    for pid in "${pids[@]}"; do { kill -9 "$pid" && wait "$pid"; } 2> /dev/null || true; done
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m immediate stop > /dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
SECONDS=0
mkdir -p "$work/pg"
if [[ ${#as_pg[@]} -gt 0 ]]; then chown postgres "$work/pg"; fi
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg/data" -U bullpen --auth=trust -E UTF8 --no-locale -N > "$work/initdb.log"
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-k $work/pg -c listen_addresses='' -c fsync=off -c max_connections=100" start > /dev/null
"${as_pg[@]}" "$pg_bin/createdb" -h "$work/pg" -U bullpen -E UTF8 bullpen
export BULLPEN_DATABASE_URL="postgresql://bullpen@/bullpen?host=$work/pg"
export BULLPEN_MASKING_KEY_FILE=$work/masking.key
(umask 077 && head -c 32 /dev/urandom > "$BULLPEN_MASKING_KEY_FILE")
token=$("$engine_bin" token add rolling-restart --role operator --data-dir "$work/token" 2> /dev/null)

base_port=$((20700 + RANDOM % 2000))
lb_port=$((base_port + 10))
start_engine() { # index: started, and waited for until its own /readyz answers 200
    local i=$1 port=$((base_port + $1))
    "$engine_bin" --simulator --listen "127.0.0.1:$port" --instance "engine-$i" --lease 2s \
        --data-dir "$work/engine-$i" --drain 20s --max-in-flight 2000 --rate 5000 >> "$work/engine-$i.log" 2>&1 &
    pids[$i]=$!
    for _ in $(seq 1 150); do
        curl -fs "http://127.0.0.1:$port/readyz" > /dev/null 2>&1 && return 0
        kill -0 "${pids[$i]}" 2> /dev/null || break
        sleep 0.1
    done
    cat "$work/engine-$i.log" >&2
    fail "engine-$i did not become ready"
}
through_balancer() { # index: waits until the balancer sends a request to that engine again
    for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$lb_port/readyz" 2> /dev/null | grep -q "\"engine-$1\"" && return 0
        sleep 0.05
    done
    fail "the balancer did not send to engine-$1 within 5 s of it being ready"
}
for i in 0 1 2; do start_engine "$i"; done
export BULLPEN_LB_BIND=127.0.0.1:$lb_port BULLPEN_ENGINE_0=127.0.0.1:$base_port \
    BULLPEN_ENGINE_1=127.0.0.1:$((base_port + 1)) BULLPEN_ENGINE_2=127.0.0.1:$((base_port + 2)) \
    BULLPEN_LB_CHECK_INTER=250ms BULLPEN_LB_CHECK_FALL=1
haproxy -f "$root/deploy/haproxy/bullpen.cfg" -db > "$work/haproxy.log" 2>&1 &
pids[lb]=$!
for i in 0 1 2; do through_balancer "$i"; done
echo "tst_rolling_restart: PostgreSQL, three engines and haproxy up in $SECONDS s"

# 1. The rolling restart under load.
SECONDS=0
python3 "$root/tests/deploy/lbclients.py" load "127.0.0.1:$lb_port" "$token" 200 "$work/stop" "$work/load.json" \
    > "$work/load.out" 2>&1 &
load=$!
sent() { # requests the clients have sent so far
    local n
    n=$(cat "$work/stop.sent" 2> /dev/null) || n=0
    echo "${n:-0}"
}
for i in 0 1 2; do
    # Requests flow before, between and after the restarts: 50 more sent before each.
    want=$(((i + 1) * 50))
    while (($(sent) < want)); do
        kill -0 "$load" 2> /dev/null || fail "the clients stopped before the restarts ended"
        sleep 0.05
    done
    t0=$(date +%s%N) # shown only: how long the drain and the start took
    kill -TERM "${pids[$i]}"
    wait "${pids[$i]}" || fail "engine-$i exited $? on SIGTERM"
    start_engine "$i"
    through_balancer "$i"
    echo "tst_rolling_restart: engine-$i drained, restarted and balanced to again in $(( ($(date +%s%N) - t0) / 1000000 )) ms ($(sent) requests sent so far)"
done
touch "$work/stop"
load_status=0
wait "$load" || load_status=$?
cat "$work/load.out"
echo "tst_rolling_restart: the rolling restart took $SECONDS s"
if [[ $load_status != 0 ]]; then
    for i in 0 1 2; do echo "--- engine-$i log (last 15 lines)"; tail -15 "$work/engine-$i.log"; done
    echo "--- haproxy log"; tail -30 "$work/haproxy.log"
    fail "requests were lost in the rolling restart ($work/load.json above)"
fi

# 2. The half-sent flood.
SECONDS=0
python3 "$root/tests/deploy/lbclients.py" flood "127.0.0.1:$lb_port" 4200 50 "$work/flood.json" \
    || { tail -30 "$work/haproxy.log"; fail "other clients were not answered during the half-sent flood"; }
echo "tst_rolling_restart: the flood took $SECONDS s"
echo "PASS tst_rolling_restart"
