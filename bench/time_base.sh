#!/usr/bin/env bash
# The two time bases (docs/time-base.md) on the bench: runs each scenario (default: every
# bench/scenarios/*.yaml) with Simulation.TimeBase decoupled and kernel, prints the CPU time of
# each and their ratio, and checks that every CSV and pcap is byte-identical and that the
# manifests differ only in events_executed and the key itself. Exit 1 on any difference.
#
# Usage: bench/time_base.sh [BUILD_DIR] [SCENARIO...]
# Outputs go to bench/out/time_base/<name>/<time base>/ (ignored by git).
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
shift || true
uetsim="$build/bin/uetsim"
out="$here/out/time_base"
if [ ! -x "$uetsim" ]; then
    echo "bench/time_base.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
if [ $# -gt 0 ]; then scenarios=("$@"); else scenarios=("$here"/scenarios/*.yaml); fi
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi

rm -rf "$out"
mkdir -p "$out"
status=0
printf '%-36s %12s %12s %7s  %s\n' scenario "decoupled s" "kernel s" ratio records
for s in "${scenarios[@]}"; do
    name=$(basename "$s" .yaml)
    declare -A cpu=()
    for tb in decoupled kernel; do
        dir="$out/$name/$tb"
        mkdir -p "$dir"
        if ! /usr/bin/time -f '%U %S' -o "$dir.time" "$uetsim" run "$s" --quiet --out "$dir" \
            --set "Simulation.TimeBase=$tb" >"$dir.log" 2>&1; then
            echo "$name: the $tb run failed (see $dir.log)" >&2
            status=1
        fi
        cpu[$tb]=$(awk '{printf "%.2f", $1 + $2}' "$dir.time")
    done
    verdict=identical
    while IFS= read -r f; do
        rel=${f#"$out/$name/decoupled/"}
        case "$rel" in
            *manifest.json)
                "$python" - "$f" "$out/$name/kernel/$rel" <<'PY' || verdict="manifest differs"
import json, sys
def clean(p):
    j = json.load(open(p))
    for k in ("wall_time_s", "elaboration_wall_time_s", "peak_rss_bytes", "events_executed"):
        j.pop(k, None)
    j["scenario"]["Simulation"].pop("TimeBase", None)
    return j
sys.exit(0 if clean(sys.argv[1]) == clean(sys.argv[2]) else 1)
PY
                ;;
            *.csv | *.pcap) cmp -s "$f" "$out/$name/kernel/$rel" || verdict="differs: $rel" ;;
        esac
    done < <(find "$out/$name/decoupled" -type f | sort)
    [ "$verdict" = identical ] || status=1
    ratio=$(awk -v a="${cpu[decoupled]}" -v b="${cpu[kernel]}" 'BEGIN { printf "%.2f", (a > 0) ? (b / a) : 0 }')
    printf '%-36s %12s %12s %7s  %s\n' "$name" "${cpu[decoupled]}" "${cpu[kernel]}" "${ratio}x" "$verdict"
    unset cpu
done
exit $status
