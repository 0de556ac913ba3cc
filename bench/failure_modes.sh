#!/usr/bin/env bash
# Seed 003's failure modes against their healthy twins (docs/failure-modes.md): runs the eight
# scenarios of examples/failure-modes/, draws leaf0's load per uplink of the two spraying pairs
# with `uetsim plot` (docs/figures/failure-modes-<run>-uplinks.png) and the congestion windows of
# the ECN pair (docs/figures/failure-modes-<run>-window.png), then, with bench/failure_modes_plot.py,
# the completion times and health signals of all four pairs side by side
# (docs/figures/failure-modes-fct.png, failure-modes-signals.png) and prints the docs' table.
# Usage: bench/failure_modes.sh [BUILD_DIR] (default build; a few seconds).
set -eu -o pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
out="$root/bench/out/failure_modes"
figures="$root/docs/figures"
[ -x "$uetsim" ] || { echo "bench/failure_modes.sh: $uetsim not found; build first" >&2; exit 2; }

rm -rf "$out" && mkdir -p "$out"
for f in "$root"/examples/failure-modes/*.yaml; do
  name=$(basename "$f" .yaml)
  "$uetsim" run "$f" --quiet --out "$out/$name" > /dev/null
done
plot() {  # RUN FIGURE SUFFIX [ARGS...]: one uetsim plot figure, renamed into docs/figures
  local run=$1 figure=$2 suffix=$3; shift 3
  "$uetsim" plot "$out/$run" --figure "$figure" --out "$out/$run/plots" "$@" > /dev/null
  cp "$out/$run/plots/$figure.png" "$figures/failure-modes-$run-$suffix.png"
  echo "$figures/failure-modes-$run-$suffix.png"
}
for run in spraying-without-ev-hash rod-for-bulk-data; do
  plot "$run" uplink-load uplinks --component leaf0
  plot "$run-healthy" uplink-load uplinks --component leaf0
done
plot ecn-thresholds-from-roce nic-window window
plot ecn-thresholds-from-roce-healthy nic-window window
/usr/bin/python3 "$root/bench/failure_modes_plot.py" "$out" "$figures"
