#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_alert_rules: the shipped Prometheus alerting rules (resources/monitoring/) are valid
# and do what their unit tests say (promtool, from Debian's prometheus package; scripts/install-deps.sh).
# Without promtool this fails: it is never skipped.
set -euo pipefail
dir="${1:?usage: run.sh <resources/monitoring>}"
command -v promtool >/dev/null || { echo "FAIL tst_alert_rules: promtool is not installed (apt-get install prometheus)"; exit 1; }
cd "$dir"
promtool check rules bullpen-alerts.yml
promtool test rules bullpen-alerts.test.yml
