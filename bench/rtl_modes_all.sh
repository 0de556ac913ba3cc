#!/usr/bin/env bash
# Every built-in RTL block in every mode on every example and bench scenario, with every other key
# at the scenario's value or its default (docs/rtl.md, "Latency"): for each scenario, one run in
# `model`, one with Rtl.FlowHash, Rtl.EntropyLoadBalancer and Rtl.SackTracker all `rtl`, one with
# all three `both`. Each run must exit 0 with a clean scoreboard, and the CSV records of the
# `rtl` and `both` runs must be byte-identical to the `model` run's.
#
# Usage: bench/rtl_modes_all.sh [BUILD_DIR] [SCENARIO...]
#   default scenarios: examples/*.yaml and bench/scenarios/*.yaml
#   STOP=50us   shortens every run to that Simulation.StopTime (default: each scenario's own;
#               the T2..T4 bench scenarios are large, so a full pass takes hours)
#   SKIP_BENCH=1  examples only
# Outputs go to bench/out/rtl_modes_all/<scenario>/<mode>/ (ignored by git); the table is
# bench/out/rtl_modes_all/results.md. Exit code 0 when every run passed.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
[ $# -gt 0 ] && shift
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
out="$here/out/rtl_modes_all"
if [ ! -x "$uetsim" ]; then
    echo "bench/rtl_modes_all.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if [ $# -gt 0 ]; then
    scenarios=("$@")
else
    scenarios=("$root"/examples/*.yaml)
    [ "${SKIP_BENCH:-0}" = 1 ] || scenarios+=("$here"/scenarios/*.yaml)
fi
stop=()
[ -n "${STOP:-}" ] && stop=(--set "Simulation.StopTime=$STOP")

rm -rf "$out"
mkdir -p "$out"
md="$out/results.md"
{
    echo "| scenario | model | rtl | both |"
    echo "|---|---|---|---|"
} > "$md"
status=0
for scenario in "${scenarios[@]}"; do
    name="$(basename "$scenario" .yaml)"
    row="| $name |"
    for mode in model rtl both; do
        dir="$out/$name/$mode"
        mkdir -p "$dir"
        sets=()
        if [ "$mode" != model ]; then
            for block in FlowHash EntropyLoadBalancer SackTracker; do
                sets+=(--set "Rtl.$block=$mode")
            done
        fi
        if ! "$uetsim" run "$scenario" --quiet --out "$dir" "${stop[@]}" "${sets[@]}" \
            > "$dir/summary.txt" 2> "$dir/stderr.txt"; then
            result="FAILED (exit $?, $dir/stderr.txt)"
            status=1
        elif ! grep -q "scoreboard            ok" "$dir/summary.txt"; then
            result="SCOREBOARD ($dir/summary.txt)"
            status=1
        elif [ "$mode" = model ]; then
            result=ok
        elif diff -rq -x '*manifest.json' -x 'summary.txt' -x 'stderr.txt' -x '*.fst' \
            "$out/$name/model" "$dir" > "$out/$name/$mode.diff"; then
            result="ok, records as model"
        else
            result="RECORDS DIFFER ($out/$name/$mode.diff)"
            status=1
        fi
        printf '%-40s %-6s %s\n' "$name" "$mode" "$result"
        row="$row $result |"
    done
    echo "$row" >> "$md"
done
exit $status
