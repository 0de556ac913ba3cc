"""docs/figures/leaf_spine.png: the default leaf-spine (16 hosts, 8 per leaf, 8 spines)."""
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topology_drawing as td  # noqa: E402

t = td.leaf_spine(hosts=16, hosts_per_leaf=8, spines=8)
pos = {}
for d, dev in enumerate(t.devices):
    name = dev["name"]
    if name.startswith("host"):
        h = int(name[4:])
        pos[d] = (h * 1.1 + (0.8 if h >= 8 else 0), 0)
    elif name.startswith("leaf"):
        l = int(name[4:])
        pos[d] = (3.85 + l * 9.6, 3)
    else:
        s = int(name[5:])
        pos[d] = (1.2 + s * 2.3, 6.5)
labels = {t.links.index(l) for l in t.links if l["name"] in ("host3-leaf0", "leaf0-spine2", "leaf1-spine7")}
td.draw(t, pos, "Leaf-spine, default: Hosts 16, HostsPerLeaf 8, Spines 8 (small numbers are port numbers)",
        td.out_path(__file__, "leaf_spine.png"), link_labels=labels, figsize=(15, 7),
        note="Node ids: hosts 0-15, leaves 16-17, spines 18-25. Leaf ports 0-7 face its hosts, 8-15 the spines (port 8 + s to spine s). "
             "Spine port l faces leaf l. A host has one port, 0.")
