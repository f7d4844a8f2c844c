#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the packaged bullpen-engine.service under a real systemd (docs/install.md "The service"):
# systemd 252 boots as PID 1 of a private PID and mount namespace, over overlays of /usr, /etc and /var
# (the packages' files on top of this machine's) and fresh /run and /tmp, so nothing it does reaches
# the host's files. Then, exactly as docs/install.md says:
#   - the package's postinst makes /etc/bullpen, keys.env and masking.key (0600);
#   - `systemctl start bullpen-engine` runs it as a dynamic user with its credentials; /readyz answers;
#   - the first token is made with the documented `systemd-run` line, and used;
#   - the keys are neither in the service's environment nor on its command line;
#   - `systemctl stop` with a generation in flight drains it: the unit stops inside TimeoutStopSec with
#     exit status 0, and the generation is recorded finished (read back after a restart).
# Needs root and unshare(1). Usage: scripts/systemd-check.sh [DIR-WITH-DEBS] (default
# build/package/packages). BULLPEN_SYSTEMD_CHECK=optional skips with a note where it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
debs=${1:-build/package/packages}
skip() {
    if [ "${BULLPEN_SYSTEMD_CHECK:-}" = optional ]; then echo "systemd-check: skipped: $1"; exit 0; fi
    echo "systemd-check: $1" >&2; exit 1
}
[ "$(id -u)" = 0 ] || skip "needs root (it boots systemd in its own namespaces)"
command -v unshare >/dev/null && command -v nsenter >/dev/null || skip "needs unshare and nsenter (util-linux)"
[ -x /lib/systemd/systemd ] || skip "needs systemd installed (/lib/systemd/systemd)"
ls "$debs"/bullpen-engine_*.deb >/dev/null 2>&1 || skip "no bullpen-engine package in $debs: run scripts/package.sh first"

work=$(realpath -m build/systemd-check)
rm -rf "$work" && mkdir -p "$work/root" "$work/stage/usr/lib" "$work/control"
deb=$(ls "$debs"/bullpen-engine_*.deb | head -1)
dpkg-deb -x "$deb" "$work/root"
dpkg-deb -e "$deb" "$work/control"
# The simulator (from the console's package) plays the providers, on the host's loopback.
ls "$debs"/bullpen_*.deb >/dev/null 2>&1 || skip "no bullpen package in $debs: run scripts/package.sh first"
dpkg-deb -x "$(ls "$debs"/bullpen_*.deb | head -1)" "$work/console"
# The package's files as overlay layers: /lib is /usr/lib on this (merged-/usr) system.
cp -a "$work/root/usr/." "$work/stage/usr/"
[ -d "$work/root/lib" ] && cp -a "$work/root/lib/." "$work/stage/usr/lib/"
mkdir -p "$work/stage/etc" && cp -a "$work/root/etc/." "$work/stage/etc/"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
sim_port=$(free_port)

# PID 1 of the namespace: a fresh /run (the overlays' upper layers live in it) and /tmp, the overlays,
# then systemd, booting basic.target only.
cat > "$work/boot.sh" <<EOF
set -e
mount --make-rprivate /
mount -t tmpfs -o mode=755 tmpfs /run
for d in usr etc var; do mkdir -p /run/bp-up/\$d /run/bp-up/\$d.work; done
mount -t overlay overlay -o lowerdir="$work/stage/usr":/usr,upperdir=/run/bp-up/usr,workdir=/run/bp-up/usr.work /usr
mount -t overlay overlay -o lowerdir="$work/stage/etc":/etc,upperdir=/run/bp-up/etc,workdir=/run/bp-up/etc.work /etc
mount -t overlay overlay -o lowerdir=/var,upperdir=/run/bp-up/var,workdir=/run/bp-up/var.work /var
mount -t tmpfs -o mode=1777 tmpfs /tmp
# Shared inside this namespace only (it is private from the host): systemd leaves propagation to a
# container manager, and sets up a unit's credentials in a child namespace that must propagate back.
mount --make-rshared /
exec env container=bullpen-systemd-check /lib/systemd/systemd --system --unit=basic.target --log-level=warning
EOF
unshare --pid --fork --mount --mount-proc --propagation private bash "$work/boot.sh" > "$work/systemd.log" 2>&1 &
unshare_pid=$!
pid1=""
for _ in $(seq 100); do pid1=$(pgrep -P "$unshare_pid" || true); [ -n "$pid1" ] && break; sleep 0.1; done
[ -n "$pid1" ] || { cat "$work/systemd.log"; skip "systemd did not start"; }
finish() {
    [ -n "${sim_pid:-}" ] && kill "$sim_pid" 2>/dev/null
    in_ns systemctl poweroff --no-block >/dev/null 2>&1 || true
    for _ in $(seq 50); do kill -0 "$unshare_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid1" 2>/dev/null || true
    wait "$unshare_pid" 2>/dev/null || true
}
trap finish EXIT
in_ns() { nsenter -t "$pid1" -m -p -- "$@"; }
for _ in $(seq 150); do in_ns test -S /run/systemd/private 2>/dev/null && break; sleep 0.2; done
state=$(in_ns timeout 60 systemctl is-system-running --wait 2>/dev/null || true)
echo "systemd-check: systemd $(in_ns systemctl --version | awk 'NR==1{print $2}') booted in a namespace ($state)"

fail() {
    echo "systemd-check: FAILED: $1" >&2
    in_ns systemctl status --no-pager -l bullpen-engine >&2 || true
    in_ns journalctl --no-pager -u bullpen-engine -n 60 >&2 || true
    exit 1
}

# The package's postinst, as dpkg runs it (read from stdin: inside, /tmp is a fresh tmpfs, and this
# checkout may be under it).
in_ns sh -s configure < "$work/control/postinst"
in_ns stat -c '%a %U %n' /etc/bullpen /etc/bullpen/keys.env /etc/bullpen/masking.key
[ "$(in_ns stat -c %a /etc/bullpen/keys.env)" = 600 ] || fail "keys.env is not 0600"
[ "$(in_ns stat -c %a /etc/bullpen/masking.key)" = 600 ] || fail "masking.key is not 0600"
# Provider keys in keys.env. The simulator answers only requests that carry this key, so an answer
# proves the credential reached the provider; later it must be in neither the environment nor argv.
secret="sk-systemdcheck-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
in_ns sh -c "umask 077; printf 'OPENAI_API_KEY=%s\nGEMINI_API_KEY=%s\n' '$secret' '$secret' >> /etc/bullpen/keys.env"
[ "$(in_ns stat -c %a /etc/bullpen/keys.env)" = 600 ] || fail "keys.env lost its 0600"
# The primary (OpenAI) accepts and never answers; the fallback (Gemini) answers.
QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" "$work/console/usr/bin/bullpen-sim" --port "$sim_port" \
    --scenario primary-hang --primary openai --fallback gemini --key "$secret" > "$work/sim.log" 2>&1 &
sim_pid=$!
# Settings that are not secret, in /etc/default/bullpen-engine as docs/install.md says.
in_ns sed -i "s|^BULLPEN_ENGINE_ARGS=.*|BULLPEN_ENGINE_ARGS=--listen 127.0.0.1:$port --log-format json|" /etc/default/bullpen-engine
in_ns sh -c "printf 'STORYBOARD_PROVIDER=openai\nSTORYBOARD_FALLBACK_PROVIDER=gemini\nOPENAI_BASE_URL=http://127.0.0.1:%s/v1\nGEMINI_BASE_URL=http://127.0.0.1:%s/v1beta\n' $sim_port $sim_port >> /etc/default/bullpen-engine"

in_ns systemctl daemon-reload
in_ns systemctl start bullpen-engine || fail "systemctl start"
ready=0
for _ in $(seq 150); do
    if curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ready=1; break; fi
    sleep 0.2
done
[ "$ready" = 1 ] || fail "/readyz never answered 200"
main=$(in_ns systemctl show -p MainPID --value bullpen-engine)
uid=$(in_ns awk '/^Uid:/{print $2}' "/proc/$main/status")
user=$(in_ns systemctl show -p User --value bullpen-engine)
echo "systemd-check: bullpen-engine active, main pid $main runs as uid $uid (dynamic user ${user:-bullpen-engine}), /readyz 200 on 127.0.0.1:$port"
[ "$uid" != 0 ] || fail "the service runs as root"
in_ns grep -qa "$secret" "/proc/$main/environ" && fail "a provider key is in the service's environment"
in_ns grep -qa "$secret" "/proc/$main/cmdline" && fail "a provider key is on the service's command line"
in_ns stat -c '%a %n' /var/lib/private/bullpen-engine
[ "$(in_ns stat -c %a /var/lib/private/bullpen-engine)" = 700 ] || fail "the state directory is not 0700"
keys=$(curl -fs "http://127.0.0.1:$port/v1/config" -H "Authorization: Bearer none" 2>/dev/null || true)
[ -z "$keys" ] || fail "/v1/config answered without a token"

# The first token, with the line docs/install.md gives.
token=$(in_ns systemd-run --quiet --pipe --wait -p User=bullpen-engine -p DynamicUser=yes -p StateDirectory=bullpen-engine \
    /usr/bin/bullpen-engine token add ops --role operator --data-dir /var/lib/bullpen-engine 2>/dev/null | grep -o 'bp_[A-Za-z0-9_-]*' | head -1)
[ -n "$token" ] || fail "systemd-run token add printed no token"
auth=(-H "Authorization: Bearer $token")
config=$(curl -fs "${auth[@]}" "http://127.0.0.1:$port/v1/config") || fail "the new token is refused"
openai=$(echo "$config" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["keys"]["openai"]))')
echo "systemd-check: /v1/config keys.openai = $openai"
echo "$openai" | grep -q "\"${secret: -4}\"" || fail "/v1/config does not show the credential key's last 4 characters: $openai"
echo "$config" | grep -q "$secret" && fail "/v1/config shows a key in full"

# A whole generation: the primary times out after 1 s, the fallback answers with the credential's key,
# and the store (written by the service's dynamic user after the token run) records it.
wait_final() {
    local row
    for _ in $(seq 300); do
        row=$(curl -s "${auth[@]}" "http://127.0.0.1:$port/v1/generations/$1")
        if echo "$row" | grep -q '"state"' && ! echo "$row" | grep -q '"state": *"running"'; then echo "$row"; return 0; fi
        sleep 0.1
    done
    return 1
}
gen1="gen_$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
curl -fs "${auth[@]}" -X POST "http://127.0.0.1:$port/v1/generations" -H 'Content-Type: application/json' \
    -d "{\"story\":\"A cat naps in the sun.\",\"generation_id\":\"$gen1\",\"fresh\":true,\"timeouts\":{\"primary_ms\":1000,\"fallback_ms\":20000,\"budget_ms\":25000}}" >/dev/null \
    || fail "POST /v1/generations after systemd-run token add"
row=$(wait_final "$gen1") || fail "$gen1 did not finish in 30 s"
summary=$(echo "$row" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["state"], r.get("provider_fallback_applied"), r.get("provider_fallback_reason"), r.get("final_model_provider"))')
echo "systemd-check: $gen1: $summary"
[ "$summary" = "succeeded True openai_timeout gemini" ] || fail "expected succeeded through the gemini fallback after the openai timeout: $row"

# Stop with a generation in flight: the primary hangs until its 4 s timeout, the fallback answers.
gen="gen_$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
curl -fs "${auth[@]}" -X POST "http://127.0.0.1:$port/v1/generations" -H 'Content-Type: application/json' \
    -d "{\"story\":\"A cat naps in the sun.\",\"fresh\":true,\"generation_id\":\"$gen\",\"timeouts\":{\"primary_ms\":4000,\"fallback_ms\":20000,\"budget_ms\":30000}}" >/dev/null \
    || fail "POST /v1/generations"
sleep 0.5
SECONDS=0
in_ns systemctl stop bullpen-engine
stopped=$SECONDS
result=$(in_ns systemctl show -p Result --value bullpen-engine)
status=$(in_ns systemctl show -p ExecMainStatus --value bullpen-engine)
echo "systemd-check: systemctl stop took ${stopped} s (TimeoutStopSec: $(in_ns systemctl show -p TimeoutStopUSec --value bullpen-engine)); Result=$result ExecMainStatus=$status"
[ "$result" = success ] || fail "the unit stopped with Result=$result"
[ "$status" = 0 ] || fail "the engine exited $status on SIGTERM"
in_ns journalctl --no-pager -o cat -u bullpen-engine | grep -i drain > /dev/null || fail "the journal does not show the drain"

in_ns systemctl start bullpen-engine || fail "systemctl start (again)"
for _ in $(seq 150); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
row=$(wait_final "$gen") || fail "the drained generation is not in the store, or still running"
drained=$(echo "$row" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["state"], r.get("source", "memory"), r.get("final_model_provider") or r.get("row", {}).get("final_model_provider"))')
echo "systemd-check: after a restart, $gen reads: $drained"
# It was in flight when SIGTERM came (its primary had 3.5 s left) and finished inside the drain.
[ "$stopped" -ge 3 ] || fail "systemctl stop returned in ${stopped} s: the engine did not wait for the generation in flight"
case "$drained" in "succeeded history"*) ;; *) fail "the drained generation should read succeeded from the history: $row" ;; esac
# A settings error (exit 2) is not restarted in a loop: the unit stays failed with the engine's message.
in_ns systemctl stop bullpen-engine
in_ns sh -c 'echo STORYBOARD_PROVIDER=nosuchprovider >> /etc/default/bullpen-engine'
in_ns systemctl start bullpen-engine 2>/dev/null || true
for _ in $(seq 50); do [ "$(in_ns systemctl show -p ActiveState --value bullpen-engine)" = failed ] && break; sleep 0.2; done
sleep 2.5   # longer than RestartSec: a restart would have happened by now
misconfigured="$(in_ns systemctl show -p ActiveState --value bullpen-engine) $(in_ns systemctl show -p NRestarts --value bullpen-engine) $(in_ns systemctl show -p ExecMainStatus --value bullpen-engine)"
echo "systemd-check: with STORYBOARD_PROVIDER=nosuchprovider: ActiveState, NRestarts, exit status = $misconfigured"
[ "$misconfigured" = "failed 0 2" ] || fail "a settings error should leave the unit failed without restarts (exit 2)"
in_ns journalctl --no-pager -o cat -u bullpen-engine | grep nosuchprovider > /dev/null || fail "the journal does not name the bad setting"
score=$(in_ns systemd-analyze security --no-pager bullpen-engine 2>/dev/null | tail -1 || true)
echo "systemd-check: systemd-analyze security: ${score:-n/a}"
echo "systemd-check: the packaged unit starts, serves, takes its first token, drains on stop and stays failed on a settings error under systemd"
