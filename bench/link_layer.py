#!/usr/bin/env python3
"""The link layer's figures for docs/link-layer.md (#31 item 7 (a) and (b)).

(a) llr-fct-vs-ber.png: the completion time of a permutation (8 hosts on 2 leaves and 2
    spines, 400 Gbps; host i sends 2 MiB to host (i + 4) mod 8) against the bit error rate
    of every link, 1e-12 .. 1e-6, with and without Link Level Retry, on UET and on RoCE NICs:
    the mean and the slowest of the 8 messages, and the transport's retransmissions.
(b) llr-buffer-vs-length.png: the smallest LLR replay buffer with zero stall time for one host
    sending at line rate over one link of 1 m .. 1 km (5 ns/m) at 200, 400 and 800 Gbps
    (bisection over whole 4,202-byte frames), beside the `auto` size; and, at 400 Gbps and
    100 m, the link's throughput when the buffer holds a fraction of the round trip.

Usage: bench/link_layer.py [BUILD_DIR]     (default build; a few minutes on two cores)
Runs go to bench/out/link_layer/ (ignored by git); the points to bench/out/link_layer/*.csv.
"""
import csv
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
UETSIM = os.path.join(BUILD if os.path.isabs(BUILD) else os.path.join(ROOT, BUILD), "bin", "uetsim")
OUT = os.path.join(HERE, "out", "link_layer")
FIGURES = os.path.join(ROOT, "docs", "figures")
FRAME = 4202  # a full UET data frame on the wire: 4,096 B of payload + 106 B


def run(name, yaml_text, sets=()):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "s.yaml")
    with open(path, "w") as f:
        f.write(yaml_text)
    args = [UETSIM, "run", path, "--quiet", "--out", d]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return d


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# (a) FCT of a permutation against the bit error rate.
BERS = [1e-12, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6]


def permutation(nic, ber, llr):
    y = "Simulation: {Name: p, StopTime: 50ms}\n"
    y += "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 2, LinkRate: 400Gbps}\n"
    y += "Nic: {Type: %s}\n" % nic
    y += "Records: {Enabled: [flow-perf, %s]}\n" % (
        "uet-transport-stats" if nic == "uet" else "roce-transport-stats")
    y += "Link: {BitErrorRate: %g, Llr: %s}\n" % (ber, "true" if llr else "false")
    y += "Flows:\n"
    for i in range(8):
        y += "  - {Src: %d, Dst: %d, Bytes: 2MiB}\n" % (i, (i + 4) % 8)
    return y


def figure_a():
    points = []
    for nic in ("uet", "roce"):
        for llr in (False, True):
            for ber in BERS:
                name = "a-%s-%s-%g" % (nic, "llr" if llr else "nollr", ber)
                d = run(name, permutation(nic, ber, llr))
                fct = [float(r["fct_usec"]) for r in rows(os.path.join(d, "p-flow-perf-0.csv"))]
                rec = "uet-transport-stats" if nic == "uet" else "roce-transport-stats"
                tr = rows(os.path.join(d, "p-%s-0.csv" % rec))
                last = {}
                for r in tr:
                    last[r["component_name"]] = float(r["num_rtx"])
                m = json.load(open(os.path.join(d, "p-manifest.json")))
                done = m["scoreboard"]["ok"] and len(fct) == 8
                points.append({
                    "nic": nic, "llr": int(llr), "ber": ber, "complete": int(done),
                    "mean_fct_us": sum(fct) / len(fct) if fct else 0,
                    "max_fct_us": max(fct) if fct else 0, "rtx": sum(last.values()),
                })
                print("a: %s llr=%d ber=%g mean %.2f us max %.2f us rtx %d" % (
                    nic, llr, ber, points[-1]["mean_fct_us"], points[-1]["max_fct_us"],
                    points[-1]["rtx"]), flush=True)
    write_csv("fct_vs_ber.csv", points)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for nic, ax in zip(("uet", "roce"), axes):
        for llr, style in ((False, "o--"), (True, "s-")):
            p = [q for q in points if q["nic"] == nic and q["llr"] == int(llr) and q["complete"]]
            label = "LLR" if llr else "no LLR"
            for q in points:
                if q["nic"] == nic and q["llr"] == int(llr) and not q["complete"]:
                    ax.annotate("%s at BER %g: not done in 50 ms\n(%d retransmissions)" % (
                        label, q["ber"], q["rtx"]), (0.03, 0.6), xycoords="axes fraction",
                        fontsize=8, color="C3")
            ax.plot([q["ber"] for q in p], [q["mean_fct_us"] for q in p], style,
                    label=label + ", mean")
            ax.plot([q["ber"] for q in p], [q["max_fct_us"] for q in p], style, alpha=0.45,
                    label=label + ", slowest")
            for q in p:
                if q["rtx"] > 0:
                    ax.annotate("%d rtx" % q["rtx"], (q["ber"], q["max_fct_us"]),
                                textcoords="offset points", xytext=(-12, 6), fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("bit error rate on every link")
        ax.set_ylabel("message completion time (µs)")
        ax.set_title("%s NICs: 8 × 2 MiB permutation, 400 Gbps" % {"uet": "UET", "roce": "RoCE"}[nic])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "llr-fct-vs-ber.png"), dpi=110)


# (b) the replay buffer for zero stalls against link length and rate.
LENGTHS = [1, 10, 30, 100, 300, 1000]  # metres, 5 ns/m
RATES = [200, 400, 800]  # Gbps


def single_link(rate, length, buffer_bytes, name):
    delay_ns = 5 * length
    y = "Simulation: {Name: b, StopTime: 10ms}\n"
    y += "Topology: {Kind: single-switch, Hosts: 2, LinkRate: %dGbps}\n" % rate
    y += "Nic: {Type: raw}\n"
    y += "Records: {Enabled: [link-stats, flow-perf]}\n"
    y += "Link[host0-switch0]: {Delay: %gns, Llr: true, LlrReplayBufferBytes: %s}\n" % (
        delay_ns, buffer_bytes)
    y += "Flows:\n  - {Src: 0, Dst: 1, Bytes: 4MiB}\n"
    d = run(name, y)
    ls = rows(os.path.join(d, "b-link-stats-0.csv"))
    up = [r for r in ls if r["link_name"] == "host0-switch0" and r["direction"] == "a_to_b"][-1]
    fct = float(rows(os.path.join(d, "b-flow-perf-0.csv"))[0]["fct_usec"])
    return float(up["llr_stall_sec"]), fct


def auto_buffer(rate, length):
    y = "Topology: {Kind: single-switch, Hosts: 2, LinkRate: %dGbps}\nNic: {Type: raw}\n" % rate
    y += "Link[host0-switch0]: {Delay: %gns, Llr: true}\n" % (5 * length)
    y += "Flows:\n  - {Src: 0, Dst: 1, Bytes: 4MiB}\n"
    path = os.path.join(OUT, "inspect.yaml")
    with open(path, "w") as f:
        f.write(y)
    j = json.loads(subprocess.run([UETSIM, "inspect", path, "--json"], check=True,
                                  capture_output=True, text=True).stdout)
    link = [l for l in j["links"] if l["name"] == "host0-switch0"][0]
    return link["llr_replay_buffer_bytes"], link["llr_round_trip_s"]


def figure_b():
    points = []
    for rate in RATES:
        for length in LENGTHS:
            auto, rtt = auto_buffer(rate, length)
            lo, hi = 1, auto // FRAME  # in frames: lo stalls (or is 1), hi does not
            stall, _ = single_link(rate, length, hi * FRAME, "b-%d-%d-hi" % (rate, length))
            assert stall == 0, (rate, length, "auto stalls")
            while hi - lo > 1:
                mid = (lo + hi) // 2
                stall, _ = single_link(rate, length, mid * FRAME, "b-%d-%d-probe" % (rate, length))
                if stall == 0:
                    hi = mid
                else:
                    lo = mid
            points.append({"rate_gbps": rate, "length_m": length, "round_trip_ns": rtt * 1e9,
                           "auto_bytes": auto, "min_zero_stall_bytes": hi * FRAME})
            print("b: %d Gbps %d m: auto %d B, zero stall from %d B" % (
                rate, length, auto, hi * FRAME), flush=True)
    write_csv("buffer_vs_length.csv", points)
    # Too small a buffer: 400 Gbps, 100 m.
    auto, rtt = auto_buffer(400, 100)
    frac = []
    _, solo = single_link(400, 100, auto, "b-frac-1")
    for f in (0.125, 0.25, 0.5, 0.75, 1.0):
        b = max(FRAME, int(auto * f) // FRAME * FRAME)
        stall, fct = single_link(400, 100, b, "b-frac-%g" % f)
        frac.append({"buffer_bytes": b, "fraction": b / auto, "fct_us": fct,
                     "throughput_gbps": 4 * 1024 * 1024 * 8 / (fct * 1e-6) / 1e9,
                     "predicted_gbps": min(400.0, b * 8 / rtt / 1e9), "stall_us": stall * 1e6})
        print("b: 400 Gbps 100 m, buffer %d B: %.1f Gbps (B/RTT %.1f), stalled %.2f us" % (
            b, frac[-1]["throughput_gbps"], frac[-1]["predicted_gbps"], stall * 1e6), flush=True)
    write_csv("throughput_vs_buffer.csv", frac)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    for rate, color in zip(RATES, ("C0", "C1", "C2")):
        p = [q for q in points if q["rate_gbps"] == rate]
        ax.plot([q["length_m"] for q in p], [q["min_zero_stall_bytes"] / 1024 for q in p], "o-",
                color=color, label="%d Gbps, measured" % rate)
        ax.plot([q["length_m"] for q in p], [q["auto_bytes"] / 1024 for q in p], "--",
                color=color, alpha=0.6, label="%d Gbps, auto" % rate)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("link length (m, 5 ns/m)")
    ax.set_ylabel("replay buffer for zero stalls (KiB)")
    ax.set_title("LLR replay buffer against link length and rate")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.plot([q["fraction"] for q in frac], [q["throughput_gbps"] for q in frac], "o-",
            label="measured (4 MiB at line rate)")
    ax.plot([q["fraction"] for q in frac], [q["predicted_gbps"] for q in frac], "--",
            label="min(rate, buffer / LLR round trip)")
    ax.set_xlabel("replay buffer / auto size (400 Gbps, 100 m)")
    ax.set_ylabel("throughput (Gbps)")
    ax.set_title("A buffer smaller than the round trip")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(FIGURES, "llr-buffer-vs-length.png"), dpi=110)


def write_csv(name, points):
    with open(os.path.join(OUT, name), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(points[0].keys()))
        w.writeheader()
        w.writerows(points)


if __name__ == "__main__":
    if not os.access(UETSIM, os.X_OK):
        sys.exit("bench/link_layer.py: %s not found; build first" % UETSIM)
    os.makedirs(OUT, exist_ok=True)
    which = os.environ.get("FIGURES", "ab")
    if "b" in which:
        figure_b()
    if "a" in which:
        figure_a()
