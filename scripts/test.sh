#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's test command: install packages, configure the `dev` preset (warnings as errors),
# build everything and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cmake --preset dev
cmake --build --preset dev --parallel "$(nproc)"
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} ctest --preset dev --parallel "$(nproc)"
