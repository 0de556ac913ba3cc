#!/usr/bin/env bash
# Wall time and peak memory against the number of hosts (16, 128, 1,024, 8,192, 65,536) for two
# topology families, leaf-spine and fat tree (K = 4, 8, 16, 32, 64), with a fixed small per-host
# workload: a random permutation (derangement, seed 15) of 100,000 B messages through UET NICs at
# 100 Gbps (bench/gen_scenario.py --scaling writes the scenarios).
#
# Usage: bench/scaling.sh [BUILD_DIR] [MAX_HOSTS]   (default: build, 65536)
#        PLOT_ONLY=1 bench/scaling.sh   draws the figure again from bench/out/scaling/scaling.csv
#
# Runs go to bench/out/scaling/ (ignored by git), the table to bench/out/scaling/scaling.csv,
# the figure to bench/scaling.png (committed). A size uetsim refuses (exit code 2: a limit of
# this build) or one above MAX_HOSTS is left out of the figure, and the script and the figure
# say why.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="${1:-build}"
max_hosts="${2:-65536}"
case "$build" in
    /*) ;;
    *) build="$root/$build" ;;
esac
uetsim="$build/bin/uetsim"
out="$here/out/scaling"
if [ ! -x "$uetsim" ]; then
    echo "bench/scaling.sh: $uetsim not found; build first (make build)" >&2
    exit 2
fi
python=/usr/bin/python3  # Debian's, with python3-matplotlib (scripts/setup.sh)
[ -x "$python" ] || python=python3

csv="$out/scaling.csv"
status=0
if [ "${PLOT_ONLY:-0}" != 1 ]; then
rm -rf "$out"
mkdir -p "$out"
"$python" "$here/gen_scenario.py" --scaling "$out/scenarios" > /dev/null || exit 1
echo "family,hosts,status,wall_time_s,elaboration_wall_time_s,peak_rss_bytes,data_packets,events,note" > "$csv"

for family in leaf_spine fat_tree; do
    for hosts in 16 128 1024 8192 65536; do
        name="${family}_${hosts}"
        dir="$out/$name"
        if [ "$hosts" -gt "$max_hosts" ]; then
            echo "$family,$hosts,skipped,,,,,,above MAX_HOSTS $max_hosts" >> "$csv"
            printf '%-20s skipped (above MAX_HOSTS %s)\n' "$name" "$max_hosts"
            continue
        fi
        mkdir -p "$dir"
        "$uetsim" run "$out/scenarios/$name.yaml" --out "$dir" --quiet \
            > "$dir/summary.txt" 2> "$dir/stderr.txt"
        rc=$?
        if [ "$rc" -eq 2 ]; then
            why="$(sed -n 's/^uetsim: error: //p' "$dir/stderr.txt" | head -n 1)"
            why="${why#*.yaml:*: }"  # the key and the limit, without the file position
            echo "$family,$hosts,refused,,,,,,\"${why//\"/\'}\"" >> "$csv"
            printf '%-20s cannot run: %s\n' "$name" "$why"
            continue
        fi
        manifest="$(ls "$dir"/*-manifest.json 2>/dev/null | head -n 1)"
        if [ "$rc" -ne 0 ] || [ -z "$manifest" ]; then
            echo "$family,$hosts,failed,,,,,,exit code $rc" >> "$csv"
            printf '%-20s FAILED (exit code %s; see %s)\n' "$name" "$rc" "$dir/stderr.txt"
            status=1
            continue
        fi
        "$python" - "$family" "$hosts" "$manifest" "$csv" <<'PY' || status=1
import json
import sys

family, hosts, path, csv = sys.argv[1:5]
m = json.load(open(path))
ok = m["scoreboard"]["ok"] and m["messages"]["completed"] == m["messages"]["total"]
elab = m.get("elaboration_wall_time_s", "")
with open(csv, "a") as f:
    f.write(f"{family},{hosts},{'ok' if ok else 'incomplete'},{m['wall_time_s']},{elab},"
            f"{m['peak_rss_bytes']},{m['data_packets_sent']},{m['events_executed']},\n")
print(f"{family + '_' + hosts:<20} wall {m['wall_time_s']:8.2f} s  elaboration "
      f"{elab if elab == '' else round(elab, 2)} s  peak {m['peak_rss_bytes'] / 2**20:8.1f} MiB  "
      f"{m['data_packets_sent']:,} data packets{'' if ok else '  (scoreboard NOT clean)'}")
sys.exit(0 if ok else 3)
PY
    done
done
fi

"$python" - "$csv" "$here/scaling.png" <<'PY' || status=1
import csv
import datetime
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
hosts_axis = [16, 128, 1024, 8192, 65536]
style = {"leaf_spine": ("leaf-spine", "o", "tab:blue"),
         "fat_tree": ("fat tree K = 4 ... 64", "s", "tab:orange")}
fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 5), dpi=100)
missing = []
for family, (label, marker, color) in style.items():
    ok = [r for r in rows if r["family"] == family and r["status"] in ("ok", "incomplete")]
    xs = [int(r["hosts"]) for r in ok]
    ax_t.plot(xs, [float(r["wall_time_s"]) for r in ok], marker=marker, color=color,
              label=label + ", whole run")
    el = [(int(r["hosts"]), float(r["elaboration_wall_time_s"]))
          for r in ok if r["elaboration_wall_time_s"]]
    if el:
        ax_t.plot([x for x, _ in el], [y for _, y in el], marker=marker, color=color,
                  linestyle="--", fillstyle="none", label=label + ", elaboration")
    ax_m.plot(xs, [float(r["peak_rss_bytes"]) / 2**20 for r in ok], marker=marker,
              color=color, label=label)
    for r in rows:
        if r["family"] == family and r["status"] not in ("ok", "incomplete"):
            missing.append(f"{label.split(' K')[0]} {int(r['hosts']):,} {r['status']} "
                           f"({r['note']})")
for ax, ylabel in ((ax_t, "wall time (s)"), (ax_m, "peak resident memory (MiB)")):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(hosts_axis)
    ax.set_xticklabels([f"{h:,}" for h in hosts_axis])
    ax.set_xlim(10, 100000)
    ax.set_xlabel("hosts")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
when = datetime.datetime.fromtimestamp(os.path.getmtime(sys.argv[1]), datetime.timezone.utc)
fig.suptitle("uetsim scaling: a random permutation of 100,000 B messages per host, UET NICs, "
             f"100 Gbps\nmeasured {when:%Y-%m-%d} (wall times of one run each; they swing with "
             "the machine's load)", fontsize=10)
if missing:
    fig.text(0.01, 0.01, "not run: " + "; ".join(missing), fontsize=7, wrap=True)
fig.tight_layout(rect=(0, 0.06 if missing else 0, 1, 0.93))
fig.savefig(sys.argv[2])
print(f"wrote {sys.argv[2]}" + (f" ({len(missing)} sizes missing)" if missing else ""))
PY
exit $status
