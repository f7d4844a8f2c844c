#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The attached console's pictures (README): starts a bullpen-engine on the simulator in a temporary
# folder, makes it a token, runs one generation from `bullpen --engine URL --grab`, and saves the Live
# view, the Settings tab (the engine's running configuration) and the Control view's probes to DIR
# (default docs/screenshots; the probes under control/).
#   bash scripts/attached-screenshots.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
bin=build/dev/app
cmake --build --preset dev --target bullpen bullpen-engine > /dev/null
work=$(mktemp -d)
trap 'kill "$engine" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
export BULLPEN_DATA_DIR=$work/data XDG_CONFIG_HOME=$work/config QT_QPA_PLATFORM=offscreen
export BULLPEN_ENGINE_TOKEN=$("$bin/bullpen-engine" token add screenshots --role operator 2>/dev/null)
"$bin/bullpen-engine" --listen 127.0.0.1:0 --instance demo-engine --simulator --probe-every 60s > "$work/engine.out" 2> "$work/engine.err" &
engine=$!
for _ in $(seq 100); do grep -q "listening on" "$work/engine.out" && break; sleep 0.1; done
url=$(grep -o 'listening on http://[0-9.:]*' "$work/engine.out" | cut -d' ' -f3)
# The engine's first round of probes ends before the console attaches, so that the Live list holds the
# console's own generation and the health cards show each provider's last probe.
for _ in $(seq 100); do
    curl -fs -H "Authorization: Bearer $BULLPEN_ENGINE_TOKEN" "$url/v1/history?synthetic=only" | grep -o '"state":"succeeded"' | wc -l | grep -qx 4 && break
    sleep 0.1
done
mkdir -p "$out"
"$bin/bullpen" --lang en --engine "$url" --grab "$out/attached-live.png"
# The same in Korean and on a dark palette: the health cards' probe lines, the attached status bar.
"$bin/bullpen" --lang ko --engine "$url" --grab "$out/attached-live-ko.png"
"$bin/bullpen" --lang en --theme dark --engine "$url" --grab "$out/attached-live-dark.png"
# Each run also saved the Control view's Probes tab at 1024×700 (the engine probes every 60 s): the
# English and Korean ones go with the Control view's pictures (docs/console.md), the dark one is dropped.
mkdir -p "$out/control"
mv "$out/attached-live-control.png" "$out/control/probes-1024-en.png"
mv "$out/attached-live-ko-control.png" "$out/control/probes-1024-ko.png"
rm -f "$out/attached-live-dark-control.png"
