#!/usr/bin/env python3
"""A PFC pause and its release, from a run's waveform.

Runs build/bin/uetsim: UET NICs on one switch (400 Gbps, 100 ns links), host 0 sends 4 MiB to
host 3; host 3's NIC pauses its switch port for TC0 from 10 us to 110 us (Faults: pause, then
resume), refreshing the pause every half pause time (41.99 us). Plots, from the VCD, the switch
port's paused state for TC0, its queue, and the frames host 3 sent (pause, refreshes, XON).
Usage: /usr/bin/python3 docs/figures/pfc_timeline.py [build-dir]
"""
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "build")
uetsim = os.path.join(build, "bin", "uetsim")

scenario = """Simulation: {Name: fig, StopTime: 1ms}
Topology: {Kind: single-switch, Hosts: 4, LinkRate: 400Gbps}
Flows:
  - {Src: 0, Dst: 3, Bytes: 4MiB}
Faults:
  - {At: 10us, Link: host3-switch0, Action: pause, Class: 0}
  - {At: 110us, Link: host3-switch0, Action: resume, Class: 0}
Trace: {Enabled: true, File: fig.vcd, Components: [switch0, host3],
        Signals: [tc0_paused, queue_bytes, pfc_pausing_peer]}
"""


def parse_vcd(path):
    """{full signal name: [(time_ps, value), ...]}"""
    names, series, scope = {}, {}, []
    t = 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var":
                names[w[3]] = ".".join(scope + [w[4]])
            elif w[0].startswith("#"):
                t = int(w[0][1:])
            elif w[0][0] in "01" and len(w) == 1 and w[0][1:] in names:
                series.setdefault(names[w[0][1:]], []).append((t, int(w[0][0])))
            elif w[0][0] == "b" and len(w) == 2 and w[1] in names:
                series.setdefault(names[w[1]], []).append((t, int(w[0][1:], 2)))
    return series


def steps(points, end_ps):
    xs, ys = [], []
    for i, (t, v) in enumerate(points):
        nxt = points[i + 1][0] if i + 1 < len(points) else end_ps
        xs += [t / 1e6, nxt / 1e6]
        ys += [v, v]
    return xs, ys


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "s.yaml")
    with open(path, "w") as f:
        f.write(scenario)
    subprocess.run([uetsim, "run", path, "--out", tmp, "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    s = parse_vcd(os.path.join(tmp, "fig.vcd"))

paused = s["switch0.port3_host3.tc0_paused"]
queue = s["switch0.port3_host3.queue_bytes"]
held = s["host3.pfc_pausing_peer"]
end_ps = max(p[-1][0] for p in (paused, queue, held)) + 20_000_000

fig, (a, b) = plt.subplots(2, 1, figsize=(9, 4.6), sharex=True,
                           gridspec_kw={"height_ratios": [1, 2]})
x, y = steps(paused, end_ps)
a.fill_between(x, y, step=None, color="tab:red", alpha=0.35, label="switch0 port 3: TC0 paused")
x, y = steps(held, end_ps)
a.plot(x, [v * 0.5 for v in y], color="black", lw=1, label="host3 holds the pause (x0.5)")
for t_us, lbl in [(10, "pause"), (10 + 41.9924, "refresh"), (10 + 2 * 41.9924, "refresh"),
                  (110, "XON")]:
    a.axvline(t_us, color="gray", lw=0.6, ls=":")
    a.text(t_us, 1.05, lbl, fontsize=7, ha="center")
a.set_ylim(0, 1.25)
a.set_yticks([0, 1])
a.legend(loc="center right", fontsize=7)
x, y = steps(queue, end_ps)
b.plot(x, [v / 1e3 for v in y], color="tab:blue")
b.set_ylabel("port 3 queue, KB")
b.set_xlabel("simulated time, µs")
b.set_xlim(0, end_ps / 1e6)
fig.suptitle("PFC pause and release: host 3 pauses TC0 at 10 µs, refreshes every 41.99 µs, "
             "resumes at 110 µs", fontsize=9)
fig.tight_layout()
fig.savefig(os.path.join(here, "pfc_timeline.png"), dpi=110)
