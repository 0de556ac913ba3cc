#!/usr/bin/env python3
"""How far records moved between two records-snapshot folders (a deliberate change of order).

    bench/records_moved.py BEFORE AFTER [--markdown]

For every CSV that differs: its rows before and after, how many rows differ, and for each
numeric column that moved the largest absolute change and the largest relative change, with the
row where it is largest. Rows are paired by their key where a record has one (a flow's
flow_id, a WQE's application, node, verb, metric and wqe_id: such rows are written in completion order,
which the change may swap), else by position (rows written at record times); a CSV whose row
count changed says so and pairs what both have.
Manifests: the numeric fields that changed (wall time and memory left out).
"""
import csv
import json
import os
import sys

SKIP = ("wall_time_s", "peak_rss_bytes", "time_utc", "started_utc", "host", "wall")


def numeric(v):
    try:
        return float(v)
    except ValueError:
        return None


def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return (r[0], r[1:]) if r else ([], [])


KEYS = (("flow_id",), ("application_name", "node_id", "rdma_verb", "metric_name", "wqe_id"))


def paired(header, ra, rb):
    for key in KEYS:
        if all(k in header for k in key):
            idx = [header.index(k) for k in key]
            kb = {tuple(r[i] for i in idx): r for r in rb}
            return [(r, kb[tuple(r[i] for i in idx)]) for r in ra if tuple(r[i] for i in idx) in kb]
    return list(zip(ra, rb))


def compare_csv(a, b):
    ha, ra = rows(a)
    hb, rb = rows(b)
    out = {"rows": (len(ra), len(rb)), "differing": 0, "columns": {}}
    if ha != hb:
        out["header"] = True
        return out
    for i, (x, y) in enumerate(paired(ha, ra, rb)):
        if x == y:
            continue
        out["differing"] += 1
        for c, (u, v) in enumerate(zip(x, y)):
            if u == v:
                continue
            fu, fv = numeric(u), numeric(v)
            col = out["columns"].setdefault(ha[c], {"abs": 0.0, "rel": 0.0, "row": i, "text": 0})
            if fu is None or fv is None or ha[c] == "time_utc":
                col["text"] += 1
                continue
            d = abs(fv - fu)
            rel = d / abs(fu) if fu else (0.0 if d == 0 else float("inf"))
            if d > col["abs"]:
                col["abs"], col["row"] = d, i
            col["rel"] = max(col["rel"], rel)
    return out


def flat(o, prefix=""):
    if isinstance(o, dict):
        for k, v in o.items():
            if not any(s in k for s in SKIP):
                yield from flat(v, f"{prefix}{k}.")
    elif isinstance(o, (int, float)) and not isinstance(o, bool):
        yield prefix[:-1], o


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    before, after = args
    for scen in sorted(os.listdir(before)):
        da, db = os.path.join(before, scen), os.path.join(after, scen)
        if not os.path.isdir(da):
            continue
        if not os.path.isdir(db):
            print(f"{scen}: missing after")
            continue
        lines = []
        for name in sorted(os.listdir(da)):
            fa, fb = os.path.join(da, name), os.path.join(db, name)
            if not os.path.isfile(fb):
                lines.append(f"  {name}: missing after")
                continue
            if name.endswith(".csv"):
                if open(fa, "rb").read() == open(fb, "rb").read():
                    continue
                c = compare_csv(fa, fb)
                if c.get("header"):
                    lines.append(f"  {name}: header changed")
                    continue
                n0, n1 = c["rows"]
                rc = f"{n0} rows" if n0 == n1 else f"{n0} -> {n1} rows"
                lines.append(f"  {name}: {c['differing']} of {rc} differ")
                for col, m in sorted(c["columns"].items()):
                    if m["text"]:
                        lines.append(f"    {col}: {m['text']} text values")
                    if m["abs"]:
                        lines.append(f"    {col}: max |d| {m['abs']:.6g} (row {m['row']}), "
                                     f"max rel {m['rel']:.3g}")
            elif name.endswith("manifest.json"):
                ja = dict(flat(json.load(open(fa))))
                jb = dict(flat(json.load(open(fb))))
                for k in sorted(set(ja) | set(jb)):
                    if ja.get(k) != jb.get(k):
                        lines.append(f"  manifest {k}: {ja.get(k)} -> {jb.get(k)}")
        print(f"{scen}: " + ("identical" if not lines else "moved"))
        for l in lines:
            print(l)


if __name__ == "__main__":
    main()
