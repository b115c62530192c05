"""Seed 003, chapter V (BLPP): page placement over GPU memory and CPU memory.

    tools/reproduce.py seed003-blpp [--input small|paper] [--cap N] [-j N] [--out DIR]
                                    [--only 2MM,LM] [--sb-step 0.05] [--no-fig41] [--no-run]
                                    [--markdown FILE]
    tools/reproduce.py seed003 --chapter 5 ...      (the same)

On the gtx480-hm preset (the chapter's machine: 15 SMs, 200 GB/s GPU memory,
80 GB/s CPU memory over a 100-cycle link, selective caching), each of the
chapter's nine benchmarks runs under:
  Local   every page in GPU memory; also the profiling run (-hm_profile_out)
  BAP     bandwidth-aware, BG/(BG+BC) of the pages in GPU memory
  SB      static best: the fastest of static:p over p = step, 2*step, ..., 1
  S-BLPP  blpp, reading the Local run's profile
  D-BLPP  dblpp, counters sampled every 100K cycles, all GPU until the first sample
and the tables give the Eq. 6 classification (profile counters, r_L), cycles
normalised to Local with geometric means (Fig. 38), the issue-cycle
breakdown (Fig. 39), D-BLPP's GPU page ratio over time (Fig. 40) and the
GPU:CPU bandwidth-ratio sweep (Fig. 41: CPU memory at 320..20 GB/s), with
the dissertation's numbers in parentheses where it gives any. Runs are kept
in DIR (default sweeps/seed003-blpp-INPUT[-capN]); running again resumes.
See docs/reproduction.md.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys

from warpsim_tools.common import find_warpsim, repo_dir
from warpsim_tools.query import gmean

PRESET = "gtx480-hm"
# (label, bundled workload, the chapter's class, Table 7: mG,L1D, mG,L2, BM GB/s)
BENCH = [
    ("2MM", "polybench/mm2", "BW", 0.53, 0.24, 227.5),
    ("GE", "polybench/gemm", "BW", 0.57, 0.36, 222.3),
    ("LM", "rodinia/lavamd", "BW", 0.57, 0.00, 200.9),
    ("SC", "sdk/scan", "BW", 0.62, 0.40, 149.0),
    ("ST", "rodinia/streamcluster", "BW", 0.60, 0.76, 162.7),
    ("2DC", "polybench/conv2d", "other", 0.23, 0.54, 188.0),
    ("BFS", "rodinia/bfs", "other", 0.35, 0.36, 112.5),
    ("CFD", "rodinia/cfd", "other", 0.20, 0.71, 78.3),
    ("II", "mars/invertedindex", "other", 0.03, 0.19, 33.0),
]
# the BLPP model's defaults (policy parameters of blpp/dblpp): latencies, thresholds
LAT = (20.0, 200.0, 250.0, 450.0)
THETA_L, THETA_B = 1.8, 140.0
BG, BC = 200.0, 80.0
# S-BLPP's gains (spec §5.3): performance = cycles(other) / cycles(S-BLPP) - 1
PAPER_VS = {"Local": "+13.4%", "BAP": "+16.7%", "SB": "-1.2%", "D-BLPP": "+2.7%"}
PAPER_DERIVED = {"BAP": "-2.8%", "D-BLPP": "+10.4%", "S-BLPP": "+13.4%", "SB": "+14.8%"}
FIG41_CPU = [320, 160, 80, 40, 20]  # GB/s with GPU at 200: ratios 0.625 .. 10
DBLPP_PERIOD = 100000
INTERVAL = 20000  # time-series period for Fig. 40


def r_lat(m1, m2, bg=BG, bc=BC, lat=LAT):
    """Eq. 5 with Eq. 3's effective GPU latency."""
    l1, l2, lm, lc = lat
    lg = l1 + m1 * (l2 + m2 * lm)
    p = bg / (bg + bc)
    return (p * lg + (1 - p) * lc) / lg


def p_opt(m1, m2, bm, bg=BG, bc=BC):
    """Eq. 6."""
    return bg / (bg + bc) if r_lat(m1, m2, bg, bc) < THETA_L and bm > THETA_B else 1.0


def run_dir(out, label, scheme):
    return os.path.join(out, label, scheme.replace(":", "_"))


class Runner:
    def __init__(self, o):
        self.o = o
        self.warpsim = find_warpsim()
        self.out = o.out
        os.makedirs(self.out, exist_ok=True)

    def rdir(self, label, scheme):
        return run_dir(self.out, label, scheme)

    def profile(self, label):
        return os.path.join(self.out, label, "profile.txt")

    def job(self, label, wl, scheme, sets):
        d = self.rdir(label, scheme)
        if os.path.exists(os.path.join(d, "stats.json")) and os.path.exists(os.path.join(d, "done")):
            return None
        return (label, wl, scheme, sets, d)

    def run_one(self, j):
        label, wl, scheme, sets, d = j
        os.makedirs(d, exist_ok=True)
        cmd = [self.warpsim, "run", "-q", "-o", d, "--preset", PRESET, "--input", self.o.input]
        if self.o.cap:
            cmd += ["--max-insn", str(self.o.cap)]
        for s in sets:
            cmd += ["--set", s]
        cmd.append(wl)
        with open(os.path.join(d, "log.txt"), "w") as log:
            rc = subprocess.run(["nice"] + cmd, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL).returncode
        if rc == 0:
            open(os.path.join(d, "done"), "w").close()
        return label, scheme, rc

    def run_all(self, jobs):
        jobs = [j for j in jobs if j]
        if not jobs:
            return
        sys.stderr.write(f"reproduce: seed003-blpp: {len(jobs)} runs in {self.out}\n")
        with concurrent.futures.ThreadPoolExecutor(self.o.jobs or os.cpu_count() or 1) as ex:
            for label, scheme, rc in ex.map(self.run_one, jobs):
                if rc:
                    sys.stderr.write(f"reproduce: {label} {scheme}: exit {rc} "
                                     f"(see {self.rdir(label, scheme)}/log.txt)\n")


def schemes(o, label):
    """(scheme name, --set values) of one benchmark's runs after the profiling run."""
    prof = os.path.join(o.out, label, "profile.txt")
    out = [("BAP", ["-hm_page_policy bap"]),
           ("S-BLPP", [f"-hm_profile {prof}", "-hm_page_policy blpp"]),
           ("D-BLPP", [f"-hm_page_policy dblpp:period={DBLPP_PERIOD}",
                       f"-warpsim_stat_interval {INTERVAL}"])]
    n = int(round(1 / o.sb_step))
    for k in range(1, n):  # p = 1 is Local
        p = round(k * o.sb_step, 4)
        out.append((f"static:{p:g}", [f"-hm_page_policy static:{p:g}"]))
    if o.fig41:
        for bc in FIG41_CPU:
            if bc == BC:
                continue
            bw = [f"-hm_cpu_channel_bw {bc / 4:g}", f"-hm_link_bw {2 * bc:g}"]
            out.append((f"BAP@{bc}", bw + ["-hm_page_policy bap"]))
            out.append((f"S-BLPP@{bc}", bw + [f"-hm_profile {prof}", "-hm_page_policy blpp"]))
    return out


def load(d):
    """Whole-run values of one run: cycles, the issue breakdown, pages, the final ratio."""
    try:
        with open(os.path.join(d, "stats.json")) as f:
            ks = json.load(f)
        if not os.path.exists(os.path.join(d, "done")):
            return None
    except (OSError, json.JSONDecodeError):
        return None
    if isinstance(ks, dict):
        ks = ks.get("kernels", [])
    s = lambda k: sum(float(x.get(k, 0) or 0) for x in ks)  # noqa: E731
    busy = sum(s(f"warp_distro_W{i}_kernel") for i in range(1, 33))
    last = ks[-1] if ks else {}
    cyc = s("gpu_sim_cycle")
    # scheduler-cycles of SMs without a CTA: the preset's 15 SMs with 2 schedulers each
    idle_core = max(0.0, (cyc * 15 - s("warpsim_sm_active_cycles")) * 2)
    return {
        "cycles": cyc,
        "busy": busy, "idle_core": idle_core,
        "idle_warp": s("warpsim_stall_idle") + s("warpsim_stall_barrier") + s("warpsim_stall_ibuffer"),
        "pipeline": s("warpsim_stall_pipeline"), "scoreboard": s("warpsim_stall_scoreboard"),
        "gpu_pages": float(last.get("hm_gpu_pages", 0) or 0),
        "cpu_pages": float(last.get("hm_cpu_pages", 0) or 0),
        "ratio": float(last.get("hm_gpu_page_ratio", 1) or 1),
        "capped": any(x.get("warpsim_capped") for x in ks),
    }


def read_profile(path):
    v = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split("#")[0].split()
                if len(p) == 2:
                    v[p[0]] = float(p[1])
    except OSError:
        return None
    # the model's three counters are required; measured latencies (lat_*) may follow
    return v if all(k in v for k in ("l1d_miss_rate", "l2_miss_rate", "bm_gbps")) else None


def pct(x):
    return "n/a" if x is None else f"{100 * x:+.1f}%"


class Table:
    def __init__(self, title, head, rows, notes=()):
        self.title, self.head, self.rows, self.notes = title, head, rows, list(notes)

    def text(self):
        w = [max(len(str(r[i])) for r in [self.head] + self.rows) for i in range(len(self.head))]
        line = lambda r: "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()  # noqa: E731
        out = [self.title, line(self.head), line(["-" * x for x in w])] + [line(r) for r in self.rows]
        return "\n".join(out + [f"  {n}" for n in self.notes]) + "\n\n"

    def markdown(self):
        out = [f"**{self.title}**", "", "| " + " | ".join(self.head) + " |",
               "|" + "---|" * len(self.head)]
        out += ["| " + " | ".join(str(c) for c in r) + " |" for r in self.rows]
        return "\n".join(out + [""] + [f"- {n}" for n in self.notes]) + "\n\n"


def tables(o):
    benches = [b for b in BENCH if not o.only or b[0] in o.only]
    res, prof = {}, {}
    for label, wl, *_ in benches:
        prof[label] = read_profile(os.path.join(o.out, label, "profile.txt"))
        res[(label, "Local")] = load(run_dir(o.out, label, "Local"))
        for name, _ in schemes(o, label):
            res[(label, name)] = load(run_dir(o.out, label, name))
    cyc = lambda b, s: (res.get((b, s)) or {}).get("cycles")  # noqa: E731
    out = []

    # Eq. 6 classification from our profiles
    rows = []
    for label, wl, cls, m1, m2, bm in benches:
        p = prof[label]
        if not p:
            rows.append([label, wl] + ["n/a"] * 6)
            continue
        r = r_lat(p["l1d_miss_rate"], p["l2_miss_rate"])
        po = p_opt(p["l1d_miss_rate"], p["l2_miss_rate"], p["bm_gbps"])
        rows.append([label, wl, f"{p['l1d_miss_rate']:.2f} ({m1:.2f})", f"{p['l2_miss_rate']:.2f} ({m2:.2f})",
                     f"{p['bm_gbps']:.1f} ({bm:.1f})", f"{r:.2f} ({r_lat(m1, m2):.2f})",
                     f"{'BW' if po < 1 else 'other'} ({cls})", f"{po:.3f}"])
    out.append(Table("Eq. 6 classification on the profiling (Local) runs: ours (dissertation, Table 7)",
                     ["bench", "workload", "mG,L1D", "mG,L2", "BM GB/s", "r_L", "class", "p (S-BLPP)"],
                     rows, [f"latencies L1D/L2/mem/CPU = {LAT} cycles, theta_L = {THETA_L}, "
                            f"theta_B = {THETA_B} GB/s; BM = interconnect bytes (both ways) per second"]))

    # Fig. 38: cycles normalised to Local, SB = best static ratio
    rows, norm = [], {s: [] for s in ("BAP", "SB", "S-BLPP", "D-BLPP")}
    for label, *_ in benches:
        base = cyc(label, "Local")
        sb = [(cyc(label, n), n) for n, _ in schemes(o, label) if n.startswith("static:")]
        sb = [x for x in sb if x[0]] + ([(base, "static:1")] if base else [])
        best = min(sb) if sb else (None, None)
        row = [label, "n/a" if base is None else f"{base:.0f}"]
        for s in norm:
            c = best[0] if s == "SB" else cyc(label, s)
            v = c / base if c and base else None
            if v:
                norm[s].append(v)
            row.append("n/a" if v is None else f"{v:.3f}" + (f" (p={best[1][7:]})" if s == "SB" else ""))
        capped = any((res.get((label, s)) or {}).get("capped") for s in ["Local"] + list(norm))
        rows.append(row + ["yes" if capped else ""])
    g = {s: gmean(v) for s, v in norm.items()}
    rows.append(["geomean", ""] + ["n/a" if g[s] is None else f"{g[s]:.3f}" for s in norm] + [""])
    perf = ["performance vs Local", ""] + [
        "n/a" if g[s] is None else f"{pct(1 / g[s] - 1)} ({PAPER_DERIVED[s]})" for s in norm] + [""]
    rows.append(perf)
    out.append(Table("Execution cycles normalised to Local (Fig. 38; lower is better)",
                     ["bench", "Local cycles", "BAP", "SB", "S-BLPP", "D-BLPP", "capped"], rows,
                     ["performance = Local cycles / cycles - 1 of the geomean: ours (dissertation; "
                      "BAP, D-BLPP and SB derived from its S-BLPP ratios)"]))

    # S-BLPP against each scheme
    rows = []
    for other in ("Local", "BAP", "SB", "D-BLPP"):
        go = g.get(other) if other != "Local" else 1.0
        gs = g.get("S-BLPP")
        v = go / gs - 1 if go and gs else None
        rows.append([f"S-BLPP vs {other}", f"{pct(v)} ({PAPER_VS[other]})"])
    out.append(Table("S-BLPP's performance over each scheme (geomean cycles ratio - 1): ours "
                     "(dissertation, spec §5.3)", ["comparison", "ours (paper)"], rows))

    # Fig. 39: issue-slot breakdown
    rows = []
    for label, *_ in benches:
        for s in ("Local", "BAP", "S-BLPP"):
            r = res.get((label, s))
            if not r:
                continue
            tot = r["busy"] + r["idle_core"] + r["idle_warp"] + r["pipeline"] + r["scoreboard"]
            base = (res.get((label, "Local")) or {}).get("cycles")
            f = lambda k: f"{r[k] / tot * r['cycles'] / base:.2f}" if tot and base else "n/a"  # noqa: E731
            rows.append([label, s, f("busy"), f("idle_core"), f("idle_warp"), f("pipeline"),
                         f("scoreboard")])
    out.append(Table("Scheduler-cycle breakdown, each part scaled to Local's cycles (Fig. 39)",
                     ["bench", "scheme", "busy", "idle core", "idle warp", "pipeline", "scoreboard"],
                     rows, ["idle core = SMs without a CTA; idle warp = no valid instruction (barrier, "
                            "empty buffer); pipeline and scoreboard stalls are not split by ALU/LDST"]))

    # Fig. 40: D-BLPP's ratio over time
    rows = []
    for label, *_ in benches:
        ts = os.path.join(o.out, label, "D-BLPP", "timeseries.csv")
        pts = []
        try:
            with open(ts) as f:
                for rec in csv.DictReader(f):
                    pts.append(float(rec.get("gpu_page_ratio") or 1))
        except OSError:
            pass
        d, s = res.get((label, "D-BLPP")), res.get((label, "S-BLPP"))
        frac = lambda r: (f"{r['gpu_pages'] / (r['gpu_pages'] + r['cpu_pages']):.3f}"  # noqa: E731
                          if r and r["gpu_pages"] + r["cpu_pages"] else "n/a")
        step = max(1, len(pts) // 8)
        rows.append([label, " ".join(f"{x:.2f}" for x in pts[::step][:10]) or "n/a", frac(d), frac(s)])
    out.append(Table(f"D-BLPP's placement ratio over time (Fig. 40; one value per {INTERVAL} "
                     "cycles, thinned to 10) and the final GPU page fraction",
                     ["bench", "D-BLPP p(t)", "D-BLPP GPU pages", "S-BLPP GPU pages"], rows,
                     ["dissertation: D-BLPP ends above S-BLPP's GPU fraction on LM and SC (scan), "
                      "from its all-GPU start"]))

    # Fig. 41: bandwidth-ratio sweep
    if o.fig41:
        rows = []
        for bc in FIG41_CPU:
            vals = {}
            for s in ("BAP", "S-BLPP"):
                name = s if bc == BC else f"{s}@{bc}"
                xs = [cyc(b, "Local") / cyc(b, name) for b, *_ in benches
                      if cyc(b, "Local") and cyc(b, name)]
                vals[s] = gmean(xs)
            rows.append([f"{BG / bc:g}", f"{bc}", *("n/a" if vals[s] is None else f"{vals[s]:.3f}"
                                                      for s in ("BAP", "S-BLPP"))])
        out.append(Table("GPU:CPU bandwidth ratio sweep (Fig. 41): geomean speedup over Local",
                         ["BG:BC", "CPU GB/s", "BAP", "S-BLPP"], rows,
                         ["dissertation (no numbers): BLPP best or near-best at every ratio; BLPP and "
                          "BAP >> Local at low ratios; the BLPP-Local gap shrinks at high ratios"]))
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/reproduce.py seed003-blpp",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", choices=["small", "paper"], default="small")
    ap.add_argument("--cap", type=int, metavar="N_INSNS", help="stop every run after N thread instructions")
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--out", help="run folder (default sweeps/seed003-blpp-INPUT[-capN])")
    ap.add_argument("--only", metavar="B1,B2", help="benchmarks by the chapter's labels (2MM, GE, ...)")
    ap.add_argument("--sb-step", type=float, default=0.05, help="SB's ratio step (default 0.05: 20 ratios)")
    ap.add_argument("--no-fig41", dest="fig41", action="store_false", help="skip the bandwidth-ratio sweep")
    ap.add_argument("--no-run", action="store_true", help="only print the tables of the runs there")
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables as Markdown ('-': stdout)")
    o = ap.parse_args(argv)
    if not 0 < o.sb_step <= 0.5:
        ap.error("--sb-step wants a step in (0, 0.5]")
    labels = [b[0] for b in BENCH]
    if o.only:
        o.only = [x.strip() for x in o.only.split(",") if x.strip()]
        bad = [x for x in o.only if x not in labels]
        if bad:
            ap.error(f"unknown benchmark(s) {', '.join(bad)} (known: {', '.join(labels)})")
    o.out = os.path.abspath(o.out or os.path.join(
        repo_dir(), "sweeps", f"seed003-blpp-{o.input}" + (f"-cap{o.cap}" if o.cap else "")))
    if not o.no_run:
        r = Runner(o)
        benches = [b for b in BENCH if not o.only or b[0] in o.only]
        # the profiling runs first: S-BLPP reads their profiles
        r.run_all([r.job(b[0], b[1], "Local", [f"-hm_profile_out {r.profile(b[0])}"]) for b in benches])
        r.run_all([r.job(b[0], b[1], n, s) for b in benches for n, s in schemes(o, b[0])])
    head = (f"Seed 003, Ch. V (BLPP) on {PRESET}: runs in {o.out}; input {o.input}"
            + (f", every run capped at {o.cap} thread instructions" if o.cap else "") + "\n\n")
    ts = tables(o)
    if o.markdown != "-":
        sys.stdout.write(head + "".join(t.text() for t in ts))
    if o.markdown:
        md = f"_{head.strip()}_\n\n" + "".join(t.markdown() for t in ts)
        if o.markdown == "-":
            sys.stdout.write(md)
        else:
            with open(o.markdown, "w") as f:
                f.write(md)
    return 0
