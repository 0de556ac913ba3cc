#!/usr/bin/env bash
# RoCE against UET on the same fabric: the 8-flow cross-leaf collision scenario (8 hosts on leaf0
# each send 2 MiB to a host on leaf1 over 8 spines, 400 Gbps) on Nic.Type roce (one UDP source
# port, so one ECMP path, per queue pair) and on Nic.Type uet (Recycled Entropy Packet Spraying),
# over Simulation.RandomSeed 1..20, plus each NIC's solo flow; then draws
# docs/figures/roce_vs_uet.png (completion-time CDFs over the 20 seeds, per-spine load of one
# seed) with docs/figures/roce_vs_uet.py.
#
# Usage: bench/roce_vs_uet.sh [BUILD_DIR]     (default: build; about 40 s on two cores)
# Runs go to bench/out/roce_vs_uet/<nic>/seed<N>/ and .../<nic>/solo/ (ignored by git).
set -eu -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in
    /*) ;;
    *) build="$root/$build" ;;
esac
uetsim="$build/bin/uetsim"
out="$here/out/roce_vs_uet"
seeds=20

if [ ! -x "$uetsim" ]; then
    echo "bench/roce_vs_uet.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi

# The scenario of tests/system/roce_vs_uet_collision_test.cpp: $1 the NIC, $2 the flows.
scenario() {
    local nic="$1" flows="$2" i
    echo "Simulation: {Name: rvu}"
    echo "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8, LinkRate: 400Gbps}"
    echo "Switch: {EcmpHashMethod: crc32WithSalt}"
    echo "Records: {Enabled: [flow-perf, scala-switch-load-balancing-stats, nd-stats]}"
    echo "Nic: {Type: $nic}"
    if [ "$nic" = uet ]; then
        echo "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}"
    fi
    echo "Flows:"
    for ((i = 0; i < flows; i++)); do
        echo "  - {Src: $i, Dst: $((8 + i)), Bytes: 2MiB}"
    done
}

rm -rf "$out"
mkdir -p "$out"
for nic in roce uet; do
    mkdir -p "$out/$nic"
    scenario "$nic" 1 > "$out/$nic/solo.yaml"
    scenario "$nic" 8 > "$out/$nic/collision.yaml"
    "$uetsim" run "$out/$nic/solo.yaml" --quiet --out "$out/$nic/solo" > /dev/null
    for ((seed = 1; seed <= seeds; seed++)); do
        "$uetsim" run "$out/$nic/collision.yaml" --quiet --out "$out/$nic/seed$seed" \
            --set "Simulation.RandomSeed=$seed" > /dev/null
    done
    echo "roce_vs_uet: $nic: solo and $seeds seeds done"
done

"$python" "$root/docs/figures/roce_vs_uet.py" "$out"
