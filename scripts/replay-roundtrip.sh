#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The replay round trip (docs/contract.md §14): every built-in scenario × each built-in provider as the
# primary × streaming on and off. Each generation runs with bullpen-cli generate (embedded engine on
# the simulator, short timeouts, its own store), is replayed as recorded with bullpen-cli replay, and
# gives one row: reproduced, or the first difference; and how many attempts were played approximately.
# A replay that differs is replayed once more (the row says so). Exits 1 when any row is not reproduced. Rows run REPLAY_JOBS at a time (default 4: most of a row's
# time is a provider's scripted wait, not CPU); the table keeps their order.
#   bash scripts/replay-roundtrip.sh [BUILD_DIR [SCENARIO_GLOB]]   (default build/dev, every scenario)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
cli=$build/app/bullpen-cli
[[ -x $cli && -x $build/app/bullpen-sim ]] || { echo "replay-roundtrip.sh: $cli or bullpen-sim not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The built-in providers (id, name, environment prefix), from the registry through the simulator.
builtins=$("$build/app/bullpen-sim" --providers)
mapfile -t providers < <(cut -f1 <<< "$builtins")
mapfile -t prefixes < <(cut -f3 <<< "$builtins")
(( ${#providers[@]} >= 2 )) || { echo "replay-roundtrip.sh: bullpen-sim --providers listed fewer than two providers" >&2; exit 2; }
parallel=${REPLAY_JOBS:-4}
story="A fox learns to sail. The sea is rough. A gull helps. They reach the island."
user="sailor-7731@example.com"
# One row: generate, replay, judge. Prints the table row; exits 1 when it is not reproduced.
row() {
    local scenario=$1 primary=$2 stream=$3 fallback=${providers[1]} data id prefix streams=()
    [[ $primary == "$fallback" ]] && fallback=${providers[0]}
    data=$work/$scenario-$primary-$stream
    for prefix in "${prefixes[@]}"; do streams+=("${prefix}_STREAM=$stream"); done
    env "${streams[@]}" \
        "$cli" generate --data-dir "$data" --scenario "$scenario" --primary "$primary" --fallback "$fallback" \
        --primary-timeout 1500ms --fallback-timeout 3000ms --story "$story" --user "$user" --fresh --json > "$data.gen" 2> /dev/null
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["generation_id"])' "$data.gen" 2> /dev/null)
    if [[ -z $id ]]; then
        printf '| %s | %s | %s | the generation did not run | |\n' "$scenario" "$primary" "$stream"
        return 1
    fi
    # A row whose replay differs in its timings is replayed once more, from the same record: four ASan
    # processes share two cores here, and one replay's attempt can wait a scheduler's slice longer than
    # its recording did. The row then says so, with the first replay's difference; a difference that
    # holds fails the row, as does any other failure of the first replay.
    local first=
    for attempt in 1 2; do
        "$cli" replay "$id" --data-dir "$data" --json --report "$data.report" > "$data.replay" 2> /dev/null
        if judge "$data" "$scenario" "$primary" "$stream" "$first"; then
            return 0
        fi
        first=$(cat "$data.verdict" 2> /dev/null)
        [[ $attempt == 1 && $first == differs:* ]] || break
    done
    cat "$data.row"
    return 1
}

# Judges one replay of a row: writes its table row ($data.row, printed when it reproduced) and verdict.
judge() {
    local data=$1 scenario=$2 primary=$3 stream=$4 first=$5
    python3 - "$data.replay" "$scenario" "$primary" "$stream" "$data.report" "$story" "$user" "$first" "$data" <<'PY'
import json, os, stat, sys
path, scenario, primary, stream, report_path, story, user, first, data = sys.argv[1:]


def out(line, verdict, code):
    open(data + ".row", "w").write(line + "\n")
    open(data + ".verdict", "w").write(verdict)
    if code == 0:
        print(line)
    sys.exit(code)


try:
    r = json.load(open(path))
    report_bytes = open(report_path, "rb").read()
    report = json.loads(report_bytes)
except Exception:
    out(f"| {scenario} | {primary} | {stream} | the replay did not run | |", "did not run", 1)
approx = len(r.get("scenario", {}).get("approximations", []))
verdict = "reproduced" if r["reproduced"] else "differs: " + "; ".join(r["differences"])[:160]
# The bug report: every part, 0600, and neither the story nor the user id in it.
leaks = [w for w in (story.split(".")[0], user) if w.encode() in report_bytes]
missing = [k for k in ("scenario", "settings", "verdict", "recorded", "replayed") if k not in report]
if leaks or missing or stat.S_IMODE(os.stat(report_path).st_mode) != 0o600 or report["verdict"] != {k: r[k] for k in ("reproduced", "summary", "differences")}:
    verdict = f"report: leaks {leaks}, missing {missing}, mode {oct(stat.S_IMODE(os.stat(report_path).st_mode))}"
    r["reproduced"] = False
if r["reproduced"] and first:
    verdict = "reproduced on a second replay; the first " + first[:140]
out(f"| {scenario} | {primary} | {'on' if stream == '1' else 'off'} | {verdict} | {approx} |", verdict, 0 if r["reproduced"] else 1)
PY
}

mkdir -p "$work/rows"
rows=0
for file in resources/scenarios/${2:-*}.json; do
    scenario=$(basename "$file" .json)
    for primary in "${providers[@]}"; do
        for stream in 1 0; do
            rows=$((rows + 1))
            while (( $(jobs -rp | wc -l) >= parallel )); do wait -n || true; done
            n=$(printf '%04d' "$rows")
            ( row "$scenario" "$primary" "$stream" > "$work/rows/$n.md"; echo $? > "$work/rows/$n.rc" ) &
        done
    done
done
wait
printf '| scenario | primary | stream | verdict | approximate attempts |\n|---|---|---|---|---|\n'
cat "$work"/rows/*.md
failed=$(grep -Lx 0 "$work"/rows/*.rc | wc -l)
echo
again=$(grep -l "reproduced on a second replay" "$work"/rows/*.md | wc -l)
echo "replay-roundtrip.sh: $((rows - failed)) of $rows reproduced ($again of them on a second replay)"
(( failed == 0 ))
