"""Draws docs/figures/deferrable-vs-eager.png from bench/deferrable_sends.sh's runs: each
message's completion time (flow-perf fct_usec) for the eager incast, the deferrable one posted
at 50 us, and the deferrable one posted in time. Usage: deferrable_sends_plot.py OUT_DIR PNG."""
import csv
import glob
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out, png = sys.argv[1], sys.argv[2]
runs = [("eager", "eager (ordinary sends)", "#4c72b0"),
        ("deferred", "deferrable, buffers posted at 50 us", "#dd8452"),
        ("posted-early", "deferrable, buffers posted at 0", "#55a868")]
fig, ax = plt.subplots(figsize=(8, 4.2))
width = 0.27
for k, (name, label, color) in enumerate(runs):
    rows = list(csv.DictReader(open(glob.glob(f"{out}/{name}/*-flow-perf-0.csv")[0])))
    rows.sort(key=lambda r: int(r["src_host"]))
    xs = [int(r["src_host"]) + (k - 1) * width for r in rows]
    ax.bar(xs, [float(r["fct_usec"]) for r in rows], width, label=label, color=color)
ax.axhline(50, color="gray", linestyle=":", linewidth=1)
ax.text(0.55, 51, "receive buffers posted (deferred run)", color="gray", fontsize=8)
ax.set_xlabel("sender (host), 1 MiB each to host 0, 8:1 incast at 400 Gbps")
ax.set_ylabel("message completion time (us)")
ax.set_title("Deferrable sends against eager ones in an incast")
ax.legend(fontsize=8, loc="upper left")
fig.tight_layout()
fig.savefig(png, dpi=110)
print(png)
