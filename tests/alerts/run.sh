#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CTest entry tst_alert_rules: the shipped Prometheus alerting rules (resources/monitoring/) are valid
# and do what their unit tests say (promtool, from Debian's prometheus package; scripts/install-deps.sh):
# bullpen-alerts.test.yml tests each rule, bullpen-outage.test.yml the rules on a 30-minute outage under
# the breaker's real cycle, as outage_series.py writes it. Every rule's runbook_url names a runbook
# heading of docs/operations.md. Without promtool this fails: it is never skipped.
set -euo pipefail
dir="${1:?usage: run.sh <resources/monitoring>}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
docs="$here/../../docs/operations.md"
command -v promtool >/dev/null || { echo "FAIL tst_alert_rules: promtool is not installed (apt-get install prometheus)"; exit 1; }
command -v python3 >/dev/null || { echo "FAIL tst_alert_rules: python3 is not installed"; exit 1; }
cd "$dir"

if ! python3 "$here/outage_series.py" | diff -u bullpen-outage.test.yml -; then
    echo "FAIL tst_alert_rules: bullpen-outage.test.yml is not what tests/alerts/outage_series.py writes; change the script and run"
    echo "  python3 tests/alerts/outage_series.py > resources/monitoring/bullpen-outage.test.yml"
    exit 1
fi

# Each alert has one runbook_url, docs/operations.md#<its name in lower case>, and that page has the heading.
missing=$(awk '
    /^ *- alert: / { if (name != "" && !seen) print name ": no runbook_url"; name = $3; seen = 0 }
    /^ *runbook_url: / {
        want = "\"docs/operations.md#" tolower(name) "\""
        if ($2 != want) print name ": runbook_url " $2 ", not " want
        seen = 1
    }
    END { if (name != "" && !seen) print name ": no runbook_url" }' bullpen-alerts.yml)
for name in $(sed -n 's/^ *- alert: *//p' bullpen-alerts.yml); do
    grep -qx "### $name" "$docs" || missing+=$'\n'"$name: docs/operations.md has no heading \"### $name\""
done
if [ -n "$missing" ]; then
    echo "FAIL tst_alert_rules: runbooks:"
    sed '/^$/d; s/^/  /' <<<"$missing"
    exit 1
fi

promtool check rules bullpen-alerts.yml
promtool test rules bullpen-alerts.test.yml bullpen-outage.test.yml
