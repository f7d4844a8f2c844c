#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: install packages, configure the `dev` preset (warnings as errors,
# AddressSanitizer + UndefinedBehaviorSanitizer), build everything and run every test with ctest. Every
# test runs under the sanitizers, which fail it on a memory error, a leak or undefined behaviour.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-options.sh

bash scripts/install-deps.sh
cmake --preset dev
cmake --build --preset dev --parallel "$(nproc)"
# The official provider SDKs for tst_sdk, pinned by tests/sdk/package-lock.json. Without Node.js (or
# without the npm registry) tst_sdk is skipped and says why, except where BULLPEN_TEST_REQUIRE_NODE=1
# (CI): there that is a failure.
if command -v npm >/dev/null; then
    if ! npm ci --prefix tests/sdk --no-audit --no-fund --loglevel=error; then
        [ "${BULLPEN_TEST_REQUIRE_NODE:-}" = 1 ] && { echo "test.sh: npm ci failed and BULLPEN_TEST_REQUIRE_NODE=1" >&2; exit 1; }
        echo "test.sh: npm ci failed; tst_sdk will be skipped"
    fi
    # The OpenAPI validator for tst_openapi_spec, pinned by tests/openapi/package-lock.json.
    if ! npm ci --prefix tests/openapi --no-audit --no-fund --loglevel=error; then
        [ "${BULLPEN_TEST_REQUIRE_NODE:-}" = 1 ] && { echo "test.sh: npm ci (tests/openapi) failed and BULLPEN_TEST_REQUIRE_NODE=1" >&2; exit 1; }
        echo "test.sh: npm ci (tests/openapi) failed; tst_openapi_spec will be skipped"
    fi
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} ctest --preset dev --parallel "$(nproc)" 2>&1 | tee "$log" || status=$?
# CI runs everything: a test that was skipped or not run is a failure there, named here. (A test
# CMake disables, such as tst_keychain where its Secret Service twin runs instead, is not a skip.)
if [ "${CI:-}" = true ]; then
    not_run=$(sed -n '/The following tests did not run:/,/^$/p' "$log" | grep -E '^\s+[0-9]+ - ' | grep -v '(Disabled)$' || true)
    if [ -n "$not_run" ]; then
        echo "test.sh: CI requires every test to run; these did not:" >&2
        echo "$not_run" >&2
        exit 1
    fi
    echo "test.sh: 0 skipped"
fi
exit "$status"
