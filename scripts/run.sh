#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's run command: install packages, build, and start the console (bullpen). With no provider
# key configured it runs on the built-in simulator over real HTTP and says so in its status bar.
# Without a display it runs offscreen; arguments go to bullpen (e.g. --grab out/live.png). The screenshot
# tour is its own program: build/dev/app/bullpen-tour DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh >&2
cmake --preset dev >&2
cmake --build --preset dev --parallel "$(nproc)" --target bullpen bullpen-cli bullpen-engine bullpen-sim >&2

if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    export QT_QPA_PLATFORM=offscreen
    echo "run.sh: no display; running offscreen (try: bash scripts/run.sh --grab out/live.png)" >&2
fi
exec ./build/dev/app/bullpen "$@"
