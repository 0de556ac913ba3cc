#!/usr/bin/env bash
# Runs the benchmark scenarios of bench/scenarios/ (in file-name order, or those given) and prints
# one line per scenario, read from the run's manifest:
#   name, simulated data packets, data packets per wall-clock second, events per data packet,
#   wall time (the manifest's), of it elaboration, the process's wall time from start to exit
#   and its CPU time (user + system, from /usr/bin/time), peak resident memory,
#   and for the issue #15 scenarios T1-T4 their target with met / not met.
#
# Usage: bench/run.sh [BUILD_DIR] [SCENARIO.yaml...]   (default: build, every bench scenario;
#                                                      `make bench` passes $(BUILD))
#
# Outputs go to bench/out/<scenario>/ (ignored by git). A Markdown version of the table is
# written to bench/out/results.md for pasting into bench/RESULTS.md.
# A scenario uetsim refuses (exit code 2, e.g. a topology above today's limits) is reported as
# "cannot run: <uetsim's message>" and does not fail the benchmark; a run that fails otherwise,
# or whose scoreboard is not clean, does (exit code 1).
# The benchmark is not part of the test suite; it only needs a built build/bin/uetsim.
#
# With UETSIM_HTSIM=path/to/htsim_uec, T1 and T2 (those of them run) are then run in both
# simulators, interleaved, by bench/htsim_compare.py, which prints the ratios of data packets per
# wall second and of peak RSS, best of three (docs/performance.md, "Against htsim").
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
shift || true
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
# The process's wall time (scenario loading and the model's teardown included, which the
# manifest's wall_time_s leaves out) and CPU time: on a shared machine the wall time also counts
# the waits for a core.
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%e %U %S")

if [ $# -gt 0 ]; then scenarios=("$@"); else scenarios=("$here"/scenarios/*.yaml); fi

mkdir -p "$out"
md="$out/results.md"
{
    echo "| scenario | data packets | packets / wall s | events / data packet | events executed | wall time (s) | elaboration (s) | process wall (s) | CPU time (s) | peak memory (MiB) | target (#15) | met |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
} > "$md"

printf '%-36s %10s %10s %8s %9s %8s %9s %8s %9s  %s\n' scenario data_pkts pkts_per_s ev_per_pkt \
    wall_s elab_s process_s cpu_s peak_MiB target
status=0
for scenario in "${scenarios[@]}"; do
    name="$(basename "$scenario" .yaml)"
    dir="$out/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ ${#timer[@]} -gt 0 ]; then
        "${timer[@]}" -o "$dir/cpu.txt" "$uetsim" run "$scenario" --out "$dir" --quiet \
            > "$dir/summary.txt" 2> "$dir/stderr.txt"
    else
        "$uetsim" run "$scenario" --out "$dir" --quiet > "$dir/summary.txt" 2> "$dir/stderr.txt"
    fi
    rc=$?
    if [ "$rc" -eq 2 ]; then
        # uetsim refused the scenario (bad input, or a limit of this build): say why.
        why="$(sed -n 's/^uetsim: error: //p' "$dir/stderr.txt" | head -n 1)"
        [ -n "$why" ] || why="$(head -n 1 "$dir/stderr.txt")"
        printf '%-36s cannot run: %s\n' "$name" "$why"
        echo "| $name | cannot run: ${why//|/\\|} | | | | | | | | | | |" >> "$md"
        continue
    fi
    if [ "$rc" -ne 0 ]; then
        printf '%-36s FAILED (exit code %s; see %s)\n' "$name" "$rc" "$dir/stderr.txt"
        status=1
        continue
    fi
    manifest="$(ls "$dir"/*-manifest.json 2>/dev/null | head -n 1)"
    if [ -z "$manifest" ]; then
        printf '%-36s FAILED (no manifest in %s)\n' "$name" "$dir"
        status=1
        continue
    fi
    if ! "$python" - "$name" "$manifest" "$md" "$dir/cpu.txt" <<'PY'
import json
import os
import sys

name, path, md, cpu_path = sys.argv[1:5]
with open(path) as f:
    m = json.load(f)
packets = int(m["data_packets_sent"])
wall = float(m["wall_time_s"])
elab = m.get("elaboration_wall_time_s")  # absent from builds before issue #15
events = int(m["events_executed"])
rss = float(m["peak_rss_bytes"])
rss_mib = rss / (1024 * 1024)
rate = packets / wall if wall > 0 else float("nan")
per_packet = events / packets if packets else float("nan")
cpu = process_wall = None
if os.path.exists(cpu_path):
    try:
        with open(cpu_path) as f:
            fields = [float(x) for x in f.read().split()[-3:]]
        process_wall, cpu = fields[0], fields[1] + fields[2]
    except (ValueError, IndexError):
        pass
# T3's "whole run": the process from start to exit when /usr/bin/time measured it.
whole = process_wall if process_wall is not None else wall

# Issue #15's targets (this machine class, single process): (label, [(what, met?)]).
MB, GB = 1e6, 1e9
targets = {
    "t1": (">= 0.6 M pkt/s", [rate >= 0.6e6]),
    "t2": (">= 0.08 M pkt/s, <= 150 MB", [rate >= 0.08e6, rss <= 150 * MB]),
    "t3": ("whole run <= 60 s, <= 1 GB", [whole <= 60, rss <= 1 * GB]),
    "t4": ("elaboration <= 60 s, <= 8 GB",
           [elab is not None and float(elab) <= 60, rss <= 8 * GB]),
}
key = next((k for k in targets if f"_{k}_" in f"_{name}_"), None)
target, verdict = "", ""
if key:
    target = f"{key.upper()}: {targets[key][0]}"
    verdict = "met" if all(targets[key][1]) else "not met"

elab_s = f"{float(elab):.3f}" if elab is not None else "-"
cpu_s = f"{cpu:.3f}" if cpu is not None else "-"
proc_s = f"{process_wall:.3f}" if process_wall is not None else "-"
tail = f"  {target} {verdict}" if key else ""
print(f"{name:<36} {packets:>10} {rate:>10,.0f} {per_packet:>8.2f} {wall:>9.3f} {elab_s:>8} "
      f"{proc_s:>9} {cpu_s:>8} {rss_mib:>9.1f}{tail}")
with open(md, "a") as f:
    f.write(f"| {name} | {packets:,} | {rate:,.0f} | {per_packet:.2f} | {events:,} | {wall:.3f} | "
            f"{elab_s} | {proc_s} | {cpu_s} | {rss_mib:.1f} | {target} | {verdict} |\n")
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

if [ -n "${UETSIM_HTSIM:-}" ]; then
    pairs=()
    for scenario in "${scenarios[@]}"; do
        case "$(basename "$scenario")" in *_t1_* | *_t2_*) pairs+=("$scenario") ;; esac
    done
    echo
    if [ ${#pairs[@]} -eq 0 ]; then
        echo "UETSIM_HTSIM: neither T1 nor T2 was run; nothing to compare"
    else
        echo "against htsim ($UETSIM_HTSIM), best of 3, interleaved:"
        "$python" "$here/htsim_compare.py" --uetsim "$uetsim" --htsim "$UETSIM_HTSIM" \
            --out "$out/htsim" "${pairs[@]}" || status=1
    fi
fi
exit $status
