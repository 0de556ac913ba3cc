#!/usr/bin/env bash
# The seed's measurement (003: "measure with collectives"): all-reduce and all-to-all bus
# bandwidth against message size on a non-blocking and a 2:1 oversubscribed 400 Gbps leaf-spine,
# RoCE (ECMP, PFC) against UET (REPS spraying, trimming), at 64 and 512 ranks; and ring against
# halving-doubling. Each point is one `uetsim run` of a one-entry Collectives list; its
# chakra-busbw row goes to bench/out/collectives/points.csv, and bench/collectives_plot.py draws
#   docs/figures/collectives-busbw-<ranks>.png     (AllReduce and AllToAll, 4 fabric/NIC lines)
#   docs/figures/collectives-ring-vs-hd.png        (AllReduce ring against halving-doubling, UET)
#
# Usage: bench/collectives.sh [BUILD_DIR]
#   RANKS="64 512"            the scales (default both)
#   SIZES="1MiB 2MiB ... 256MiB"  the collective sizes (default 1 MiB to 256 MiB by doubling)
#   JOBS=2                    runs at a time
# Points already in points.csv are not run again (delete the file to start over). The full set
# (2 x 2 x 2 x 2 x 9 points, plus ring against halving-doubling) takes hours at 512 ranks on two
# cores; bench/RESULTS.md says which points were run for the committed figures.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
[ -x "$uetsim" ] || { echo "bench/collectives.sh: $uetsim not found; build first" >&2; exit 2; }
out="$here/out/collectives"
mkdir -p "$out"
points="$out/points.csv"
ranks_list=${RANKS:-"64 512"}
sizes=${SIZES:-"1MiB 2MiB 4MiB 8MiB 16MiB 32MiB 64MiB 128MiB 256MiB"}
jobs=${JOBS:-2}
[ -f "$points" ] || echo "ranks,fabric,nic,type,algorithm,bytes,run_time_us,ideal_time_us,algbw_gbps,busbw_gbps,link_fraction,wall_s,scoreboard" > "$points"

# One point: writes the scenario, runs it, appends its row.
point() {
    local ranks=$1 fabric=$2 nic=$3 type=$4 alg=$5 size=$6
    local id="r${ranks}-${fabric}-${nic}-${type}-${alg}-${size}"
    grep -q "^${ranks},${fabric},${nic},${type},${alg},${size}," "$points" && return 0
    local per_leaf spines
    if [ "$ranks" -le 64 ]; then per_leaf=8; else per_leaf=32; fi
    spines=$per_leaf
    [ "$fabric" = oversubscribed ] && spines=$((per_leaf / 2))
    local y="$out/$id.yaml"
    {
        echo "Simulation: {Name: coll, RunTime: 5s}"
        echo "Topology: {Kind: leaf-spine, Hosts: $ranks, HostsPerLeaf: $per_leaf, Spines: $spines, LinkRate: 400Gbps}"
        echo "Records: {Enabled: [chakra-busbw, chakra-comm-collective-stats]}"
        if [ "$nic" = uet ]; then
            echo "Nic: {Type: uet}"
            echo "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying, TrimmingEnabled: true}"
            echo "Switch: {UETPolicyEnabled: true, TrimmingEnabled: true, EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0]}"
        else
            echo "Nic: {Type: roce}"
        fi
        echo "Collectives:"
        echo "  - {Type: $type, Bytes: $size, Ranks: all, Algorithm: $alg}"
    } > "$y"
    local start end status=ok
    start=$(date +%s.%N)
    if ! "$uetsim" run "$y" --quiet --out "$out/$id" > "$out/$id.log" 2>&1; then status=failed; fi
    end=$(date +%s.%N)
    grep -q "scoreboard            ok" "$out/$id.log" || status=failed
    local row
    row=$(tail -n +2 "$out/$id/coll-chakra-busbw-0.csv" 2>/dev/null | head -1)
    # collective_hash,comm_type,expansion_algo,comm_size,pg_size,run_time_us,ideal_time_us,
    # algbw_gbps,busbw_gbps,link_rate_gbps,link_fraction,ideal_ratio
    IFS=, read -r _ _ _ bytes _ run ideal algbw busbw _ frac _ <<< "$row"
    echo "${ranks},${fabric},${nic},${type},${alg},${size},${run:-},${ideal:-},${algbw:-},${busbw:-},${frac:-},$(awk "BEGIN{print $end - $start}"),${status}" >> "$points"
    rm -rf "${out:?}/$id"
    echo "collectives: $id: busbw ${busbw:-?} Gbit/s ($status)" >&2
}
export -f point
export out points uetsim

tasks=()
for r in $ranks_list; do
    for f in non-blocking oversubscribed; do
        for n in roce uet; do
            for s in $sizes; do
                tasks+=("$r $f $n AllReduce ring $s" "$r $f $n AllToAll interleaved $s")
            done
        done
    done
    for s in $sizes; do tasks+=("$r non-blocking uet AllReduce halving-doubling $s"); done
done
printf '%s\n' "${tasks[@]}" | xargs -P "$jobs" -L 1 bash -c 'point "$@"' _
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
"$python" "$here/collectives_plot.py" "$points" "$root/docs/figures"
