#!/usr/bin/env bash
# Long runs with flat memory (issue #34, item 3): each soak runs one `uetsim run` and samples its
# resident set (VmRSS and the peak VmHWM from /proc) every INTERVAL seconds of wall time; after
# the warm-up (the first WARMUP seconds) the largest and smallest VmRSS samples must be within
# 5 % of each other. Records stream out row by row and finished work is released, so a run's
# memory is what is in flight, not what has been done.
#
#   uet-default    the default scenario (UET NICs, the RDMA application) to StopTime 1 s
#   roce-incast    8 RoCE senders to host 0 on one 400 Gbps switch, a 1 MiB Flows message
#                  (a queue pair of its own) from each every 176 us (95 % of host 0's link)
#                  for 1 s of simulated time, then 100 ms to drain
#   uet-incast     the same incast on UET NICs
#   uet-wall       the default scenario for WALL_MINUTES of wall time (stopped then)
#
# Usage: bench/soak.sh [BUILD_DIR] [SOAK...]       (default: all four)
#   INTERVAL=10 WARMUP=30 WALL_MINUTES=10
# Writes bench/out/soak/<soak>.csv (wall_s, rss_kib, hwm_kib) and prints one line per soak;
# bench/soak_plot.py draws docs/figures/soak-rss.png from the CSVs. Exit 1 when a soak is not
# flat or its run fails.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
shift || true
uetsim="$build/bin/uetsim"
[ -x "$uetsim" ] || { echo "bench/soak.sh: $uetsim not found; build first" >&2; exit 2; }
interval=${INTERVAL:-10}
warmup=${WARMUP:-30}
wall_minutes=${WALL_MINUTES:-10}
soaks=${*:-"uet-default roce-incast uet-incast uet-wall"}
out="$here/out/soak"
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/uetsim-soak.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The incast: 8 senders, each a 1 MiB message every 176 us (8 x 1 MiB at 400 Gbps is 167.8 us),
# so host 0's link is offered 95 % of its line rate for 1 s; every message completes by 1.1 s.
incast() {
    local nic=$1
    {
        echo "Simulation: {Name: soak-$nic-incast, StopTime: 1.1s, NDStatsReportInterval: 1ms}"
        echo "Records: {Enabled: [nd-stats, flow-perf]}"
        echo "Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}"
        echo "Switch: {MinThreshold: 0.0005, MaxThreshold: 0.01}"
        echo "Nic: {Type: $nic}"
        echo "Flows:"
        for ((i = 0; i < 5682; ++i)); do  # 5,682 x 176 us = 999.9 ms
            for s in 1 2 3 4 5 6 7 8; do
                echo "  - {Src: $s, Dst: 0, Bytes: 1MiB, Start: $((i * 176))us}"
            done
        done
    } > "$work/$nic-incast.yaml"
}

# Samples process $1 until it ends into CSV $2.
sample() {
    local pid=$1 csv=$2 t0 now rss hwm
    t0=$(date +%s.%N)
    echo "wall_s,rss_kib,hwm_kib" > "$csv"
    while kill -0 "$pid" 2> /dev/null; do
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2> /dev/null)
        hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2> /dev/null)
        now=$(date +%s.%N)
        [ -n "$rss" ] && awk -v a="$now" -v b="$t0" -v r="$rss" -v h="$hwm" \
            'BEGIN { printf "%.1f,%s,%s\n", a - b, r, h }' >> "$csv"
        sleep "$interval"
    done
}

# Max/min VmRSS after the warm-up, as a verdict line; 1 when not flat.
judge() {
    local name=$1 csv=$2 rc=$3
    awk -F, -v w="$warmup" -v name="$name" -v rc="$rc" '
        NR > 1 && $1 >= w { n++; if (!lo || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
        NR > 1 { last = $1; peak = $3 }
        END {
            if (rc != 0) { printf "%-12s run failed (exit %d)\n", name, rc; exit 1 }
            if (n < 2) { printf "%-12s %.0f s: too short for a verdict after %d s of warm-up\n", name, last, w; exit 0 }
            g = 100 * (hi - lo) / lo
            printf "%-12s %.0f s, %d samples after warm-up: VmRSS %.1f to %.1f MiB (%.2f %%), peak %.1f MiB: %s\n",
                   name, last, n, lo / 1024, hi / 1024, g, peak / 1024, (g <= 5 ? "flat" : "NOT FLAT")
            exit (g <= 5 ? 0 : 1)
        }' "$csv"
}

status=0
for soak in $soaks; do
    run=("$uetsim" run --out "$work/$soak" --quiet)
    limit=""
    case "$soak" in
        uet-default) run+=(--set Simulation.StopTime=1s) ;;
        roce-incast) incast roce && run+=("$work/roce-incast.yaml") ;;
        uet-incast) incast uet && run+=("$work/uet-incast.yaml") ;;
        uet-wall) run+=(--set Simulation.StopTime=100s --set Simulation.RunTime=100s) && limit=$((wall_minutes * 60)) ;;
        *) echo "bench/soak.sh: unknown soak '$soak' (uet-default, roce-incast, uet-incast, uet-wall)" >&2; exit 2 ;;
    esac
    "${run[@]}" > "$work/$soak.log" 2>&1 &
    pid=$!
    [ -n "$limit" ] && (sleep "$limit"; kill "$pid" 2> /dev/null) &
    sample "$pid" "$out/$soak.csv"
    wait "$pid"
    rc=$?
    # The wall soak is stopped by its limit (SIGTERM): that is its end, not a failure. The others
    # run to their end, where every message must have arrived exactly once.
    if [ -n "$limit" ]; then
        [ "$rc" -eq 143 ] && rc=0
    elif [ "$rc" -eq 0 ] && ! grep -Eq '^ *scoreboard +ok' "$work/$soak.log"; then
        echo "$soak: scoreboard not ok" >&2
        rc=3
    fi
    [ "$rc" -ne 0 ] && tail -5 "$work/$soak.log" >&2
    judge "$soak" "$out/$soak.csv" "$rc" || status=1
    rm -rf "${work:?}/$soak"
done
exit $status
