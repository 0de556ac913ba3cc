#!/usr/bin/python3
"""Draws docs/figures/soak-rss.png from bench/soak.sh's CSVs: each soak's resident set (VmRSS)
against wall time, one panel per soak, the warm-up shaded.

Usage: bench/soak_plot.py [SOAK_DIR [FIGURE]]   (default bench/out/soak, docs/figures/soak-rss.png)
Needs Debian's python3-matplotlib (scripts/setup.sh installs it).
"""

import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TITLES = {
    "uet-default": "default scenario (UET), 1 s simulated",
    "uet-incast": "8:1 Flows incast, UET, 1.1 s simulated",
    "roce-incast": "8:1 Flows incast, RoCE, 1.1 s simulated",
    "uet-wall": "default scenario (UET), 10 min of wall time",
}
WARMUP = {"uet-default": 5, "uet-incast": 10, "roce-incast": 10, "uet-wall": 60}


def main():
    soak_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "out", "soak")
    figure = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "docs", "figures",
                                                                "soak-rss.png")
    soaks = [s for s in TITLES if os.path.exists(os.path.join(soak_dir, s + ".csv"))]
    if not soaks:
        sys.exit(f"soak_plot.py: no soak CSV in {soak_dir} (run bench/soak.sh first)")
    fig, axes = plt.subplots(len(soaks), 1, figsize=(7, 2.2 * len(soaks)), squeeze=False)
    for ax, soak in zip(axes[:, 0], soaks):
        with open(os.path.join(soak_dir, soak + ".csv")) as f:
            rows = list(csv.DictReader(f))
        t = [float(r["wall_s"]) for r in rows]
        rss = [int(r["rss_kib"]) / 1024 for r in rows]
        ax.plot(t, rss, marker=".", color="tab:blue")
        ax.axvspan(0, WARMUP[soak], color="0.9", label="warm-up")
        ax.set_ylim(0, max(rss) * 1.25)
        ax.set_title(TITLES[soak], fontsize=9)
        ax.set_ylabel("VmRSS (MiB)")
        ax.legend(loc="lower right", fontsize=8)
    axes[-1, 0].set_xlabel("wall time (s)")
    fig.tight_layout()
    fig.savefig(figure, dpi=110)
    print(figure)


if __name__ == "__main__":
    main()
