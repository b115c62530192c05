"""Figures for papers: bars or lines of a metric per workload and config, and
line charts of interval time series (RUN_DIR/timeseries.csv: an optional
`kernel` column, `cycle`, then one column per metric).

Every figure is written in each of the formats asked for (PNG, PDF, SVG);
labels come from statdesc (readable names with units, not raw stat names).

Rules (docs/sweeps.md, "Figures"):
- Bars of absolute quantities start at 0 (the bar's length is the value).
- Normalised values are drawn from the 1.0 reference line (a bar is the
  change against the baseline), with limits that show the spread:
  [min(values, 1) - pad, max(values, 1) + pad], pad = 15 % of the span (at
  least 0.02); the bottom is not taken below 0.
- Log scale when the positive values span decades: max / min > LOG_RATIO
  (100), all values > 0.
- Ordered parameters (one varied option whose values are numbers, or share a
  prefix before a number: `swl:1`, `swl:2`, ...) give lines of the metric
  against the parameter, one per workload, instead of grouped bars. A value
  that is not a number is allowed only for the baseline (e.g. `none`), drawn
  as the 1.0 line (normalised) or dotted lines (raw).
"""
import argparse
import csv
import math
import os
import re
import sys

from .common import die
from .statdesc import describe, label as stat_label

FORMATS = ("png", "pdf", "svg")
LOG_RATIO = 100.0
DPI = 150


def _plt():
    try:
        import matplotlib
    except ImportError:
        die(f"matplotlib is missing for {sys.executable}: install Debian's python3-matplotlib "
            "(apt-get install python3-matplotlib) and run with /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "svg.fonttype": "none",   # SVG text stays text: editable, searchable
        "pdf.fonttype": 42,       # TrueType in PDF (journals refuse Type 3 fonts)
        "ps.fonttype": 42,
        "font.size": 9,
        "axes.titlesize": 10,
        "svg.hashsalt": "warpsim",  # the same figure gives the same SVG
    })
    return plt


def parse_formats(text):
    """'png,pdf' -> ['png', 'pdf']; ValueError naming an unknown format."""
    out = []
    for f in (text or "").split(","):
        f = f.strip().lower().lstrip(".")
        if not f:
            continue
        if f not in FORMATS:
            raise ValueError(f"unknown figure format '{f}' (choose from {', '.join(FORMATS)})")
        if f not in out:
            out.append(f)
    if not out:
        raise ValueError("no figure format given (choose from png, pdf, svg)")
    return out


def save(fig, base, formats=FORMATS):
    """Write fig as base.png, base.pdf, base.svg (those in formats); returns
    the paths."""
    plt = _plt()
    paths = []
    for fmt in formats:
        p = f"{base}.{fmt}"
        # No dates in the files: the same figure gives the same bytes.
        meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
        fig.savefig(p, dpi=DPI, bbox_inches="tight", metadata=meta)
        paths.append(p)
    plt.close(fig)
    return paths


# ---- rules ----
def use_log(values, ratio=LOG_RATIO):
    """Log scale when the values span decades: all finite values positive and
    max / min > ratio."""
    vs = [v for v in values if v is not None and math.isfinite(v)]
    if len(vs) < 2 or min(vs) <= 0:
        return False
    return max(vs) / min(vs) > ratio


def normalized_limits(values, ref=1.0):
    """y limits that show the spread of normalised values around ref."""
    vs = [v for v in values if v is not None and math.isfinite(v)] + [ref]
    lo, hi = min(vs), max(vs)
    pad = max((hi - lo) * 0.15, 0.02 * ref)
    return max(lo - pad, 0.0), hi + pad


_NUM = re.compile(r"^(.*?)([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)$")


def ordered_values(values):
    """{value: number} when every value is a number or PREFIX+number with one
    shared PREFIX ('swl:1', 'swl:2'); values that fit neither are left out
    (the caller decides what they mean). None when fewer than 3 distinct
    numbers fit."""
    nums, prefixes = {}, set()
    for v in values:
        m = _NUM.match(str(v).strip())
        if not m:
            continue
        prefixes.add(m.group(1))
        nums[v] = float(m.group(2))
    if len(prefixes) != 1 or len(set(nums.values())) < 3:
        return None
    return nums


def ordered_axis(plan_configs, baseline=None):
    """(option, {config: number}, [configs left out], prefix) when the configs differ
    in one option only and its values are ordered (see ordered_values); only
    the baseline may have a value that is not a number. None otherwise."""
    keys = []
    for c in plan_configs:
        for k in c.get("params", {}):
            if k not in keys:
                keys.append(k)
    varied = [k for k in keys if len({str(c.get("params", {}).get(k)) for c in plan_configs}) > 1]
    if len(varied) != 1:
        return None
    k = varied[0]
    vals = {c["name"]: c["params"].get(k) for c in plan_configs}
    nums = ordered_values([v for v in vals.values() if v is not None])
    if not nums:
        return None
    xs = {name: nums[v] for name, v in vals.items() if v in nums}
    left = [name for name in vals if name not in xs]
    if any(name != baseline for name in left):
        return None
    return k, xs, left, _NUM.match(str(next(iter(nums))).strip()).group(1)


def _cmap(plt, n):
    return plt.get_cmap("tab10" if n <= 10 else "tab20")


HATCHES = ["", "//", "\\\\", "xx", "..", "--", "++", "oo", "**", "||"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]


def _cfg(name):
    """A config's name for a label: 'config 8' when the name is a bare number."""
    return f"config {name}" if _NUM.match(str(name)) and not _NUM.match(str(name)).group(1) else str(name)


def metric_label(table):
    return stat_label(table.metric, None if table.raw else _cfg(table.baseline), table.invert)


def chart_title(table, option=None):
    """'IPC normalized to gto', 'Speedup over gto (simulated cycles)', 'DRAM reads per workload'."""
    lab = describe(table.metric)[0]
    if table.raw:
        t = f"{lab} per workload"
    elif table.invert:
        t = f"Speedup over {_cfg(table.baseline)} ({lab[0].lower() + lab[1:]})"
    else:
        t = f"{lab} normalized to {_cfg(table.baseline)}"
    return t + (f" against {option.lstrip('-')}" if option else "")


def _finish_y(ax, values, normalized, baseline=None):
    """Scale and limits of the y axis by the rules above; True when log."""
    log = use_log(values)
    vs = [v for v in values if v is not None and math.isfinite(v)]
    if not log:
        ax.yaxis.set_major_formatter(_plain_formatter(max([abs(v) for v in vs] + [0])))
    if log:
        ax.set_yscale("log")
    elif normalized:
        ax.set_ylim(*normalized_limits(vs))
    else:
        top = max(vs + [0])
        ax.set_ylim(0, top * 1.12 if top > 0 else 1)
    if normalized:
        ax.axhline(1.0, color="black", linestyle="--", linewidth=0.9, zorder=3,
                   label=f"{_cfg(baseline)} (baseline) = 1.0" if baseline else "_ref", gid="reference-1.0")
    return log


def _plain_formatter(top):
    """Tick labels as plain numbers, with thousands separators from 10,000 on; never an offset
    or a '1e6' above the axis."""
    from matplotlib.ticker import FuncFormatter, ScalarFormatter
    if top >= 10000:
        return FuncFormatter(lambda v, _: f"{v:,.0f}")
    f = ScalarFormatter(useOffset=False)
    f.set_scientific(False)
    return f


def _tag(ax, kind, log):
    """An id on the axes in the SVG (<g id='chart-bars-log'>): what the tests look for."""
    ax.set_gid(f"chart-{kind}-{'log' if log else 'linear'}")


def bars(table, base, title=None, formats=FORMATS):
    """Grouped bars: one group per workload (grouped by class, each class
    closed by its mean), then the overall means; one bar per config.
    Normalised bars grow from the 1.0 line. Returns the paths written."""
    plt = _plt()
    groups = [(label, row, kind, cls) for kind, label, cls, row in table.rows]
    normalized = not table.raw
    # Normalised, the baseline's bars are all 1.0: the reference line stands for them.
    configs = [c for c in table.configs if not (normalized and c == table.baseline)] or list(table.configs)
    n = len(configs)
    width = 0.8 / max(n, 1)
    fig_w = min(max(6.5, 2 + 0.13 * len(groups) * (n + 1)), 18)
    fig, ax = plt.subplots(figsize=(fig_w, 4.2))
    cmap = _cmap(plt, n)
    xs = list(range(len(groups)))
    allv = [g[1].get(c) for g in groups for c in configs]
    log = use_log(allv)
    bottom = 1.0 if normalized else (min(v for v in allv if v) / 2 if log else 0.0)
    for j, c in enumerate(configs):
        pos, hv = [], []
        for x, g in zip(xs, groups):
            v = g[1].get(c)
            if v is None or (log and v <= 0):
                continue  # no bar: the run failed or has no such stat
            pos.append(x - 0.4 + width * (j + 0.5))
            hv.append(v - bottom)
        ax.bar(pos, hv, width, bottom=bottom, label=c, color=cmap(j % cmap.N), edgecolor="black",
               linewidth=0.5, hatch=HATCHES[j % len(HATCHES)], zorder=2)
        if normalized:  # a dot at each bar's end: a value of 1.0 (no bar) still shows
            ax.plot(pos, [h + bottom for h in hv], linestyle="none", marker="o", markersize=3.5,
                    markerfacecolor=cmap(j % cmap.N), markeredgecolor="black", markeredgewidth=0.5,
                    zorder=4, label="_dots")
    _tag(ax, "bars", _finish_y(ax, allv, normalized, table.baseline))
    prev_cls = None
    for x, (label, _, kind, cls) in enumerate(groups):
        if x and (cls != prev_cls or (kind == "mean" and cls is None and groups[x - 1][3] is not None)):
            ax.axvline(x - 0.5, color="grey", linewidth=0.6)
        prev_cls = cls
    ax.set_xticks(xs)
    ax.set_xticklabels([g[0] for g in groups], rotation=35, ha="right", fontsize=8)
    for t, g in zip(ax.get_xticklabels(), groups):
        if g[2] == "mean":
            t.set_fontweight("bold")
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_ylabel(metric_label(table))
    nleg = n + (1 if normalized else 0)
    ncol = min(nleg, 6)
    ax.legend(ncol=ncol, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_title(title or chart_title(table), pad=8 + 16 * ((nleg + ncol - 1) // ncol))
    ax.grid(axis="y", linestyle=":", linewidth=0.5)
    ax.set_axisbelow(True)
    fig.tight_layout()
    return save(fig, base, formats)


def lines(table, axis, base, title=None, formats=FORMATS):
    """The metric against an ordered parameter: one line per workload (and a
    thick black line for the geometric mean over all workloads)."""
    plt = _plt()
    option, xs_by_cfg, left, prefix = axis
    cfgs = sorted(xs_by_cfg, key=lambda c: xs_by_cfg[c])
    xs = [xs_by_cfg[c] for c in cfgs]
    normalized = not table.raw
    rows = [(lab, row) for kind, lab, _, row in table.rows if kind == "workload"]
    means = [(lab, row) for kind, lab, cls, row in table.rows if kind == "mean" and lab.startswith("gmean(all")]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    cmap = _cmap(plt, len(rows))
    allv = []
    for i, (lab, row) in enumerate(rows + means):
        is_mean = i >= len(rows)
        pts = [(x, row.get(c)) for x, c in zip(xs, cfgs) if row.get(c) is not None]
        allv += [v for _, v in pts]
        color = "black" if is_mean else cmap(i % cmap.N)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=color, linewidth=2.4 if is_mean else 1.3,
                    marker=None if is_mean else MARKERS[i % len(MARKERS)], markersize=4, label=lab, zorder=3,
                    gid=f"line-{i}")
        for c in left:  # the baseline without a number (e.g. 'none')
            v = row.get(c)
            if table.raw and v is not None:
                allv.append(v)
                ax.axhline(v, color=color, linestyle=":", linewidth=0.9)
    if left and table.raw:
        ax.plot([], [], color="black", linestyle=":", linewidth=0.9, label=f"{', '.join(left)} (baseline)")
    log = _finish_y(ax, allv, normalized, table.baseline)
    _tag(ax, "lines", log)
    if not log and not normalized:
        vs = [v for v in allv if v is not None]
        lo, hi = min(vs), max(vs)
        pad = max((hi - lo) * 0.1, abs(hi) * 0.02, 1e-12)
        ax.set_ylim(max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad)  # lines need no zero
    if min(xs) > 0 and max(xs) / min(xs) >= 8:
        ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{xs_by_cfg[c]:g}" for c in cfgs], fontsize=8)
    ax.minorticks_off()
    ax.set_xlabel(option.lstrip("-") + (f" = {prefix}N" if prefix else ""))
    ax.set_ylabel(metric_label(table))
    ax.grid(linestyle=":", linewidth=0.5)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title(title or chart_title(table, option))
    fig.tight_layout()
    return save(fig, base, formats)


# ---- time series ----
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


def series_x(cols, head):
    """(x name, x values, kernel boundaries, columns to skip): with a `kernel`
    column whose cycle count restarts with each kernel, the kernels are laid
    end to end."""
    xname = "cycle" if "cycle" in cols else head[0]
    xs, bounds = list(cols[xname]), []
    skip = {xname}
    if "kernel" in cols:
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
    return xname, xs, bounds, skip


def timeseries(csv_paths, base, title=None, metrics=None, labels=None, formats=("png",)):
    """One panel per metric against the cycle; one line per CSV (runs of one
    workload under several configs overlaid, labelled by `labels`). Returns
    the paths written."""
    if isinstance(csv_paths, str):
        csv_paths = [csv_paths]
    labels = labels or [os.path.basename(os.path.dirname(os.path.abspath(p))) for p in csv_paths]
    plt = _plt()
    data, names = [], []
    for p in csv_paths:
        head, cols = read_timeseries(p)
        xname, xs, bounds, skip = series_x(cols, head)
        data.append((xname, xs, bounds, cols))
        for h in head:
            if h not in skip and (not metrics or h in metrics) and h not in names:
                names.append(h)
    if not names:
        raise ValueError(f"{csv_paths[0]}: no metric columns" + (f" among {metrics}" if metrics else ""))
    # Columns that are 0 in every run (e.g. no throttle: warp limit 0) carry nothing.
    flat = [h for h in names if all(all(v == 0 or v != v for v in d[3].get(h, [])) for d in data)]
    if len(flat) < len(names):
        names = [h for h in names if h not in flat]
    many = len(csv_paths) > 1
    cmap = _cmap(plt, len(csv_paths))
    fig, axes = plt.subplots(len(names), 1, figsize=(7.5, 1.55 * len(names) + 1.0), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        for i, ((xname, xs, bounds, cols), lab) in enumerate(zip(data, labels)):
            if name in cols:
                ax.plot(xs, cols[name], linewidth=1.0, color=cmap(i % cmap.N), label=lab, gid=f"series-{name}-{i}")
            if not many and len(bounds) <= 64:
                for b in bounds:
                    ax.axvline(b, color="grey", linewidth=0.5, linestyle=":")
        ax.set_ylabel(_wrap(stat_label(name)), fontsize=8)
        ax.grid(linestyle=":", linewidth=0.5)
        ax.tick_params(labelsize=8)
    xname, bounds = data[0][0], any(d[2] for d in data)
    # plain cycle numbers (1,000,000), not a '1e6' under the axis
    axes[-1, 0].xaxis.set_major_formatter(_plain_formatter(max([max(d[1], default=0) for d in data] + [0])))
    axes[-1, 0].set_xlabel("Cycle" + (" (kernel launches end to end)" if bounds else "")
                           + ("" if many or not bounds else "; dotted: kernel boundaries"))
    if many:
        ncol = min(len(labels), 5)
        axes[0, 0].legend(ncol=ncol, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.02), frameon=False)
    fig.suptitle(title or labels[0], fontsize=10)
    fig.align_ylabels(axes[:, 0])
    fig.tight_layout()
    return save(fig, base, formats)


def _wrap(s, width=18):
    """Break a long axis label over lines at spaces (at most ~width chars a line)."""
    out, line = [], ""
    for w in s.split(" "):
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    out.append(line)
    return "\n".join(out)


def main_timeseries(argv):
    ap = argparse.ArgumentParser(prog="warpsim timeseries",
                                 description="plot interval time series (timeseries.csv) of one run, or of "
                                             "several runs overlaid (one line per run)")
    ap.add_argument("run", nargs="+", help="run folder (with timeseries.csv) or the CSV file; several: overlaid")
    ap.add_argument("-o", "--output", help="figure to write (default: timeseries.png beside the first CSV); "
                                           "its extension is the format unless --format is given")
    ap.add_argument("--format", help="comma-separated: png,pdf,svg (default: the extension of -o, else png)")
    ap.add_argument("--label", action="append", help="legend label of each run, in order (default: folder)")
    ap.add_argument("--title", help="figure title")
    ap.add_argument("--metric", action="append", help="only these columns (repeatable)")
    o = ap.parse_args(argv)
    paths = []
    for r in o.run:
        path = r if r.endswith(".csv") else os.path.join(r, "timeseries.csv")
        if not os.path.exists(path):
            die(f"{path}: no time series (the timing model writes it; functional runs have none)")
        paths.append(path)
    if o.label and len(o.label) != len(paths):
        die(f"--label given {len(o.label)} times for {len(paths)} runs")
    out = o.output or os.path.join(os.path.dirname(paths[0]), "timeseries.png")
    stem, ext = os.path.splitext(out)
    try:
        formats = parse_formats(o.format or (ext if ext.lstrip(".").lower() in FORMATS else "png"))
    except ValueError as e:
        die(str(e))
    if ext.lstrip(".").lower() not in FORMATS:
        stem = out
    labels = o.label or ([os.path.relpath(os.path.dirname(os.path.abspath(p))) for p in paths]
                         if len(paths) > 1 else None)
    try:
        written = timeseries(paths, stem, title=o.title, metrics=o.metric, labels=labels, formats=formats)
    except ValueError as e:
        die(str(e))
    print("\n".join(written))
    return 0
