#!/usr/bin/env python3
"""Per-spine load of the 8-flow cross-leaf scenario under the three PacketSprayingTypes.

Runs build/bin/uetsim (8 x 16 MiB, host i -> host 8+i, 8 spines, 400 Gbps, UET NICs) for a few
seeds per type and plots the share of leaf0's uplink bytes each spine carried, read from
scala-switch-load-balancing-stats. Usage: /usr/bin/python3 docs/figures/spraying_load.py [build-dir]
"""
import csv
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "build")
uetsim = os.path.join(build, "bin", "uetsim")
types = ["None", "Default Packet Spraying", "Recycled Entropy Packet Spraying"]
seeds = [1, 2, 3]

scenario = "Simulation: {Name: fig}\nTopology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8}\nFlows:\n"
scenario += "".join(f"  - {{Src: {i}, Dst: {8 + i}, Bytes: 16MiB}}\n" for i in range(8))


def spine_shares(out):
    last = {}
    with open(os.path.join(out, "fig-scala-switch-load-balancing-stats-0.csv")) as f:
        for r in csv.DictReader(f):
            if r["component_name"] == "leaf0" and r["group_size"] == "8":
                last[int(r["ifid"])] = float(r["bytes"])
    total = sum(last.values())
    return [last[p] / total for p in sorted(last)]


fig, axes = plt.subplots(1, len(seeds), figsize=(12, 3.6), sharey=True)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "s.yaml")
    with open(path, "w") as f:
        f.write(scenario)
    for ax, seed in zip(axes, seeds):
        width = 0.27
        for k, t in enumerate(types):
            out = os.path.join(tmp, "out")
            subprocess.run([uetsim, "run", path, "--quiet", "--out", out, "--set",
                            f"UetNic.PacketSprayingType={t}", "--set", f"Simulation.RandomSeed={seed}"],
                           check=True, stdout=subprocess.DEVNULL)
            shares = spine_shares(out)
            ax.bar([i + (k - 1) * width for i in range(8)], [s * 8 for s in shares], width, label=t)
        ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_title(f"RandomSeed {seed}")
        ax.set_xticks(range(8))
        ax.set_xticklabels([f"spine{i}" for i in range(8)], rotation=45, fontsize=8)
    axes[0].set_ylabel("leaf0 uplink load\n(flows' worth of bytes)")
    axes[0].legend(fontsize=8, loc="upper left")
fig.suptitle("8 flows leaf0 -> leaf1 over 8 spines: per-spine load by PacketSprayingType")
fig.tight_layout()
fig.savefig(os.path.join(here, "spraying_load.png"), dpi=110)
print("wrote", os.path.join(here, "spraying_load.png"))
