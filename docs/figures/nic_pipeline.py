"""docs/figures/nic_pipeline.png: the UET NIC's pipeline stages and their input FIFOs.

Transmit (top): Doorbell, Scheduler, PayloadFetch (with its read tags over PCIe), EntropyLookup,
HeaderBuild, then the egress queue and the wire. Receive (bottom): the MAC receive FIFO in front of
RxParse, then PdcLookup, SackUpdate, HostWrite, and AckBuild for the ACK/NACK that goes back out.
Each stage shows its default latency / initiation interval in cycles (docs/nic-pipeline.md); each
stage's FIFO (UetNic.<Stage>QueueDepth) sits in front of it. Back-pressure runs right to left.
The PDC context cache (UetNic.PdcContextCacheEntries, off by default) sits between Scheduler and
PdcLookup, which look contexts up in it; a miss reads over PCIe with the same read tags.

Run with /usr/bin/python3 (Debian's matplotlib); it writes the PNG next to itself.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch, Rectangle  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

W, H = 16.6, 6.6
fig = plt.figure(figsize=(W, H))
ax = fig.add_axes([0, 0, 1, 1])
ax.set_xlim(0, W)
ax.set_ylim(0, H)
ax.axis("off")

TX_C, RX_C, FIFO_C, EXT_C = "#cfe2f3", "#d9ead3", "#fff2cc", "#f3f3f3"


def fifo(x, y, w=0.42, h=0.7, slots=4):
    for i in range(slots):
        ax.add_patch(Rectangle((x + i * w / slots, y), w / slots, h, fc=FIFO_C, ec="#7f6000", lw=0.8))


def stage(x, y, name, lat, ii, color, w=1.55, h=0.9):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02", fc=color, ec="black", lw=1.0))
    ax.text(x + w / 2, y + h * 0.64, name, ha="center", va="center", fontsize=10.5, weight="bold")
    ax.text(x + w / 2, y + h * 0.27, f"{lat} / {ii} cyc", ha="center", va="center", fontsize=9)


def arrow(x0, y0, x1, y1, color="black", style="-|>", ls="-"):
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                arrowprops=dict(arrowstyle=style, color=color, lw=1.3, linestyle=ls))


def box(x, y, w, h, text, color=EXT_C, fs=10):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02", fc=color, ec="#555555", lw=0.9))
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fs)


ax.text(0.25, 6.25, "Transmit", fontsize=12, weight="bold")
ax.text(0.25, 3.15, "Receive", fontsize=12, weight="bold")

# Transmit row.
y = 4.9
box(0.2, y, 1.1, 0.9, "host\ndoorbell")
tx = [("Doorbell", 15, 0), ("Scheduler", 0, 2), ("PayloadFetch", 0, 0), ("EntropyLookup", 1, 0),
      ("HeaderBuild", 4, 0)]
x = 1.55
prev_end = 1.3
for name, lat, ii in tx:
    fifo(x, y + 0.1)
    arrow(prev_end, y + 0.45, x, y + 0.45)
    stage(x + 0.5, y, name, lat, ii, TX_C)
    prev_end = x + 0.5 + 1.55
    x = prev_end + 0.35
fifo(x, y + 0.1, slots=6, w=0.6)
arrow(prev_end, y + 0.45, x, y + 0.45)
ax.text(x + 0.3, y - 0.22, "egress queue\n(egress pool of class 0)", ha="center", va="top", fontsize=8.5)
arrow(x + 0.6, y + 0.45, x + 1.1, y + 0.45)
box(x + 1.1, y, 0.75, 0.9, "wire")
# PCIe read tags under PayloadFetch.
fx = 1.55 + 2 * (0.5 + 1.55 + 0.35) + 0.5
box(fx, 3.75, 1.55, 0.65, "PCIe reads:\nMaxOutstandingReads tags", fs=8.5)
arrow(fx + 0.5, y, fx + 0.5, 4.4, color="#b45f06")
arrow(fx + 1.05, 4.4, fx + 1.05, y, color="#b45f06")
ax.text(fx + 1.62, 4.6, "Pcie.Latency", fontsize=8.5, color="#b45f06")
ax.annotate("", xy=(1.9, 6.05), xytext=(14.2, 6.05),
            arrowprops=dict(arrowstyle="-|>", color="#cc0000", lw=1.1, linestyle="--"))
ax.text(8.0, 6.15, "back-pressure: a full FIFO stalls the stage upstream (no loss inside the NIC)",
        ha="center", fontsize=9, color="#cc0000")

# Receive row.
y = 1.85
box(0.2, y, 1.1, 0.9, "wire")
rx = [("RxParse", 4, 0), ("PdcLookup", 0, 0), ("SackUpdate", 0, 0), ("HostWrite", 0, 0)]
x = 1.55
prev_end = 1.3
for i, (name, lat, ii) in enumerate(rx):
    fifo(x, y + 0.1)
    arrow(prev_end, y + 0.45, x, y + 0.45)
    stage(x + 0.5, y, name, lat, ii, RX_C)
    prev_end = x + 0.5 + 1.55
    x = prev_end + 0.35
ax.text(1.76, y - 0.22, "MAC receive FIFO\n(full: frame dropped, counted)", ha="left", va="top",
        fontsize=8.5, color="#cc0000")
arrow(prev_end, y + 0.45, x, y + 0.45)
box(x, y, 1.3, 0.9, "host memory\n(PCIe write)")
# AckBuild branch from SackUpdate.
sx = 1.55 + 3 * (0.5 + 1.55 + 0.35) + 0.5  # HostWrite: the transport acts as a frame leaves it
ax_x = sx + 1.4
fifo(ax_x - 0.5, 0.45)
stage(ax_x, 0.35, "AckBuild", 0, 0, RX_C)
arrow(sx + 0.8, y, ax_x - 0.3, 1.15)
arrow(ax_x + 1.55, 0.8, ax_x + 2.3, 0.8)
box(ax_x + 2.3, 0.35, 2.4, 0.9, "ACK hold (PCIe service\ntime), control ring, wire", fs=9)

# The PDC context cache between Scheduler (above) and PdcLookup (below): the same column.
cx = 1.55 + (0.5 + 1.55 + 0.35) + 0.5
box(cx, 3.3, 1.55, 0.8, "PDC context cache\nPdcContextCacheEntries\n(off by default)", color="#ead1dc",
    fs=8)
arrow(cx + 0.78, 4.9, cx + 0.78, 4.1, color="#741b47", style="<|-|>", ls="--")
arrow(cx + 0.78, 2.75, cx + 0.78, 3.3, color="#741b47", style="<|-|>", ls="--")
arrow(cx + 1.55, 3.85, fx, 3.95, color="#741b47", ls="--")
ax.text(cx + 1.62, 3.45, "miss: context read\n(same tags), write-back", fontsize=7.5, color="#741b47")
ax.text(0.25, 0.1, "latency / interval in cycles at the defaults; every FIFO unbounded by default",
        ha="left", va="bottom", fontsize=8.5, style="italic")

fig.savefig(os.path.join(here, "nic_pipeline.png"), dpi=110)
