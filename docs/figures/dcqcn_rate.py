#!/usr/bin/env python3
"""One queue pair's DCQCN-style rate over time, at the defaults (400 Gbps, 45 us interval).

Compiles docs/figures/dcqcn_trace.cpp with hw/nic/roce/dcqcn_rate.cpp (plain C++, no SystemC),
runs it and plots the allowed rate and the target rate: one CNP at 0 (the congestion-control
page's worked example: cut to 200 Gbps, three fast-recovery increases, additive increase, back at
line rate at 472.5 us), then, from 600 us to 1200 us, a CNP for every 5th packet the queue
pair sends at its allowed rate (a cut each reduction half, one increase per 270 us while CNPs
continue), then recovery to line rate.
Usage: /usr/bin/python3 docs/figures/dcqcn_rate.py
"""
import csv
import io
import os
import subprocess
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))

with tempfile.TemporaryDirectory() as tmp:
    exe = os.path.join(tmp, "dcqcn_trace")
    subprocess.run(["c++", "-O2", "-std=c++17", "-I", root,
                    os.path.join(here, "dcqcn_trace.cpp"),
                    os.path.join(root, "hw", "nic", "roce", "dcqcn_rate.cpp"), "-o", exe],
                   check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(out)))

t = [float(r["t_us"]) for r in rows]
rate = [float(r["rate_gbps"]) for r in rows]
target = [float(r["target_gbps"]) for r in rows]
cnps = sorted({float(r["t_us"]) for r in rows if r["event"] == "cnp"})

fig, ax = plt.subplots(figsize=(9, 4.2))
ax.step(t, target, where="post", color="tab:orange", lw=1, label="target rate")
ax.step(t, rate, where="post", color="tab:blue", lw=1.5, label="allowed rate (current)")
ax.axhline(400, color="gray", lw=0.6, ls="--")
ax.axhline(40, color="gray", lw=0.6, ls="--")
ax.text(t[-1], 404, "line rate 400", fontsize=7, ha="right", va="bottom")
ax.text(t[-1], 44, "floor 40", fontsize=7, ha="right", va="bottom")
ax.plot(cnps, [-8] * len(cnps), "|", color="tab:red", ms=6, label="CNP received")
ax.set_ylim(-15, 430)
ax.set_xlim(-20, t[-1])
ax.set_xlabel("time, µs")
ax.set_ylabel("Gbps")
ax.legend(loc="center right", fontsize=7)
ax.annotate("", xy=(1117.5, 300), xytext=(847.5, 300),
            arrowprops=dict(arrowstyle="<->", lw=0.7))
ax.text(982.5, 305, "270 µs: one increase per\n6 increase halves with CNPs", fontsize=7,
        ha="center", va="bottom")
ax.text(110, 250, "worked example: 200 → 300, 350, 375,\nthen halving the gap every 45 µs",
        fontsize=7, va="top")
fig.suptitle("DCQCN-style rate of one queue pair at the defaults: one CNP at 0, then 600-1200 µs "
             "a CNP for every 5th packet sent (target stays 400 Gbps)", fontsize=9)
fig.tight_layout()
fig.savefig(os.path.join(here, "dcqcn_rate.png"), dpi=110)
