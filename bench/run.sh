#!/usr/bin/env bash
# Runs the benchmark scenarios of bench/scenarios/ (in file-name order) and prints one line per
# scenario, read from the run's manifest:
#   name, simulated data packets, data packets per wall-clock second, events executed,
#   wall time, peak resident memory.
#
# Usage: bench/run.sh [BUILD_DIR]        (default: build; `make bench` passes $(BUILD))
#
# Outputs go to bench/out/<scenario>/ (ignored by git). A Markdown version of the table is
# written to bench/out/results.md for pasting into bench/RESULTS.md.
# The benchmark is not part of the test suite; it only needs a built build/bin/uetsim.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in
    /*) ;;
    *) build="$root/$build" ;;
esac
uetsim="$build/bin/uetsim"
out="$here/out"

if [ ! -x "$uetsim" ]; then
    echo "bench/run.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi

if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi

mkdir -p "$out"
md="$out/results.md"
{
    echo "| scenario | data packets | packets / wall s | events executed | wall time (s) | peak memory (MiB) |"
    echo "|---|---:|---:|---:|---:|---:|"
} > "$md"

printf '%-28s %12s %16s %16s %10s %10s\n' scenario data_packets packets_per_s events wall_s peak_MiB
status=0
for scenario in "$here"/scenarios/*.yaml; do
    name="$(basename "$scenario" .yaml)"
    dir="$out/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    "$uetsim" run "$scenario" --out "$dir" --quiet > "$dir/summary.txt" 2> "$dir/stderr.txt"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        printf '%-28s FAILED (exit code %s; see %s)\n' "$name" "$rc" "$dir/stderr.txt"
        status=1
        continue
    fi
    manifest="$(ls "$dir"/*-manifest.json 2>/dev/null | head -n 1)"
    if [ -z "$manifest" ]; then
        printf '%-28s FAILED (no manifest in %s)\n' "$name" "$dir"
        status=1
        continue
    fi
    if ! "$python" - "$name" "$manifest" "$md" <<'PY'
import json
import sys

name, path, md = sys.argv[1], sys.argv[2], sys.argv[3]
with open(path) as f:
    m = json.load(f)
packets = int(m["data_packets_sent"])
wall = float(m["wall_time_s"])
events = int(m["events_executed"])
rss_mib = float(m["peak_rss_bytes"]) / (1024 * 1024)
rate = packets / wall if wall > 0 else float("nan")
print(f"{name:<28} {packets:>12} {rate:>16,.0f} {events:>16} {wall:>10.3f} {rss_mib:>10.1f}")
with open(md, "a") as f:
    f.write(f"| {name} | {packets:,} | {rate:,.0f} | {events:,} | {wall:.3f} | {rss_mib:.1f} |\n")
# A benchmark only counts if the run did what it claims: every message delivered, once.
board = m.get("scoreboard", {})
msgs = m.get("messages", {})
if not board.get("ok", True) or msgs.get("completed") != msgs.get("total"):
    print(f"  warning: {name}: {msgs.get('completed')}/{msgs.get('total')} messages completed; "
          f"scoreboard: {board.get('report', '').strip()}", file=sys.stderr)
    sys.exit(3)
PY
    then
        status=1
    fi
done
exit $status
