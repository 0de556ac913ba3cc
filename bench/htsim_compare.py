#!/usr/bin/env python3
"""Runs bench scenarios in uetsim and in the UEC's htsim (`htsim_uec`), interleaved, and prints
the ratio of simulated data packets per wall second and of peak RSS, best of N rounds.

  bench/htsim_compare.py --uetsim BIN --htsim PATH [--rounds 3] [--out DIR] SCENARIO.yaml...

`bench/run.sh` calls it for T1 and T2 when `UETSIM_HTSIM` names an htsim_uec. The scenario is
read through `uetsim inspect --json`, so htsim gets the same fabric, link rate, link and switch
latency, payload size and messages (docs/performance.md, "Against htsim"):

- the topology as an htsim `.topo` file: a leaf-spine as two tiers (Radix_Down = hosts per
  leaf, Radix_Up = spines), a fat tree K as three tiers of K/2 down and K/2 up;
- the `Flows` messages as an htsim connection matrix (`src->dst id N start US size BYTES`);
- NSCC at the sender only (`-sender_cc_only -sender_cc_algo nscc`), the spraying as htsim's
  load balancer (REPS: `reps`, Default Packet Spraying: `oblivious`), trimming when the
  scenario's switches trim;
- the same ACK work: htsim's receiver sends an ACK per `RdmaDataMSS` x
  `AckRequestEveryNthPacket` bytes (`-sack_threshold`), as uetsim's receiver does.

The figures: data packets are uetsim's manifest `data_packets_sent` and htsim's `New:` + `Rtx:`
line; wall time and peak RSS are each process's, from /usr/bin/time (start to exit, loading and
teardown included, for both). Each tool's best (lowest) wall time and RSS over the rounds is
compared. Python 3 standard library only.

Exit codes: 0 success, 1 a run failed (its output is kept in the out folder), 2 bad input.
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys

SPRAYING_TO_HTSIM = {
    "Recycled Entropy Packet Spraying": "reps",
    "Default Packet Spraying": "oblivious",
}
HTSIM_HEADER_BYTES = 64  # htsim's UEC data header: its -mtu is the payload plus this


# Issue #35's targets against htsim: (label, met?) from the packet-rate and RSS ratios.
TARGETS = {
    "t1": ("T1: >= 1.5x", lambda rate, rss: rate >= 1.5),
    "t2": ("T2: >= 1.3x, RSS <= htsim's", lambda rate, rss: rate >= 1.3 and rss <= 1.0),
}


def target_of(name, rate, rss):
    key = next((k for k in TARGETS if f"_{k}_" in f"_{name}_"), None)
    if key is None:
        return "", ""
    label, met = TARGETS[key]
    return label, "met" if met(rate, rss) else "not met"


class BadInput(Exception):
    pass


def inspect(uetsim, scenario):
    run = subprocess.run([uetsim, "inspect", "--json", scenario], capture_output=True, text=True)
    if run.returncode != 0:
        raise BadInput(f"{scenario}: uetsim inspect failed: {run.stderr.strip()}")
    return json.loads(run.stdout)


def htsim_topology(d):
    """The scenario's fabric as htsim's .topo text, and its tier count."""
    topo = d["scenario"]["Topology"]
    kind = topo["Kind"]
    links = d["links"]
    host_links = [l for l in links if l["name"].startswith("host")]
    fabric_links = [l for l in links if not l["name"].startswith("host")] or host_links
    rates = {l["rate_bps"] for l in links}
    if len(rates) != 1:
        raise BadInput(f"Topology: links of different rates ({sorted(rates)}); htsim's comparison "
                       "needs one LinkRate")
    gbps = rates.pop() / 1e9
    host_ns = round(max(l["delay_s"] for l in host_links) * 1e9)
    fabric_ns = round(max(l["delay_s"] for l in fabric_links) * 1e9)
    switch_ns = round(d["switch"]["forwarding_latency_s"] * 1e9)
    hosts = d["topology"]["hosts"]

    def tier(index, down, up, latency_ns):
        lines = [f"Tier {index}", f"Downlink_speed_Gbps {gbps:g}", f"Radix_Down {down}"]
        if up is not None:
            lines.append(f"Radix_Up {up}")
        lines += [f"Downlink_Latency_ns {latency_ns}", f"Switch_Latency_ns {switch_ns}", ""]
        return lines

    if kind == "leaf-spine":
        per_leaf, spines = topo["HostsPerLeaf"], topo["Spines"]
        if topo.get("UplinksPerSpine", 1) != 1:
            raise BadInput("Topology.UplinksPerSpine: htsim's two tiers have one link per "
                           "leaf and spine; 1 is allowed")
        tiers = 2
        body = tier(0, per_leaf, spines, host_ns) + tier(1, hosts // per_leaf, None, fabric_ns)
    elif kind == "fat-tree":
        k = topo["K"]
        tiers = 3
        body = (tier(0, k // 2, k // 2, host_ns) + tier(1, k // 2, k // 2, fabric_ns) +
                tier(2, k, None, fabric_ns))
    else:
        raise BadInput(f"Topology.Kind: '{kind}'; htsim's comparison takes leaf-spine or fat-tree")
    pod = hosts if kind == "leaf-spine" else topo["K"] ** 2 // 4
    head = [f"Nodes {hosts}", f"Tiers {tiers}", f"Podsize {pod}", ""]
    return "\n".join(head + body), tiers


def connection_matrix(d):
    flows = d["scenario"]["Flows"]
    if not flows:
        raise BadInput("Flows: the scenario has no messages; htsim's comparison replays Flows")
    lines = [f"Nodes {d['topology']['hosts']}", f"Connections {len(flows)}"]
    for i, f in enumerate(flows, 1):
        start_us = round(float(f.get("Start", 0.0)) * 1e6)
        lines.append(f"{f['Src']}->{f['Dst']} id {i} start {start_us} size {f['Bytes']}")
    return "\n".join(lines) + "\n"


def htsim_arguments(d, cm_path, topo_path, tiers):
    s = d["scenario"]
    if s["Nic"]["Type"] != "uet":
        raise BadInput(f"Nic.Type: '{s['Nic']['Type']}'; htsim_uec models UET NICs: uet is allowed")
    uet = s["UetNic"]
    spraying = uet["PacketSprayingType"]
    if spraying not in SPRAYING_TO_HTSIM:
        raise BadInput(f"UetNic.PacketSprayingType: '{spraying}'; htsim's comparison takes "
                       + " or ".join(SPRAYING_TO_HTSIM))
    mss = int(uet["RdmaDataMSS"])
    args = [
        "-topo", topo_path, "-tm", cm_path, "-nodes", str(d["topology"]["hosts"]),
        "-tiers", str(tiers), "-linkspeed", str(round(d["links"][0]["rate_bps"] / 1e6)),
        "-mtu", str(mss + HTSIM_HEADER_BYTES), "-sender_cc_only", "-sender_cc_algo", "nscc",
        "-load_balancing_algo", SPRAYING_TO_HTSIM[spraying],
        "-sack_threshold", str(mss * int(uet["AckRequestEveryNthPacket"])),
        "-end", str(math.ceil(d["timeline"]["stop_time_s"] * 1e6)),
        "-seed", str(s["Simulation"]["RandomSeed"] % 2**31),
    ]
    if not s["Switch"].get("TrimmingEnabled", False):
        args.append("-disable_trim")
    return args


def timed(argv, dir_, tag):
    """Runs argv under /usr/bin/time; returns (exit code, wall s, peak RSS bytes, stdout)."""
    times = os.path.join(dir_, f"{tag}.time")
    out_path = os.path.join(dir_, f"{tag}.out")
    with open(out_path, "w") as out, open(os.path.join(dir_, f"{tag}.err"), "w") as err:
        rc = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", times] + argv,
                            stdout=out, stderr=err).returncode
    with open(times) as f:
        wall, rss_kib = f.read().split()[-2:]
    with open(out_path) as f:
        text = f.read()
    return rc, float(wall), int(rss_kib) * 1024, text


def htsim_packets(text):
    m = re.search(r"New:\s*(\d+)\s+Rtx:\s*(\d+).*?ACKs:\s*(\d+)", text)
    if not m:
        return None
    new, rtx, acks = (int(x) for x in m.groups())
    return new + rtx, acks


def compare(scenario, uetsim, htsim, rounds, out):
    name = os.path.splitext(os.path.basename(scenario))[0]
    dir_ = os.path.join(out, name)
    shutil.rmtree(dir_, ignore_errors=True)
    os.makedirs(dir_)
    d = inspect(uetsim, scenario)
    topo_text, tiers = htsim_topology(d)
    topo_path = os.path.join(dir_, "htsim.topo")
    cm_path = os.path.join(dir_, "htsim.cm")
    with open(topo_path, "w") as f:
        f.write(topo_text)
    with open(cm_path, "w") as f:
        f.write(connection_matrix(d))
    hargs = [htsim] + htsim_arguments(d, cm_path, topo_path, tiers)
    with open(os.path.join(dir_, "htsim.argv"), "w") as f:
        f.write(" ".join(hargs) + "\n")

    runs = {"uetsim": [], "htsim": []}
    for r in range(rounds):
        # Interleaved, so that a busy spell of a shared machine hits both alike.
        udir = os.path.join(dir_, f"uetsim-{r}")
        os.makedirs(udir)
        rc, wall, rss, _ = timed([uetsim, "run", scenario, "--out", udir, "--quiet"], dir_,
                                 f"uetsim-{r}")
        if rc != 0:
            raise RuntimeError(f"{name}: uetsim exited with {rc} (see {dir_}/uetsim-{r}.err)")
        manifest = next(os.path.join(udir, p) for p in os.listdir(udir)
                        if p.endswith("-manifest.json"))
        with open(manifest) as f:
            m = json.load(f)
        msgs = m["messages"]
        if not m["scoreboard"].get("ok", False) or msgs["completed"] != msgs["total"]:
            raise RuntimeError(f"{name}: uetsim's scoreboard is not clean: "
                               f"{msgs['completed']}/{msgs['total']} messages")
        runs["uetsim"].append({"wall_s": wall, "rss_bytes": rss,
                               "data_packets": int(m["data_packets_sent"])})
        shutil.rmtree(udir)

        rc, wall, rss, text = timed(hargs, dir_, f"htsim-{r}")
        counted = htsim_packets(text)
        if rc != 0 or counted is None:
            raise RuntimeError(f"{name}: htsim exited with {rc}"
                               f"{'' if counted else ' without its New:/Rtx: line'} "
                               f"(see {dir_}/htsim-{r}.out)")
        runs["htsim"].append({"wall_s": wall, "rss_bytes": rss, "data_packets": counted[0],
                              "acks": counted[1]})

    best = {}
    for tool, rs in runs.items():
        wall = min(r["wall_s"] for r in rs)
        packets = rs[0]["data_packets"]
        best[tool] = {"wall_s": wall, "rss_bytes": min(r["rss_bytes"] for r in rs),
                      "data_packets": packets,
                      "packets_per_wall_s": packets / wall if wall > 0 else float("inf")}
    h = runs["htsim"][0]
    best["htsim"]["acks_per_data_packet"] = h["acks"] / h["data_packets"] if h["data_packets"] else 0
    result = {
        "scenario": name, "rounds": rounds, "runs": runs, "best": best,
        "packet_rate_ratio": best["uetsim"]["packets_per_wall_s"] /
        best["htsim"]["packets_per_wall_s"],
        "rss_ratio": best["uetsim"]["rss_bytes"] / best["htsim"]["rss_bytes"],
    }
    with open(os.path.join(dir_, "compare.json"), "w") as f:
        json.dump(result, f, indent=2, sort_keys=True)
        f.write("\n")
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--uetsim", required=True)
    p.add_argument("--htsim", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "out", "htsim"))
    p.add_argument("scenarios", nargs="+")
    a = p.parse_args()
    for what, path in (("--uetsim", a.uetsim), ("UETSIM_HTSIM / --htsim", a.htsim)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print(f"htsim_compare: {what}: '{path}' is not an executable file", file=sys.stderr)
            return 2
    if a.rounds < 1:
        print(f"htsim_compare: --rounds: {a.rounds}; 1 or more is allowed", file=sys.stderr)
        return 2
    if not os.access("/usr/bin/time", os.X_OK):
        print("htsim_compare: /usr/bin/time is needed (Debian package time)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    table = ["| scenario | uetsim pkt/wall s | htsim pkt/wall s | ratio | uetsim peak RSS (MiB) "
             "| htsim peak RSS (MiB) | RSS ratio | htsim ACKs / data packet | target (#35) | met |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    print(f"{'scenario':<36} {'uetsim_pps':>11} {'htsim_pps':>11} {'ratio':>6} "
          f"{'uetsim_MiB':>10} {'htsim_MiB':>10} {'rss_ratio':>9}")
    for scenario in a.scenarios:
        try:
            r = compare(scenario, a.uetsim, a.htsim, a.rounds, a.out)
        except BadInput as e:
            print(f"htsim_compare: {e}", file=sys.stderr)
            return 2
        except RuntimeError as e:
            print(f"htsim_compare: {e}", file=sys.stderr)
            return 1
        u, h = r["best"]["uetsim"], r["best"]["htsim"]
        target, verdict = target_of(r["scenario"], r["packet_rate_ratio"], r["rss_ratio"])
        mib = 1024 * 1024
        print(f"{r['scenario']:<36} {u['packets_per_wall_s']:>11,.0f} "
              f"{h['packets_per_wall_s']:>11,.0f} {r['packet_rate_ratio']:>5.2f}x "
              f"{u['rss_bytes'] / mib:>10.1f} {h['rss_bytes'] / mib:>10.1f} "
              f"{r['rss_ratio']:>8.2f}x" + (f"  {target} {verdict}" if target else ""))
        table.append(f"| {r['scenario']} | {u['packets_per_wall_s']:,.0f} | "
                     f"{h['packets_per_wall_s']:,.0f} | {r['packet_rate_ratio']:.2f}x | "
                     f"{u['rss_bytes'] / mib:.1f} | {h['rss_bytes'] / mib:.1f} | "
                     f"{r['rss_ratio']:.2f}x | {h['acks_per_data_packet']:.2f} | {target} | "
                     f"{verdict} |")
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
