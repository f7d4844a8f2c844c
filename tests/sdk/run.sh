#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_sdk: the official provider SDKs against bullpen-sim (tests/sdk/check.mjs).
# Skipped (exit 77) with the reason when Node.js or the SDKs are missing, unless BULLPEN_TEST_REQUIRE_NODE=1
# (CI): then it fails. scripts/test.sh installs the SDKs with `npm ci` from the committed package-lock.json.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sim="${1:?usage: run.sh <path to bullpen-sim>}"
skip() { # a missing tool is a failure where it is required, never a silent pass
    if [ "${BULLPEN_TEST_REQUIRE_NODE:-}" = 1 ]; then
        echo "FAIL tst_sdk: $1 (BULLPEN_TEST_REQUIRE_NODE=1)"
        exit 1
    fi
    echo "SKIP tst_sdk: $1"
    exit 77
}
if ! command -v node >/dev/null; then
    skip "node is not installed (Node.js 18 or newer; then: npm ci --prefix tests/sdk)"
fi
for pkg in openai @anthropic-ai/sdk @google/genai; do
    if [ ! -f "$here/node_modules/$pkg/package.json" ]; then
        skip "$pkg is not installed; run: npm ci --prefix tests/sdk"
    fi
done
exec node "$here/check.mjs" "$sim"
