#!/usr/bin/env bash
# Figure (c) of issue #31: the switch buffer a lossless 15:1 incast takes under PFC and under CBFC.
# The incast of tests/system/lossless_incast_test.cpp (UET NICs, leaf-spine with one spine, 2
# leaves x 8 hosts, 400 Gbps; hosts 1..15 each send 2 MiB to host 0), once with PFC (the switch
# defaults: TC0 and TC1 lossless) and once with Link.Cbfc on every link, for leaf-spine link
# delays of 0.5, 2 and 5 us (about 100 m, 400 m and 1 km of fibre); then draws
# docs/figures/cbfc_incast.png with docs/figures/cbfc_incast.py.
#
# Usage: bench/cbfc_incast.sh [BUILD_DIR]     (default: build; a few minutes on two cores)
# Runs go to bench/out/cbfc_incast/<mode>-<delay>/ (ignored by git).
set -eu -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in
    /*) ;;
    *) build="$root/$build" ;;
esac
uetsim="$build/bin/uetsim"
out="$here/out/cbfc_incast"

if [ ! -x "$uetsim" ]; then
    echo "bench/cbfc_incast.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi

# $1: pfc or cbfc, $2: the leaf-spine links' delay.
scenario() {
    local mode="$1" delay="$2" s
    echo "Simulation: {Name: ci, StopTime: 20ms}"
    echo "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 1, LinkRate: 400Gbps}"
    echo "Nic: {Type: uet}"
    echo "UetNic: {InitialBaseRTT: auto}"
    echo "Records: {Enabled: [flow-perf, link-stats]}"
    echo "Switch: {ReportPerPortBufferStats: true, BufferStatsReportInterval: 5us}"
    if [ "$mode" = cbfc ]; then
        echo "Link: {Cbfc: true, SwitchDelay: $delay}"
    else
        echo "Link: {SwitchDelay: $delay}"
    fi
    echo "Flows:"
    for ((s = 1; s <= 15; s++)); do
        echo "  - {Src: $s, Dst: 0, Bytes: 2MiB}"
    done
}

rm -rf "$out"
mkdir -p "$out"
for delay in 500ns 2us 5us; do
    for mode in pfc cbfc; do
        run="$out/$mode-$delay"
        mkdir -p "$run"
        scenario "$mode" "$delay" > "$run/s.yaml"
        "$uetsim" inspect --json "$run/s.yaml" > "$run/inspect.json"
        "$uetsim" run "$run/s.yaml" --quiet --out "$run" > /dev/null
        echo "cbfc_incast: $mode, switch links $delay: done"
    done
done
"$python" "$root/docs/figures/cbfc_incast.py" "$out" "$root/docs/figures/cbfc_incast.png"
