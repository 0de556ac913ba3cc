#!/usr/bin/env bash
# The Chakra workload's speed and memory targets (issue 28):
#   1. trace preparation of 1,024 ranks x 200 collectives in under 10 s (`uetsim validate`
#      prepares without simulating), from a Collectives list and from its chakra-gen traceset;
#   2. a 1,024-rank ring AllReduce of 16 MiB on UET within 3x the wall time of the same bytes
#      as Flows (each host sends 2 x 16 MiB x 1023/1024 to the next, the ring's pairs);
#   3. memory follows the collectives in flight, not the trace: peak RSS of a 64-rank AllReduce
#      of 1 MiB run once and 50 times one after another.
# Usage: bench/collectives_speed.sh [BUILD_DIR]; prints one line per measurement.
set -u -o pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
out="$here/out/collectives-speed"
rm -rf "$out"
mkdir -p "$out"
fabric="Topology: {Kind: leaf-spine, Hosts: 1024, HostsPerLeaf: 32, Spines: 32, LinkRate: 400Gbps}"
measure() {  # label, then the command: prints wall seconds and peak RSS
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$out/time" "$@" > "$out/last.log" 2>&1 || { echo "$label: FAILED"; cat "$out/last.log"; return 1; }
    read -r wall rss < "$out/time"
    printf '%-58s %8.2f s %9d KB\n' "$label" "$wall" "$rss"
}

cat > "$out/prep.yaml" <<Y
Simulation: {Name: prep}
$fabric
Collectives:
  - {Type: AllReduce, Bytes: 16MiB, Ranks: all, Iterations: 100}
  - {Type: AllToAll, Bytes: 16MiB, Ranks: all, Iterations: 100}
Y
measure "preparation, 1024 ranks x 200 collectives (list)" "$uetsim" validate "$out/prep.yaml"
"$uetsim" chakra-gen "$out/prep.yaml" --out "$out/traces/prep" > /dev/null
printf 'Simulation: {Name: prep}\n%s\nChakra: {Traces: traces/prep}\n' "$fabric" > "$out/prep-traces.yaml"
measure "preparation, 1024 ranks x 200 collectives (traceset)" "$uetsim" validate "$out/prep-traces.yaml"

uet="UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}"
printf 'Simulation: {Name: ring, RunTime: 1s}\n%s\n%s\nCollectives:\n  - {Type: AllReduce, Bytes: 16MiB, Ranks: all}\n' "$fabric" "$uet" > "$out/ring.yaml"
{
    printf 'Simulation: {Name: flows}\n%s\n%s\nFlows:\n' "$fabric" "$uet"
    bytes=$((2 * 16777216 * 1023 / 1024))
    for h in $(seq 0 1023); do echo "  - {Src: $h, Dst: $(( (h + 1) % 1024 )), Bytes: $bytes}"; done
} > "$out/flows.yaml"
measure "1024-rank ring AllReduce 16 MiB, UET" "$uetsim" run "$out/ring.yaml" --quiet --out "$out/ring"
grep -E "scoreboard|events|data packets sent" "$out/last.log" | sed 's/^/    /'
measure "the same bytes as 1024 Flows, UET" "$uetsim" run "$out/flows.yaml" --quiet --out "$out/flows"
grep -E "scoreboard|events|data packets sent" "$out/last.log" | sed 's/^/    /'

small="Topology: {Kind: leaf-spine, Hosts: 64, HostsPerLeaf: 8, Spines: 8, LinkRate: 400Gbps}"
for n in 1 50; do
    printf 'Simulation: {Name: mem, RunTime: 1s}\n%s\nCollectives:\n  - {Type: AllReduce, Bytes: 1MiB, Ranks: all, Iterations: %d}\n' "$small" "$n" > "$out/mem$n.yaml"
    measure "64-rank AllReduce 1 MiB x $n" "$uetsim" run "$out/mem$n.yaml" --quiet --out "$out/mem$n"
done
