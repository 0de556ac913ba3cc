#!/usr/bin/env python3
"""RoCE against UET on the 8-flow cross-leaf collision scenario (docs/roce-nic.md).

Reads the runs bench/roce_vs_uet.sh wrote (<out>/<nic>/seed<N>/ and <out>/<nic>/solo/) and draws
docs/figures/roce_vs_uet.png: left, the CDF over 20 seeds of every flow's completion time and of
each seed's slowest flow, as a multiple of the NIC's solo time; right, for one seed, the bytes
leaf0 put on each spine uplink (scala-switch-load-balancing-stats), in flows' worth.
Usage: /usr/bin/python3 docs/figures/roce_vs_uet.py [bench/out/roce_vs_uet] [seed]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "bench", "out", "roce_vs_uet")
load_seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
nics = {"roce": ("RoCE v2 (one ECMP path per QP)", "tab:red"),
        "uet": ("UET (REPS spraying)", "tab:blue")}
flow_wire = {"roce": 512 * (4096 + 58), "uet": 512 * (4096 + 106)}  # 2 MiB on the wire


def fcts(run):
    with open(os.path.join(run, "rvu-flow-perf-0.csv")) as f:
        return [float(r["fct_usec"]) for r in csv.DictReader(f)]


def uplink_bytes(run):
    last = {}
    with open(os.path.join(run, "rvu-scala-switch-load-balancing-stats-0.csv")) as f:
        for r in csv.DictReader(f):
            if r["component_name"] == "leaf0" and r["group_size"] == "8":
                last[int(r["ifid"])] = float(r["bytes"])
    return [last[p] for p in sorted(last)]


def cdf(ax, values, **kw):
    v = sorted(values)
    ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post", **kw)


seeds = sorted(int(d[4:]) for d in os.listdir(os.path.join(out, "roce")) if d.startswith("seed"))
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [1.1, 1]})
summary = []
means = {}
for nic, (label, color) in nics.items():
    solo = fcts(os.path.join(out, nic, "solo"))[0]
    every, slowest = [], []
    for s in seeds:
        f = [x / solo for x in fcts(os.path.join(out, nic, f"seed{s}"))]
        every += f
        slowest.append(max(f))
    cdf(ax1, every, color=color, label=f"{label}: every flow")
    cdf(ax1, slowest, color=color, linestyle="--", label=f"{label}: slowest flow per seed")
    mean = sum(slowest) / len(slowest)
    means[nic] = mean
    summary.append(f"{nic}: solo {solo:.1f} us, slowest flow {mean:.2f}x solo on average")
ax1.axvline(2.59, color="grey", linewidth=0.8, linestyle=":")
ax1.text(2.56, 0.03, "2.59 flows: seed 003's mean\nbusiest of 8 uplinks", fontsize=8,
         color="grey", ha="right")
ax1.set_xlabel("flow completion time / the NIC's solo time")
ax1.set_ylabel(f"CDF over {len(seeds)} seeds")
ax1.set_title("8 x 2 MiB, leaf0 -> leaf1 over 8 spines: slowest flow on average "
              f"{means['roce']:.2f}x (RoCE), {means['uet']:.2f}x (UET)", fontsize=10)
ax1.set_xlim(0.9, 3.1)
ax1.legend(fontsize=8, loc="center left", bbox_to_anchor=(0.12, 0.58))
ax1.grid(alpha=0.3)

width = 0.38
tallest = 0
for k, (nic, (label, color)) in enumerate(nics.items()):
    b = [x / flow_wire[nic] for x in uplink_bytes(os.path.join(out, nic, f"seed{load_seed}"))]
    ax2.bar([i + (k - 0.5) * width for i in range(len(b))], b, width, color=color, label=label)
    tallest = max([tallest] + b)
ax2.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
ax2.set_xticks(range(8))
ax2.set_xticklabels([f"spine{i}" for i in range(8)], fontsize=8)
ax2.set_ylabel("bytes leaf0 sent to the spine\n(flows' worth)")
ax2.set_title(f"per-spine load, RandomSeed {load_seed}")
ax2.set_ylim(0, tallest * 1.3)
ax2.legend(fontsize=8, loc="upper left", ncol=2)
fig.tight_layout()
png = os.path.join(here, "roce_vs_uet.png")
fig.savefig(png, dpi=110)
print("\n".join(summary))
print("wrote", png)
