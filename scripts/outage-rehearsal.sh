#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The must-show outage rehearsal (docs/operations.md, "Outage rehearsal"): a real bullpen-engine on its
# built-in simulator over loopback, in real time (no scaled clock: the engine has none; its breaker and
# alert timings are the shipped defaults), with a time-phased scenario in which the storyboard primary
# (gemini) hangs from minute 1 to minute 30 after the simulator's first request, then answers again.
# One generation every 5 s (curl, POST /v1/generations); at minute 3 an operator drains gemini's
# storyboard primary for 15 minutes (bullpen-cli provider drain --for 15m): the engine ends the drain by
# itself at minute 18. The attached console (bullpen --engine URL) runs on an Xvfb screen of 1024×700;
# at each minute of SHOTS the Control view and the Latency view are saved, with the engine's
# /v1/providers, /v1/alerts and /v1/audit beside them as JSON.
#   bash scripts/outage-rehearsal.sh [OUT_DIR] [BIN_DIR]
# OUT_DIR: docs/screenshots/control (rehearsal-minNN.png, rehearsal-minNN-latency.png, rehearsal-minNN.json)
# BIN_DIR: build/dev/app. SHOTS (minutes, default "1 10 31 36"), OUTAGE_FROM_S/OUTAGE_TO_S (60/1800).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs/screenshots/control}")
bin=$(realpath "${2:-build/dev/app}")
shots=${SHOTS:-"1 10 31 36"}
from_s=${OUTAGE_FROM_S:-60}
to_s=${OUTAGE_TO_S:-1800}
for tool in Xvfb xdotool import curl; do
    command -v "$tool" >/dev/null || { echo "outage-rehearsal: $tool is not installed (scripts/install-deps.sh)" >&2; exit 1; }
done
for b in bullpen bullpen-engine bullpen-cli; do
    [ -x "$bin/$b" ] || { echo "outage-rehearsal: no $bin/$b; build it (cmake --build build/dev --target $b)" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
export BULLPEN_DATA_DIR=$work/data XDG_CONFIG_HOME=$work/config
mkdir -p "$out" "$BULLPEN_DATA_DIR"
cat > "$work/rehearsal.json" <<EOF
{ "name": "outage-rehearsal",
  "description": "gemini (storyboard primary) hangs from $from_s s to $to_s s after the first request, then answers again",
  "providers": { "primary": { "do": "ok", "latency_ms": [800, 1500],
                              "phases": [ { "from_s": $from_s, "to_s": $to_s, "do": "hang" } ] },
                 "*": { "do": "ok", "latency_ms": [600, 1200] } } }
EOF
export BULLPEN_ENGINE_TOKEN=$("$bin/bullpen-engine" token add rehearsal --role operator 2>/dev/null)
"$bin/bullpen-engine" --listen 127.0.0.1:0 --instance rehearsal --simulator --scenario "$work/rehearsal.json" \
    > "$work/engine.out" 2> "$work/engine.err" &
pids+=($!)
for _ in $(seq 200); do grep -q "listening on" "$work/engine.out" && break; sleep 0.1; done
url=$(grep -o 'listening on http://[0-9.:]*' "$work/engine.out" | cut -d' ' -f3)
[ -n "$url" ] || { echo "outage-rehearsal: the engine did not start:" >&2; cat "$work/engine.err" >&2; exit 1; }
echo "outage-rehearsal: engine at $url, scenario: gemini hangs from ${from_s}s to ${to_s}s"
auth=(-H "Authorization: Bearer $BULLPEN_ENGINE_TOKEN")

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1024x700x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display QT_QPA_PLATFORM=xcb
sleep 1
"$bin/bullpen" --lang en --engine "$url" > "$work/console.out" 2>&1 &
pids+=($!)
console=$!
for _ in $(seq 100); do wid=$(xdotool search --pid "$console" --onlyvisible 2>/dev/null | head -1 || true); [ -n "$wid" ] && break; sleep 0.2; done
[ -n "${wid:-}" ] || { echo "outage-rehearsal: the console did not show a window" >&2; cat "$work/console.out" >&2; exit 1; }
xdotool windowmove "$wid" 0 0 windowsize "$wid" 1024 700

start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
story='A rookie pitcher, sent to the bullpen in the ninth inning, faces the league best hitter with the bases loaded.'
traffic() {
    while :; do
        curl -s -o /dev/null "${auth[@]}" -H 'Content-Type: application/json' \
            -d "{\"story\": \"$story\", \"user_id\": \"rehearsal-$(elapsed)\"}" "$url/v1/generations" || true
        sleep 5
    done
}

# Views by the keyboard, not by clicks: the tab bar moves down when a health card grows (a drain's
# lines). A click into the window first gives it the focus (Xvfb has no window manager); Ctrl+Shift+K is
# the Control view, and three Ctrl+Shift+Tab from there the Latency view (Alt+digit needs a keymap
# with Alt that Xvfb's default one lacks).
tab() {
    xdotool mousemove 600 650 click 1
    xdotool key ctrl+shift+k
    if [ "$1" = Latency ]; then xdotool key ctrl+shift+Tab ctrl+shift+Tab ctrl+shift+Tab; fi
}

# The Latency view over the last hour in 1-minute buckets (its first entries), so that the rehearsal's
# markers stand apart: each combo is opened with a click and its first entry chosen with Home, Return.
latency_last_hour() {
    tab Latency
    sleep 2
    local y
    y=${COMBO_Y:-134} # the Latency view's combos, under the tab bar (no drain yet at the start)
    for x in 360 490; do
        xdotool mousemove "$x" "$y" click 1
        sleep 0.5
        xdotool key Home Return
        sleep 0.5
    done
}

shot() { # minute
    local m name
    m=$1
    name=$(printf 'rehearsal-min%02d' "$m")
    tab Control
    sleep 6 # it reads the engine's lists when shown and every 5 s
    import -window root "$out/$name.png"
    tab Latency
    sleep 6
    import -window root "$out/$name-latency.png"
    {
        echo "{\"minute\": $m, \"elapsed_s\": $(elapsed),"
        echo "\"providers\": $(curl -s "${auth[@]}" "$url/v1/providers"),"
        echo "\"alerts\": $(curl -s "${auth[@]}" "$url/v1/alerts"),"
        echo "\"audit\": $(curl -s "${auth[@]}" "$url/v1/audit?limit=100")}"
    } > "$out/$name.json"
    echo "outage-rehearsal: minute $m (at $(elapsed) s): $out/$name.png, $name-latency.png, $name.json"
}

traffic &
pids+=($!)
sleep 3
latency_last_hour

drained=0
for m in $shots; do
    while [ "$(elapsed)" -lt $((m * 60 - 12)) ]; do
        if [ "$drained" = 0 ] && [ "$(elapsed)" -ge 180 ]; then
            "$bin/bullpen-cli" provider drain gemini --role primary --stage storyboard --for 15m \
                --reason "rehearsal: gemini hangs, status page says investigating" --engine "$url" > /dev/null
            drained=1
            echo "outage-rehearsal: minute 3: drained gemini (primary, storyboard) for 15 minutes"
        fi
        sleep 1
    done
    shot "$m"
done
