"""Shared helpers for the topology figures of docs/topologies.md.

The builders below mirror testbench/elab/topology.cpp: devices are numbered hosts first, then
switches in creation order, and each device numbers its ports in the order its links are
created. Keep them in step with the C++ code if it changes.

Run the figure scripts with /usr/bin/python3 (Debian's matplotlib); each writes a PNG next to
itself.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TIER_COLOURS = {0: "#f4cccc", 1: "#fff2cc", 2: "#d9ead3", 3: "#cfe2f3"}
TIER_NAMES = {0: "tier 0 (spine)", 1: "tier 1 (fabric)", 2: "tier 2 (rack)", 3: "tier 3 (NIC)"}


class Topology:
    def __init__(self):
        self.devices = []  # dicts: name, node_id, tier, ports (list of link indices)
        self.links = []  # dicts: name, a, a_port, b, b_port

    def add(self, name, tier):
        self.devices.append({"name": name, "node_id": len(self.devices), "tier": tier, "ports": []})
        return len(self.devices) - 1

    def connect(self, lower, upper, name):
        lo, up = self.devices[lower], self.devices[upper]
        self.links.append({"name": name, "a": lower, "a_port": len(lo["ports"]),
                           "b": upper, "b_port": len(up["ports"])})
        lo["ports"].append(len(self.links) - 1)
        up["ports"].append(len(self.links) - 1)


def leaf_spine(hosts=16, hosts_per_leaf=8, spines=8, uplinks_per_spine=1):
    t = Topology()
    for h in range(hosts):
        t.add(f"host{h}", 3)
    leaves = [t.add(f"leaf{l}", 2) for l in range(hosts // hosts_per_leaf)]
    spine = [t.add(f"spine{s}", 0) for s in range(spines)]
    for h in range(hosts):
        l = h // hosts_per_leaf
        t.connect(h, leaves[l], f"host{h}-leaf{l}")
    for l, leaf in enumerate(leaves):
        for s, sp in enumerate(spine):
            for j in range(uplinks_per_spine):
                suffix = f".{j}" if uplinks_per_spine > 1 else ""
                t.connect(leaf, sp, f"leaf{l}-spine{s}{suffix}")
    return t


def fat_tree(k=4):
    t = Topology()
    half = k // 2
    for h in range(k * k * k // 4):
        t.add(f"host{h}", 3)
    edge = [t.add(f"edge{e}", 2) for e in range(k * half)]
    agg = [t.add(f"agg{a}", 1) for a in range(k * half)]
    core = [t.add(f"core{c}", 0) for c in range(half * half)]
    for h in range(k * k * k // 4):
        t.connect(h, edge[h // half], f"host{h}-edge{h // half}")
    for p in range(k):
        for i in range(half):
            for j in range(half):
                e, a = p * half + i, p * half + j
                t.connect(edge[e], agg[a], f"edge{e}-agg{a}")
    for p in range(k):
        for i in range(half):
            for j in range(half):
                a, c = p * half + i, i * half + j
                t.connect(agg[a], core[c], f"agg{a}-core{c}")
    return t


def single_switch(hosts=8):
    t = Topology()
    for h in range(hosts):
        t.add(f"host{h}", 3)
    s = t.add("switch0", 2)
    for h in range(hosts):
        t.connect(h, s, f"host{h}-switch0")
    return t


def draw(t, positions, title, path, box=(0.9, 0.5), figsize=(14, 7), port_font=7,
         link_labels=None, note=None):
    """positions: device index -> (x, y). Port numbers are printed near each link end."""
    fig, ax = plt.subplots(figsize=figsize)
    bw, bh = box
    for i, l in enumerate(t.links):
        (xa, ya), (xb, yb) = positions[l["a"]], positions[l["b"]]
        ax.plot([xa, xb], [ya, yb], color="#888888", lw=0.8, zorder=1)
        # Port numbers just outside each device box, along the link.
        for (x0, y0), (x1, y1), port in (((xa, ya), (xb, yb), l["a_port"]),
                                         ((xb, yb), (xa, ya), l["b_port"])):
            dy = y1 - y0
            f = (bh / 2 + 0.18) / abs(dy) if dy else 0.3
            px, py = x0 + (x1 - x0) * f, y0 + dy * f
            ax.text(px, py, str(port), fontsize=port_font, ha="center", va="center", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.9))
        if link_labels and i in link_labels:
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            ax.text(mx, my, l["name"], fontsize=7, ha="center", va="center", color="#1155cc",
                    zorder=4, bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="#1155cc", lw=0.5))
    for d, dev in enumerate(t.devices):
        x, y = positions[d]
        ax.add_patch(plt.Rectangle((x - bw / 2, y - bh / 2), bw, bh, fc=TIER_COLOURS[dev["tier"]],
                                   ec="black", lw=0.8, zorder=2))
        ax.text(x, y, f"{dev['name']}\nid {dev['node_id']}", fontsize=7, ha="center", va="center",
                zorder=3)
    tiers = sorted({dev["tier"] for dev in t.devices})
    handles = [plt.Rectangle((0, 0), 1, 1, fc=TIER_COLOURS[tr], ec="black") for tr in tiers]
    ax.legend(handles, [TIER_NAMES[tr] for tr in tiers], loc="upper right", fontsize=8,
              framealpha=0.95)
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(min(ys) - 1, max(ys) + 1.8)
    ax.set_aspect("auto")
    ax.axis("off")
    ax.set_title(title, fontsize=11)
    if note:
        fig.text(0.5, 0.02, note, ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def out_path(script_file, name):
    return os.path.join(os.path.dirname(os.path.abspath(script_file)), name)
