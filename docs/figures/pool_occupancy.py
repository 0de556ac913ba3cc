#!/usr/bin/env python3
"""Pool occupancy of one switch over a 15:1 incast, from scala-switch-agg-buff-stats.

Runs build/bin/uetsim: 16 UET hosts on one switch, hosts 1..15 each send 2 MiB to host 0, every
class lossy (EnablePFC all 0), once with the default dynamic egress limit (LossyAlpha 1) and
once with the fixed cap (LossyAlpha 0, QueueDropThresholdEnable: 5 x PlaneBDP = 1.5 MB), rows
every 10 us. Plots pool 0's downlink egress queues and shared-buffer total (interval mean and
maximum). Usage: /usr/bin/python3 docs/figures/pool_occupancy.py [build-dir]
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

scenario = (
    "Simulation: {Name: fig, StopTime: 20ms}\n"
    "Topology: {Kind: single-switch, Hosts: 16, LinkRate: 400Gbps}\n"
    "Nic: {Type: uet}\n"
    "Switch: {EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0], BufferStatsReportInterval: 10us}\n"
    "Records: {Enabled: [scala-switch-agg-buff-stats, flow-perf]}\n"
    "Flows:\n" + "".join(f"  - {{Src: {s}, Dst: 0, Bytes: 2MiB}}\n" for s in range(1, 16))
)
runs = [
    ("LossyAlpha 1 (default, dynamic)", []),
    ("LossyAlpha 0, cap 1.5 MB", ["--set", "Switch.LossyAlpha=0",
                                  "--set", "Switch.QueueDropThresholdEnable=true"]),
]


def series(out):
    t, eg_mean, eg_max, sh_max = [], [], [], []
    with open(os.path.join(out, "fig-scala-switch-agg-buff-stats-0.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["pool_num"] == "0"]
    for r in rows:
        if r["buff_id"] == "egressQueue" and r["uldl"] == "dl":
            t.append(float(r["sim_time_sec"]) * 1e6)
            eg_mean.append(float(r["ivl_mean_bytes"]) / 1e6)
            eg_max.append(float(r["ivl_max_bytes"]) / 1e6)
        if r["buff_id"] == "sharedBuffer":
            sh_max.append(float(r["ivl_max_bytes"]) / 1e6)
    return t, eg_mean, eg_max, sh_max


fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "incast.yaml")
    with open(path, "w") as f:
        f.write(scenario)
    for ax, (title, extra) in zip(axes, runs):
        out = os.path.join(tmp, "out")
        subprocess.run([uetsim, "run", path, "--quiet", "--out", out] + extra, check=True)
        t, eg_mean, eg_max, sh_max = series(out)
        ax.plot(t, eg_max, label="egress queues (dl), interval max")
        ax.plot(t, eg_mean, label="egress queues (dl), interval mean")
        ax.plot(t, sh_max, "--", label="pool 0 ingress total, interval max")
        ax.set_title(title)
        ax.set_xlabel("simulated time (µs)")
        ax.grid(alpha=0.3)
axes[0].set_ylabel("bytes held (MB)")
axes[0].legend(fontsize=8)
fig.suptitle("Pool 0 of a 16-port switch over a 15:1 UET incast (PFC off, no trimming)")
fig.tight_layout()
fig.savefig(os.path.join(here, "pool_occupancy.png"), dpi=110)
