"""Reads bench/failure_modes.sh's eight runs (examples/failure-modes/, each failure mode and its
healthy twin), prints the table of docs/failure-modes.md (message completion times and the
health signals seed 003 names: trims, NACKs, retransmissions, timeouts, out-of-order depth,
congestion-window statistics) and draws docs/figures/failure-modes-fct.png (each message's
completion time, failure against twin) and docs/figures/failure-modes-signals.png (the health
signals side by side). Usage: failure_modes_plot.py OUT_DIR FIGURES_DIR."""
import csv
import json
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

out, figures = sys.argv[1], sys.argv[2]
PAIRS = [
    ("spraying-without-ev-hash", "Spraying without EV hashing", "Switch.EcmpHashMethod dpr / crc32WithSalt"),
    ("rod-for-bulk-data", "ROD where RUD would do", "Flows Mode ROD / RUD"),
    ("no-trimming-long-timeouts", "No trimming and long timeouts", "Switch.TrimmingEnabled false / true"),
    ("ecn-thresholds-from-roce", "ECN thresholds copied from RoCE", "ECN band 0.38-1.0 at 1 % / 0.2-0.8 at 100 %"),
]


def rows(run, record):
    with open(f"{out}/{run}/{run}-{record}-0.csv") as f:
        return list(csv.DictReader(f))


def last_per_nic(run):
    last = {}
    for r in rows(run, "uet-transport-stats"):
        last[r["component_name"]] = r
    return last.values()


def measure(run):
    m = json.load(open(f"{out}/{run}/{run}-manifest.json"))
    fct = sorted(float(r["fct_usec"]) for r in rows(run, "flow-perf"))
    nics = list(last_per_nic(run))
    senders = [n for n in nics if int(n["wqes_created"]) > 0]
    total = lambda col: sum(int(n[col]) for n in nics)
    uplinks = {}
    for r in rows(run, "scala-switch-load-balancing-stats"):
        if r["component_name"] == "leaf0" and int(r["group_size"]) > 1:
            uplinks[r["ifid"]] = int(r["bytes"])
    return {
        "scoreboard": m["scoreboard"]["ok"],
        "fct": fct,
        "fct_median": statistics.median(fct),
        "fct_max": fct[-1],
        "trimmed": m["packets_trimmed"],
        "dropped": m["packets_dropped"],
        "nacks": total("nack_pkts_sent"),
        "rtx": total("num_rtx"),
        "rto": total("num_rto"),
        "ooo": total("num_out_of_order_events_on_nic"),
        "ooo_depth": max(int(n["max_out_of_order_on_flow"]) for n in nics),
        "marked": total("m_marked_pkts_rcvd"),
        "cwnd_mean_kb": statistics.mean(float(n["calc_mean_cwnd_bytes"]) for n in senders) / 1e3,
        "rtt_mean_us": statistics.mean(float(n["avg_calc_rtt_usec"]) for n in senders),
        "uplinks_used": sum(1 for b in uplinks.values() if b > max(uplinks.values()) / 100) if uplinks else None,
    }


results = {}
for name, _, _ in PAIRS:
    results[name] = measure(name)
    results[name + "-healthy"] = measure(name + "-healthy")

cols = [("fct_median", "median FCT (us)", "{:.1f}"), ("fct_max", "slowest FCT (us)", "{:.1f}"),
        ("uplinks_used", "leaf0 uplinks used", "{}"), ("trimmed", "trims", "{}"),
        ("dropped", "drops", "{}"), ("nacks", "NACKs", "{}"), ("rtx", "retransmissions", "{}"),
        ("rto", "timeouts", "{}"), ("ooo", "out-of-order arrivals", "{}"),
        ("ooo_depth", "max out-of-order depth", "{}"), ("marked", "ECN-echo ACKs", "{}"),
        ("cwnd_mean_kb", "mean cwnd (KB)", "{:.0f}"), ("rtt_mean_us", "mean RTT (us)", "{:.2f}")]
print("| run | " + " | ".join(c[1] for c in cols) + " |")
print("|---|" + "---|" * len(cols))
for name, _, _ in PAIRS:
    for run in (name, name + "-healthy"):
        r = results[run]
        cells = ["—" if r[k] is None else fmt.format(r[k]) for k, _, fmt in cols]
        print(f"| `{run}` | " + " | ".join(cells) + " |")
for name, _, _ in PAIRS:
    bad, good = results[name], results[name + "-healthy"]
    print(f"{name}: slowest FCT x{bad['fct_max'] / good['fct_max']:.2f}, "
          f"scoreboard {bad['scoreboard']}/{good['scoreboard']}")

# Each message's completion time, sorted, failure against twin.
fig, axes = plt.subplots(2, 2, figsize=(10, 7))
for ax, (name, title, diff) in zip(axes.flat, PAIRS):
    for run, label, color in ((name, "failure mode", "#c44e52"), (name + "-healthy", "healthy twin", "#55a868")):
        fct = results[run]["fct"]
        ax.plot(range(1, len(fct) + 1), fct, marker="o", color=color, label=label)
    ax.set_title(f"{title}\n({diff})", fontsize=9)
    ax.set_xlabel("messages, fastest to slowest")
    ax.set_ylabel("completion time (us)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
fig.suptitle("Seed 003's failure modes: message completion times (flow-perf fct_usec)")
fig.tight_layout()
fig.savefig(f"{figures}/failure-modes-fct.png", dpi=100)
print(f"{figures}/failure-modes-fct.png")

# The health signals, failure against twin, per pair (log scale, +1 so zeros show).
signals = [("trimmed", "trims"), ("dropped", "drops"), ("nacks", "NACKs"), ("rtx", "retrans-\nmissions"),
           ("rto", "timeouts"), ("ooo", "out-of-order\narrivals"), ("ooo_depth", "max OOO\ndepth"),
           ("marked", "ECN-echo\nACKs")]
fig, axes = plt.subplots(2, 2, figsize=(11, 7))
for ax, (name, title, diff) in zip(axes.flat, PAIRS):
    xs = range(len(signals))
    for k, (run, label, color) in enumerate(((name, "failure mode", "#c44e52"),
                                             (name + "-healthy", "healthy twin", "#55a868"))):
        vals = [results[run][s] + 1 for s, _ in signals]
        ax.bar([x + (k - 0.5) * 0.4 for x in xs], vals, 0.4, color=color, label=label)
    ax.set_yscale("log")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([s[1] for s in signals], fontsize=7)
    ax.set_ylabel("count + 1 (all NICs / switches)")
    ax.set_title(f"{title}\n({diff})", fontsize=9)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
fig.suptitle("Health signals (uet-transport-stats, manifest) that replace PFC pause counts")
fig.tight_layout()
fig.savefig(f"{figures}/failure-modes-signals.png", dpi=100)
print(f"{figures}/failure-modes-signals.png")
