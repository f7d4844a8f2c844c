#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The replay round trip (docs/contract.md §14): every built-in scenario × each built-in provider as the
# primary × streaming on and off. Each generation runs with bullpen-cli generate (embedded engine on
# the simulator, short timeouts, its own store), is replayed as recorded with bullpen-cli replay, and
# gives one row: reproduced, or the first difference; and how many attempts were played approximately.
# Exits 1 when any row is not reproduced.
#   bash scripts/replay-roundtrip.sh [BUILD_DIR [SCENARIO_GLOB]]   (default build/dev, every scenario)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
cli=$build/app/bullpen-cli
[[ -x $cli ]] || { echo "replay-roundtrip.sh: $cli not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
providers=(gemini qwen openai anthropic)
story="A fox learns to sail. The sea is rough. A gull helps. They reach the island."
user="sailor-7731@example.com"
failed=0 rows=0
printf '| scenario | primary | stream | verdict | approximate attempts |\n|---|---|---|---|---|\n'
for file in resources/scenarios/${2:-*}.json; do
    scenario=$(basename "$file" .json)
    for primary in "${providers[@]}"; do
        fallback=qwen; [[ $primary == qwen ]] && fallback=gemini
        for stream in 1 0; do
            data=$work/$scenario-$primary-$stream
            env GEMINI_STREAM=$stream DASHSCOPE_STREAM=$stream OPENAI_STREAM=$stream ANTHROPIC_STREAM=$stream \
                "$cli" generate --data-dir "$data" --scenario "$scenario" --primary "$primary" --fallback "$fallback" \
                --primary-timeout 1500ms --fallback-timeout 3000ms --story "$story" --user "$user" --fresh --json > "$data.gen" 2> /dev/null
            id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["generation_id"])' "$data.gen" 2> /dev/null)
            rows=$((rows + 1))
            if [[ -z $id ]]; then
                printf '| %s | %s | %s | the generation did not run | |\n' "$scenario" "$primary" "$stream"
                failed=$((failed + 1))
                continue
            fi
            "$cli" replay "$id" --data-dir "$data" --json --report "$data.report" > "$data.replay" 2> /dev/null
            python3 - "$data.replay" "$scenario" "$primary" "$stream" "$data.report" "$story" "$user" <<'PY' || failed=$((failed + 1))
import json, os, stat, sys
path, scenario, primary, stream, report_path, story, user = sys.argv[1:]
try:
    r = json.load(open(path))
    report_bytes = open(report_path, "rb").read()
    report = json.loads(report_bytes)
except Exception:
    print(f"| {scenario} | {primary} | {stream} | the replay did not run | |")
    sys.exit(1)
approx = len(r.get("scenario", {}).get("approximations", []))
verdict = "reproduced" if r["reproduced"] else "differs: " + "; ".join(r["differences"])[:160]
# The bug report: every part, 0600, and neither the story nor the user id in it.
leaks = [w for w in (story.split(".")[0], user) if w.encode() in report_bytes]
missing = [k for k in ("scenario", "settings", "verdict", "recorded", "replayed") if k not in report]
if leaks or missing or stat.S_IMODE(os.stat(report_path).st_mode) != 0o600 or report["verdict"] != {k: r[k] for k in ("reproduced", "summary", "differences")}:
    verdict = f"report: leaks {leaks}, missing {missing}, mode {oct(stat.S_IMODE(os.stat(report_path).st_mode))}"
    r["reproduced"] = False
print(f"| {scenario} | {primary} | {'on' if stream == '1' else 'off'} | {verdict} | {approx} |")
sys.exit(0 if r["reproduced"] else 1)
PY
        done
    done
done
echo
echo "replay-roundtrip.sh: $((rows - failed)) of $rows reproduced"
(( failed == 0 ))
