#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_openapi_spec: docs/openapi.yaml against the OpenAPI specification with a standard
# validator (@seriousme/openapi-schema-validator; tests/openapi/validate.mjs). Skipped (exit 77) with the
# reason when Node.js or the package is missing, unless BULLPEN_TEST_REQUIRE_NODE=1 (CI): then it fails.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
doc="${1:?usage: validate.sh <docs/openapi.yaml>}"
skip() {
    if [ "${BULLPEN_TEST_REQUIRE_NODE:-}" = 1 ]; then
        echo "FAIL tst_openapi_spec: $1 (BULLPEN_TEST_REQUIRE_NODE=1)"
        exit 1
    fi
    echo "SKIP tst_openapi_spec: $1"
    exit 77
}
command -v node >/dev/null || skip "node is not installed (Node.js 18 or newer; then: npm ci --prefix tests/openapi)"
for pkg in @seriousme/openapi-schema-validator yaml; do
    [ -f "$here/node_modules/$pkg/package.json" ] || skip "$pkg is not installed; run: npm ci --prefix tests/openapi"
done
exec node "$here/validate.mjs" "$doc"
