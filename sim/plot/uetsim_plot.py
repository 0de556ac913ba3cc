#!/usr/bin/env python3
"""uetsim plot: figures from a run's records or a sweep's summary.csv.

Run by `uetsim plot DIR [--out PLOTDIR] [--format png|svg] [--figure NAME]...` with Debian's
python3-matplotlib and python3-pandas. From a run's folder (records and {Name}-manifest.json):
fct-cdf (flow-perf), wqe-latency-cdf (rdma-perf), uplink-load
(scala-switch-load-balancing-stats), nic-window (uet-transport-stats), port-rate (nd-stats),
collective-busbw (chakra-busbw) and collective-timeline (chakra-perf, with
chakra-comm-collective-stats for the legend). From a sweep's folder (summary.csv, sweep.json):
metric (a summary column against an axis, one line per value of a second axis, error bars over
the Simulation.RandomSeed replicas) and heatmap (the column over two axes). Without --figure,
every figure the folder has data for. docs/sweeps.md and docs/command.md describe them. Exit 2
on bad input, as the other commands.
"""
import argparse
import glob
import json
import os
import sys
import textwrap

SEED_AXIS = "Simulation.RandomSeed"
RUN_FIGURES = ["fct-cdf", "wqe-latency-cdf", "uplink-load", "nic-window", "port-rate",
               "collective-busbw", "collective-timeline"]
SWEEP_FIGURES = ["metric", "heatmap"]
SIZE_IN = (8, 5)  # inches at DPI: every figure is 800 x 500 pixels
DPI = 100

# Summary columns as axis labels (docs/sweeps.md lists where each comes from).
METRIC_LABELS = {
    "fct_p50_usec": "median flow completion time (µs)",
    "fct_p99_usec": "99th percentile flow completion time (µs)",
    "fct_max_usec": "max flow completion time (µs)",
    "flows_completed": "messages completed",
    "wqe_latency_p50_usec": "median WQE latency (µs)",
    "wqe_latency_p99_usec": "99th percentile WQE latency (µs)",
    "goodput_gbps": "RDMA goodput (Gbit/s)",
    "wqes_completed": "WQEs completed",
    "busbw_gbps": "mean bus bandwidth of the collectives (Gbit/s)",
    "busbw_link_fraction": "mean bus bandwidth ÷ link rate",
    "collective_time_usec": "mean collective run time (µs)",
    "retransmissions": "data packets retransmitted",
    "trims": "packets trimmed",
    "drops": "packets dropped",
    "ecn_marks": "ECN-echo ACKs",
    "pauses": "PFC pauses",
    "data_packets_sent": "data packets sent",
    "events": "kernel events",
    "sim_time_sec": "simulated time (s)",
    "wall_time_sec": "wall time (s)",
    "peak_rss_bytes": "peak memory (bytes)",
}
DEFAULT_METRICS = ["fct_max_usec", "wqe_latency_p99_usec", "goodput_gbps", "busbw_gbps",
                   "events"]
NOT_METRICS = ["run_id", "status", "exit_status", "error"]
NIC_NAMES = {"uet": "UET", "roce": "RoCE"}  # Nic.Type as a title says it


class BadInput(Exception):
    pass


def load_libraries():
    global pd, plt, np
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
        import pandas as pd
    except ImportError as e:
        sys.stderr.write(
            "uetsim: error: uetsim plot needs python3 with matplotlib and pandas "
            "(apt-get install python3-matplotlib python3-pandas): %s\n" % e
        )
        sys.exit(1)


def tick_labels(values):
    """Long category names ("Recycled Entropy Packet Spraying") on several short lines."""
    return [textwrap.fill(str(v), 16) for v in values]


def new_figure(rows=1, cols=1, **kw):
    fig, axes = plt.subplots(rows, cols, figsize=SIZE_IN, dpi=DPI, squeeze=False, **kw)
    return fig, axes


def save(fig, out_dir, name, fmt):
    path = os.path.join(out_dir, "%s.%s" % (name, fmt))
    fig.tight_layout()
    fig.savefig(path, dpi=DPI, format=fmt)
    plt.close(fig)
    print(path)
    return path


# ---------------------------------------------------------------------------------- a run


class Run:
    def __init__(self, folder):
        manifests = sorted(glob.glob(os.path.join(folder, "*-manifest.json")))
        if manifests:
            self.prefix = manifests[0][: -len("manifest.json")]
            with open(manifests[0]) as f:
                self.manifest = json.load(f)
        else:
            csvs = sorted(glob.glob(os.path.join(folder, "*-nd-stats-0.csv")))
            if not csvs:
                raise BadInput("%s holds no run records" % folder)
            self.prefix = csvs[0][: -len("nd-stats-0.csv")]
            self.manifest = {}
        self.name = self.manifest.get("name", os.path.basename(self.prefix.rstrip("-")))

    def record(self, name):
        path = self.prefix + name + "-0.csv"
        if not os.path.exists(path):
            return None
        return pd.read_csv(path)

    def title(self, what):
        return "%s — %s" % (what, self.name)

    def nic(self):
        """The scenario's Nic.Type as the manifest gives it ("UET NICs"), else ""."""
        scenario = self.manifest.get("scenario", {})
        t = scenario.get("Nic", {}).get("Type", "") if isinstance(scenario, dict) else ""
        return "%s NICs" % NIC_NAMES.get(t, t) if t else ""


def cdf_axes(ax, values, label):
    v = np.sort(np.asarray(values, dtype=float))
    y = np.arange(1, len(v) + 1) / len(v)
    ax.step(v, y, where="post", label="%s (%d)" % (label, len(v)))


def fig_fct_cdf(run, args, explicit):
    t = run.record("flow-perf")
    if t is None or t.empty:
        if explicit:
            raise BadInput("fct-cdf: %s has no completed messages (flow-perf)" % run.name)
        return None
    fig, ax = new_figure()
    ax = ax[0][0]
    cdf_axes(ax, t["fct_usec"], "messages")
    ax.set_xlabel("flow completion time (µs)")
    ax.set_ylabel("fraction of messages completed")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title(run.title("Flow completion time CDF (flow-perf)"))
    return fig


def fig_wqe_cdf(run, args, explicit):
    t = run.record("rdma-perf")
    if t is None or t.empty:
        if explicit:
            raise BadInput("wqe-latency-cdf: %s has no completed WQEs (rdma-perf)" % run.name)
        return None
    fig, ax = new_figure()
    ax = ax[0][0]
    for metric, g in t.groupby("metric_name", sort=True):
        cdf_axes(ax, g["perf_metric_usec"], metric)
    ax.set_xlabel("WQE latency, post to completion (µs)")
    ax.set_ylabel("fraction of WQEs completed")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(title="operation (WQEs)", loc="lower right")
    ax.set_title(run.title("WQE latency CDF (rdma-perf)"))
    return fig


def fig_uplink_load(run, args, explicit):
    t = run.record("scala-switch-load-balancing-stats")
    if t is None or t.empty:
        if explicit:
            raise BadInput("uplink-load: %s has no scala-switch-load-balancing-stats" % run.name)
        return None
    last = t[t["group_size"] > 1].groupby(["component_name", "ifid"], sort=False).tail(1)
    if args.component:
        last = last[last["component_name"] == args.component]
        if last.empty:
            raise BadInput("uplink-load: no switch '%s' with an ECMP group" % args.component)
    switches = [s for s in last["component_name"].drop_duplicates()][:8]
    if not switches:
        if explicit:
            raise BadInput("uplink-load: %s has no ECMP group of more than one member" % run.name)
        return None
    cols = min(4, len(switches))
    rows = (len(switches) + cols - 1) // cols
    fig, axes = new_figure(rows, cols, sharey=True)
    for i, sw in enumerate(switches):
        ax = axes[i // cols][i % cols]
        g = last[last["component_name"] == sw]
        ax.bar([str(x) for x in g["ifid"]], g["bytes"] / 1e6, color="tab:blue")
        ax.set_title(sw, fontsize=10)
        ax.set_xlabel("egress port (ifid)")
        if i % cols == 0:
            ax.set_ylabel("bytes sent (MB)")
        if len(g) > 8:
            ax.tick_params(axis="x", labelsize=7, rotation=90)
        ax.grid(axis="y", alpha=0.3)
    for j in range(len(switches), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(run.title("Load per ECMP member at the end of the run"))
    return fig


def fig_nic_window(run, args, explicit):
    t = run.record("uet-transport-stats")
    if t is None or t.empty:
        if explicit:
            raise BadInput("nic-window: %s has no uet-transport-stats (UET NICs)" % run.name)
        return None
    nics = list(t["component_name"].drop_duplicates())
    if args.component:
        if args.component not in nics:
            raise BadInput("nic-window: no NIC '%s'; the NICs are %s"
                           % (args.component, ", ".join(nics)))
        nics = [args.component]
    else:
        busy = t.groupby("component_name")["total_pkts_sent"].max()
        nics = [n for n in nics if busy.get(n, 0) > 0][:8] or nics[:1]
    fig, axes = new_figure(2, 1, sharex=True)
    for n in nics:
        g = t[t["component_name"] == n]
        x = g["sim_time_sec"] * 1e3
        axes[0][0].plot(x, g["calc_mean_cwnd_bytes"] / 1e3, marker=".", label=n)
        axes[1][0].plot(x, g["ivl_calc_mean_bytes_in_flight"] / 1e3, marker=".", label=n)
    axes[0][0].set_ylabel("mean window (kB)")
    axes[1][0].set_ylabel("mean bytes in flight\nin the interval (kB)")
    axes[1][0].set_xlabel("simulated time (ms)")
    for ax in (axes[0][0], axes[1][0]):
        ax.grid(alpha=0.3)
    axes[0][0].legend(title="NIC", fontsize=7, ncol=4)
    axes[0][0].set_title(run.title("NIC congestion window and bytes in flight (uet-transport-stats)"))
    return fig


def fig_port_rate(run, args, explicit):
    t = run.record("nd-stats")
    if t is None or t.empty:
        if explicit:
            raise BadInput("port-rate: %s has no nd-stats" % run.name)
        return None
    switches = t[t["component_type"] != "NIC"]
    if args.component:
        sw = args.component
        if sw not in set(t["component_name"]):
            raise BadInput("port-rate: no device '%s' in nd-stats" % sw)
    else:
        if switches.empty:
            return None
        busy = switches.groupby("component_name", sort=False)["total_packets_tx"].max()
        sw = busy.idxmax()
    g = t[t["component_name"] == sw]
    fig, ax = new_figure()
    ax = ax[0][0]
    ports = list(g["ifid"].drop_duplicates())
    for p in ports[:16]:
        s = g[g["ifid"] == p]
        ax.plot(s["sim_time_sec"] * 1e3, s["tx_rate_Gbps"], marker=".",
                label=str(s["link_name"].iloc[0]))
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel("transmit rate in the interval (Gbit/s)")
    ax.grid(alpha=0.3)
    ax.legend(title="link", fontsize=7, ncol=2)
    ax.set_title(run.title("Transmit rate per port of %s (nd-stats)" % sw))
    return fig


def size_label(n):
    """Bytes as a short size: 256 KiB, 1 MiB, 1.5 GiB, 512 B."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return "%g %s" % (round(n / size, 2), unit)
    return "%d B" % n


def log2_size_axis(ax, sizes):
    """A log2 x axis of bytes with a tick per power of two (every other one past 12)."""
    ax.set_xscale("log", base=2)
    lo = int(np.floor(np.log2(min(sizes))))
    hi = int(np.ceil(np.log2(max(sizes))))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    step = 1 if hi - lo <= 12 else 2
    ticks = [2.0 ** e for e in range(lo, hi + 1, step)]
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(v) for v in ticks])
    ax.minorticks_off()
    ax.set_xlim(2.0 ** lo / 1.25, 2.0 ** hi * 1.25)


def fig_collective_busbw(run, args, explicit):
    t = run.record("chakra-busbw")
    if t is None or t.empty:
        if explicit:
            raise BadInput("collective-busbw: %s has no collectives (chakra-busbw)" % run.name)
        return None
    t = t[(t["comm_size"] > 0) & np.isfinite(t["busbw_gbps"])]  # a Barrier moves no data
    if t.empty:
        if explicit:
            raise BadInput("collective-busbw: %s has no collective that moves data (only "
                           "Barriers in chakra-busbw)" % run.name)
        return None
    fig, ax = new_figure()
    ax = ax[0][0]
    # One line per type and algorithm (and group size, when the groups differ in size).
    by_group = t["pg_size"].nunique() > 1
    groups = t.groupby(["comm_type", "expansion_algo"] + (["pg_size"] if by_group else []),
                       sort=True)
    several = False
    for i, (key, g) in enumerate(groups):
        ctype, algo = key[0], key[1]
        if by_group:
            algo = "%s, %d ranks" % (algo, key[2])
        colour = "C%d" % (i % 10)
        mean = g.groupby("comm_size", sort=True)["busbw_gbps"].mean()
        if len(mean) < len(g):  # several instances of a size: a dot for each, the mean joined
            several = True
            ax.scatter(g["comm_size"], g["busbw_gbps"], s=10, alpha=0.35, color=colour)
        ax.plot(mean.index, mean.values, marker="o", color=colour,
                label="%s %s (%d)" % (ctype, algo, len(g)))
    for rate in sorted(t["link_rate_gbps"].dropna().unique()):
        ax.axhline(rate, color="black", linestyle="--", linewidth=1)
        ax.annotate("link rate %g Gbit/s" % rate, xy=(0.01, rate),
                    xycoords=("axes fraction", "data"), xytext=(0, 3),
                    textcoords="offset points", fontsize=9)
    log2_size_axis(ax, list(t["comm_size"]))
    top = max(t["busbw_gbps"].max(), t["link_rate_gbps"].max())
    ax.set_ylim(0, top * 1.12)
    ax.set_xlabel("collective size (bytes, the trace's comm_size)")
    ax.set_ylabel("bus bandwidth (Gbit/s)")
    ax.grid(alpha=0.3)
    ax.legend(title="type and algorithm (instances)" + (": mean, dots each" if several else ""),
              fontsize=8, title_fontsize=8, loc="lower right")
    nic = run.nic()
    ax.set_title(run.title("Bus bandwidth of the collectives%s (chakra-busbw)"
                           % (" on " + nic if nic else "")))
    return fig


def collective_names(run, perf):
    """id -> "AllReduce ring 1 MiB" for each collective instance of chakra-perf: type, size and
    group size from chakra-comm-collective-stats (else the transfers' metric_path), the
    algorithm from chakra-busbw; the group size only when the groups differ in size."""
    about = {}  # id -> [type, size, group size]
    stats = run.record("chakra-comm-collective-stats")
    if stats is not None:
        for h, ctype, size, group in zip(stats["collective_hash"], stats["comm_type"],
                                         stats["comm_size"], stats["pg_size"]):
            about[int(h)] = [str(ctype), int(size), int(group)]
    first = perf[perf["metric_aggregation_id"] >= 0].drop_duplicates("metric_aggregation_id")
    for h, path, group in zip(first["metric_aggregation_id"], first["metric_path"],
                              first["group_size"]):
        if int(h) not in about:  # ChakraFCT.AllReduce.GroupSize8.CommSize1048576Bytes
            parts = str(path).split(".")
            size = parts[-1][len("CommSize"): -len("Bytes")] if len(parts) > 3 else ""
            about[int(h)] = [parts[1] if len(parts) > 1 else str(path),
                             int(size) if size.isdigit() else 0, int(group)]
    busbw = run.record("chakra-busbw")
    algo = {} if busbw is None else {int(h): str(a) for h, a in
                                     zip(busbw["collective_hash"], busbw["expansion_algo"])}
    groups = len(set(a[2] for a in about.values())) > 1
    names = {}
    for h, (ctype, size, group) in about.items():
        words = [ctype] + ([algo[h]] if h in algo else []) + ([size_label(size)] if size else [])
        names[h] = " ".join(words) + (", %d ranks" % group if groups else "")
    return names


def fig_collective_timeline(run, args, explicit):
    from matplotlib.patches import Patch, PathPatch
    from matplotlib.path import Path

    t = run.record("chakra-perf")
    if t is None or t.empty:
        if explicit:
            raise BadInput("collective-timeline: %s has no Chakra transfers (chakra-perf)"
                           % run.name)
        return None
    rank_text = t["sending_app_name"].astype(str).str.extract(r"(\d+)$")[0]
    if rank_text.isna().any():  # not ChakraApp-<rank>: number the senders in sorted order
        names = sorted(t["sending_app_name"].astype(str).unique())
        rank = t["sending_app_name"].astype(str).map({n: i for i, n in enumerate(names)})
    else:
        rank = rank_text.astype(int)
    rank = rank.to_numpy(dtype=float)
    x0 = t["start_time_sec"].to_numpy(dtype=float) * 1e6
    x1 = t["sim_time_sec"].to_numpy(dtype=float) * 1e6
    agg = t["metric_aggregation_id"].to_numpy()
    sync = t["is_added_synchronization_flow"].astype(str).str.lower().eq("true").to_numpy()
    labels = collective_names(run, t)

    # Colours per collective instance, grey kept for the barriers, black for trace sends.
    ids = sorted(int(i) for i in np.unique(agg[agg >= 0]))
    if len(ids) <= 9:
        palette = [plt.get_cmap("tab10")(i) for i in range(10) if i != 7]
    else:  # tab20's dark colours, then its light ones: neighbours differ in hue
        palette = [plt.get_cmap("tab20")(i) for i in list(range(0, 20, 2)) + list(range(1, 20, 2))
                   if i not in (14, 15)]
    colour_of = {h: palette[i % len(palette)] for i, h in enumerate(ids)}
    grey, black = (0.6, 0.6, 0.6, 1.0), (0.0, 0.0, 0.0, 1.0)

    fig, ax = new_figure()
    ax = ax[0][0]
    # One compound path of rectangles per colour (in the data's units, so a row stays a row
    # for any number of ranks; numpy only, so 100k transfers take a second). The trace sends
    # first, then each collective in id order, the barrier transfers (thin) on top.
    layers = [(~sync & (agg < 0), black, 0.38)]
    layers += [(~sync & (agg == h), colour_of[h], 0.38) for h in ids]
    layers.append((sync, grey, 0.12))  # half a bar's height
    for sel, colour, half in layers:
        n = int(sel.sum())
        if n == 0:
            continue
        a, b, y = x0[sel], x1[sel], rank[sel]
        verts = np.stack([np.column_stack([a, y - half]), np.column_stack([a, y + half]),
                          np.column_stack([b, y + half]), np.column_stack([b, y - half]),
                          np.column_stack([a, y - half])], axis=1).reshape(-1, 2)
        codes = np.tile([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], n)
        bars = PathPatch(Path(verts, codes), facecolor=colour, edgecolor=colour,
                         linewidth=0.3)  # an edge: a transfer thinner than a pixel still shows
        if len(t) > 5000:
            bars.set_rasterized(True)  # an SVG of 100k rectangles would be too large to open
        ax.add_artist(bars)  # not add_patch: its limits per segment take seconds; set below
    span = max(x1.max() - x0.min(), 1e-3)
    ax.set_xlim(x0.min() - 0.01 * span, x1.max() + 0.01 * span)
    ranks = int(rank.max()) + 1
    ax.set_ylim(-0.7, ranks - 0.3)
    if ranks <= 32:
        ax.set_yticks(range(ranks))
    ax.set_xlabel("simulated time (µs): each transfer from its start to its acknowledgement")
    ax.set_ylabel("sending rank")
    ax.grid(axis="x", alpha=0.3)

    handles = []
    shown = ids[:24]
    for h in shown:
        handles.append(Patch(color=colour_of[h], label="#%d %s" % (h, labels.get(h, ""))))
    if len(ids) > len(shown):
        handles.append(Patch(color="white",
                             label="… %d more collectives" % (len(ids) - len(shown))))
    if (agg < 0).any():
        handles.append(Patch(color=black, label="point-to-point sends"))
    if sync.any():
        handles.append(Patch(color=grey, label="synchronization barriers"))
    ax.legend(handles=handles, title="collective", fontsize=7, title_fontsize=8,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    nic = run.nic()
    ax.set_title(run.title("%d Chakra transfers per sending rank%s (chakra-perf)"
                           % (len(t), " on " + nic if nic else "")), fontsize=10)
    return fig


RUN_FUNCS = {
    "fct-cdf": fig_fct_cdf,
    "wqe-latency-cdf": fig_wqe_cdf,
    "uplink-load": fig_uplink_load,
    "nic-window": fig_nic_window,
    "port-rate": fig_port_rate,
    "collective-busbw": fig_collective_busbw,
    "collective-timeline": fig_collective_timeline,
}


# -------------------------------------------------------------------------------- a sweep


class Sweep:
    def __init__(self, folder):
        self.folder = folder
        self.table = pd.read_csv(os.path.join(folder, "summary.csv"), dtype=str,
                                 keep_default_na=False)
        self.values = {}
        meta = os.path.join(folder, "sweep.json")
        if os.path.exists(meta):
            with open(meta) as f:
                j = json.load(f)
            for a in j["axes"]:
                self.values[a["key"]] = a["values"]
        else:  # the axis columns sit between run_id and the first metric
            cols = list(self.table.columns)
            for c in cols[1: cols.index("fct_p50_usec")]:
                self.values[c] = list(dict.fromkeys(self.table[c]))
        self.axes = list(self.values)
        self.name = os.path.basename(os.path.normpath(folder))
        ok = self.table[self.table["status"] == "complete"]
        self.failed = len(self.table) - len(ok)
        self.ok = ok

    def check_axis(self, a, what):
        if a not in self.axes:
            raise BadInput("%s: '%s' is not an axis of the sweep; the axes are %s"
                           % (what, a, ", ".join(self.axes)))

    def metric(self, name, what):
        if name:
            # The known columns, and any other column a newer summary.csv may have.
            extra = [c for c in self.table.columns if c not in METRIC_LABELS and
                     c not in self.axes and c not in NOT_METRICS]
            if name not in METRIC_LABELS and name not in extra:
                raise BadInput("%s: unknown metric '%s'; the metrics are %s"
                               % (what, name, ", ".join(list(METRIC_LABELS) + extra)))
            if name not in self.table.columns:  # a summary.csv of an older uetsim
                raise BadInput("%s: %s/summary.csv has no column %s (a sweep of an older "
                               "uetsim: run the sweep again)" % (what, self.name, name))
            return name
        for m in DEFAULT_METRICS:
            if m in self.ok.columns and (self.ok[m] != "").any():
                return m
        return "events"

    def column(self, metric):
        return pd.to_numeric(self.ok[metric], errors="coerce")

    def positions(self, axis):
        """x positions: the numbers for a numeric axis, else 0..n-1 in sweep order."""
        vals = self.values[axis]
        try:
            nums = [float(v) for v in vals]
            return {v: x for v, x in zip(vals, nums)}, False
        except ValueError:
            return {v: float(i) for i, v in enumerate(vals)}, True

    def note(self):
        n = self.table.shape[0]
        return "%d runs" % n + (", %d not complete (left out)" % self.failed if self.failed else "")


def pick_axes(sweep, given, count):
    """The axes to plot: the given ones, else the non-seed axes in sweep order."""
    free = [a for a in sweep.axes if a != SEED_AXIS] or list(sweep.axes)
    out = []
    for a in given:
        if a:
            out.append(a)
    for a in free:
        if len(out) >= count:
            break
        if a not in out:
            out.append(a)
    return out


def fig_metric(sweep, args, explicit):
    metric = sweep.metric(args.metric, "metric")
    chosen = pick_axes(sweep, [args.x], 1)
    x_axis = chosen[0]
    sweep.check_axis(x_axis, "metric --x")
    lines_axis = args.lines
    if lines_axis is None:
        rest = [a for a in sweep.axes if a not in (x_axis, SEED_AXIS)]
        lines_axis = rest[0] if rest else ""
    if lines_axis:
        sweep.check_axis(lines_axis, "metric --lines")
    y = sweep.column(metric)
    if y.isna().all():
        raise BadInput("metric: no run has a value in column %s" % metric)
    pos, categorical = sweep.positions(x_axis)
    line_values = sweep.values[lines_axis] if lines_axis else [None]
    fig, ax = new_figure()
    ax = ax[0][0]
    width = 0.5 / max(1, len(line_values)) if categorical else 0
    replicas = SEED_AXIS in sweep.axes and SEED_AXIS not in (x_axis, lines_axis)
    for i, lv in enumerate(line_values):
        sel = sweep.ok if lv is None else sweep.ok[sweep.ok[lines_axis] == lv]
        xs, means, errs = [], [], []
        shift = (i - (len(line_values) - 1) / 2) * width
        for v in sweep.values[x_axis]:
            cell = y[sel.index][sel[x_axis] == v].dropna()
            if cell.empty:
                continue
            xs.append(pos[v] + shift)
            means.append(cell.mean())
            errs.append(cell.std(ddof=1) if len(cell) > 1 else 0.0)
            if replicas and len(cell) > 1:
                ax.scatter([pos[v] + shift] * len(cell), cell, s=8, alpha=0.3,
                           color="C%d" % (i % 10))
        label = None if lv is None else "%s = %s" % (lines_axis.split(".")[-1], lv)
        ax.errorbar(xs, means, yerr=errs if replicas else None, marker="o", capsize=4,
                    color="C%d" % (i % 10), label=label)
    if categorical:
        ax.set_xticks(list(pos.values()))
        ax.set_xticklabels(tick_labels(pos.keys()))
    ax.set_xlabel(x_axis)
    ax.set_ylabel(METRIC_LABELS.get(metric, metric))
    ax.grid(alpha=0.3)
    if lines_axis:
        ax.legend(fontsize=8)
    seeds = len(sweep.values.get(SEED_AXIS, []))
    sub = ("mean ± standard deviation over %d seeds (dots: each seed); " % seeds
           if replicas else "")
    ax.set_title("%s against %s\n%s%s — %s" % (METRIC_LABELS.get(metric, metric),
                                               x_axis.split(".")[-1], sub, sweep.note(),
                                               sweep.name), fontsize=10)
    return fig, "metric-%s" % metric


def fig_heatmap(sweep, args, explicit):
    metric = sweep.metric(args.metric, "heatmap")
    chosen = pick_axes(sweep, [args.x, args.y], 2)
    if len(chosen) < 2:
        if explicit:
            raise BadInput("heatmap: needs two axes besides %s; the sweep has %s"
                           % (SEED_AXIS, ", ".join(sweep.axes)))
        return None, None
    x_axis, y_axis = chosen[0], chosen[1]
    sweep.check_axis(x_axis, "heatmap --x")
    sweep.check_axis(y_axis, "heatmap --y")
    if x_axis == y_axis:
        raise BadInput("heatmap: --x and --y name the same axis %s" % x_axis)
    y = sweep.column(metric)
    xv, yv = sweep.values[x_axis], sweep.values[y_axis]
    grid = np.full((len(yv), len(xv)), np.nan)
    for r, b in enumerate(yv):
        for c, a in enumerate(xv):
            cell = y[(sweep.ok[x_axis] == a) & (sweep.ok[y_axis] == b)].dropna()
            if not cell.empty:
                grid[r, c] = cell.mean()
    if np.isnan(grid).all():
        raise BadInput("heatmap: no run has a value in column %s" % metric)
    fig, ax = new_figure()
    ax = ax[0][0]
    im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
    ax.set_xticks(range(len(xv)))
    ax.set_xticklabels(tick_labels(xv))
    ax.set_yticks(range(len(yv)))
    ax.set_yticklabels(tick_labels(yv))
    ax.set_xlabel(x_axis)
    ax.set_ylabel(y_axis)
    if grid.size <= 100:
        finite = grid[np.isfinite(grid)]
        mid = (finite.min() + finite.max()) / 2
        for r in range(len(yv)):
            for c in range(len(xv)):
                if np.isfinite(grid[r, c]):
                    ax.text(c, r, "%.4g" % grid[r, c], ha="center", va="center", fontsize=8,
                            color="white" if grid[r, c] < mid else "black")
    fig.colorbar(im, ax=ax, label=METRIC_LABELS.get(metric, metric))
    mean = " (mean over seeds)" if SEED_AXIS in sweep.axes else ""
    ax.set_title("%s%s — %s" % (METRIC_LABELS.get(metric, metric), mean, sweep.name),
                 fontsize=10)
    return fig, "heatmap-%s" % metric


SWEEP_FUNCS = {"metric": fig_metric, "heatmap": fig_heatmap}


# ----------------------------------------------------------------------------------- main


def main(argv):
    p = argparse.ArgumentParser(prog="uetsim plot")
    p.add_argument("dir")
    p.add_argument("--out")
    p.add_argument("--format", default="png", choices=["png", "svg"])
    p.add_argument("--figure", action="append", default=[])
    p.add_argument("--metric")
    p.add_argument("--x")
    p.add_argument("--lines")
    p.add_argument("--y")
    p.add_argument("--component")
    args = p.parse_args(argv)
    if not os.path.isdir(args.dir):
        raise BadInput("'%s' is not a folder" % args.dir)
    load_libraries()
    out = args.out or os.path.join(args.dir, "plots")
    is_sweep = os.path.exists(os.path.join(args.dir, "summary.csv"))
    funcs = SWEEP_FUNCS if is_sweep else RUN_FUNCS
    for f in args.figure:
        if f not in funcs:
            other = RUN_FUNCS if is_sweep else SWEEP_FUNCS
            kind = "a sweep's" if is_sweep else "a run's"
            hint = (" (a figure of %s folder)" % ("a run" if is_sweep else "a sweep")
                    if f in other else "")
            raise BadInput("unknown figure '%s'%s; %s folder has %s"
                           % (f, hint, kind, ", ".join(funcs)))
    source = Sweep(args.dir) if is_sweep else Run(args.dir)
    os.makedirs(out, exist_ok=True)
    names = args.figure or list(funcs)
    written = 0
    for name in names:
        res = funcs[name](source, args, bool(args.figure))
        fig, file = res if isinstance(res, tuple) else (res, name)
        if fig is not None:
            save(fig, out, file, args.format)
            written += 1
    if written == 0:
        raise BadInput("%s holds no data for any figure" % args.dir)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        sys.stderr.write("uetsim: error: plot: %s\n" % e)
        sys.exit(2)
