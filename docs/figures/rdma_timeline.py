"""docs/figures/rdma_timeline.png: the RDMA application's run timeline with the default values.

The times follow make_timeline() in testbench/traffic/app/timeline.cpp (see docs/rdma-application.md):
Responders start at StartTime, the client start window is [StartTime + ClientStartOffset, that +
ClientStartInterval], the recording window starts WarmUp after it and lasts RunTime, and the run
stops CoolDown later. The axis is not to scale. The lower row zooms into the client start window
and shows when 8 connections send their connection requests under each StartType (the uniform
draws are illustrative, not the simulator's random stream).

Run with /usr/bin/python3 (Debian's matplotlib); it writes the PNG next to itself.
"""
import os
import random

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

# Defaults (docs/scenario-keys.md), in seconds.
START_TIME, OFFSET, INTERVAL, WARM_UP, RUN_TIME, COOL_DOWN = 0.001, 0.001, 0.001, 0.002, 0.5, 0.001
t_resp = START_TIME
t_cs_from = t_resp + OFFSET
t_cs_to = t_cs_from + INTERVAL
t_rec_from = t_cs_to + WARM_UP
t_rec_to = t_rec_from + RUN_TIME
t_stop = t_rec_to + COOL_DOWN

# Not to scale: each segment gets its own drawn width.
segments = [  # (key, default, from, to, drawn width)
    ("StartTime", "1 ms", 0.0, t_resp, 1.7),
    ("ClientStartOffset", "1 ms", t_resp, t_cs_from, 2.0),
    ("ClientStartInterval", "1 ms", t_cs_from, t_cs_to, 2.2),
    ("WarmUp", "2 ms", t_cs_to, t_rec_from, 1.8),
    ("RunTime", "500 ms", t_rec_from, t_rec_to, 4.2),
    ("CoolDown", "1 ms", t_rec_to, t_stop, 1.7),
]
X0 = 0.9
xs = {0.0: X0}
x = X0
for _, _, a, b, w in segments:
    x += w
    xs[b] = x


def X(t):
    return xs[t]


fig, ax = plt.subplots(figsize=(11, 6.6))
ax.set_xlim(0, 15.0)
ax.set_ylim(-5.0, 3.6)
ax.axis("off")

AX_Y = 0.0
CS_COLOUR, REC_COLOUR = "#cfe2f3", "#d9ead3"

# Shaded windows on the axis.
ax.add_patch(plt.Rectangle((X(t_cs_from), AX_Y - 0.13), X(t_cs_to) - X(t_cs_from), 0.26,
                           fc=CS_COLOUR, ec="#3d85c6", lw=0.8, zorder=3.2))
ax.add_patch(plt.Rectangle((X(t_rec_from), AX_Y - 0.13), X(t_rec_to) - X(t_rec_from), 0.26,
                           fc=REC_COLOUR, ec="#6aa84f", lw=0.8, zorder=3.2))

# Axis line, broken in the middle of RunTime.
brk = (X(t_rec_from) + X(t_rec_to)) / 2
gap = 0.12
ax.plot([X0 - 0.3, brk - gap], [AX_Y, AX_Y], color="black", lw=1.4, zorder=3)
ax.annotate("", xy=(X(t_stop) + 0.6, AX_Y), xytext=(brk + gap, AX_Y),
            arrowprops=dict(arrowstyle="-|>", color="black", lw=1.4), zorder=3)
for cx in (brk - gap, brk + gap):
    ax.plot([cx - 0.07, cx + 0.07], [AX_Y - 0.22, AX_Y + 0.22], color="black", lw=1.4, zorder=4)
k = 0.07 * 0.16 / 0.22  # the white gap follows the slashes
ax.add_patch(plt.Polygon([(brk - gap - k, AX_Y - 0.16), (brk + gap - k, AX_Y - 0.16),
                          (brk + gap + k, AX_Y + 0.16), (brk - gap + k, AX_Y + 0.16)],
                         fc="white", ec="none", zorder=3.5))
ax.text(X(t_stop) + 0.65, AX_Y, "time (s)", fontsize=9, va="center", ha="left")

# Timestamps.
for t in (0.0, t_resp, t_cs_from, t_cs_to, t_rec_from, t_rec_to, t_stop):
    ax.plot([X(t), X(t)], [AX_Y - 0.2, AX_Y + 0.2], color="black", lw=1.2, zorder=4)
    ax.text(X(t), AX_Y - 0.33, "0" if t == 0 else f"{t:.3f}", fontsize=9.5, ha="center", va="top",
            fontweight="bold", zorder=6, bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none"))

# Parameter brackets above the axis.
BR_Y = 0.45
for key, default, a, b, w in segments:
    xa, xb = X(a) + 0.04, X(b) - 0.04
    ax.plot([xa, xa, xb, xb], [BR_Y - 0.12, BR_Y, BR_Y, BR_Y - 0.12], color="#444444", lw=1.0)
    ax.text((xa + xb) / 2, BR_Y + 0.08, f"{key}\n{default}", fontsize=9, ha="center", va="bottom")

# Events above the brackets, with leader lines down to the axis.
EV_BOX = dict(boxstyle="round,pad=0.3", fc="white", ec="#999999", lw=0.7)


def event(x_at, y_text, text, ha="center", dx=0.0, colour="#cc0000"):
    ax.plot([x_at, x_at], [AX_Y + 0.2, y_text], color=colour, lw=0.9, ls=":", zorder=1)
    ax.plot([x_at], [AX_Y], marker="v", color=colour, markersize=7, zorder=5,
            transform=ax.transData)
    ax.text(x_at + dx, y_text, text, fontsize=9, ha=ha, va="bottom", bbox=EV_BOX, zorder=6)


event(X(t_resp), 1.45, "Responders listen")
event(X(t_cs_from), 2.45,
      "connection requests (StartType):\nsimultaneous: all at 0.002\nuniform / sequential: spread over the window",
      ha="left", dx=-0.35)
event(X(t_cs_to), 1.45,
      "first WQEs posted\n(end of the client start window,\nor end of setup if later)", ha="left", dx=-0.3)
event(X(t_stop), 1.45, "stop: outstanding WQEs\nnot recorded", ha="right", dx=0.35)
# The recording window is a span, not an instant: label it above its RunTime bracket.
lx = X(t_rec_from) + 1.3  # leader clear of the "RunTime" label
ax.plot([lx, lx], [AX_Y + 0.13, 2.3], color="#6aa84f", lw=1.0, zorder=1)
rx = (X(t_rec_from) + X(t_rec_to)) / 2
ax.text(rx, 2.45, "recording window [0.005, 0.505]:\nrdma-perf rows kept", fontsize=9, ha="center",
        va="bottom", bbox=dict(boxstyle="round,pad=0.3", fc=REC_COLOUR, ec="#6aa84f", lw=0.8))

# Lower row: zoom into the client start window, one lane per StartType.
ZX0, ZX1 = 3.4, 12.4
N = 8


def Z(t):
    return ZX0 + (t - t_cs_from) / (t_cs_to - t_cs_from) * (ZX1 - ZX0)


ZTOP = -1.0
ax.add_patch(plt.Rectangle((ZX0, -4.45), ZX1 - ZX0, ZTOP + 4.45, fc="#f3f8fd", ec="#3d85c6", lw=0.8,
                           zorder=0))
for xa, xb in ((X(t_cs_from), ZX0), (X(t_cs_to), ZX1)):
    ax.plot([xa, xb], [-0.14, ZTOP], color="#3d85c6", lw=0.8, ls="--", zorder=0)
ax.text((ZX0 + ZX1) / 2, ZTOP - 0.1, "client start window [0.002, 0.003], zoomed in", fontsize=9.5,
        ha="center", va="top", fontweight="bold", color="#0b5394")
ax.text((ZX0 + ZX1) / 2, ZTOP - 0.45,
        f"StartType: when each connection sends its connection request ({N} connections)",
        fontsize=9, ha="center", va="top", style="italic")

lanes = {"simultaneous": -2.3, "uniform": -3.1, "sequential": -3.9}
rng = random.Random(7)
times = {
    "simultaneous": [t_cs_from] * N,
    "uniform": sorted(t_cs_from + rng.random() * INTERVAL for _ in range(N)),
    "sequential": [t_cs_from + INTERVAL * i / N for i in range(N)],
}
for name, y in lanes.items():
    ax.plot([ZX0, ZX1], [y, y], color="#888888", lw=0.8)
    ax.text(ZX0 - 0.15, y, name, fontsize=9.5, ha="right", va="center", fontweight="bold")
    for t in times[name]:
        ax.plot([Z(t), Z(t)], [y - 0.17, y + 0.17], color="#0b5394", lw=2.0)
ax.text(Z(t_cs_from) + 0.15, lanes["simultaneous"], f"all {N} at 0.002", fontsize=8.5, ha="left",
        va="center", color="#0b5394")
ax.text(ZX1 + 0.15, lanes["uniform"], "random in\n[0.002, 0.003)", fontsize=8.5, ha="left",
        va="center", color="#0b5394")
ax.plot([Z(t_cs_to)], [lanes["sequential"]], marker="o", mfc="white", mec="#cc0000", markersize=7)
ax.text(ZX1 + 0.15, lanes["sequential"], "0.002 + i x 1 ms / 8;\nnone at 0.003", fontsize=8.5,
        ha="left", va="center", color="#0b5394")
for t, lab in ((t_cs_from, "0.002"), (t_cs_from + INTERVAL / 2, "0.0025"), (t_cs_to, "0.003")):
    ax.plot([Z(t), Z(t)], [-4.45, -4.35], color="black", lw=1.0)
    ax.text(Z(t), -4.52, lab, fontsize=9, ha="center", va="top")

ax.set_title("RDMA application run timeline, default values (not to scale)", fontsize=11)
fig.text(0.5, 0.015,
         "Times in seconds. Not to scale: the 500 ms RunTime is drawn compressed (broken axis). "
         "The recording window is closed at both ends.",
         ha="center", fontsize=8)
fig.tight_layout(rect=(0, 0.03, 1, 1))
out = os.path.join(here, "rdma_timeline.png")
fig.savefig(out, dpi=110)
print("wrote", out)
