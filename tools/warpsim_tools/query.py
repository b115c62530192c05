"""`warpsim query SWEEP_DIR [--metric M] [--baseline CFG] [--csv] [--raw] [--export FILE]`

Prints the normalised table: one row per workload (grouped by class, each class
followed by its mean), then the means over all workloads; one column per
swept config. Values are metric(config) / metric(baseline) for the same
workload (with --invert, baseline / config: speedup from a lower-is-better
metric such as gpu_sim_cycle).
"""
import argparse
import csv
import json
import math
import sys

from .common import die
from .store import Store

DEFAULT_METRIC = "gpu_ipc"
# Tried in order when the chosen metric is in no run (functional runs have no cycles).
FALLBACKS = ["gpu_tot_ipc", "gpu_sim_insn", "gpu_tot_sim_insn"]


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def hmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return len(xs) / sum(1 / x for x in xs) if xs else None


def amean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


MEANS = {"gmean": gmean, "hmean": hmean, "amean": amean}


def choose_metric(store, metric, explicit, warn=sys.stderr):
    keys = store.stat_keys()
    if metric in keys:
        return metric
    if not keys:
        die("no finished runs in this sweep yet (see `warpsim sweep SPEC --status`)", 1)
    if explicit:
        die(f"metric '{metric}' is in no finished run; stats available: {', '.join(keys)}")
    for m in FALLBACKS:
        if m in keys:
            warn.write(f"warpsim: metric '{metric}' is in no finished run (functional runs have no "
                       f"cycles, so no IPC); using '{m}' instead. Choose one with --metric.\n")
            return m
    die(f"metric '{metric}' is in no finished run; choose one with --metric from: {', '.join(keys)}")


class Table:
    """Normalised values: rows (kind, label, class, {config: value})."""

    def __init__(self, store, metric=DEFAULT_METRIC, baseline=None, invert=False, raw=False,
                 mean="gmean", explicit_metric=False, warn=sys.stderr):
        plan = store.plan()
        if not plan:
            die("the database has no sweep plan")
        self.metric = choose_metric(store, metric, explicit_metric, warn)
        self.configs = [c["name"] for c in plan["configs"]]
        self.baseline = baseline or plan["baseline"]
        if self.baseline not in self.configs:
            die(f"baseline '{self.baseline}' is not a config of this sweep ({', '.join(self.configs)})")
        self.raw, self.invert, self.mean = raw, invert, mean
        vals = store.metric(self.metric)
        runs = store.runs()
        by = {(r["workload"], r["input"], r["config"]): vals.get(r["id"]) for r in runs}
        self.status = {(r["workload"], r["input"], r["config"]): r["status"] for r in runs}
        self.values = by
        self.rows = []
        self.classes = []
        wl = plan["workloads"]
        # A program of the user's own ("command") has no input to tell apart.
        multi_input = len({w["input"] for w in wl if "command" not in w}) > 1
        per_class = {}
        for w in wl:
            label = w["name"] + (f" ({w['input']})" if multi_input and "command" not in w else "")
            row = {}
            base = by.get((w["name"], w["input"], self.baseline))
            for c in self.configs:
                v = by.get((w["name"], w["input"], c))
                if raw:
                    row[c] = v
                elif v is None or base is None or base == 0 or (invert and v == 0):
                    row[c] = None
                else:
                    row[c] = base / v if invert else v / base
            per_class.setdefault(w["class"], []).append((label, row))
        fn = MEANS[mean]
        for cls, items in per_class.items():
            self.classes.append(cls)
            for label, row in items:
                self.rows.append(("workload", label, cls, row))
            if len(per_class) > 1:
                self.rows.append(("mean", f"{mean}({cls})", cls,
                                  {c: fn([r[c] for _, r in items]) for c in self.configs}))
        allrows = [r for items in per_class.values() for _, r in items]
        for name in ("gmean", "hmean"):
            self.rows.append(("mean", f"{name}(all)", None,
                              {c: MEANS[name]([r[c] for r in allrows]) for c in self.configs}))

    def title(self):
        if self.raw:
            return f"{self.metric} per workload"
        return (f"{'speedup' if self.invert else self.metric} normalised to '{self.baseline}'"
                + (f" (baseline {self.metric} / config {self.metric})" if self.invert else ""))

    def text(self):
        fmt = (lambda v: "-" if v is None else (f"{v:.6g}" if self.raw else f"{v:.3f}"))
        head = ["workload"] + self.configs
        body = [[label] + [fmt(row[c]) for c in self.configs] for kind, label, _, row in self.rows]
        widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
        lines = [self.title(), "  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i])
                                         for i, h in enumerate(head))]
        prev = None
        for (kind, _, _, _), r in zip(self.rows, body):
            if kind != prev and prev is not None and kind == "mean":
                lines.append("-" * (sum(widths) + 2 * (len(widths) - 1)))
            prev = kind
            lines.append("  ".join(x.ljust(widths[i]) if i == 0 else x.rjust(widths[i])
                                   for i, x in enumerate(r)))
        return "\n".join(lines) + "\n"

    def write_csv(self, f):
        w = csv.writer(f)
        w.writerow(["row", "class"] + self.configs)
        for kind, label, cls, row in self.rows:
            w.writerow([label, cls or ""] + ["" if row[c] is None else repr(row[c]) for c in self.configs])


def main(argv):
    ap = argparse.ArgumentParser(prog="warpsim query",
                                 description="normalised metric per workload and config of a sweep")
    ap.add_argument("sweep_dir")
    ap.add_argument("--metric", help=f"whole-run stat to compare (default {DEFAULT_METRIC})")
    ap.add_argument("--baseline", help="config to normalise to (default: the spec's baseline)")
    ap.add_argument("--invert", action="store_true",
                    help="baseline/config instead of config/baseline (for cycles, time)")
    ap.add_argument("--raw", action="store_true", help="the metric's values, not normalised")
    ap.add_argument("--mean", choices=sorted(MEANS), default="gmean", help="class means (default gmean)")
    ap.add_argument("--csv", action="store_true", help="print CSV instead of a text table")
    ap.add_argument("--export", metavar="FILE", help="write every run and every stat as CSV ('-': stdout)")
    ap.add_argument("--metrics", action="store_true", help="list the stats the finished runs have")
    ap.add_argument("--runs", action="store_true", help="list runs with status and message")
    o = ap.parse_args(argv)
    try:
        store = Store(o.sweep_dir)
    except FileNotFoundError as e:
        die(str(e))
    if o.export:
        n = store.export_csv(sys.stdout if o.export == "-" else o.export)
        if o.export != "-":
            sys.stderr.write(f"warpsim query: wrote {len(store.runs())} runs x {n} stats to {o.export}\n")
        return 0
    if o.metrics:
        print("\n".join(store.stat_keys()))
        return 0
    if o.runs:
        for r in store.runs():
            print(f"{r['status']:8} {r['id']}" + (f"  {r['message']}" if r["message"] else ""))
        return 0
    t = Table(store, o.metric or DEFAULT_METRIC, o.baseline, o.invert, o.raw, o.mean,
              explicit_metric=bool(o.metric))
    if o.csv:
        t.write_csv(sys.stdout)
    else:
        sys.stdout.write(t.text())
    return 0
