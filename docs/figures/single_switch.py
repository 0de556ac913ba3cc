"""docs/figures/single_switch.png: one switch with 8 hosts."""
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topology_drawing as td  # noqa: E402

t = td.single_switch(8)
pos = {}
for d, dev in enumerate(t.devices):
    if dev["name"].startswith("host"):
        pos[d] = (int(dev["name"][4:]) * 1.4, 0)
    else:
        pos[d] = (3.5 * 1.4, 3)
labels = {i for i, l in enumerate(t.links) if l["name"] == "host2-switch0"}
td.draw(t, pos, "Single switch, Hosts 8 (small numbers are port numbers)",
        td.out_path(__file__, "single_switch.png"), link_labels=labels, figsize=(10, 5),
        note="Node ids: hosts 0-7, switch0 8. Switch port h faces host h.")
