"""Seed 001 for tools/reproduce.py: CIAO (Zhang, Gao, Kim and Jung, IPDPS 2018).

The sweep is tools/examples/seed001.toml. Tables: geometric means of IPC
normalised to GTO per class (LWS, SWS, CI) and over all 21 benchmarks, the
ratios the paper quotes between schemes, the sensitivity studies, and the
per-benchmark table. Best-SWL is derived here: per benchmark, the best of GTO
and the SWL-k configs (also, as "SWL(paper N)", the config closest to the
paper's N_warp column). Every cell: ours (paper).
"""
import os
import sys

SWL = {"SWL-2": 2, "SWL-4": 4, "SWL-6": 6, "SWL-12": 12, "GTO": 48}
# Table II: N_warp (best static limit per SM) of each benchmark.
PAPER_NWARP = {
    "polybench/atax": 2, "polybench/bicg": 2, "polybench/mvt": 2, "mars/kmeans": 4,
    "rodinia/kmeans": 2, "polybench/gesummv": 2, "polybench/syr2k": 6, "polybench/syrk": 6,
    "mars/invertedindex": 4, "mars/pageviewcount": 48, "mars/similarityscore": 48,
    "mars/stringmatch": 48, "mars/wordcount": 48, "rodinia/gaussian": 48, "polybench/conv2d": 36,
    "polybench/corr": 48, "rodinia/backprop": 36, "rodinia/hotspot": 48, "rodinia/lud": 38,
    "rodinia/nn": 48, "rodinia/nw": 48,
}


def make(R):
    """The seed object; R is the reproduce module (tables, means, cells)."""

    class Seed001:
        name = "seed001"
        spec = os.path.join(R.TOOLS, "examples", "seed001.toml")
        title = "Seed 001 (CIAO, IPDPS 2018: CIAO-T/-P/-C, statPCAL, CCWS, Best-SWL)"
        baseline = "GTO"
        schemes = ["CCWS", "Best-SWL", "statPCAL", "CIAO-T", "CIAO-P", "CIAO-C"]
        classes = ["LWS", "SWS", "CI"]
        paper_all = {"CCWS": "1.02x", "Best-SWL": "1.16x", "statPCAL": "1.24x", "CIAO-T": "1.34x",
                     "CIAO-P": "1.34x", "CIAO-C": "1.56x"}
        # (label, numerator, denominator, group, paper) -- spec §5.1
        ratios_q = [
            ("CIAO-C / CCWS, all", "CIAO-C", "CCWS", None, "1.54x"),
            ("CIAO-C / CIAO-T, all", "CIAO-C", "CIAO-T", None, "1.17x"),
            ("CIAO-C / CIAO-P, all", "CIAO-C", "CIAO-P", None, "1.16x"),
            ("CIAO-T / CCWS, all", "CIAO-T", "CCWS", None, "1.32x"),
            ("CIAO-T / Best-SWL, all", "CIAO-T", "Best-SWL", None, "1.22x"),
            ("statPCAL / Best-SWL, all", "statPCAL", "Best-SWL", None, "up to 1.37x"),
            ("CIAO-T / CIAO-P, LWS", "CIAO-T", "CIAO-P", ["LWS"], "1.48x"),
            ("CIAO-T / CCWS, LWS", "CIAO-T", "CCWS", ["LWS"], "1.66x"),
            ("CIAO-P / CIAO-T, SWS", "CIAO-P", "CIAO-T", ["SWS"], "1.28x"),
            ("CCWS / Best-SWL, ATAX", "CCWS", "Best-SWL", "polybench/atax", "1.49x"),
            ("CIAO-T / GTO, CI", "CIAO-T", "GTO", ["CI"], "~1.00x"),
            ("no-interference bound (GTO-L1D-4MB) / GTO, all", "GTO-L1D-4MB", "GTO", None, "1.89x"),
            ("CIAO-C / no-interference bound, all", "CIAO-C", "GTO-L1D-4MB", None, "0.83x (1.56 / 1.89)"),
        ]

        def tables(self, res):
            derive_swl(res)
            return [self.overall(res), self.ratios(res), self.sensitivity(res),
                    R.per_workload(res, self.baseline, "gmean")]

        def names(self, res, group):
            if group is None:
                return res.names()
            if isinstance(group, str):
                return [group] if group in res.names() else []
            return res.names(group)

        def overall(self, res):
            notes = R.Notes()
            rows = []
            for key, group in [("all", None)] + [(c, [c]) for c in self.classes]:
                names = self.names(res, group)
                row = [f"{key} ({len(names)})"]
                for s in self.schemes:
                    m = R.group_mean(res, names, s, self.baseline, "gmean")
                    notes.add(s, m)
                    row.append(R.cell(m, R.fx, self.paper_all.get(s, "-") if key == "all" else "-"))
                rows.append(row)
            return R.Table("IPC normalised to GTO (geometric means; Fig. 8, spec §5.1)",
                           ["group"] + self.schemes, rows,
                           "Each cell: measured (paper); '-' = the paper gives no number. "
                           "Order expected (spec §8.1): GTO <= CCWS < Best-SWL < statPCAL < "
                           "CIAO-T ~ CIAO-P < CIAO-C.",
                           R.skipped_notes(res, self.schemes) + notes.lines())

        def ratios(self, res):
            notes = R.Notes()
            rows = []
            for label, a, b, group, paper in self.ratios_q:
                m = R.group_mean(res, self.names(res, group), a, b, "gmean")
                notes.add(f"{a}/{b}", m)
                rows.append([label, R.cell(m, R.fx), paper])
            return R.Table("Ratios between schemes the paper quotes (geometric means of IPC ratios)",
                           ["quantity", "measured", "paper"], rows,
                           "Paper: spec §5.1 (abstract, §I, §V-B).", notes.lines())

        def sensitivity(self, res):
            notes = R.Notes()
            lsws = res.names(["LWS", "SWS"])
            rows = []

            def spread(configs, label, paper):
                vals = []
                for c in configs:
                    m = R.group_mean(res, lsws, c, self.baseline, "gmean")
                    notes.add(c, m)
                    if m.value is not None:
                        vals.append((c, m.value))
                if len(vals) < 2:
                    rows.append([label, "n/a", paper])
                    return
                lo, hi = min(v for _, v in vals), max(v for _, v in vals)
                rows.append([label, f"{100 * (hi / lo - 1):.1f}% ("
                             + ", ".join(f"{c}: {R.fx(v)}" for c, v in vals) + ")", paper])

            spread(["CIAO-C-e1K", "CIAO-C", "CIAO-C-e10K", "CIAO-C-e50K"],
                   "epoch 1K-50K: IPC spread, LWS+SWS", "within 15%")
            spread(["CIAO-C-h0.5", "CIAO-C", "CIAO-C-h2"], "high cut-off 0.5-2 %: IPC spread",
                   "within 5%")
            for label, a, b, paper in [
                    ("GTO-cap / GTO, LWS+SWS", "GTO-cap", "GTO", "2.08x"),
                    ("GTO-8way / GTO, LWS+SWS", "GTO-8way", "GTO", "1.51x"),
                    ("CIAO-C / GTO, LWS+SWS", "CIAO-C", "GTO", "~2.37x"),
                    ("CIAO-C / GTO-cap, LWS+SWS", "CIAO-C", "GTO-cap", "1.14x"),
                    ("CIAO-C / GTO-8way, LWS+SWS", "CIAO-C", "GTO-8way", "1.57x"),
                    ("CIAO-C-2X / statPCAL-2X, LWS+SWS", "CIAO-C-2X", "statPCAL-2X", "1.16x")]:
                names = lsws
                m = R.group_mean(res, names, a, b, "gmean")
                notes.add(f"{a}/{b}", m)
                rows.append([label, R.cell(m, R.fx), paper])
            used = ["CIAO-C-e1K", "CIAO-C-e10K", "CIAO-C-e50K", "CIAO-C-h0.5", "CIAO-C-h2",
                    "GTO-cap", "GTO-8way", "statPCAL-2X", "CIAO-C-2X"]
            return R.Table("Sensitivity (Fig. 11, 12; spec §5.3)", ["quantity", "measured", "paper"],
                           rows, "Spread = largest / smallest geomean IPC over GTO of the variants.",
                           R.skipped_notes(res, used) + notes.lines())

    return Seed001()


def derive_swl(res):
    """Add Best-SWL (best of GTO and the SWL-k runs per benchmark) and
    SWL(paper N) (the run closest to Table II's N_warp) to the results."""
    have = [c for c in SWL if c in res.configs]
    if not any(c != "GTO" for c in have):  # no static limit was run: no Best-SWL
        have = []
    for w, _ in res.workloads if have else []:
        vals = [(res.ipc[(w, c)], c) for c in have if (w, c) in res.ipc]
        if vals and len(vals) == len(have):
            res.ipc[(w, "Best-SWL")] = max(vals)[0]
        elif (w, "Best-SWL") not in res.ipc:
            res.why[(w, "Best-SWL")] = "not every SWL-k run has a result"
        n = PAPER_NWARP.get(w)
        if n is not None:
            c = min(have, key=lambda k: abs(SWL[k] - n))
            if (w, c) in res.ipc:
                res.ipc[(w, "SWL(paper N)")] = res.ipc[(w, c)]
    pcal = {"statPCAL-2": 2, "statPCAL-4": 4, "statPCAL-6": 6}
    if any(c in res.configs for c in pcal):
        for w, _ in res.workloads:
            n = PAPER_NWARP.get(w)
            if n is None:
                continue
            c = "GTO" if n >= 36 else min(pcal, key=lambda k: abs(pcal[k] - n))
            if (w, c) in res.ipc:
                res.ipc[(w, "statPCAL")] = res.ipc[(w, c)]
            else:
                res.why[(w, "statPCAL")] = f"{c}: {res.reason(w, c)}"
    for c in ("Best-SWL", "SWL(paper N)", "statPCAL"):
        if c not in res.configs:
            res.configs.append(c)
    if "Best-SWL" in res.order or not res.order:
        return
    i = res.order.index("CCWS") + 1 if "CCWS" in res.order else len(res.order)
    res.order[i:i] = ["Best-SWL", "SWL(paper N)", "statPCAL"]


# ---- time-series case studies (Fig. 9 and 10; spec §5.2): `reproduce.py seed001 --timeseries` ----
# The paper's four case studies: (workload, what the paper shows for it).
TS_WORKLOADS = [
    ("polybench/atax", "ATAX, LWS (Fig. 9; paper: memory phase, then compute phase)"),
    ("rodinia/backprop", "Backprop, CI (Fig. 9; paper: CIAO-T stalls only 10-20 warps)"),
    ("polybench/syrk", "SYRK, SWS (Fig. 10; paper: CIAO-P keeps TLP, CIAO-C stalls few warps)"),
    ("mars/kmeans", "KMN, LWS (Fig. 10; paper: CIAO-P's shared-memory cache thrashes)"),
]
# Scheme -> -warpsim_throttle value, on the `ciao` preset (Table I machine).
TS_SCHEMES = {"GTO": "none", "CCWS": "ccws", "SWL-2": "swl:1", "CIAO-T": "ciao_t", "CIAO-P": "ciao_p",
              "CIAO-C": "ciao_c"}
TS_DEFAULT = ["GTO", "CIAO-P", "CIAO-C"]
# issuable = active (resident) - stalled: the paper's "active warps" (Fig. 9b, 10b), derived per sample.
TS_METRICS = ["ipc", "issuable_warps_per_sm", "isolated_warps_per_sm", "stalled_warps_per_sm", "l1d_miss_rate"]
TS_CSV = "timeseries-seed001.csv"  # beside each run's timeseries.csv: the columns drawn
TS_CAP = 5000000  # thread instructions per run when --cap is not given
TS_INTERVAL = 2000  # cycles per sample


def ts_schemes(text):
    """'GTO,CIAO-P' -> ['GTO', 'CIAO-P']; ValueError naming an unknown scheme."""
    out = [s.strip() for s in (text or ",".join(TS_DEFAULT)).split(",") if s.strip()]
    bad = [s for s in out if s not in TS_SCHEMES]
    if bad or not out:
        raise ValueError(f"unknown time-series scheme {', '.join(bad) or '(none)'} "
                         f"(choose from {', '.join(TS_SCHEMES)})")
    return list(dict.fromkeys(out))


def ts_command(warpsim, wl, scheme, inp, cap, interval, out):
    return [warpsim, "run", "-q", "--preset", "ciao", "--input", inp, "--max-insn", str(cap), "-o", out,
            "--set", f"-warpsim_throttle {TS_SCHEMES[scheme]}", "--set", f"-warpsim_stat_interval {interval}",
            wl]


def ts_run(cmd, out):
    """Run one case (resumed: a finished run with the same command is kept).
    Returns None or why it failed."""
    import json
    import subprocess
    stamp = os.path.join(out, "command.json")
    want = cmd[1:]  # the binary's path may move; the arguments decide the result
    try:
        with open(stamp) as f:
            if json.load(f) == want and os.path.exists(os.path.join(out, "timeseries.csv")):
                return None
    except (OSError, ValueError):
        pass
    os.makedirs(out, exist_ok=True)
    if os.path.exists(stamp):  # an older run with other arguments: no longer finished
        os.remove(stamp)
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    with open(os.path.join(out, "run.log"), "w") as f:
        f.write(p.stdout)
    if p.returncode != 0 or not os.path.exists(os.path.join(out, "timeseries.csv")):
        tail = p.stdout.strip().splitlines()[-1:] or ["no output"]
        return f"exit {p.returncode}: {tail[0]}"
    with open(stamp, "w") as f:
        json.dump(want, f)
        f.write("\n")
    return None


def ts_derive(out):
    """Write out/TS_CSV: kernel, cycle and TS_METRICS (issuable warps derived;
    the CIAO columns only where the run has them). Returns its path."""
    import csv
    from .plots import read_timeseries
    head, cols = read_timeseries(os.path.join(out, "timeseries.csv"))
    n = len(cols["cycle"])
    stalled = cols.get("stalled_warps_per_sm") or [0.0] * n
    cols["issuable_warps_per_sm"] = [a - s for a, s in zip(cols["active_warps_per_sm"], stalled)]
    names = [h for h in ["kernel", "cycle"] + TS_METRICS if h in cols]
    path = os.path.join(out, TS_CSV)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for i in range(n):
            w.writerow([f"{cols[h][i]:g}" if h in ("kernel", "cycle") else f"{cols[h][i]:.4f}" for h in names])
    return path


def ts_summary(out):
    """(IPC of the run, mean of each TS_METRICS column over the samples) of one run folder."""
    import json
    from .plots import read_timeseries
    ipc = None
    try:
        with open(os.path.join(out, "stats.json")) as f:
            recs = json.load(f)  # one record per kernel launch; the last has the run's totals
        ipc = recs[-1].get("gpu_tot_ipc") if recs else None
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        pass
    _, cols = read_timeseries(ts_derive(out))
    means = {}
    for m in TS_METRICS:
        vs = [v for v in cols.get(m, []) if v == v]
        means[m] = sum(vs) / len(vs) if vs else None
    return ipc, means


def timeseries_main(o, R):
    """Run the case studies and draw one figure per workload (runs overlaid):
    IPC, issuable / isolated / stalled warps per SM and the L1D miss rate over
    time; print a table of their means. o: reproduce.py's arguments."""
    from concurrent.futures import ThreadPoolExecutor
    from .common import find_warpsim, repo_dir
    from . import plots
    try:
        schemes = ts_schemes(o.schemes)
        formats = plots.parse_formats(o.format)
    except ValueError as e:
        sys.exit(f"reproduce: {e}")
    names = [w for w, _ in TS_WORKLOADS]
    only = [w.strip() for w in (o.only or "").split(",") if w.strip()] or names
    unknown = [w for w in only if w not in names]
    if unknown:
        sys.exit(f"reproduce: not a seed001 case study: {', '.join(unknown)} (they are: {', '.join(names)})")
    cap = o.cap or TS_CAP
    interval = o.interval or TS_INTERVAL
    top = os.path.abspath(o.sweep_dir or os.path.join(
        repo_dir(), "sweeps", f"seed001-timeseries-{o.input}-cap{cap}-i{interval}"))
    warpsim = find_warpsim()
    cases = [(w, s, os.path.join(top, w.replace("/", "."), s)) for w in only for s in schemes]
    why = {}
    if not o.no_run:
        sys.stderr.write(f"reproduce: seed001 time series: {len(cases)} runs into {top}\n")
        with ThreadPoolExecutor(max_workers=max(1, o.jobs or os.cpu_count() or 1)) as ex:
            futs = {(w, s): ex.submit(ts_run, ts_command(warpsim, w, s, o.input, cap, interval, d), d)
                    for w, s, d in cases}
        why = {k: f.result() for k, f in futs.items() if f.result()}
    rows, figures, notes = [], [], []
    for w, desc in TS_WORKLOADS:
        if w not in only:
            continue
        runs = [(s, d) for ww, s, d in cases if ww == w and (w, s) not in why
                and os.path.exists(os.path.join(d, "timeseries.csv"))]
        for s in schemes:
            if (w, s) in why:
                notes.append(f"{w} {s}: failed ({why[(w, s)]})")
            elif s not in [r[0] for r in runs]:
                notes.append(f"{w} {s}: no run in {top}")
        got = [(s,) + ts_summary(d) for s, d in runs]
        base_ipc = next((ipc for s, ipc, _ in got if s == "GTO"), None)
        for s, ipc, means in got:
            rel = None if base_ipc is None or ipc is None else ipc / base_ipc
            rows.append((w, s, ipc, rel, means))
        if runs:
            try:
                figures += plots.timeseries([os.path.join(d, TS_CSV) for _, d in runs],
                                            os.path.join(top, w.replace("/", ".")),
                                            title=f"{desc}\n{w}, {o.input} input, first {cap} thread instructions",
                                            metrics=TS_METRICS, labels=[s for s, _ in runs], formats=formats)
            except ValueError as e:
                notes.append(f"{w}: no figure ({e})")

    def f(v, fmt):
        return "n/a" if v is None else fmt.format(v)
    table = R.Table(f"Time series (Fig. 9, 10; spec §5.2): means over the run, {o.input} input, first {cap} "
                    f"thread instructions, a sample every {interval} cycles",
                    ["workload", "scheme", "IPC", "vs GTO", "issuable warps/SM", "isolated/SM", "stalled/SM",
                     "L1D miss rate"],
                    [[w, s, f(ipc, "{:.4g}"), f(rel, "{:.2f}x"), f(m["issuable_warps_per_sm"], "{:.1f}"),
                      f(m["isolated_warps_per_sm"], "{:.2f}"), f(m["stalled_warps_per_sm"], "{:.2f}"),
                      f(m["l1d_miss_rate"], "{:.3f}")] for w, s, ipc, rel, m in rows],
                    "IPC: thread instructions per cycle over the whole run (gpu_tot_ipc); the other columns are "
                    "means over the time-series samples ('n/a': the scheme neither isolates nor stalls); issuable "
                    "= resident warps that are not stalled (the paper's active warps).",
                    notes + [f"figure: {_short(p)}" for p in figures])
    if o.markdown != "-":
        sys.stdout.write(table.text())
    if o.markdown:
        text = table.markdown()
        if o.markdown == "-":
            sys.stdout.write(text)
        else:
            with open(o.markdown, "w") as fh:
                fh.write(text)
    return 1 if why else 0


def _short(path):
    """path relative to the current folder when it lies under it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
