#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_sdk: the official provider SDKs against bullpen-sim (tests/sdk/check.mjs).
# Skipped (exit 77) with the reason when Node.js or the SDKs are missing; scripts/test.sh installs the
# SDKs with `npm ci` from the committed package-lock.json.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sim="${1:?usage: run.sh <path to bullpen-sim>}"
if ! command -v node >/dev/null; then
    echo "SKIP tst_sdk: node is not installed (Node.js 18 or newer; then: npm ci --prefix tests/sdk)"
    exit 77
fi
for pkg in openai @anthropic-ai/sdk @google/genai; do
    if [ ! -f "$here/node_modules/$pkg/package.json" ]; then
        echo "SKIP tst_sdk: $pkg is not installed; run: npm ci --prefix tests/sdk"
        exit 77
    fi
done
exec node "$here/check.mjs" "$sim"
