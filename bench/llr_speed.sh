#!/usr/bin/env bash
# Issue #31's speed budget for Link Level Retry: bench 04 with LLR on every link against the same
# build with LLR off, in interleaved rounds (off, on, off, on, ...) so that a change in the
# machine's load falls on both alike, each run pinned to one core where `taskset` exists. Prints
# each run's wall time (the manifest's `wall_time_s`) and events, then the best and the median of
# each side and LLR on's cost against the +30 % budget. With UETSIM_CALLGRIND=1 it also counts
# both runs' instructions under valgrind (a figure that does not depend on the machine's load;
# about two minutes more).
#
# Usage: bench/llr_speed.sh [BUILD_DIR] [ROUNDS]   (default: build, 8 rounds)
#
# Outputs go to bench/out/llr_speed/ (ignored by git), or to $LLR_SPEED_OUT if set. Exit code 0
# whether or not the budget is met (this is a measurement; docs/link-layer.md says where it
# stands), 1 if a run fails, 2 for bad arguments.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
rounds="${2:-8}"
case "$build" in
    /*) ;;
    *) build="$root/$build" ;;
esac
uetsim="$build/bin/uetsim"
scenario="$here/scenarios/04_uet_nic_8flows_spray.yaml"
out="${LLR_SPEED_OUT:-$here/out/llr_speed}"

if [ ! -x "$uetsim" ]; then
    echo "bench/llr_speed.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench/llr_speed.sh: ROUNDS=$rounds: a whole number of rounds from 1 is needed" >&2
    exit 2
fi
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
pin=()
command -v taskset > /dev/null && pin=(taskset -c "$(($(nproc) - 1))")

rm -rf "$out"
mkdir -p "$out"
log="$out/runs.txt"
: > "$log"

# One run: its label, wall time and events go to the log.
run() {
    local label="$1" dir="$out/$1"
    shift
    rm -rf "$dir"
    if ! "${pin[@]}" "$uetsim" run "$scenario" "$@" --quiet --out "$dir" \
        > "$dir.stdout" 2> "$dir.stderr"; then
        echo "bench/llr_speed.sh: the $label run failed (see $dir.stderr)" >&2
        exit 1
    fi
    "$python" - "$label" "$dir" >> "$log" <<'PY'
import glob, json, sys
label, d = sys.argv[1:3]
m = json.load(open(glob.glob(d + "/*-manifest.json")[0]))
print(label, m["wall_time_s"], m["events_executed"])
PY
    tail -n 1 "$log"
}

for i in $(seq "$rounds"); do
    run off
    run on --set Link.Llr=true
done

instructions=()
if [ "${UETSIM_CALLGRIND:-0}" = 1 ]; then
    if ! command -v valgrind > /dev/null; then
        echo "bench/llr_speed.sh: UETSIM_CALLGRIND=1 needs valgrind (scripts/setup.sh)" >&2
        exit 2
    fi
    for side in off on; do
        extra=()
        [ "$side" = on ] && extra=(--set Link.Llr=true)
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$uetsim" run "$scenario" \
            "${extra[@]}" --quiet --out "$out/cg-$side" > /dev/null 2> "$out/cg-$side.log" ||
            { echo "bench/llr_speed.sh: the $side run under valgrind failed" >&2; exit 1; }
        instructions+=("$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/cg-$side.log")")
    done
fi

"$python" - "$log" "${instructions[@]}" <<'PY'
import statistics, sys
runs = {"off": [], "on": []}
events = {}
for line in open(sys.argv[1]):
    label, wall, ev = line.split()
    runs[label].append(float(wall))
    events[label] = int(ev)
best = {k: min(v) for k, v in runs.items()}
median = {k: statistics.median(v) for k, v in runs.items()}
n = len(runs["off"])
print(f"bench 04, {n} interleaved round{'s' if n > 1 else ''} (wall time, s):")
for k in ("off", "on"):
    print(f"  LLR {k:<3}  best {best[k]:.3f}  median {median[k]:.3f}  events {events[k]:,}")
cost_best = (best["on"] / best["off"] - 1) * 100
cost_median = (median["on"] / median["off"] - 1) * 100
verdict = "within" if cost_best <= 30 else "above"
print(f"LLR on costs {cost_best:+.1f} % (best against best), {cost_median:+.1f} % (medians): "
      f"{verdict} #31's +30 % budget")
if len(sys.argv) == 4:
    off, on = int(sys.argv[2]), int(sys.argv[3])
    print(f"instructions: LLR off {off / 1e6:,.1f} M, on {on / 1e6:,.1f} M ({(on / off - 1) * 100:+.1f} %)")
PY
