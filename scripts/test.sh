#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: install packages, configure the `dev` preset (warnings as errors),
# build everything and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset dev
cmake --build --preset dev --parallel "$(nproc)"
# The official provider SDKs for tst_sdk, pinned by tests/sdk/package-lock.json. Without Node.js (or
# without the npm registry) tst_sdk is skipped and says why.
if command -v npm >/dev/null; then
    npm ci --prefix tests/sdk --no-audit --no-fund --loglevel=error || echo "test.sh: npm ci failed; tst_sdk will be skipped"
fi
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} ctest --preset dev --parallel "$(nproc)"
