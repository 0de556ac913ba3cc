#!/usr/bin/env python3
"""Step-by-step patterns of the Chakra collective algorithms (docs/collectives.md), for N = 8.

The plans are re-implemented from testbench/traffic/chakra/collective_plan.cpp, rule for rule:
each rank's part is a list of lanes, each lane a list of steps, each step the sends and receives
of that rank. A round is the order the replay's step rules allow when every transfer takes one
unit of time: a send of step k waits for every receive of steps 0..k-1 of its lane (ring, trees,
halving-doubling) or for every send of steps 0..k-1 (the sequential algorithms). The panels show
one round, one step or one phase each. The plans carry bytes, not data: the labels give each
transfer's size for the execution page's worked example, S = 1,000 B (C = ceil(S/N) = 125 B).

Writes docs/figures/collective-algorithms-<name>.png for ring, tree, double-tree,
halving-doubling, alltoall-sequential, alltoall-interleaved and rooted (Reduce, Broadcast,
Gather, Scatter).

With --check OUT_DIR it draws nothing: it runs uetsim (build/bin/uetsim, or UETSIM in the
environment) for a one-entry Collectives list of each type and algorithm over 8 hosts, into
OUT_DIR/<Type>-<algorithm>/ unless that run is there already, and compares each plan's
transfers (sender, receiver, bytes) with the run's chakra-perf rows, the barrier's left out.
Usage: /usr/bin/python3 docs/figures/collective_algorithms.py [--check OUT_DIR]
"""
import csv
import math
import os
import subprocess
import sys
from collections import Counter

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyArrowPatch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
N = 8
S = 1000


# ---------------------------------------------------------------------------------------------
# The plans (collective_plan.cpp)

def tree_parent(t):
    return 0 if t == 1 else t // 2


def tree_children(t, n):
    # Index 0 is the root, its one child is index 1, and 1..N-1 are a binary heap.
    if t == 0:
        return [1] if n > 1 else []
    return [c for c in (2 * t, 2 * t + 1) if c < n]


class Plan:
    """One collective's plan: the same shapes, steps and byte counts as collective_plan."""

    def __init__(self, ctype, alg, n, s, root=0):
        self.ctype, self.alg, self.n, self.s, self.root = ctype, alg, n, s, root
        self.c = -(-s // n)  # ceil(S / N)
        self.log2n = n.bit_length() - 1
        barrier = ctype == "Barrier"
        all_reduce = ctype == "AllReduce" or barrier
        self.sequential = alg == "sequential"
        if alg == "ring":
            if all_reduce:
                self.shape, self.nsteps, self.unit = "ring", 2 * (n - 1), 0 if barrier else self.c
            elif ctype == "Reduce":
                self.shape, self.nsteps, self.unit = "reduce_chain", 2, s
            else:
                self.shape, self.nsteps = "ring", n - 1
                self.unit = s if ctype == "AllGather" else self.c
        elif alg in ("tree", "double-tree"):
            if ctype == "Reduce":
                self.shape, self.nsteps, self.unit = "reduce_tree", 2, s
            else:
                self.shape, self.nsteps = "tree", 3
                self.unit = 0 if barrier else s if alg == "tree" else -(-s // 2)
        elif alg == "halving-doubling":
            self.shape, self.nsteps, self.unit = "halving_doubling", 2 * self.log2n, 0 if barrier else self.c
        elif alg == "halving":
            self.shape, self.nsteps, self.unit = "halving", self.log2n, self.c
        elif alg in ("sequential", "interleaved"):
            if ctype == "Broadcast":
                self.shape, self.unit, self.nsteps = "broadcast", s, None
            else:
                self.shape, self.unit = "all_to_all", self.c
                self.nsteps = n - 1 if self.sequential else 1
        else:  # direct
            self.shape = "gather" if ctype == "Gather" else "scatter"
            self.nsteps, self.unit = 1, s if ctype == "Gather" else self.c

    def lanes(self):
        return 2 if self.alg == "double-tree" else 1

    def send_after_recv(self):
        return self.alg in ("ring", "tree", "double-tree", "halving-doubling", "halving")

    def send_after_send(self):
        return self.alg == "sequential"

    def tree_offset(self, lane):
        if self.shape == "reduce_tree":
            return self.root
        return 0 if lane == 0 else self.n - 1  # the second tree: the last rank, then 0..N-2

    def steps(self, p, lane):
        if self.shape == "broadcast":
            return self.n - 1 if p == self.root and self.sequential else 1
        return self.nsteps

    def step(self, p, lane, k):
        """(sends, recvs) of step k of the rank at position p: lists of (peer, bytes)."""
        n, u = self.n, self.unit
        sends, recvs = [], []
        at = lambda base, plus: (base + plus) % n  # noqa: E731
        if self.shape == "ring":
            sends.append((at(p, 1), u))
            recvs.append((at(p, n - 1), u))
        elif self.shape == "tree":
            off = self.tree_offset(lane)
            t = (p + n - off) % n
            pos = lambda x: (x + off) % n  # noqa: E731
            if k == 0:
                recvs += [(pos(c), u) for c in tree_children(t, n)]
            elif k == 1:
                if t != 0:
                    sends.append((pos(tree_parent(t)), u))
                    recvs.append((pos(tree_parent(t)), u))
            else:
                sends += [(pos(c), u) for c in tree_children(t, n)]
        elif self.shape == "reduce_tree":
            off = self.tree_offset(lane)
            t = (p + n - off) % n
            pos = lambda x: (x + off) % n  # noqa: E731
            if k == 0:
                recvs += [(pos(c), self.s) for c in tree_children(t, n)]
            elif t != 0:
                sends.append((pos(tree_parent(t)), self.s))
        elif self.shape == "reduce_chain":
            d = (p + n - self.root) % n  # root+1 -> root+2 -> ... -> root-1 -> root
            if k == 0:
                if d == 0:
                    recvs.append((at(self.root, n - 1), self.s))
                if d >= 2:
                    recvs.append((at(p, n - 1), self.s))
            elif d != 0:
                sends.append((at(p, 1), self.s))
        elif self.shape in ("halving_doubling", "halving"):
            if k < self.log2n:
                half = n >> (k + 1)  # reduce-scatter: partner p XOR N/2, N/4, ...; C x N/2, ...
                sends.append((p ^ half, u * half))
            else:
                j = k - self.log2n  # all-gather: partner p XOR 1, 2, ...; C, 2C, ...
                sends.append((p ^ (1 << j), u << j))
            recvs.append(sends[-1])
        elif self.shape == "broadcast":
            if p == self.root:
                if self.sequential:
                    sends.append((at(self.root, k + 1), self.s))
                else:
                    sends += [(at(self.root, d), self.s) for d in range(1, n)]
            else:
                recvs.append((self.root, self.s))
        elif self.shape in ("gather", "scatter"):
            to_root = self.shape == "gather"
            if p == self.root:
                (recvs if to_root else sends).extend((at(self.root, d), u) for d in range(1, n))
            else:
                (sends if to_root else recvs).append((self.root, u))
        elif self.shape == "all_to_all":
            first, last = (k + 1, k + 1) if self.sequential else (1, n - 1)
            for s in range(first, last + 1):
                sends.append((at(p, s), u))
                recvs.append((at(p, n - s), u))
        return sends, recvs

    def recv_step(self, k):
        # Where the receiver holds the receive of a send of step k.
        if self.shape in ("tree", "reduce_tree", "reduce_chain"):
            return k - 1
        return 0 if self.shape == "broadcast" else k


def expand(plan):
    """Every transfer (src, dst, bytes, lane, step), as collective_plan's expand()."""
    return [(p, peer, b, lane, k)
            for p in range(plan.n) for lane in range(plan.lanes())
            for k in range(plan.steps(p, lane)) for peer, b in plan.step(p, lane, k)[0]]


def rounds(plan):
    """The replay's pump() with unit-time transfers: each transfer's round. A transfer issued in
    round r has arrived, and has been sent, by round r + 1."""
    n, lanes = plan.n, plan.lanes()
    st = {}
    for p in range(n):
        for lane in range(lanes):
            ks = plan.steps(p, lane)
            st[p, lane] = {"next": 0, "steps": ks,
                           "recv_left": [len(plan.step(p, lane, k)[1]) for k in range(ks)],
                           "unsent": [0] * ks}
    out, arriving, r = [], [], 0
    while any(s["next"] < s["steps"] for s in st.values()) or arriving:
        for (dst, lane, k) in [a[1:] for a in arriving if a[0] == r]:
            st[dst, lane]["recv_left"][k] -= 1
        for (_, src, _, _, lane, k) in [t for t in out if t[0] == r - 1]:
            st[src, lane]["unsent"][k] -= 1
        arriving = [a for a in arriving if a[0] > r]
        for (p, lane), s in st.items():
            while s["next"] < s["steps"]:
                k = s["next"]
                if plan.send_after_recv() and any(s["recv_left"][j] for j in range(k)):
                    break
                if plan.send_after_send() and any(s["unsent"][j] for j in range(k)):
                    break
                for peer, b in plan.step(p, lane, k)[0]:
                    out.append((r, p, peer, b, lane, k))
                    arriving.append((r + 1, peer, lane, plan.recv_step(k)))
                    s["unsent"][k] += 1
                s["next"] += 1
        r += 1
        if r > 10 * n * n:
            raise RuntimeError("no progress: the plan deadlocks")
    return out  # (round, src, dst, bytes, lane, step)


# ---------------------------------------------------------------------------------------------
# Drawing

LANE_COLOURS = ["tab:blue", "tab:orange"]
R = 0.17  # node radius, data units


def circle_layout(n, scale=1.0):
    # Rank 0 at the top, increasing clockwise.
    return {p: (scale * math.sin(2 * math.pi * p / n), scale * math.cos(2 * math.pi * p / n))
            for p in range(n)}


def tree_layout(n, off=0):
    # Tree index 0 on top, its one child below it, then the heap's levels; position = index + off.
    depth = {0: 0}
    for t in range(1, n):
        depth[t] = 1 if t == 1 else depth[tree_parent(t)] + 1
    pos = {}
    for t in range(n):
        d = depth[t]
        if d <= 1:
            x = 0.0
        else:
            first = width = 2 ** (d - 1)  # heap depth d-1 holds tree indices 2^(d-1)..2^d-1
            x = -1 + (2 * (t - first) + 1) / width
        pos[(t + off) % n] = (1.3 * x, 1.2 - 0.8 * d)
    return pos


def draw_nodes(ax, layout, highlight=(), radius=R):
    for p, (x, y) in layout.items():
        face = "#ffe9b3" if p in highlight else "white"
        ax.add_patch(Circle((x, y), radius, facecolor=face, edgecolor="black", lw=1.0, zorder=3))
        ax.text(x, y, str(p), ha="center", va="center", fontsize=9, zorder=4)


def draw_arrow(ax, layout, src, dst, colour, rad=0.12, lw=1.3, label=None, radius=R):
    (x0, y0), (x1, y1) = layout[src], layout[dst]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    gap = radius + 0.03  # start and end on the nodes' rims, not under them
    a = FancyArrowPatch((x0 + ux * gap, y0 + uy * gap), (x1 - ux * gap, y1 - uy * gap),
                        connectionstyle=f"arc3,rad={rad}", arrowstyle="-|>", mutation_scale=9,
                        color=colour, lw=lw, shrinkA=0, shrinkB=0, zorder=2)
    ax.add_patch(a)
    if label is not None:
        # The arc's midpoint lies rad x chord to the right of the direction of travel.
        mx = (x0 + x1) / 2 + rad * (y1 - y0)
        my = (y0 + y1) / 2 - rad * (x1 - x0)
        ax.text(mx, my, label, fontsize=6.5, ha="center", va="center", color=colour,
                bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85), zorder=5)


def frame(ax, xlim=1.45, ylim=None):
    ax.set_xlim(-xlim, xlim)
    ax.set_ylim(-(ylim or xlim), ylim or xlim)
    ax.set_aspect("equal")
    ax.axis("off")


def size_text(b):
    return f"{b:,} B"


def sizes_text(ts):
    sizes = Counter(t[3] for t in ts)
    return ", ".join(f"{c} x {size_text(b)}" for b, c in sorted(sizes.items(), reverse=True))


def totals(ts):
    return f"{len(ts)} transfers, {sum(t[3] for t in ts):,} B"


def save(fig, name):
    path = os.path.join(HERE, f"collective-algorithms-{name}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def note(fig, text):
    fig.text(0.5, 0.01, text, ha="center", va="bottom", fontsize=8, color="dimgrey", wrap=True)


def draw_ring():
    plan = Plan("AllReduce", "ring", N, S)
    ts = rounds(plan)
    fig, axs = plt.subplots(1, 3, figsize=(13.5, 4.3), gridspec_kw={"width_ratios": [1, 1, 2.2]})
    layout = circle_layout(N)
    for ax, (first, last, phase) in zip(axs, [(0, N - 2, "reduce-scatter"),
                                              (N - 1, 2 * N - 3, "all-gather")]):
        mine = [t for t in ts if t[5] == first]
        draw_nodes(ax, layout, highlight={t[1] for t in mine})
        for (_, src, dst, b, lane, k) in mine:
            draw_arrow(ax, layout, src, dst, "tab:blue" if first == 0 else "tab:purple")
        ax.set_title(f"steps {first}-{last}: {phase}\nevery step: {sizes_text(mine)}", fontsize=9)
        frame(ax)
    # The chain of waits: step k+1 of rank p waits for step k of rank p-1.
    ax = axs[2]
    steps = 2 * (N - 1)
    by_round = {(t[1], t[5]): t[0] for t in ts}
    chain, p = [], 0
    for k in range(steps - 1, -1, -1):
        chain.append((p, k))
        p = (p - 1) % N
    for p in range(N):
        for k in range(steps):
            on = (p, k) in chain
            ax.plot(k, p, "o", ms=5 if on else 3.5, color="tab:red" if on else "tab:blue",
                    zorder=3)
            if k + 1 < steps:
                q = (p + 1) % N
                hot = (p, k) in chain and (q, k + 1) in chain
                ax.annotate("", xy=(k + 1, q), xytext=(k, p),
                            arrowprops=dict(arrowstyle="-|>", lw=1.4 if hot else 0.5,
                                            color="tab:red" if hot else "0.75",
                                            shrinkA=3, shrinkB=3), zorder=2)
    ax.axvline(N - 1.5, color="grey", ls=":", lw=1)
    ax.text(N - 1.5, N - 0.35, " all-gather", fontsize=8, color="grey", va="bottom")
    ax.text(N - 1.5, N - 0.35, "reduce-scatter ", fontsize=8, color="grey", va="bottom",
            ha="right")
    ax.set_xticks(range(steps))
    ax.set_yticks(range(N))
    ax.set_xlabel("step (= round: the replay issues step k of every rank in round k)", fontsize=8)
    ax.set_ylabel("rank (sender)", fontsize=8)
    ax.set_ylim(-0.6, N + 0.2)
    ax.invert_yaxis()
    ax.set_title("each send waits for the previous step's receive: rank p's step k+1 follows rank "
                 "p-1's step k;\nin red, the chain of 14 transfers that rank 0's last send "
                 "waits for", fontsize=9)
    ax.tick_params(labelsize=8)
    fig.suptitle(f"AllReduce ring: N = {N}, S = {S:,} B, C = ceil(S/N) = {plan.c:,} B; "
                 f"{totals(ts)}", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    assert all(by_round[p, k] == k for p in range(N) for k in range(steps))
    return save(fig, "ring"), ts


def tree_rounds_figure(name, plan, title, caption):
    ts = rounds(plan)
    nr = max(t[0] for t in ts) + 1
    lanes = plan.lanes()
    fig, axs = plt.subplots(lanes, nr, figsize=(2.45 * nr, 3.1 * lanes + 0.75), squeeze=False)
    for lane in range(lanes):
        layout = tree_layout(plan.n, plan.tree_offset(lane))
        for r in range(nr):
            ax = axs[lane][r]
            mine = [t for t in ts if t[0] == r and t[4] == lane]
            # The tree's edges, faint, under the round's transfers.
            for t in range(1, plan.n):
                a = layout[(t + plan.tree_offset(lane)) % plan.n]
                b = layout[(tree_parent(t) + plan.tree_offset(lane)) % plan.n]
                ax.plot([a[0], b[0]], [a[1], b[1]], color="0.88", lw=3, zorder=1)
            draw_nodes(ax, layout, highlight={t[1] for t in mine})
            for (_, src, dst, b, _, k) in mine:
                draw_arrow(ax, layout, src, dst, LANE_COLOURS[lane], rad=0.0, lw=1.6)
            direction = "up" if mine and mine[0][5] == 1 else "down"
            head = f"tree {lane + 1}, " if lanes > 1 else ""
            ax.set_title(f"{head}round {r}: {direction} (step {mine[0][5]})\n{sizes_text(mine)}",
                         fontsize=8)
            frame(ax, 1.55, 1.42)
    fig.suptitle(f"{title}: N = {plan.n}, S = {plan.s:,} B; {totals(ts)}", fontsize=10)
    note(fig, caption)
    fig.tight_layout(rect=(0, 0.06, 1, 0.93))
    return save(fig, name), ts


def draw_tree():
    return tree_rounds_figure(
        "tree", Plan("AllReduce", "tree", N, S), "AllReduce tree",
        "Rank 0 is the root; its one child, rank 1, roots a binary heap of ranks 1..7 (children "
        "of t: 2t and 2t+1). A rank sends up once all its children have; down once its parent has.")


def draw_double_tree():
    plan = Plan("AllReduce", "double-tree", N, S)
    return tree_rounds_figure(
        "double-tree", plan, f"AllReduce double-tree, two trees of ceil(S/2) = {plan.unit:,} B "
        "at once",
        "Tree 2 is tree 1's rule on the group order rotated by one (rank 7, then 0..6): root 7, "
        "its child 0. The two lanes run side by side and never wait for each other.")


def draw_halving_doubling():
    plan = Plan("AllReduce", "halving-doubling", N, S)
    ts = rounds(plan)
    fig, axs = plt.subplots(1, 6, figsize=(2.35 * 6, 3.2), squeeze=False)
    layout = circle_layout(N)
    for r in range(6):
        ax = axs[0][r]
        mine = [t for t in ts if t[0] == r]
        draw_nodes(ax, layout, highlight={t[1] for t in mine})
        k = mine[0][5]
        for (_, src, dst, b, lane, _) in mine:
            (x0, y0), (x1, y1) = layout[src], layout[dst]
            short = math.hypot(x1 - x0, y1 - y0) < 1  # neighbours: bend more, to show both
            draw_arrow(ax, layout, src, dst, "tab:green" if k < 3 else "tab:purple",
                       rad=0.45 if short else 0.14)
        dist = N >> (k + 1) if k < 3 else 1 << (k - 3)
        phase = "reduce-scatter" if k < 3 else "all-gather"
        ax.set_title(f"step {k}: {phase}\npartner = rank XOR {dist}; {sizes_text(mine)}",
                     fontsize=8)
        frame(ax)
    fig.suptitle(f"AllReduce halving-doubling: N = {N}, S = {S:,} B, C = {plan.c:,} B; "
                 f"{totals(ts)}", fontsize=10)
    note(fig, "Partners exchange: both send in the same step, each once it has the previous "
         "step's receive. Sizes 4C, 2C, C, then C, 2C, 4C (C x N/2, halving, then doubling back).")
    fig.tight_layout(rect=(0, 0.07, 1, 0.92))
    return save(fig, "halving-doubling"), ts


def draw_alltoall_sequential():
    plan = Plan("AllToAll", "sequential", N, S)
    ts = rounds(plan)
    nr = max(t[0] for t in ts) + 1
    fig, axs = plt.subplots(1, nr, figsize=(2.3 * nr, 3.1), squeeze=False)
    layout = circle_layout(N)
    for r in range(nr):
        ax = axs[0][r]
        mine = [t for t in ts if t[0] == r]
        draw_nodes(ax, layout, highlight={t[1] for t in mine})
        for (_, src, dst, b, lane, k) in mine:
            draw_arrow(ax, layout, src, dst, "tab:blue", rad=0.08)
        ax.set_title(f"step {mine[0][5]}: to rank + {mine[0][5] + 1}\n{sizes_text(mine)}",
                     fontsize=8)
        frame(ax)
    fig.suptitle(f"AllToAll sequential: N = {N}, S = {S:,} B, C = {plan.c:,} B; {totals(ts)}",
                 fontsize=10)
    note(fig, "Each rank sends step k+1 once its step-k send is sent (its last payload fetch "
         "issued); no send waits for a receive.")
    fig.tight_layout(rect=(0, 0.07, 1, 0.92))
    return save(fig, "alltoall-sequential"), ts


def draw_alltoall_interleaved():
    plan = Plan("AllToAll", "interleaved", N, S)
    ts = rounds(plan)
    fig, ax = plt.subplots(figsize=(5.6, 6.0))
    layout = circle_layout(N, 1.4)
    cmap = plt.get_cmap("viridis")
    draw_nodes(ax, layout, radius=0.2)
    for (_, src, dst, b, lane, k) in ts:
        s = (dst - src) % N
        draw_arrow(ax, layout, src, dst, cmap((s - 1) / (N - 2)), rad=0.08, lw=0.9, radius=0.2)
    for s in range(1, N):
        ax.plot([], [], color=cmap((s - 1) / (N - 2)), label=f"to rank + {s}")
    ax.legend(fontsize=7, loc="lower center", ncol=4, bbox_to_anchor=(0.5, -0.08),
              frameon=False)
    ax.set_title(f"AllToAll interleaved: N = {N}, S = {S:,} B, C = {plan.c:,} B\n"
                 f"one step: every rank sends C to each other rank at once; {totals(ts)}",
                 fontsize=9)
    frame(ax, 1.9)
    fig.tight_layout()
    return save(fig, "alltoall-interleaved"), ts


def draw_rooted():
    cases = [("Reduce", "ring"), ("Reduce", "tree"), ("Broadcast", "sequential"),
             ("Broadcast", "interleaved"), ("Gather", "direct"), ("Scatter", "direct")]
    fig, axs = plt.subplots(1, 6, figsize=(2.5 * 6, 3.4), squeeze=False)
    out = {}
    for ax, (ctype, alg) in zip(axs[0], cases):
        plan = Plan(ctype, alg, N, S, root=0)
        ts = rounds(plan)
        out[f"{ctype}-{alg}"] = ts
        layout = tree_layout(N, 0) if alg == "tree" else circle_layout(N)
        draw_nodes(ax, layout, highlight={0})
        nr = max(t[0] for t in ts) + 1
        cmap = plt.get_cmap("plasma")
        for (r, src, dst, b, lane, k) in ts:
            colour = cmap(0.85 * r / max(1, nr - 1)) if nr > 1 else "tab:blue"
            draw_arrow(ax, layout, src, dst, colour, rad=0.1 if alg != "tree" else 0.0,
                       label=str(r) if nr > 1 else None)
        ax.set_title(f"{ctype} {alg}\n{sizes_text(ts)}, {nr} round{'s' if nr > 1 else ''}",
                     fontsize=8)
        frame(ax, 1.55)
    fig.suptitle(f"Rooted collectives, root = rank 0 (shaded): N = {N}, S = {S:,} B, "
                 f"C = {-(-S // N):,} B; the numbers on the arrows are rounds", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return save(fig, "rooted"), out


# ---------------------------------------------------------------------------------------------
# --check

CHECKED = [("AllReduce", "ring"), ("AllReduce", "tree"), ("AllReduce", "double-tree"),
           ("AllReduce", "halving-doubling"), ("AllToAll", "sequential"),
           ("AllToAll", "interleaved"), ("Reduce", "ring"), ("Reduce", "tree"),
           ("Broadcast", "sequential"), ("Broadcast", "interleaved"), ("Gather", "direct"),
           ("Scatter", "direct"), ("AllGather", "ring"), ("ReduceScatter", "ring"),
           ("ReduceScatter", "halving")]


def check(out_dir):
    uetsim = os.environ.get("UETSIM", os.path.join(HERE, "..", "..", "build", "bin", "uetsim"))
    bad = 0
    for ctype, alg in CHECKED:
        run = os.path.join(out_dir, f"{ctype}-{alg}")
        path = os.path.join(run, "coll-chakra-perf-0.csv")
        if not os.path.exists(path):
            os.makedirs(out_dir, exist_ok=True)
            scenario = os.path.join(out_dir, f"{ctype}-{alg}.yaml")
            with open(scenario, "w") as f:
                f.write("Simulation: {Name: coll, RunTime: 10ms}\n"
                        "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 4}\n"
                        "Collectives:\n"
                        f"  - {{Type: {ctype}, Bytes: {S}B, Ranks: all, Algorithm: {alg}}}\n")
            subprocess.run([uetsim, "run", scenario, "--quiet", "--out", run], check=True,
                           stdout=subprocess.DEVNULL)
        with open(path) as f:
            rows = [r for r in csv.DictReader(f) if r["is_added_synchronization_flow"] == "false"]
        got = Counter((int(r["sending_app_name"].split("-")[1]),
                       int(r["receiving_app_name"].split("-")[1]), int(r["flow_comm_size"]))
                      for r in rows)
        want = Counter((s, d, b) for (s, d, b, lane, k) in expand(Plan(ctype, alg, N, S)))
        ok = got == want
        bad += not ok
        print(f"{ctype} {alg}: {sum(want.values())} transfers, "
              f"{'same as chakra-perf' if ok else 'DIFFERENT from chakra-perf'}")
    return bad


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    for draw in (draw_ring, draw_tree, draw_double_tree, draw_halving_doubling,
                 draw_alltoall_sequential, draw_alltoall_interleaved, draw_rooted):
        path, _ = draw()
        print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
