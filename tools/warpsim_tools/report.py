"""`warpsim report SWEEP_DIR [--metric M] [-o DIR]`: one HTML page with a
sweep's tables and figures (default SWEEP_DIR/report/index.html)."""
import argparse
import datetime
import html
import io
import os
import sys

from . import plots
from .common import die
from .query import DEFAULT_METRIC, MEANS, Table
from .spec import slug
from .store import Store

CSS = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.mean td { font-weight: bold; background: #f3f3f3; }
td.bad { color: #b00; } td.ok { color: #070; }
img { max-width: min(100%, 840px); border: 1px solid #eee; }
figure { margin: 0.8em 0; } figcaption { font-size: 0.85em; color: #333; max-width: 60em; }
.dl { color: #666; white-space: nowrap; } .dl a { margin-left: 0.3em; }
summary { cursor: pointer; } summary h2 { display: inline-block; border: none; margin: 0.8em 0 0.3em; }
section { border-bottom: 1px solid #ccc; }
nav#toc { background: #f7f7f7; padding: 0.4em 1em; font-size: 0.9em; display: inline-block; }
nav#toc ol { margin: 0.3em 0; padding-left: 1.5em; }
.note { color: #666; font-size: 0.85em; }
pre { background: #f7f7f7; padding: 0.6em; font-size: 0.8em; overflow-x: auto; }
"""


def _e(s):
    return html.escape("" if s is None else str(s))


def _secs(v):
    return "" if v is None else f"{v:.2f}"


def table_html(t):
    out = ["<table><tr><th>workload</th>" + "".join(f"<th>{_e(c)}</th>" for c in t.configs) + "</tr>"]
    for kind, label, _, row in t.rows:
        cells = "".join("<td>-</td>" if row[c] is None else
                        f"<td>{(f'{row[c]:.6g}' if t.raw else f'{row[c]:.3f}')}</td>" for c in t.configs)
        out.append(f"<tr class='{kind}'><td>{_e(label)}</td>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


class Figures:
    """Figure files of the report: writes each in every format and gives the
    HTML of a numbered <figure> (PNG shown, else SVG; links to every file)."""

    def __init__(self, out_dir, formats):
        self.out_dir, self.formats, self.n, self.files = out_dir, formats, 0, []

    def base(self, stem):
        return os.path.join(self.out_dir, stem)

    def html(self, paths, caption, alt):
        self.n += 1
        names = [os.path.basename(p) for p in paths]
        self.files += names
        shown = next((f for f in names if f.endswith(".png")), None) or \
            next((f for f in names if f.endswith(".svg")), None)
        links = " ".join(f"<a href='{_e(f)}'>{_e(f.rsplit('.', 1)[1].upper())}</a>" for f in names)
        img = f"<img src='{_e(shown)}' alt='{_e(alt)}'>" if shown else ""
        return (f"<figure id='fig{self.n}'>{img}<figcaption><b>Figure {self.n}.</b> {caption} "
                f"<span class='dl'>Download: {links}</span></figcaption></figure>")


def _section(sid, title, body, open_=True):
    return (f"<section id='{sid}'><details{' open' if open_ else ''}><summary><h2>{_e(title)}</h2></summary>\n"
            f"{body}\n</details></section>")


def _chart(t, axis, figs, stem):
    """Bars, or lines against an ordered parameter; returns (paths, how)."""
    if axis:
        return plots.lines(t, axis, figs.base(stem), formats=figs.formats), "lines"
    return plots.bars(t, figs.base(stem), formats=figs.formats), "bars"


def _caption(t, how, axis, mean):
    what = _e(plots.metric_label(t))
    if how == "lines":
        opt = _e(axis[0].lstrip("-"))
        s = (f"{what} against <code>{opt}</code>: one line per workload, the thick black line is the "
             f"geometric mean over all workloads.")
        if axis[2]:
            s += (f" Config {', '.join(_e(c) for c in axis[2])} has no number for <code>{opt}</code>: "
                  + ("it is the 1.0 line." if not t.raw else "dotted lines at its values."))
    else:
        s = (f"{what} per workload, one bar per config; workloads grouped by class, each class closed by "
             f"its {_e(mean)}, then geometric and harmonic means over all workloads (bold).")
    if not t.raw:
        s += (f" The dashed line at 1.0 is the baseline <code>{_e(t.baseline)}</code>"
              + ("; bars start at it" if how == "bars" else "") + "; the y range shows the spread.")
    elif how == "bars":
        s += " Bars start at 0" + (" (log scale: the values span more than two decades)." if
                                   plots.use_log([v for *_, r in t.rows for v in r.values()]) else ".")
    return s


def build(sweep_dir, out_dir=None, metric=None, baseline=None, invert=False, mean="gmean",
          max_timeseries=24, warn=sys.stderr, formats=plots.FORMATS):
    store = Store(sweep_dir)
    plan = store.plan() or {}
    out_dir = out_dir or os.path.join(sweep_dir, "report")
    os.makedirs(out_dir, exist_ok=True)
    msg = io.StringIO()
    t = Table(store, metric or DEFAULT_METRIC, baseline, invert, False, mean,
              explicit_metric=bool(metric), warn=msg)
    traw = Table(store, t.metric, baseline, invert, True, mean, explicit_metric=True)
    note = msg.getvalue().strip()
    if note:
        warn.write(note + "\n")
    figs = Figures(out_dir, list(formats))
    # A line plot when one option varies over ordered values (swl:1, swl:2, ...), else bars.
    axis = plots.ordered_axis(plan.get("configs", []), t.baseline)
    paths, how = _chart(t, axis, figs, f"normalised_{slug(t.metric)}")
    fig_norm = figs.html(paths, _caption(t, how, axis, mean), f"normalised {t.metric} per workload")
    paths, how_raw = _chart(traw, axis, figs, f"raw_{slug(t.metric)}")
    fig_raw = figs.html(paths, _caption(traw, how_raw, axis, mean), f"{t.metric} per workload")
    with open(os.path.join(out_dir, "normalised.csv"), "w", newline="") as f:
        t.write_csv(f)
    store.export_csv(os.path.join(out_dir, "runs.csv"))

    runs = store.runs()
    # Interval time series (timing runs with -warpsim_stat_interval): one figure per workload,
    # the configs overlaid.
    cfg_order = [c["name"] for c in plan.get("configs", [])]
    per_wl = {}
    for r in runs:
        p = os.path.join(sweep_dir, "runs", r["id"], "timeseries.csv")
        if r["status"] == "ok" and os.path.exists(p):
            per_wl.setdefault((r["workload"], r["input"]), []).append((r["config"], p))
    ts_html = []
    for (wl, inp), items in per_wl.items():
        if len(ts_html) >= max_timeseries:
            warn.write(f"warpsim report: time series of {len(per_wl) - len(ts_html)} more workloads left out "
                       f"(--max-timeseries {max_timeseries})\n")
            break
        items.sort(key=lambda it: cfg_order.index(it[0]) if it[0] in cfg_order else len(cfg_order))
        stem = f"timeseries_{slug(wl.replace('/', '.'))}" + (f"_{slug(inp)}" if inp else "")
        try:
            paths = plots.timeseries([p for _, p in items], figs.base(stem), title=f"{wl} ({inp})" if inp else wl,
                                     labels=[c for c, _ in items], formats=figs.formats)
        except ValueError as e:
            warn.write(f"warpsim report: {e}\n")
            continue
        ts_html.append(figs.html(paths, f"Interval time series of <code>{_e(wl)}</code>"
                                 + (f" (input {_e(inp)})" if inp else "")
                                 + f": one panel per metric against the cycle, one line per config "
                                   f"({', '.join(_e(c) for c, _ in items)}).",
                                 f"time series of {wl}"))

    counts = store.counts()
    name = store.meta("name", os.path.basename(os.path.abspath(sweep_dir)))
    sections = [("norm", f"{plots.chart_title(t)} ({t.metric})",
                 fig_norm + table_html(t) +
                 f"<p class='note'>Class rows: {_e(mean)} of the class; then geometric and harmonic means "
                 f"over all workloads. CSV: <a href='normalised.csv'>normalised.csv</a>, every run and stat: "
                 f"<a href='runs.csv'>runs.csv</a>.</p>", True),
                ("raw", f"{plots.chart_title(traw)} ({t.metric})", fig_raw + table_html(traw), True)]
    if ts_html:
        sections.append(("timeseries", "Interval time series", "\n".join(ts_html), True))
    cfg = ["<table><tr><th>config</th><th>options</th></tr>"]
    for c in plan.get("configs", []):
        opts = " ".join(f"{k} {v}" for k, v in c["params"].items() if k != "config")
        mark = " (baseline)" if c["name"] == t.baseline else ""
        cfg.append(f"<tr><td>{_e(c['name'])}{mark}</td><td style='text-align:left'><code>{_e(opts)}"
                   f"</code></td></tr>")
    cfg.append("</table>")
    sections.append(("configs", f"Configurations ({len(plan.get('configs', []))})", "\n".join(cfg), True))
    wls = ["<table><tr><th>workload</th><th>input</th><th>class</th></tr>"]
    for w in plan.get("workloads", []):
        wls.append(f"<tr><td>{_e(w['name'])}</td><td>{_e(w.get('input'))}</td><td>{_e(w.get('class'))}</td></tr>")
    wls.append("</table>")
    sections.append(("workloads", f"Workloads ({len(plan.get('workloads', []))})", "\n".join(wls), True))
    rl = ["<table><tr><th>run</th><th>status</th><th>wall s</th><th>engine</th><th>host</th><th>message</th></tr>"]
    for r in runs:
        rel = os.path.relpath(os.path.join(sweep_dir, "runs", r["id"]), out_dir)
        cls = "ok" if r["status"] == "ok" else "bad"
        rl.append(f"<tr><td><a href='{_e(rel)}/'>{_e(r['id'])}</a></td><td class='{cls}'>{_e(r['status'])}"
                  f"</td><td>{_secs(r['wall_s'])}</td>"
                  f"<td>{_e(r['engine'])}</td><td>{_e(r['host'])}</td>"
                  f"<td style='text-align:left'>{_e(r['message'])}</td></tr>")
    rl.append("</table>")
    bad = sum(v for k, v in counts.items() if k != "ok")
    sections.append(("runs", f"Runs ({len(runs)})", "\n".join(rl), bool(bad)))
    spec = plan.get("spec")
    for cand in ("spec.toml", "spec.json"):
        p = os.path.join(sweep_dir, cand)
        if os.path.exists(p):
            with open(p) as f:
                sections.append(("spec", "Sweep description",
                                 f"<p class='note'>{_e(spec)}</p><pre>{_e(f.read())}</pre>", False))
            break

    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>warpsim sweep {_e(name)}</title>"
             f"<style>{CSS}</style></head><body>",
             f"<h1>warpsim sweep <code>{_e(name)}</code></h1>",
             f"<p class='note'>{len(runs)} runs: " +
             ", ".join(f"{v} {_e(k)}" for k, v in sorted(counts.items())) +
             f". warpsim: {_e(store.meta('warpsim_version'))} ({_e(store.meta('warpsim'))}, sha256 "
             f"{_e((store.meta('warpsim_sha256') or '')[:16])}), "
             f"source {_e(store.meta('git'))}. Report written "
             f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}.</p>",
             f"<p>Configs: {', '.join(_e(c) for c in cfg_order)} (baseline <code>{_e(t.baseline)}</code>). "
             f"Workloads: {', '.join(_e(w['name']) for w in plan.get('workloads', []))}.</p>"]
    if note:
        parts.append(f"<p class='note'><b>Note:</b> {_e(note)}</p>")
    parts.append("<nav id='toc'><b>Contents</b><ol>" +
                 "".join(f"<li><a href='#{sid}'>{_e(title)}</a></li>" for sid, title, _, _ in sections) +
                 "</ol></nav>")
    parts += [_section(sid, title, body, op) for sid, title, body, op in sections]
    parts.append("</body></html>\n")
    index = os.path.join(out_dir, "index.html")
    with open(index, "w") as f:
        f.write("\n".join(parts))
    store.close()
    return index, figs.files


def main(argv):
    ap = argparse.ArgumentParser(prog="warpsim report", description="HTML report and figures of a sweep")
    ap.add_argument("sweep_dir")
    ap.add_argument("-o", "--output", help="folder for index.html and figures (default SWEEP_DIR/report)")
    ap.add_argument("--metric", help=f"whole-run stat to compare (default {DEFAULT_METRIC})")
    ap.add_argument("--baseline", help="config to normalise to (default: the spec's baseline)")
    ap.add_argument("--invert", action="store_true", help="baseline/config (for cycles, time)")
    ap.add_argument("--mean", choices=sorted(MEANS), default="gmean")
    ap.add_argument("--max-timeseries", type=int, default=24,
                    help="time-series figures (one per workload) at most (default 24)")
    ap.add_argument("--format", default=",".join(plots.FORMATS),
                    help="figure formats, comma-separated (default png,pdf,svg)")
    o = ap.parse_args(argv)
    try:
        formats = plots.parse_formats(o.format)
    except ValueError as e:
        die(str(e))
    try:
        index, figs = build(o.sweep_dir, o.output, o.metric, o.baseline, o.invert, o.mean, o.max_timeseries,
                            formats=formats)
    except FileNotFoundError as e:
        die(str(e))
    print(index)
    return 0
