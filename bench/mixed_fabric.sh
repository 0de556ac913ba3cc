#!/usr/bin/env bash
# RoCE and UET NICs on one leaf-spine (examples/mixed-fabric.yaml): an incast on each class (RoCE
# 7:1 to host 0 in TC1 with a UET flow 12 -> 5 beside it; UET 7:1 to host 4 in TC0 with a RoCE
# flow 8 -> 1 beside it), each with the classes apart (TC1 lossless in pool 1, TC0 lossy in pool
# 0: the example) and with both lossless in one pool; plus each victim alone. Draws
# docs/figures/mixed-fabric.png: the flows' completion times and, per class, the switches' pause
# frames (RoCE incast) or CE marks (UET incast). Usage: bench/mixed_fabric.sh [BUILD_DIR] (default build; a few seconds).
set -eu -o pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-build}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
uetsim="$build/bin/uetsim"
out="$root/bench/out/mixed_fabric"
[ -x "$uetsim" ] || { echo "bench/mixed_fabric.sh: $uetsim not found; build first" >&2; exit 2; }

f() { echo "{Src: $1, Dst: $2, Bytes: 2MiB, TrafficClass: $3}"; }
roce_incast="[$(f 1 0 1), $(f 2 0 1), $(f 3 0 1), $(f 8 0 1), $(f 9 0 1), $(f 10 0 1), $(f 11 0 1), $(f 12 5 0)]"
uet_incast="[$(f 5 4 0), $(f 6 4 0), $(f 7 4 0), $(f 12 4 0), $(f 13 4 0), $(f 14 4 0), $(f 15 4 0), $(f 8 1 1)]"
shared=(--set 'Switch.EnablePFC=[1, 1, 0, 0, 0, 0, 0, 0]'
        --set 'Switch.TrafficClassPoolMapping=[0, 0, 0, 0, 0, 0, 0, 0]')
run() { "$uetsim" run "$root/examples/mixed-fabric.yaml" --quiet --out "$out/$1" "${@:2}" > /dev/null; }

rm -rf "$out" && mkdir -p "$out"
run roce-apart --set "Flows=$roce_incast"
run roce-shared --set "Flows=$roce_incast" "${shared[@]}"
run uet-apart --set "Flows=$uet_incast"
run uet-shared --set "Flows=$uet_incast" "${shared[@]}"
run uet-alone --set "Flows=[$(f 12 5 0)]"
run roce-alone --set "Flows=[$(f 8 1 1)]"

if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python=python3; fi
"$python" - "$out" "$root/docs/figures/mixed-fabric.png" <<'PY'
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, png = sys.argv[1], sys.argv[2]
rows = lambda run, rec: list(csv.DictReader(open(f"{out}/{run}/mixed-fabric-{rec}-0.csv")))
def fct(run, src, dst):
    return next(float(r["fct_usec"]) for r in rows(run, "flow-perf")
                if r["src_host"] == str(src) and r["dst_host"] == str(dst))
def switch_total(run, tc, column):  # over the switch ports (cumulative counters: last row)
    last = {}
    for r in rows(run, "ecn-pfc-stats"):
        if r["component_type"] == "Switch" and r["priority"] == str(tc):
            last[(r["component_name"], r["ifid"])] = float(r[column])
    return sum(last.values())
fig, axes = plt.subplots(2, 2, figsize=(10, 6.5))
cases = [("roce", "RoCE incast (TC1) to host 0; UET flow 12 -> 5 (TC0) beside it", (12, 5), "uet-alone"),
         ("uet", "UET incast (TC0) to host 4; RoCE flow 8 -> 1 (TC1) beside it", (8, 1), "roce-alone")]
settings = [("apart", "TC1 lossless in pool 1,\nTC0 lossy in pool 0"), ("shared", "both lossless\nin pool 0")]
for col, (case, title, victim, alone) in enumerate(cases):
    ax = axes[0][col]
    incast_dst = 0 if case == "roce" else 4
    for i, (s, label) in enumerate(settings):
        run = f"{case}-{s}"
        inc = [float(r["fct_usec"]) for r in rows(run, "flow-perf") if r["dst_host"] == str(incast_dst)]
        ax.bar(i - 0.2, max(inc), 0.4, color="tab:red" if case == "roce" else "tab:blue",
               label="incast, slowest flow" if i == 0 else None)
        ax.bar(i + 0.2, fct(run, *victim), 0.4, color="tab:blue" if case == "roce" else "tab:red",
               label="the other class's flow" if i == 0 else None)
        ax.text(i + 0.2, fct(run, *victim), f"{fct(run, *victim):.0f}", ha="center", va="bottom")
    ax.axhline(fct(alone, *victim), color="k", ls=":", label="that flow alone")
    ax.set_xticks([0, 1], [l for _, l in settings])
    ax.set_ylabel("completion time (us)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.35)
    ax.legend(fontsize=8, loc="upper left", ncol=2)
    ax = axes[1][col]
    # The RoCE incast pauses; NSCC keeps the UET incast below Xoff, so it only gets marked.
    column, what = (("pfcxoff_tx", "pause frames sent by the switches") if case == "roce"
                    else ("pkts_ecn_marked", "packets the switches marked CE"))
    for i, (s, _) in enumerate(settings):
        run = f"{case}-{s}"
        for k, tc in enumerate((0, 1)):
            v = switch_total(run, tc, column)
            ax.bar(i + (k - 0.5) * 0.4, v, 0.4, color="tab:blue" if tc == 0 else "tab:red",
                   label=("TC0 (UET)" if tc == 0 else "TC1 (RoCE)") if i == 0 else None)
            ax.text(i + (k - 0.5) * 0.4, v, f"{v:.0f}", ha="center", va="bottom")
    ax.set_xticks([0, 1], [l for _, l in settings])
    ax.set_ylabel(what)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.25)
    ax.legend(fontsize=8, loc="upper left", ncol=2)
fig.suptitle("RoCE (hosts 0-3, 8-11) and UET (hosts 4-7, 12-15) NICs on one leaf-spine, 400 Gbps", fontsize=10)
fig.tight_layout()
fig.savefig(png, dpi=110)
print("mixed_fabric:", png)
PY
