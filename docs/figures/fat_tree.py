"""docs/figures/fat_tree.png: a 3-tier k-ary fat-tree with K = 4 (16 hosts, 20 switches)."""
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topology_drawing as td  # noqa: E402

K = 4
half = K // 2
t = td.fat_tree(K)
pos = {}
for d, dev in enumerate(t.devices):
    name = dev["name"]
    if name.startswith("host"):
        h = int(name[4:])
        pos[d] = (h * 1.05 + (h // (half * half)) * 0.9, 0)
    elif name.startswith("edge"):
        e = int(name[4:])
        pos[d] = (e * 2.1 + (e // half) * 0.9 + 0.525, 2.8)
    elif name.startswith("agg"):
        a = int(name[3:])
        pos[d] = (a * 2.1 + (a // half) * 0.9 + 0.525, 5.4)
    else:
        c = int(name[4:])
        pos[d] = (2.6 + c * 4.6, 8.4)
labels = {i for i, l in enumerate(t.links) if l["name"] in ("host5-edge2", "edge2-agg3", "agg3-core3")}
td.draw(t, pos, "Fat-tree, K = 4: 4 pods, K^3/4 = 16 hosts, 8 edge, 8 agg, 4 core (small numbers are port numbers)",
        td.out_path(__file__, "fat_tree.png"), link_labels=labels, figsize=(15, 8),
        note="Node ids: hosts 0-15, edge 16-23, agg 24-31, core 32-35. Edge: ports 0..K/2-1 hosts, K/2+j agg j of its pod. "
             "Agg: ports 0..K/2-1 edges of its pod, K/2+j core (i*K/2 + j) for the agg's index i in its pod. Core: port p faces pod p.")
