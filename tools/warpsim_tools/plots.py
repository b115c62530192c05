"""Figures: normalised bars per workload and class (the seed studies' style),
and line charts of one run's interval time series (RUN_DIR/timeseries.csv:
a `cycle` column, then one column per metric)."""
import argparse
import csv
import os
import sys

from .common import die


def _plt():
    try:
        import matplotlib
    except ImportError:
        die(f"matplotlib is missing for {sys.executable}: install Debian's python3-matplotlib "
            "(apt-get install python3-matplotlib) and run with /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


HATCHES = ["", "//", "\\\\", "xx", "..", "--", "++", "oo", "**", "||"]


def bars(table, path, title=None):
    """Grouped bars: one group per workload (grouped by class, each class
    closed by its mean), then the overall means; one bar per config."""
    plt = _plt()
    groups = []  # (label, {config: value}, kind, class)
    for kind, label, cls, row in table.rows:
        groups.append((label, row, kind, cls))
    n = len(table.configs)
    width = 0.8 / max(n, 1)
    fig_w = min(max(6.0, 2 + 0.11 * len(groups) * (n + 1)), 18)
    fig, ax = plt.subplots(figsize=(fig_w, 4.5))
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    xs = list(range(len(groups)))
    ymax = 0
    for j, c in enumerate(table.configs):
        vals = [g[1].get(c) for g in groups]
        pos = [x - 0.4 + width * (j + 0.5) for x in xs]
        hv = [v if v is not None else 0 for v in vals]
        ymax = max([ymax] + hv)
        ax.bar(pos, hv, width, label=c, color=cmap(j % cmap.N), edgecolor="black", linewidth=0.5,
               hatch=HATCHES[j % len(HATCHES)])
    if not table.raw:
        ax.axhline(1.0, color="black", linestyle="--", linewidth=0.8)
    prev_cls = None
    for x, (label, _, kind, cls) in enumerate(groups):
        if x and (cls != prev_cls or (kind == "mean" and cls is None and groups[x - 1][3] is not None)):
            ax.axvline(x - 0.5, color="grey", linewidth=0.6)
        prev_cls = cls
    ax.set_xticks(xs)
    ax.set_xticklabels([g[0] for g in groups], rotation=45, ha="right", fontsize=8)
    for t, g in zip(ax.get_xticklabels(), groups):
        if g[2] == "mean":
            t.set_fontweight("bold")
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylim(0, ymax * 1.15 if ymax > 0 else 1)
    ax.set_ylabel(table.metric if table.raw else
                  (f"speedup ({table.metric})" if table.invert else f"normalised {table.metric}"))
    ncol = min(n, 6)
    ax.legend(ncol=ncol, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_title(title or table.title(), fontsize=10, pad=8 + 16 * ((n + ncol - 1) // ncol))
    ax.grid(axis="y", linestyle=":", linewidth=0.5)
    ax.set_axisbelow(True)
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def read_timeseries(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        raise ValueError(f"{path}: no samples")
    head = [h.strip() for h in rows[0]]
    cols = {h: [] for h in head}
    for r in rows[1:]:
        if not r or r[0].startswith("#"):
            continue
        for h, v in zip(head, r):
            try:
                cols[h].append(float(v))
            except ValueError:
                cols[h].append(float("nan"))
    return head, cols


def timeseries(csv_path, out_path, title=None, metrics=None):
    """One line chart per metric against the first column (cycle)."""
    plt = _plt()
    head, cols = read_timeseries(csv_path)
    xname = "cycle" if "cycle" in cols else head[0]
    xs, bounds = list(cols[xname]), []
    skip = {xname}
    if "kernel" in cols:
        # One block of samples per kernel launch; when the cycle count restarts
        # with each kernel, lay the kernels end to end.
        skip.add("kernel")
        restarts = any(b < a for a, b in zip(xs, xs[1:]))
        offset, last, prev = 0.0, 0.0, None
        for i, (k, c) in enumerate(zip(cols["kernel"], cols[xname])):
            if prev is not None and k != prev:
                bounds.append(last)
                if restarts:
                    offset = last
            xs[i] = c + offset
            last, prev = xs[i], k
    names = [h for h in head if h not in skip and (not metrics or h in metrics)]
    if not names:
        raise ValueError(f"{csv_path}: no metric columns" + (f" among {metrics}" if metrics else ""))
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 1.7 * len(names) + 0.8), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        ax.plot(xs, cols[name], linewidth=1.0, color="tab:blue")
        if len(bounds) <= 64:
            for b in bounds:
                ax.axvline(b, color="grey", linewidth=0.5, linestyle=":")
        ax.set_ylabel(name, fontsize=8, rotation=0, ha="right", va="center")
        ax.grid(linestyle=":", linewidth=0.5)
        ax.tick_params(labelsize=8)
    axes[-1, 0].set_xlabel(xname + (" (kernel launches end to end; dotted: kernel boundaries)" if bounds else ""))
    fig.suptitle(title or os.path.basename(os.path.dirname(os.path.abspath(csv_path))), fontsize=10)
    fig.tight_layout()
    fig.savefig(out_path, dpi=100)
    plt.close(fig)
    return out_path


def main_timeseries(argv):
    ap = argparse.ArgumentParser(prog="warpsim timeseries",
                                 description="plot a run's interval time series (timeseries.csv)")
    ap.add_argument("run", help="run folder (with timeseries.csv) or the CSV file")
    ap.add_argument("-o", "--output", help="PNG to write (default: beside the CSV)")
    ap.add_argument("--metric", action="append", help="only these columns (repeatable)")
    o = ap.parse_args(argv)
    path = o.run if o.run.endswith(".csv") else os.path.join(o.run, "timeseries.csv")
    if not os.path.exists(path):
        die(f"{path}: no time series (the timing model writes it; functional runs have none)")
    out = o.output or os.path.join(os.path.dirname(path), "timeseries.png")
    try:
        timeseries(path, out, metrics=o.metric)
    except ValueError as e:
        die(str(e))
    print(out)
    return 0
