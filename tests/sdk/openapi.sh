#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_openapi: the answers tst_engineservice received, against docs/openapi.yaml
# (tests/sdk/openapi-check.mjs). Skipped (exit 77) with the reason when Node.js or its packages are
# missing, unless BULLPEN_TEST_REQUIRE_NODE=1 (CI): then it fails.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
doc="${1:?usage: openapi.sh <docs/openapi.yaml> <answers.jsonl>}"
answers="${2:?usage: openapi.sh <docs/openapi.yaml> <answers.jsonl>}"
skip() {
    if [ "${BULLPEN_TEST_REQUIRE_NODE:-}" = 1 ]; then
        echo "FAIL tst_openapi: $1 (BULLPEN_TEST_REQUIRE_NODE=1)"
        exit 1
    fi
    echo "SKIP tst_openapi: $1"
    exit 77
}
command -v node >/dev/null || skip "node is not installed (Node.js 18 or newer; then: npm ci --prefix tests/sdk)"
for pkg in ajv yaml; do
    [ -f "$here/node_modules/$pkg/package.json" ] || skip "$pkg is not installed; run: npm ci --prefix tests/sdk"
done
[ -s "$answers" ] || { echo "FAIL tst_openapi: $answers is empty or missing: tst_engineservice records it (its fixture)"; exit 1; }
exec node "$here/openapi-check.mjs" "$doc" "$answers"
