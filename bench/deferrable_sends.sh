#!/usr/bin/env bash
# Deferrable sends against eager ones in an incast (docs/deferrable-sends.md): 8 UET senders of
# 1 MiB each to host 0 on one switch at 400 Gbps, started together, (a) as ordinary (eager)
# sends, (b) as deferrable sends whose receive buffers host 0 posts at 50 us, after every first
# transfer has arrived and been discarded, and (c) the same posted at 0 (before anything
# arrives: eager). Draws docs/figures/deferrable-vs-eager.png: each message's completion time and
# the bytes the senders put on host 0's link. Usage: bench/deferrable_sends.sh [BUILD_DIR]
# (default build; a few seconds).
set -eu -o pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
out="$root/bench/out/deferrable_sends"
[ -x "$uetsim" ] || { echo "bench/deferrable_sends.sh: $uetsim not found; build first" >&2; exit 2; }

scenario() {
  echo "Simulation: {Name: dfr, StopTime: 20ms}"
  echo "Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}"
  echo "Nic: {Type: uet}"
  echo "Records: {Enabled: [flow-perf, nd-stats]}"
  echo "Flows:"
  for s in 1 2 3 4 5 6 7 8; do echo "  - {Src: $s, Dst: 0, Bytes: 1MiB$1}"; done
}
rm -rf "$out" && mkdir -p "$out"
for c in eager:"" deferred:", RecvPostedAt: 50us" posted-early:", RecvPostedAt: 0s"; do
  name=${c%%:*}
  scenario "${c#*:}" > "$out/$name.yaml"
  "$uetsim" run "$out/$name.yaml" --quiet --out "$out/$name" > /dev/null
done
/usr/bin/python3 "$root/bench/deferrable_sends_plot.py" "$out" "$root/docs/figures/deferrable-vs-eager.png"
