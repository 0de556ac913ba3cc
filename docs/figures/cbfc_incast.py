"""Figure (c) of issue #31 from bench/cbfc_incast.sh's runs: the switch buffer a lossless 15:1
incast takes under PFC and under CBFC.

Left: each switch's peak buffer at the 500 ns leaf-spine delay: the largest sum over its ports of
the ingress usage (pool occupancy, or bytes held against CBFC credit) and the PFC headroom, per
5 us interval of scala-switch-buff-stats. Right: the busiest switch's peak, and the buffer each
scheme sets aside on that switch for the guarantee (PFC: Xoff plus a packet per lossless
port and pool plus the headroom; CBFC: the credit its ports advertise), against the leaf-spine
delay.

Usage: cbfc_incast.py RUNS_DIR OUT.png
"""
import csv
import json
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DELAYS = ["500ns", "2us", "5us"]
DELAY_US = [0.5, 2, 5]
SWITCHES = ["leaf1", "spine0", "leaf0"]  # the order the incast's bytes pass them


def peaks(run):
    """Per switch: the largest per-interval sum over ports of ingressUsage + hdrm maxima."""
    path = os.path.join(run, "ci-scala-switch-buff-stats-0.csv")
    per = defaultdict(float)  # (switch, time) -> bytes
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["buff_id"] in ("ingressUsage", "hdrm"):
                per[(r["component_name"], r["sim_time_sec"])] += float(r["ivl_max_bytes"])
    out = defaultdict(float)
    for (sw, _), v in per.items():
        out[sw] = max(out[sw], v)
    return out


def reserve(run, mode, switch):
    """The buffer `switch` sets aside for the lossless guarantee, from inspect --json."""
    j = json.load(open(os.path.join(run, "inspect.json")))
    b = next(s for s in j["switch_buffer"] if s["switch"] == switch)
    if mode == "cbfc":
        return b.get("total_credit_bytes", 0)
    lossless_pools = sum(1 for p in b["pools"] if p["lossless_classes"])
    per_port = lossless_pools * (b["xoff_bytes"] + 4202)
    return b["connected_ports"] * per_port + b["total_headroom_bytes"]


def main():
    runs, png = sys.argv[1], sys.argv[2]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    width = 0.38
    for k, (mode, colour) in enumerate([("pfc", "tab:red"), ("cbfc", "tab:blue")]):
        p = peaks(os.path.join(runs, mode + "-500ns"))
        xs = [i + (k - 0.5) * width for i in range(len(SWITCHES))]
        vals = [p[s] / 1e6 for s in SWITCHES]
        ax1.bar(xs, vals, width, color=colour, label=mode.upper())
        for x, v in zip(xs, vals):
            ax1.text(x, v, f"{v:.2f}", ha="center", va="bottom", fontsize=8)
    ax1.set_xticks(range(len(SWITCHES)))
    ax1.set_xticklabels(SWITCHES)
    ax1.set_ylabel("peak switch buffer in use (MB)")
    ax1.set_title("15:1 incast, 500 ns leaf-spine links")
    ax1.legend()

    for mode, colour in [("pfc", "tab:red"), ("cbfc", "tab:blue")]:
        used, need = [], []
        for d in DELAYS:
            run = os.path.join(runs, f"{mode}-{d}")
            p = peaks(run)
            sw = max(SWITCHES, key=lambda s: p[s])
            used.append(p[sw] / 1e6)
            need.append(reserve(run, mode, sw) / 1e6)
        ax2.plot(DELAY_US, used, "o-", color=colour, label=f"{mode.upper()}: peak in use")
        ax2.plot(DELAY_US, need, "s--", color=colour, label=f"{mode.upper()}: set aside on it")
    ax2.set_xlabel("leaf-spine link delay (us)")
    ax2.set_ylabel("MB")
    ax2.set_yscale("log")
    ax2.set_title("busiest switch, against link length")
    ax2.legend(fontsize=8, loc="center right")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("wrote", png)


if __name__ == "__main__":
    main()
