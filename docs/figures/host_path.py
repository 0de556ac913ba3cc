"""docs/figures/host_path.png: one RDMA WRITE through the host side, Initiator to Responder.

A block diagram: each host has its CPU and host memory, a PCIe link with two directions
(host-to-NIC and NIC-to-host, Pcie.*SideLaneCount x *SideLaneBps = 16 x 31.52 Gbps = 504.32 Gbps
each by default) and a NIC; the switch fabric sits between the two NICs. The circled numbers give
the order of the steps. Sizes are the defaults of docs/scenario-keys.md (Pcie.TlpOverhead 34 B,
Pcie.MaxPayloadSize 512 B, Pcie.ReadRequestSize 64 B, Pcie.CompletionSize 64 B,
RdmaApplication.DoorbellPayloadSize 64 B plus 28 B of UDP and IPv4 headers).

Run with /usr/bin/python3 (Debian's matplotlib); it writes the PNG next to itself.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

W, H = 12.8, 8.05  # figure size in inches; the axes use inch coordinates
fig = plt.figure(figsize=(W, H))
ax = fig.add_axes([0, 0, 1, 1])
ax.set_xlim(0, W)
ax.set_ylim(0, H)
ax.axis("off")

HOST_C, PCIE_C, NIC_C, FABRIC_C = "#fff2cc", "#f3f3f3", "#cfe2f3", "#d9ead3"
H2N_C, N2H_C, DATA_C, ACK_C = "#1155cc", "#b45f06", "#cc0000", "#38761d"
FS = 9  # body font size


def box(x0, y0, x1, y1, fc, text=None, fs=FS, weight="normal", ha="center", va="center",
        tx=None, ty=None, lw=0.9, ec="black", z=1, color="black"):
    ax.add_patch(FancyBboxPatch((x0, y0), x1 - x0, y1 - y0, boxstyle="round,pad=0,rounding_size=0.06",
                                fc=fc, ec=ec, lw=lw, zorder=z))
    if text:
        if tx is None:
            tx = {"center": (x0 + x1) / 2, "left": x0 + 0.1, "right": x1 - 0.1}[ha]
        if ty is None:
            ty = {"center": (y0 + y1) / 2, "top": y1 - 0.08, "bottom": y0 + 0.08}[va]
        ax.text(tx, ty, text, fontsize=fs, ha=ha, va=va, fontweight=weight, zorder=z + 0.5,
                color=color, linespacing=1.25)


def arrow(x0, y0, x1, y1, colour, lw=2.0, z=5, style="-|>", ms=14):
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=z,
                arrowprops=dict(arrowstyle=style, color=colour, lw=lw, mutation_scale=ms,
                                shrinkA=0, shrinkB=0))


# Vertical layout (inches).
NIC_Y0, NIC_Y1 = 1.25, 4.0
HOST_Y0, HOST_Y1 = 5.7, 7.5
COL_W = 4.75
cols = {"Initiator": 0.25, "Responder": W - 0.25 - COL_W}

for role, x0 in cols.items():
    x1 = x0 + COL_W
    # Host: CPU and host memory.
    box(x0, HOST_Y0, x1, HOST_Y1, HOST_C, f"{role} host", fs=10, weight="bold", va="top")
    mid = x0 + 2.45
    if role == "Initiator":
        cpu = ("CPU: Initiator\n"
               "\u2460 posts a WQE: doorbell\n"
               "\u2467 reads the CQE, records an\n"
               "   rdma-perf row (perf_metric_usec\n"
               "   = doorbell to completion),\n"
               "   posts the next WQE")
        mem = "host memory\n\nWQE payload\nbuffers\n\ncompletion\nqueue (CQ)"
    else:
        cpu = "CPU: Responder\n\nlistens for connections;\nnot involved in the\nWRITE's data path"
        mem = "host memory\n\nRDMA WRITE\ntarget buffer"
    box(x0 + 0.12, HOST_Y0 + 0.12, mid, HOST_Y1 - 0.34, "white", cpu, ha="left", va="top", fs=8.8)
    box(mid + 0.35, HOST_Y0 + 0.12, x1 - 0.12, HOST_Y1 - 0.34, "white", mem, va="top", fs=8.8)
    if role == "Initiator":
        # CPU polls the CQ in host memory.
        arrow(mid + 0.33, HOST_Y0 + 0.45, mid + 0.02, HOST_Y0 + 0.45, "#444444", lw=1.2, ms=10)

    # PCIe link: two directions.
    box(x0, NIC_Y1, x1, HOST_Y0, PCIE_C, lw=0.7, ec="#999999", z=0)
    xd, xu = x0 + 0.35, x0 + 2.75  # host-to-NIC (down) and NIC-to-host (up) lanes
    ax.text(xd + 0.14, NIC_Y1 + 0.12, "PCIe link: two directions,\n504.32 Gbps each",
            fontsize=FS, ha="left", va="bottom", style="italic", color="#444444")
    used_down = role == "Initiator"
    arrow(xd, HOST_Y0, xd, NIC_Y1, H2N_C if used_down else "#bbbbbb", lw=3.0, ms=18)
    arrow(xu, NIC_Y1, xu, HOST_Y0, N2H_C, lw=3.0, ms=18)
    ty = HOST_Y0 - 0.12
    if used_down:
        down = ("host-to-NIC lanes\n"
                "\u2460 doorbell MMIO write:\n"
                "   64 + 28 = 92 B, +34 B TLP\n"
                "\u2462b completions with data:\n"
                "   \u2264512 B per TLP, +34 B")
        up = ("NIC-to-host lanes\n"
              "\u2462a payload read request:\n"
              "   64 B, +34 B\n"
              "\u2466 CQE write:\n"
              "   64 B, +34 B")
    else:
        down = "host-to-NIC lanes\n(not used by\nthe WRITE)"
        up = ("NIC-to-host lanes\n"
              "\u2464 DMA write of each\n"
              "   packet's payload\n"
              "   into host memory")
    ax.text(xd + 0.14, ty, down, fontsize=FS, ha="left", va="top", linespacing=1.3,
            color=H2N_C if used_down else "#888888")
    ax.text(xu + 0.14, ty, up, fontsize=FS, ha="left", va="top", linespacing=1.3, color=N2H_C)

    # NIC: host interface over transport.
    box(x0, NIC_Y0, x1, NIC_Y1, NIC_C, f"NIC ({role})", fs=10, weight="bold", va="top")
    HI_Y0, HI_Y1 = 2.72, 3.62
    TR_Y0, TR_Y1 = 1.4, 2.27
    if role == "Initiator":
        hi = "host interface: BAR doorbell register,\nWQE queue per queue pair, one WQE in service"
        tr = "transport (UET NIC): PDC, scheduler\nfetches the payload, sends packets,\nretires them on ACKs"
    else:
        hi = "host interface: DMA writes\nto host memory"
        tr = "transport (UET NIC): PDC (receiver)\nwrites each new packet at once,\nACKs when asked"
    box(x0 + 0.12, HI_Y0, x1 - 0.12, HI_Y1, "white", hi, fs=8.8, z=2)
    box(x0 + 0.12, TR_Y0, x1 - 0.12, TR_Y1, "white", tr, fs=8.8, z=2)
    if role == "Initiator":
        arrow(x0 + 1.0, HI_Y0, x0 + 1.0, TR_Y1, "#444444", lw=1.4, ms=11)
        ax.text(x0 + 1.1, (HI_Y0 + TR_Y1) / 2, "\u2461 WQE", fontsize=FS, ha="left", va="center")
        arrow(x0 + 3.1, TR_Y1, x0 + 3.1, HI_Y0, "#444444", lw=1.4, ms=11)
        ax.text(x0 + 3.2, (HI_Y0 + TR_Y1) / 2, "\u2466 WQE complete", fontsize=FS, ha="left",
                va="center")
    else:
        arrow(x0 + 3.1, TR_Y1, x0 + 3.1, HI_Y0, "#444444", lw=1.4, ms=11)
        ax.text(x0 + 3.2, (HI_Y0 + TR_Y1) / 2, "\u2464 payload", fontsize=FS, ha="left",
                va="center")

# Fabric between the NICs, with the data packets and the ACKs crossing it.
ix1 = cols["Initiator"] + COL_W - 0.12
rx0 = cols["Responder"] + 0.12
FX0, FX1 = 5.5, 7.3
box(FX0, 0.95, FX1, 3.75, FABRIC_C, "network\n(switch fabric)", fs=10, weight="bold", va="top")
for k, sx in enumerate((5.75, 6.4, 7.05)):  # three small switches, a hint of a leaf-spine path
    ax.add_patch(plt.Rectangle((sx - 0.17, 2.68 - 0.12), 0.34, 0.24, fc="white", ec="#38761d",
                               lw=0.8, zorder=2))
ax.plot([5.92, 6.23], [2.68, 2.68], color="#38761d", lw=0.8)
ax.plot([6.57, 6.88], [2.68, 2.68], color="#38761d", lw=0.8)
DATA_Y, ACK_Y = 2.0, 1.6
arrow(ix1, DATA_Y, rx0, DATA_Y, DATA_C, lw=2.2, z=6)
arrow(rx0, ACK_Y, ix1, ACK_Y, ACK_C, lw=2.2, z=6)
ax.text((FX0 + FX1) / 2, DATA_Y + 0.07, "\u2463 data packets", fontsize=FS, ha="center", va="bottom",
        color=DATA_C, fontweight="bold", zorder=7)
ax.text((FX0 + FX1) / 2, ACK_Y - 0.07, "\u2465 ACKs", fontsize=FS, ha="center", va="top",
        color=ACK_C, fontweight="bold", zorder=7)

ax.text(W / 2, H - 0.2, "One RDMA WRITE through the host side (default sizes and rates)", fontsize=11,
        ha="center", va="top")
ax.text(W / 2, 0.55,
        "Order: \u2460 doorbell  \u2461 WQE in service  \u2462 payload fetch (a: read request, "
        "b: completions with data)  \u2463 data packets  \u2464 payload written at the Responder  "
        "\u2465 ACKs  \u2466 completion (CQE)  \u2467 rdma-perf row, next WQE",
        fontsize=8.5, ha="center", va="center")
ax.text(W / 2, 0.25,
        "Defaults: Pcie lanes 16 x 31.52 Gbps = 504.32 Gbps per direction; TlpOverhead 34 B; "
        "MaxPayloadSize 512 B; ReadRequestSize 64 B; CompletionSize 64 B; "
        "RdmaApplication.DoorbellPayloadSize 64 B (+28 B UDP and IPv4)",
        fontsize=8, ha="center", va="center")

out = os.path.join(here, "host_path.png")
fig.savefig(out, dpi=110)
print("wrote", out)
