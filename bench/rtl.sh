#!/usr/bin/env bash
# The wall-time cost of the Verilated RTL blocks (docs/rtl.md): runs one 16-host scenario
# (default bench/scenarios/05_rdma_app_16_hosts.yaml) with every block in `model` mode, then each
# block alone in `rtl` and in `both` mode on every NIC and switch, then all three together, and
# prints the wall time of each run and its ratio to the model-only run. Each run's manifest must
# report a clean scoreboard, and `rtl` runs must give the same records as the model-only run.
#
# Usage: bench/rtl.sh [BUILD_DIR] [SCENARIO]
# Outputs go to bench/out/rtl/<case>/ (ignored by git); bench/out/rtl/results.md holds the table.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
scenario="${2:-$here/scenarios/05_rdma_app_16_hosts.yaml}"
uetsim="$build/bin/uetsim"
out="$here/out/rtl"
if [ ! -x "$uetsim" ]; then
    echo "bench/rtl.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi

cases=(
    "model|"
    "flow_hash_rtl|Rtl.FlowHash=rtl"
    "flow_hash_both|Rtl.FlowHash=both"
    "entropy_lb_rtl|Rtl.EntropyLoadBalancer=rtl"
    "entropy_lb_both|Rtl.EntropyLoadBalancer=both"
    "sack_tracker_rtl|Rtl.SackTracker=rtl"
    "sack_tracker_both|Rtl.SackTracker=both"
    "all_rtl|Rtl.FlowHash=rtl Rtl.EntropyLoadBalancer=rtl Rtl.SackTracker=rtl"
    "all_both|Rtl.FlowHash=both Rtl.EntropyLoadBalancer=both Rtl.SackTracker=both"
)

rm -rf "$out"
mkdir -p "$out"
md="$out/results.md"
{
    echo "| case | wall time (s) | × model | requests checked | records as model |"
    echo "|---|---:|---:|---:|---|"
} > "$md"
printf '%-20s %10s %8s %18s %s\n' case wall_s x_model checked records
status=0
model_wall=""
for c in "${cases[@]}"; do
    name="${c%%|*}"
    sets="${c#*|}"
    dir="$out/$name"
    mkdir -p "$dir"
    args=()
    for s in $sets; do args+=(--set "$s"); done
    if ! "$uetsim" run "$scenario" --out "$dir" --quiet "${args[@]}" > "$dir/summary.txt" 2> "$dir/stderr.txt"; then
        printf '%-20s FAILED (see %s)\n' "$name" "$dir/stderr.txt"
        status=1
        continue
    fi
    same="-"
    if [ "$name" != model ] && [ "${name%_rtl}" != "$name" ]; then
        if diff -rq -x '*manifest.json' -x 'summary.txt' -x 'stderr.txt' "$out/model" "$dir" > /dev/null; then
            same=identical
        else
            same=DIFFERENT
            status=1
        fi
    fi
    line="$("$python" - "$name" "$dir" "$same" "${model_wall:-0}" "$md" <<'PY'
import glob, json, sys
name, d, same, model_wall, md = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
m = json.load(open(glob.glob(d + "/*-manifest.json")[0]))
wall = float(m["wall_time_s"])
checked = int(m.get("rtl", {}).get("checked", 0))
ratio = wall / model_wall if model_wall > 0 else 1.0
board = m.get("scoreboard", {})
if not board.get("ok", True):
    print(f"scoreboard: {board.get('report', '')}", file=sys.stderr)
    sys.exit(3)
with open(md, "a") as f:
    f.write(f"| {name} | {wall:.3f} | {ratio:.2f} | {checked:,} | {same} |\n")
print(f"{name:<20} {wall:>10.3f} {ratio:>8.2f} {checked:>18,} {same} {wall}")
PY
)" || { status=1; continue; }
    echo "${line% *}"
    [ "$name" = model ] && model_wall="${line##* }"
done
exit $status
