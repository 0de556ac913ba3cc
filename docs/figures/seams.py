"""docs/figures/seams.png: the seams a new NIC, switch policy, record or RTL block plugs into.

Left: the NIC. Every NIC type derives from host_nic, which owns the generic nic_port (egress
arbitration through port_scheduler, egress pool, receive pipeline, ACK hold, connection frames)
and reaches the host only through the host_dma interface (nic_host_interface over PCIe in a run,
a stub in a component bench). The UET transport is glue around plain classes. The testbench's
nic_factory picks the type by Nic.Type.

Right: the switch in roles, as garnet and merlin split a router: ingress_unit (per port and
traffic class bytes), routing_table and member_selector (ECMP hash today), the per-switch
buffer_manager (admission and occupancy across ports), and per egress port the egress_queue with
RED and the shared port_scheduler.

Bottom: the testbench's records registry and per-instance configuration.

Run with /usr/bin/python3 (Debian's matplotlib); it writes the PNG next to itself.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))

W, H = 13.0, 8.6
fig = plt.figure(figsize=(W, H))
ax = fig.add_axes([0, 0, 1, 1])
ax.set_xlim(0, W)
ax.set_ylim(0, H)
ax.axis("off")

MOD_C, PURE_C, SEAM_C, TB_C = "#cfe2f3", "#fff2cc", "#f4cccc", "#d9ead3"
FS = 9


def box(x0, y0, x1, y1, fc, text=None, fs=FS, weight="normal", va="center", lw=0.9, ls="-",
        z=1):
    ax.add_patch(FancyBboxPatch((x0, y0), x1 - x0, y1 - y0,
                                boxstyle="round,pad=0,rounding_size=0.06", fc=fc, ec="black",
                                lw=lw, ls=ls, zorder=z))
    if text:
        ty = {"center": (y0 + y1) / 2, "top": y1 - 0.1}[va]
        ax.text((x0 + x1) / 2, ty, text, fontsize=fs, ha="center", va=va, fontweight=weight,
                zorder=z + 0.5, linespacing=1.25)


def arrow(x0, y0, x1, y1, colour="black", lw=1.4, style="-|>"):
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=6,
                arrowprops=dict(arrowstyle=style, color=colour, lw=lw, mutation_scale=12,
                                shrinkA=0, shrinkB=0))


ax.text(W / 2, H - 0.25, "uetsim seams: where a new NIC, switch policy, record or RTL block goes",
        fontsize=12, ha="center", va="top", fontweight="bold")

# ---- NIC (left) -------------------------------------------------------------------------------
box(0.25, 2.35, 6.35, 7.75, "white", "hw/nic", fs=10, weight="bold", va="top", lw=1.2)
box(0.5, 6.4, 6.1, 7.3, SEAM_C,
    "host_nic  (hw/nic/common: the base every NIC type derives from)\n"
    "rdma_transport: post_message, send_connection_message   |   nic_context: host, node id, IP,\n"
    "seed, packet pool, host_dma&", fs=8.5)
box(0.5, 4.95, 3.15, 6.2, MOD_C,
    "nic_port\nin socket, transmitter\ncontrol + data rings\negress pool, rx pipeline,\n"
    "ACK hold, connection frames", fs=8.5)
box(3.35, 4.95, 6.1, 6.2, SEAM_C,
    "host_dma (interface)\nfetch_payload, write_payload,\nwrite_backlog_bytes, message_complete,\n"
    "connection_message_received", fs=8.5)
box(0.5, 2.6, 6.1, 4.7, "white", "hw/nic/uet: uet_nic = host_nic + glue around plain classes",
    fs=8.5, va="top")
pure = ["pdc_table", "pds_scheduler", "rx_pdc_table", "deadline_heap", "nscc", "entropy policies",
        "pdc_sender /\npdc_receiver", "uet-monitor rows"]
for i, name in enumerate(pure):
    c, r = i % 4, i // 4
    x0 = 0.65 + c * 1.36
    y0 = 3.55 - r * 0.85
    box(x0, y0, x0 + 1.26, y0 + 0.7, PURE_C, name, fs=8)
arrow(1.8, 4.7, 1.8, 4.95)
arrow(4.7, 4.7, 4.7, 4.95)
ax.text(1.88, 4.82, "uses", fontsize=7.5, va="center")
ax.text(4.78, 4.82, "calls", fontsize=7.5, va="center")

# ---- Switch (right) ---------------------------------------------------------------------------
box(6.65, 2.35, 12.75, 7.75, "white", "hw/switch: fabric_switch in roles", fs=10, weight="bold",
    va="top", lw=1.2)
stages = [("ingress_unit\nbytes per (port,\ntraffic class)", PURE_C),
          ("routing_table\n+ member_selector\n(ecmp_selector)", SEAM_C),
          ("buffer_manager\noccupancy of all\nports + admission_\npolicy", SEAM_C),
          ("egress_queue\nFIFO per class, RED\n+ port_scheduler", PURE_C)]
for i, (name, c) in enumerate(stages):
    x0 = 6.85 + i * 1.48
    box(x0, 5.35, x0 + 1.34, 6.85, c, name, fs=8.2)
    if i:
        arrow(x0 - 0.14, 6.1, x0, 6.1)
box(6.85, 2.6, 12.55, 4.95, "white", None)
ax.text(9.7, 4.75, "one switch_item {packet, ingress port} flows through the forwarding pipeline",
        fontsize=8.5, ha="center", va="top")
notes = ["New admission policy: a class behind admission_policy (four forms in a variant).",
         "New member policy: a class behind member_selector (flowlet).",
         "Pause: ingress_unit thresholds send PFC; port_scheduler.pause(mask) skips classes.",
         "port_scheduler is also the arbiter of nic_port (control slot, strict priority)."]
for i, t in enumerate(notes):
    ax.text(7.05, 4.2 - i * 0.4, "\u2022 " + t, fontsize=8.4, ha="left", va="top")

# ---- testbench (bottom) -----------------------------------------------------------------------
box(0.25, 0.25, 12.75, 2.1, "white", "testbench", fs=10, weight="bold", va="top", lw=1.2)
tb = [("NIC registry (nic_factory)\nNic.Type -> a row per type: builder,\nMSS, framing, probe (nics/)", TB_C),
      ("fabric\nwires nic_hosts, fabric_switches\nand links; binds the sockets", TB_C),
      ("records registry\none entry per record: name, file,\ncolumns {name, value}, applies()",
       TB_C),
      ("per-instance configuration\nSection[glob].Key resolved per device\n(e.g. Switch[leaf*])",
       TB_C)]
for i, (name, c) in enumerate(tb):
    x0 = 0.45 + i * 3.1
    box(x0, 0.45, x0 + 2.9, 1.65, c, name, fs=8.2)
arrow(1.9, 1.65, 1.9, 2.6)
ax.text(1.98, 2.3, "builds", fontsize=8, va="center")
arrow(4.4, 1.65, 9.7, 2.6)
ax.text(7.2, 2.2, "builds, binds", fontsize=8, va="center")

# Legend.
for i, (label, c) in enumerate([("SystemC module", MOD_C), ("plain class (no kernel)", PURE_C),
                                ("seam: interface or base", SEAM_C), ("testbench", TB_C)]):
    x0 = 1.6 + i * 2.7
    box(x0, H - 0.72, x0 + 0.3, H - 0.52, c)
    ax.text(x0 + 0.4, H - 0.62, label, fontsize=8.5, va="center")

fig.savefig(os.path.join(here, "seams.png"), dpi=110)
