#!/usr/bin/env python3
"""Figures of bench/collectives.sh: bus bandwidth against collective size.

Usage: collectives_plot.py POINTS.csv FIGURE_DIR
  collectives-busbw-<ranks>.png  AllReduce (ring) and AllToAll (interleaved), one line per
                                 fabric and NIC, the 400 Gbps link rate dashed
  collectives-ring-vs-hd.png     AllReduce ring against halving-doubling on UET, per scale
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "B": 1}


def size_bytes(text):
    for unit, mult in UNITS.items():
        if text.endswith(unit) and unit != "B":
            return float(text[: -len(unit)]) * mult
    return float(text.rstrip("B"))


def size_label(b):
    for unit in ("GiB", "MiB", "KiB"):
        if b >= UNITS[unit]:
            return f"{b / UNITS[unit]:g} {unit}"
    return f"{b:g} B"


def axes_sizes(ax, sizes):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(sizes))
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(t) for t in ticks], rotation=45, ha="right")
    ax.set_xlabel("collective size (comm_size)")
    ax.set_ylabel("bus bandwidth (Gbit/s)")
    ax.axhline(400, color="grey", linestyle="--", linewidth=1)
    ax.text(ticks[0], 405, "link rate 400 Gbit/s", color="grey", fontsize=8, va="bottom")
    ax.set_ylim(0, 440)
    ax.grid(True, alpha=0.3)


def main():
    points, figdir = sys.argv[1], sys.argv[2]
    d = pd.read_csv(points)
    d = d[d.scoreboard == "ok"].copy()
    d["size"] = d["bytes"].map(size_bytes)
    styles = {
        ("non-blocking", "uet"): ("tab:blue", "-", "UET (REPS, trimming), non-blocking"),
        ("non-blocking", "roce"): ("tab:red", "-", "RoCE (ECMP, PFC), non-blocking"),
        ("oversubscribed", "uet"): ("tab:blue", ":", "UET, 2:1 oversubscribed"),
        ("oversubscribed", "roce"): ("tab:red", ":", "RoCE, 2:1 oversubscribed"),
    }
    for ranks, at_scale in d.groupby("ranks"):
        fig, axs = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
        for ax, (ctype, alg) in zip(axs, [("AllReduce", "ring"), ("AllToAll", "interleaved")]):
            sel = at_scale[(at_scale.type == ctype) & (at_scale.algorithm == alg)]
            for (fabric, nic), (color, ls, label) in styles.items():
                s = sel[(sel.fabric == fabric) & (sel.nic == nic)].sort_values("size")
                if len(s):
                    ax.plot(s["size"], s["busbw_gbps"], ls, color=color, marker="o", ms=3, label=label)
            if len(sel):
                axes_sizes(ax, sel["size"])
            ax.set_title(f"{ctype} ({alg}), {ranks} ranks")
        handles, labels = axs[0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4, frameon=False)
        fig.tight_layout(rect=(0, 0.07, 1, 1))
        fig.savefig(f"{figdir}/collectives-busbw-{ranks}.png", dpi=110)
        plt.close(fig)
    sel = d[(d.type == "AllReduce") & (d.nic == "uet") & (d.fabric == "non-blocking")]
    if len(sel):
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        for (ranks, alg), s in sel.groupby(["ranks", "algorithm"]):
            s = s.sort_values("size")
            ax.plot(s["size"], s["busbw_gbps"], "-" if alg == "ring" else "--", marker="o", ms=3,
                    label=f"{alg}, {ranks} ranks")
        axes_sizes(ax, sel["size"])
        ax.set_title("AllReduce on UET, non-blocking: ring against halving-doubling")
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        fig.savefig(f"{figdir}/collectives-ring-vs-hd.png", dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
