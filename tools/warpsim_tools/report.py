"""`warpsim report SWEEP_DIR [--metric M] [-o DIR]`: one HTML page with a
sweep's tables and figures (default SWEEP_DIR/report/index.html)."""
import argparse
import datetime
import html
import io
import json
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
img { max-width: 100%; border: 1px solid #eee; }
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


def build(sweep_dir, out_dir=None, metric=None, baseline=None, invert=False, mean="gmean",
          max_timeseries=24, warn=sys.stderr):
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
    figs = []
    fn = f"normalised_{slug(t.metric)}.png"
    plots.bars(t, os.path.join(out_dir, fn))
    figs.append(fn)
    fn_raw = f"raw_{slug(t.metric)}.png"
    plots.bars(traw, os.path.join(out_dir, fn_raw))
    with open(os.path.join(out_dir, "normalised.csv"), "w", newline="") as f:
        t.write_csv(f)
    store.export_csv(os.path.join(out_dir, "runs.csv"))

    # Interval time series of runs that have one (the timing model writes them).
    ts = []
    for r in store.runs():
        p = os.path.join(sweep_dir, "runs", r["id"], "timeseries.csv")
        if r["status"] == "ok" and os.path.exists(p) and len(ts) < max_timeseries:
            fn_ts = f"timeseries_{slug(r['id'].replace('/', '.'))}.png"
            try:
                plots.timeseries(p, os.path.join(out_dir, fn_ts), title=r["id"])
                ts.append((r["id"], fn_ts))
            except ValueError as e:
                warn.write(f"warpsim report: {e}\n")

    runs = store.runs()
    counts = store.counts()
    name = store.meta("name", os.path.basename(os.path.abspath(sweep_dir)))
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>warpsim sweep {_e(name)}</title>"
             f"<style>{CSS}</style></head><body>",
             f"<h1>warpsim sweep <code>{_e(name)}</code></h1>",
             f"<p class='note'>{len(runs)} runs: " +
             ", ".join(f"{v} {_e(k)}" for k, v in sorted(counts.items())) +
             f". warpsim: {_e(store.meta('warpsim_version'))} ({_e(store.meta('warpsim'))}, sha256 "
             f"{_e((store.meta('warpsim_sha256') or '')[:16])}), "
             f"source {_e(store.meta('git'))}. Report written "
             f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}.</p>"]
    if note:
        parts.append(f"<p class='note'><b>Note:</b> {_e(note)}</p>")
    parts += [f"<h2>{_e(t.title())}</h2>",
              f"<p><img src='{fn}' alt='normalised {_e(t.metric)} per workload'></p>",
              table_html(t),
              f"<p class='note'>Class rows: {_e(mean)} of the class; then geometric and harmonic means over "
              f"all workloads. CSV: <a href='normalised.csv'>normalised.csv</a>, every run and stat: "
              f"<a href='runs.csv'>runs.csv</a>.</p>",
              f"<h2>{_e(traw.title())}</h2>",
              f"<p><img src='{fn_raw}' alt='{_e(t.metric)} per workload'></p>",
              table_html(traw)]
    parts.append("<h2>Configurations</h2><table><tr><th>config</th><th>options</th></tr>")
    for c in plan.get("configs", []):
        opts = " ".join(f"{k} {v}" for k, v in c["params"].items() if k != "config")
        mark = " (baseline)" if c["name"] == t.baseline else ""
        parts.append(f"<tr><td>{_e(c['name'])}{mark}</td><td style='text-align:left'><code>{_e(opts)}"
                     f"</code></td></tr>")
    parts.append("</table>")
    if ts:
        parts.append("<h2>Interval time series</h2>")
        for rid, f in ts:
            parts.append(f"<h3>{_e(rid)}</h3><p><img src='{f}' alt='time series of {_e(rid)}'></p>")
    parts.append("<h2>Runs</h2><table><tr><th>run</th><th>status</th><th>wall s</th><th>engine</th>"
                 "<th>host</th><th>message</th></tr>")
    for r in runs:
        rel = os.path.relpath(os.path.join(sweep_dir, "runs", r["id"]), out_dir)
        cls = "ok" if r["status"] == "ok" else "bad"
        parts.append(f"<tr><td><a href='{_e(rel)}/'>{_e(r['id'])}</a></td><td class='{cls}'>{_e(r['status'])}"
                     f"</td><td>{_secs(r['wall_s'])}</td>"
                     f"<td>{_e(r['engine'])}</td><td>{_e(r['host'])}</td>"
                     f"<td style='text-align:left'>{_e(r['message'])}</td></tr>")
    parts.append("</table>")
    spec = plan.get("spec")
    for cand in ("spec.toml", "spec.json"):
        p = os.path.join(sweep_dir, cand)
        if os.path.exists(p):
            with open(p) as f:
                parts.append(f"<h2>Sweep description</h2><p class='note'>{_e(spec)}</p><pre>{_e(f.read())}</pre>")
            break
    parts.append("</body></html>\n")
    index = os.path.join(out_dir, "index.html")
    with open(index, "w") as f:
        f.write("\n".join(parts))
    store.close()
    return index, [fn, fn_raw] + [f for _, f in ts]


def main(argv):
    ap = argparse.ArgumentParser(prog="warpsim report", description="HTML report and figures of a sweep")
    ap.add_argument("sweep_dir")
    ap.add_argument("-o", "--output", help="folder for index.html and figures (default SWEEP_DIR/report)")
    ap.add_argument("--metric", help=f"whole-run stat to compare (default {DEFAULT_METRIC})")
    ap.add_argument("--baseline", help="config to normalise to (default: the spec's baseline)")
    ap.add_argument("--invert", action="store_true", help="baseline/config (for cycles, time)")
    ap.add_argument("--mean", choices=sorted(MEANS), default="gmean")
    ap.add_argument("--max-timeseries", type=int, default=24, help="time-series figures at most (default 24)")
    o = ap.parse_args(argv)
    try:
        index, figs = build(o.sweep_dir, o.output, o.metric, o.baseline, o.invert, o.mean, o.max_timeseries)
    except FileNotFoundError as e:
        die(str(e))
    print(index)
    return 0
