#!/usr/bin/env python3
"""Reproduce a seed study's headline tables: run (or resume) its sweep and
print our numbers beside the paper's.

    tools/reproduce.py seed000|seed001|seed003|seed004 [--input small|paper] [--cap N_INSNS] [-j N]
                       [--sweep-dir DIR] [--engine local|slurm] [--only W1,W2] [--no-run] [--markdown FILE]
    tools/reproduce.py seed001 --timeseries [--cap N] [--interval CYCLES] [--schemes S1,S2]: seed 001's
                       time-series case studies (Fig. 9, 10), one figure per workload
    tools/reproduce.py seed003-blpp ...   (or seed003 --chapter 5): seed 003's chapter V, page
                       placement over GPU and CPU memory (tools/warpsim_tools/repro_seed003_blpp.py)

seed000: Khairy's DBSA / DWT-CS / PRIC / DWT-PRIC with CCWS and MRPB, harmonic
         means of IPC speedups over the GTX480 baseline (tools/examples/seed000.toml).
seed001: CIAO-T/-P/-C, statPCAL, CCWS and Best-SWL over GTO, geometric
         means per class (tools/examples/seed001.toml; warpsim_tools/repro_seed001.py).
seed002: Huangfu's profile-based bypassing, warp reordering, WCET and shared-LLC
         analyses (own runner: tools/reproduce.py seed002 --help).
seed003: ACI index functions on the L1D and on L1D+L2, IACM and DWT-PRIC,
         geometric means of IPC gains and energy reductions over CVI
         (tools/examples/seed003.toml).
seed004: Turner's replay and hazards: stall vs replay, hazard prediction, the
         thesis's checks 5-18 as holds / differs (tools/warpsim_tools/repro_seed004.py).

The sweep runs through `warpsim sweep` (docs/sweeps.md) into
sweeps/SEED-INPUT[-capN] by default; running again resumes it. Schemes whose
options this warpsim does not know (or rejects) are left out of the sweep and
shown as n/a with the reason; so are runs that failed. Details and time
estimates: docs/reproduction.md.
"""
import argparse
import copy
import json
import math
import os
import re
import subprocess
import sys
import tempfile

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)

from warpsim_tools import spec as specmod  # noqa: E402
from warpsim_tools.common import find_warpsim, repo_dir  # noqa: E402
from warpsim_tools.query import gmean, hmean  # noqa: E402
from warpsim_tools.store import Store  # noqa: E402

IPC = "gpu_ipc"
ENERGY = "energy_total_nJ"
INSN = "gpu_sim_insn"
STATE_FILE = "reproduce.json"  # beside results.db: seed, input, cap, schemes left out and why


# ----------------------------------------------------------------------------------------------
# Results of a sweep: per (workload, config) IPC and energy per instruction, or why there is none.
# ----------------------------------------------------------------------------------------------
class Results:
    def __init__(self, workloads, configs, ipc=None, epi=None, why=None, skipped=None, meta=None,
                 order=None):
        self.workloads = list(workloads)  # [(name, class)] in plan order
        self.configs = list(configs)  # config names in plan order
        self.order = list(order or [])  # every scheme of the seed's spec, in its order
        self.ipc = dict(ipc or {})  # (workload, config) -> gpu_ipc
        self.epi = dict(epi or {})  # (workload, config) -> energy_total_nJ / gpu_sim_insn
        self.why = dict(why or {})  # (workload, config) -> why there is no value
        self.skipped = dict(skipped or {})  # config -> why it was left out of the sweep
        self.meta = dict(meta or {})

    def columns(self, baseline):
        """Every scheme but the baseline, in the spec's order: run ones and left-out ones."""
        known = [c for c in self.configs if c not in self.order] + \
            [c for c in self.skipped if c not in self.order and c not in self.configs]
        return [c for c in self.order + known
                if c != baseline and (c in self.configs or c in self.skipped)]

    def names(self, classes=None):
        return [w for w, c in self.workloads if classes is None or c in classes]

    def reason(self, w, c):
        """Why (w, c) has no value, or None when it has one."""
        if c in self.skipped:
            return f"not run: {self.skipped[c]}"
        if c not in self.configs:
            return "not in this sweep"
        return self.why.get((w, c), "no result yet")


def _ignored_options(run_dir):
    """Options warpsim warned about and ignored (builds before unknown options became errors)."""
    try:
        with open(os.path.join(run_dir, "stderr.txt"), errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    return sorted(set(re.findall(r"unknown option (\S+) ignored", text)))


def load_results(sweep_dir):
    """Read a sweep's results database (and reproduce.json when there is one)."""
    store = Store(sweep_dir)
    try:
        plan = store.plan()
        if not plan:
            raise FileNotFoundError(f"{sweep_dir}: the results database has no sweep plan")
        workloads, seen = [], set()
        for w in plan["workloads"]:
            if w["name"] not in seen:  # one input per workload in a reproduction sweep
                seen.add(w["name"])
                workloads.append((w["name"], w["class"]))
        configs = [c["name"] for c in plan["configs"]]
        ipc_v, en_v, in_v = store.metric(IPC), store.metric(ENERGY), store.metric(INSN)
        ipc, epi, why = {}, {}, {}
        for r in store.runs():
            key = (r["workload"], r["config"])
            if key in ipc or key in why:  # one input per workload: the first run counts
                continue
            if r["status"] != "ok":
                why[key] = (r["status"] + (f": {r['message']}" if r["message"] else "")
                            if r["status"] in ("failed", "timeout") else f"not finished ({r['status']})")
                continue
            ignored = _ignored_options(os.path.join(sweep_dir, "runs", r["id"]))
            if ignored:
                why[key] = f"this warpsim ignored unknown option(s) {', '.join(ignored)}"
                continue
            v = ipc_v.get(r["id"])
            if v is None or v <= 0:
                why[key] = f"no {IPC} in its stats"
                continue
            ipc[key] = v
            e, n = en_v.get(r["id"]), in_v.get(r["id"])
            if e and n and e > 0 and n > 0:
                epi[key] = e / n
        meta = {k: store.meta(k) for k in ("name", "warpsim_version", "git")}
    finally:
        store.db.close()
    state = {}
    try:
        with open(os.path.join(sweep_dir, STATE_FILE)) as f:
            state = json.load(f)
    except (OSError, json.JSONDecodeError):
        pass
    meta.update({k: state.get(k) for k in ("seed", "input", "cap", "only")})
    return Results(workloads, configs, ipc, epi, why, state.get("skipped", {}), meta,
                   state.get("configs"))


# ----------------------------------------------------------------------------------------------
# Means over groups of workloads, remembering what is missing.
# ----------------------------------------------------------------------------------------------
class Mean:
    """A mean over a group: value (None when nothing is there), how many of
    the group's workloads it covers, and (workload, reason) for the others."""

    def __init__(self, value, n, total, missing):
        self.value, self.n, self.total, self.missing = value, n, total, missing

    @property
    def partial(self):
        return self.value is not None and self.n < self.total


def ratios(res, names, num, den, metric="ipc"):
    """Per workload metric(num) / metric(den): {workload: ratio} and the
    missing ones [(workload, reason)]."""
    table = res.ipc if metric == "ipc" else res.epi
    out, missing = {}, []
    for w in names:
        a, b = table.get((w, num)), table.get((w, den))
        if a is not None and b is not None and a > 0 and b > 0:
            out[w] = a / b
            continue
        for c in (num, den):
            if table.get((w, c)) is None:
                r = res.reason(w, c)
                if metric == "energy" and r is None:
                    r = f"no {ENERGY} in its stats"
                missing.append((w, f"{c}: {r}"))
                break
    return out, missing


def group_mean(res, names, num, den, how, metric="ipc"):
    vals, missing = ratios(res, names, num, den, metric)
    fn = {"hmean": hmean, "gmean": gmean}[how]
    xs = [vals[w] for w in names if w in vals]
    return Mean(fn(xs) if xs else None, len(xs), len(names), missing)


def group_max(res, names, num, den, metric="ipc", smallest=False):
    """(value, workload) of the largest (smallest) ratio, as a Mean whose value is a pair."""
    vals, missing = ratios(res, names, num, den, metric)
    if not vals:
        return Mean(None, 0, len(names), missing)
    w = (min if smallest else max)(vals, key=lambda k: vals[k])
    return Mean((vals[w], w), len(vals), len(names), missing)


# ----------------------------------------------------------------------------------------------
# Tables
# ----------------------------------------------------------------------------------------------
def fx(v):
    """A speedup: 1.54x, 21.3x."""
    if v is None:
        return "n/a"
    return f"{v:.1f}x" if v >= 9.95 else f"{v:.2f}x"


def fpct(v, sign=True):
    """A fraction as a percentage: +40.2% (sign) or 10.7%."""
    if v is None:
        return "n/a"
    return f"{100 * v:+.1f}%" if sign else f"{100 * v:.1f}%"


class Table:
    """Rows of cells; the first column is the row label."""

    def __init__(self, title, head, rows, caption=None, notes=()):
        self.title, self.head, self.rows = title, list(head), [list(r) for r in rows]
        self.caption, self.notes = caption, list(notes)

    def text(self):
        widths = [max(len(str(r[i])) for r in [self.head] + self.rows) for i in range(len(self.head))]

        def line(r):
            return "  ".join(str(x).ljust(widths[i]) if i == 0 else str(x).rjust(widths[i])
                             for i, x in enumerate(r)).rstrip()
        out = [self.title, "=" * len(self.title)]
        if self.caption:
            out.append(self.caption)
        out += [line(self.head), "-" * (sum(widths) + 2 * (len(widths) - 1))]
        out += [line(r) for r in self.rows]
        out += [f"  {n}" for n in self.notes]
        return "\n".join(out) + "\n"

    def markdown(self):
        def esc(x):
            return str(x).replace("|", "\\|")
        out = [f"### {self.title}", ""]
        if self.caption:
            out += [self.caption, ""]
        out.append("| " + " | ".join(esc(h) for h in self.head) + " |")
        out.append("|" + "|".join(["---"] + ["---:"] * (len(self.head) - 1)) + "|")
        out += ["| " + " | ".join(esc(x) for x in r) + " |" for r in self.rows]
        if self.notes:
            out.append("")
            out += [f"- {n}" for n in self.notes]
        return "\n".join(out) + "\n"


class Notes:
    """Footnotes for partial and missing cells: one line per scheme and reason."""

    def __init__(self):
        self.items = {}  # (label, reason) -> [workloads]

    def add(self, label, mean):
        for w, reason in mean.missing:
            if ": not run: " in reason:  # a scheme left out of the sweep: skipped_notes() says why
                continue
            ws = self.items.setdefault((label, reason), [])
            if w not in ws:
                ws.append(w)

    def lines(self, total_by_label=None):
        out = []
        for (label, reason), ws in self.items.items():
            shown = ", ".join(ws[:6]) + (f" and {len(ws) - 6} more" if len(ws) > 6 else "")
            out.append(f"{label}: no value for {shown} ({reason})")
        if out:
            out.insert(0, "* = mean over the workloads that have results; n/a = none has one. Missing:")
        return out


def cell(mean, fmt, paper=None):
    """'ours (paper)'; ours is starred when the mean covers only part of its group."""
    ours = "n/a" if mean.value is None else fmt(mean.value) + ("*" if mean.partial else "")
    return ours if paper is None else f"{ours} ({paper})"


# ----------------------------------------------------------------------------------------------
# Seed 000: Khairy, DBSA / DWT-CS / PRIC / DWT-PRIC (spec §5.3-5.6)
# ----------------------------------------------------------------------------------------------
class Seed000:
    name = "seed000"
    spec = os.path.join(TOOLS, "examples", "seed000.toml")
    title = "Seed 000 (Khairy 2015: DBSA, DWT-CS, PRIC, DWT-PRIC)"
    baseline = "baseline"
    schemes = ["DBSA", "DWT-CS", "PRIC", "DWT-PRIC", "CCWS", "MRPB"]
    streaming = ["streaming L1/L2", "large WS L2", "streaming L1"]
    contention = ["conflict", "thrashing", "thrashing+conflict"]
    classes = streaming + contention + ["friendly"]
    syrk, gesummv = "polybench/syrk", "polybench/gesummv"
    # The thesis's numbers (spec §5.3, §5.4): row -> scheme -> text.
    paper = {
        "all": {"DBSA": "1.2x", "DWT-CS": "1.1x", "PRIC": "1.3x", "DWT-PRIC": "1.54x"},
        "streaming": {"DWT-PRIC": "1.2x"},
        "contention": {"DWT-PRIC": "2.3x"},
        "friendly": {"DWT-PRIC": "no slowdown"},
        "SYRK": {"DWT-PRIC": "21x"},
        "GESUMMV": {"DWT-PRIC": "16.8x"},
    }
    # DWT-PRIC over CCWS and over MRPB on the contention applications (spec §5.6).
    paper_vs = {
        "contention": {"CCWS": "1.7x", "MRPB": "1.5x"},
        "conflict": {"CCWS": "2.1x", "MRPB": "1.37x"},
        "thrashing": {"CCWS": "1.02x", "MRPB": "1.25x"},
        "thrashing+conflict": {"CCWS": "18x", "MRPB": "4x"},
    }

    def tables(self, res):
        return [self.speedups(res), self.versus(res), per_workload(res, self.baseline, "hmean")]

    def groups(self, res):
        g = [("all", f"all applications ({len(res.names())})", res.names()),
             ("streaming", f"streaming ({len(res.names(self.streaming))})", res.names(self.streaming)),
             ("contention", f"contention ({len(res.names(self.contention))})", res.names(self.contention))]
        for c in self.classes:
            g.append((c, f"  {c} ({len(res.names([c]))})", res.names([c])))
        for key, w in (("SYRK", self.syrk), ("GESUMMV", self.gesummv)):
            g.append((key, f"{key} ({w})", [w] if w in res.names() else []))
        return g

    def speedups(self, res):
        notes = Notes()
        rows = []
        for key, label, names in self.groups(res):
            row = [label]
            for s in self.schemes:
                m = group_mean(res, names, s, self.baseline, "hmean")
                notes.add(s, m)
                row.append(cell(m, fx, self.paper.get(key, {}).get(s, "-")))
            rows.append(row)
        return Table("Speedup over the baseline (harmonic mean of IPC / baseline IPC)",
                     ["group"] + self.schemes, rows,
                     "Each cell: measured (thesis); '-' = the thesis gives no number "
                     "(spec §5.3, §5.4; Fig. 6.1, 6.2).", skipped_notes(res, self.schemes) + notes.lines())

    def versus(self, res):
        notes = Notes()
        rows = []
        for key in ["contention"] + self.contention:
            names = res.names(self.contention if key == "contention" else [key])
            row = [f"{key} ({len(names)})"]
            for other in ("CCWS", "MRPB"):
                m = group_mean(res, names, "DWT-PRIC", other, "hmean")
                notes.add(f"DWT-PRIC/{other}", m)
                row.append(cell(m, fx, self.paper_vs[key][other]))
            rows.append(row)
        return Table("DWT-PRIC against prior work on the contention applications "
                     "(harmonic mean of IPC(DWT-PRIC) / IPC(scheme))",
                     ["subset", "vs CCWS", "vs MRPB"], rows,
                     "Each cell: measured (thesis, spec §5.6, Fig. 6.5).",
                     skipped_notes(res, ["DWT-PRIC", "CCWS", "MRPB"]) + notes.lines())


# ----------------------------------------------------------------------------------------------
# Seed 003: ACI and IACM (spec §5.1, §5.2)
# ----------------------------------------------------------------------------------------------
class Seed003:
    name = "seed003"
    spec = os.path.join(TOOLS, "examples", "seed003.toml")
    title = "Seed 003 (ACI and IACM, Ch. III-IV)"
    baseline = "CVI"
    classes = ["streaming", "conflicting", "thrashing", "C+T", "cache-friendly"]
    # index scheme: (L1D-only config, L1D+L2 config, paper L1D gain, L1D energy, pair gain, pair energy)
    aci = [
        ("BXI", "BXI", "BB", "+40.2%", "10.7%", "+57.1%", "28.0%"),
        ("RXI", "RXI", None, "+39.8%", "11.0%", "n.a.", "n.a."),
        ("PLI", "PLI", "LL", "+47.0%", "13.2%", "+69.9%", "32.3%"),
        ("PRI", "PRI", "RR", "+45.8%", "12.7%", "+65.7%", "29.3%"),
        ("ADI", "ADI", "AA", "+42.3%", "12.1%", "+59.8%", "27.9%"),
    ]
    op = "sdk/montecarlo"

    def tables(self, res):
        return [self.aci_table(res), self.iacm_table(res), per_class(res, self.baseline, self.classes),
                per_workload(res, self.baseline, "gmean")]

    def aci_table(self, res):
        notes = Notes()
        names = res.names()
        rows = []
        for label, l1, pair, p_gain, p_en, p_pgain, p_pen in self.aci:
            row = [label]
            for cfg, pg, pe in ((l1, p_gain, p_en), (pair, p_pgain, p_pen)):
                if cfg is None:
                    row += ["n/a (L1D only)", "n/a (L1D only)"]
                    continue
                g = group_mean(res, names, cfg, self.baseline, "gmean")
                e = group_mean(res, names, cfg, self.baseline, "gmean", metric="energy")
                notes.add(cfg, g)
                notes.add(f"{cfg} energy", e)
                g.value = None if g.value is None else g.value - 1
                e.value = None if e.value is None else 1 - e.value
                row += [cell(g, fpct, pg), cell(e, lambda v: fpct(v, False), pe)]
            rows.append(row)
        used = [c for r in self.aci for c in r[1:3] if c]
        return Table(f"ACI: IPC gain and energy reduction over CVI (geometric means over {len(names)} "
                     "benchmarks)",
                     ["index", "L1D only: IPC", "L1D only: energy", "L1D+L2: IPC", "L1D+L2: energy"], rows,
                     "Each cell: measured (dissertation, spec §5.1). IPC gain = gmean(IPC/IPC_CVI) - 1; "
                     "energy reduction = 1 - gmean(E/E_CVI), energy per thread instruction. "
                     "L1D+L2 configs: BB, LL, RR, AA.",
                     skipped_notes(res, used) + notes.lines())

    def iacm_table(self, res):
        notes = Notes()
        names = res.names()
        rows = []
        sp = group_mean(res, names, "IACM", self.baseline, "gmean")
        notes.add("IACM", sp)
        rows.append(["IACM speedup over CVI, geomean", cell(sp, fx), "2.0x (+98.1%)"])
        mx = group_max(res, names, "IACM", self.baseline)
        rows.append(["IACM speedup over CVI, max", _max_cell(mx, fx), "32x"])
        en = group_mean(res, names, "IACM", self.baseline, "gmean", metric="energy")
        notes.add("IACM energy", en)
        red = Mean(None if en.value is None else 1 - en.value, en.n, en.total, [])
        rows.append(["IACM energy reduction, geomean", cell(red, lambda v: fpct(v, False)), "38%"])
        emin = group_max(res, names, "IACM", self.baseline, metric="energy", smallest=True)
        if emin.value is not None:
            emin.value = (1 - emin.value[0], emin.value[1])
        rows.append(["IACM energy reduction, max", _max_cell(emin, lambda v: fpct(v, False)), "92%"])
        eff = Mean(None if not en.value else 1 / en.value - 1, en.n, en.total, [])
        rows.append(["IACM energy efficiency gain (1/normalised energy - 1)", cell(eff, fpct), "+61.9%"])
        op = group_mean(res, [self.op] if self.op in names else [], "IACM", self.baseline, "gmean")
        rows.append([f"IACM on OP ({self.op})", cell(op, fx), "0.93x (-7.0%)"])
        vs = group_mean(res, names, "IACM", "DWT-PRIC", "gmean")
        notes.add("IACM/DWT-PRIC", vs)
        vs_gain = Mean(None if vs.value is None else vs.value - 1, vs.n, vs.total, [])
        rows.append(["IACM over DWT-PRIC, geomean", cell(vs_gain, fpct), "+7.7%"])
        vmx = group_max(res, names, "IACM", "DWT-PRIC")
        if vmx.value is not None:
            vmx.value = (vmx.value[0] - 1, vmx.value[1])
        rows.append(["IACM over DWT-PRIC, max", _max_cell(vmx, fpct), "+361.4%"])
        dp = group_mean(res, names, "DWT-PRIC", self.baseline, "gmean")
        notes.add("DWT-PRIC", dp)
        rows.append(["DWT-PRIC speedup over CVI, geomean", cell(dp, fx), "-"])
        return Table(f"IACM (geometric means over {len(names)} benchmarks)",
                     ["quantity", "measured", "dissertation"], rows,
                     "Dissertation numbers: spec §5.2 (Fig. 27, 34); energy per thread instruction.",
                     skipped_notes(res, ["IACM", "DWT-PRIC"]) + notes.lines())


def _max_cell(m, fmt):
    if m.value is None:
        return "n/a"
    v, w = m.value
    return f"{fmt(v)}{'*' if m.partial else ''} ({w})"


def skipped_notes(res, configs):
    return [f"{c}: n/a, not run: {res.skipped[c]}" for c in configs if c in res.skipped]


def per_class(res, baseline, classes):
    confs = res.columns(baseline)
    rows = []
    for cls in classes + [None]:
        names = res.names([cls]) if cls else res.names()
        label = f"{cls} ({len(names)})" if cls else f"all ({len(names)})"
        rows.append([label] + [cell(group_mean(res, names, c, baseline, "gmean"), fx) for c in confs])
    return Table(f"Speedup over {baseline} per class (geometric mean of IPC / IPC_{baseline}; measured only)",
                 ["class"] + confs, rows, notes=["* = mean over the workloads that have results"])


def per_workload(res, baseline, how):
    confs = res.columns(baseline)
    rows = []
    for w, cls in res.workloads:
        base = res.ipc.get((w, baseline))
        row = [w, cls, "n/a" if base is None else f"{base:.4g}"]
        for c in confs:
            v = res.ipc.get((w, c))
            row.append("n/a" if v is None or base is None else f"{v / base:.3f}")
        rows.append(row)
    return Table(f"IPC per workload over '{baseline}' (measured; {how} above)",
                 ["workload", "class", f"{baseline} IPC"] + confs, rows)


from warpsim_tools import repro_seed001  # noqa: E402

SEEDS = {s.name: s for s in (Seed000(), Seed003(), repro_seed001.make(sys.modules[__name__]))}


def render(seed, res, sweep_dir, markdown=False):
    total = len(res.workloads) * len(res.configs)
    have = sum(1 for w, _ in res.workloads for c in res.configs if (w, c) in res.ipc)
    m = res.meta
    head = (f"{seed.title}: sweep {sweep_dir}; input {m.get('input') or '?'}"
            + (f", every run capped at {m['cap']} thread instructions" if m.get("cap") else "")
            + (f"; only {', '.join(m['only'])}" if m.get("only") else "")
            + f"; {have}/{total} runs with results"
            + (f"; {len(res.skipped)} schemes not run" if res.skipped else "")
            + (f"; {m['warpsim_version']}" if m.get("warpsim_version") else "")
            + (f" ({m['git']})" if m.get("git") else ""))
    tables = seed.tables(res)
    if markdown:
        return f"_{head}_\n\n" + "\n".join(t.markdown() for t in tables)
    return head + "\n\n" + "\n".join(t.text() for t in tables)


# ----------------------------------------------------------------------------------------------
# Running the sweep
# ----------------------------------------------------------------------------------------------
def set_cap(args, cap):
    """args with its --max-insn set to cap (added when missing)."""
    out, i, found = [], 0, False
    while i < len(args):
        if args[i] == "--max-insn" and i + 1 < len(args):
            out += ["--max-insn", str(cap)]
            found = True
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out if found else out + ["--max-insn", str(cap)]


def own_cap(args):
    for i, a in enumerate(args):
        if a == "--max-insn" and i + 1 < len(args):
            try:
                return int(args[i + 1])
            except ValueError:
                return None
    return None


def _wname(e):
    return e.get("name") if isinstance(e, dict) else e


def derive_spec(raw, spec_dir, inp, cap, drop_configs, only=None):
    """The seed's spec with our input, cap, configs and workloads (JSON-ready)."""
    d = copy.deepcopy(raw)
    if only:
        d["workloads"] = [e for e in d.get("workloads", []) if _wname(e) in only]
        d["classes"] = {k: [e for e in v if _wname(e) in only] for k, v in d.get("classes", {}).items()}
        d["classes"] = {k: v for k, v in d["classes"].items() if v}
    d["input"] = inp
    d.pop("output", None)
    for tbl in [d.get("base", {})] + list(d.get("configs", [])):
        if isinstance(tbl, dict) and tbl.get("config") and not os.path.isabs(tbl["config"]):
            tbl["config"] = os.path.normpath(os.path.join(spec_dir, tbl["config"]))
    if cap:
        d["args"] = set_cap(list(d.get("args", [])), cap)

        def fix(e):
            if isinstance(e, dict) and own_cap(e.get("args", [])) is not None:
                e = dict(e)
                if own_cap(e["args"]) > cap:
                    e["args"] = set_cap(e["args"], cap)
            return e
        d["workloads"] = [fix(e) for e in d.get("workloads", [])]
        d["classes"] = {k: [fix(e) for e in v] for k, v in d.get("classes", {}).items()}
    d["configs"] = [c for c in d.get("configs", []) if c.get("name") not in drop_configs]
    return d


def probe(warpsim, cfg, tmp):
    """Why this warpsim cannot run the config, or None: `warpsim run
    --check-config` builds the whole GPU, so unknown options and policy values
    show (the same check `warpsim sweep` makes of every config)."""
    return specmod.check_config(warpsim, cfg, [], tmp)


def default_sweep_dir(seed, inp, cap, only=False):
    """sweeps/SEED-INPUT[-capN][-subset]: a subset (--only) gets its own folder, since a
    sweep resumed with fewer workloads forgets the others' results."""
    return os.path.join(repo_dir(), "sweeps", f"{seed}-{inp}" + (f"-cap{cap}" if cap else "")
                        + ("-subset" if only else ""))


def run_sweep(seed, o, sweep_dir):
    warpsim = find_warpsim()
    try:
        sw = specmod.load(seed.spec)
    except (specmod.SpecError, OSError) as e:
        sys.exit(f"reproduce: {e}")
    only = None
    if o.only:
        only = [w.strip() for w in o.only.split(",") if w.strip()]
        unknown = [w for w in only if w not in [x for x, _, _ in sw.workloads]]
        if unknown:
            sys.exit(f"reproduce: not in {seed.name}'s benchmark set: {', '.join(unknown)} "
                     f"(it has: {', '.join(x for x, _, _ in sw.workloads)})")
    skipped = {}
    with tempfile.TemporaryDirectory(prefix="warpsim-probe-") as tmp:
        for cfg in sw.configs:
            why = probe(warpsim, cfg, tmp)
            if why:
                if cfg.name == sw.baseline:
                    sys.exit(f"reproduce: this warpsim cannot run the baseline '{cfg.name}': {why}")
                skipped[cfg.name] = why
                sys.stderr.write(f"reproduce: {seed.name}: leaving out {cfg.name}: {why}\n")
    os.makedirs(sweep_dir, exist_ok=True)
    d = derive_spec(sw.raw, os.path.dirname(os.path.abspath(seed.spec)), o.input, o.cap, skipped, only)
    d["name"] = os.path.basename(os.path.normpath(sweep_dir))
    path = os.path.join(sweep_dir, "spec.json")
    with open(path, "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
    with open(os.path.join(sweep_dir, STATE_FILE), "w") as f:
        json.dump({"seed": seed.name, "spec": seed.spec, "input": o.input, "cap": o.cap,
                   "only": only, "configs": [c.name for c in sw.configs], "skipped": skipped}, f, indent=1)
        f.write("\n")
    cmd = [warpsim, "sweep", path, "-o", sweep_dir, "--engine", o.engine]
    if o.jobs:
        cmd += ["-j", str(o.jobs)]
    sys.stderr.write("reproduce: " + " ".join(cmd) + "\n")
    env = dict(os.environ)
    env.pop("WARPSIM_BIN", None)  # `warpsim sweep` sets it to itself
    rc = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL).returncode
    if rc not in (0, 1):  # 1: some runs failed; the tables show which
        sys.exit(f"reproduce: `warpsim sweep` exited {rc}")


# Studies that run their own experiments outside the sweep engine; `seed003 --chapter 5` is seed003-blpp.
OTHER = {
    "seed002": "warpsim_tools.repro_seed002",
    "seed003-blpp": "warpsim_tools.repro_seed003_blpp",
}


def _chapter(argv):
    """argv with `seed003 --chapter 5` (or --chapter=5) turned into `seed003-blpp`."""
    out, ch, i = [], None, 0
    while i < len(argv):
        if argv[i] == "--chapter" and i + 1 < len(argv):
            ch, i = argv[i + 1], i + 2
            continue
        if argv[i].startswith("--chapter="):
            ch = argv[i].split("=", 1)[1]
        else:
            out.append(argv[i])
        i += 1
    if ch is None:
        return argv
    if out[:1] != ["seed003"] or ch not in ("5", "V"):
        sys.exit(f"reproduce: --chapter {ch}: only seed003 --chapter 5 (BLPP) is a separate study; "
                 "chapters III-IV are `seed003` itself")
    return ["seed003-blpp"] + out[1:]


def main(argv=None):
    argv = _chapter(list(sys.argv[1:] if argv is None else argv))
    if argv[:1] and argv[0] in OTHER:
        import importlib
        return importlib.import_module(OTHER[argv[0]]).main(argv[1:])
    ap = argparse.ArgumentParser(prog="tools/reproduce.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See docs/reproduction.md.")
    ap.add_argument("seed", choices=sorted(SEEDS) + ["seed004"])
    ap.add_argument("--input", choices=["small", "paper"], default="paper",
                    help="workload inputs (default paper, the studies' sizes)")
    ap.add_argument("--cap", type=int, metavar="N_INSNS",
                    help="stop every run after N thread instructions (lower per-workload caps stay)")
    ap.add_argument("-j", "--jobs", type=int, help="parallel runs (default: cores)")
    ap.add_argument("--engine", choices=["local", "slurm"], default="local", help="as `warpsim sweep`")
    ap.add_argument("--sweep-dir", help="sweep folder (default sweeps/SEED-INPUT[-capN][-subset])")
    ap.add_argument("--only", metavar="W1,W2", help="run only these workloads of the set (smoke tests)")
    ap.add_argument("--no-run", action="store_true", help="only print the tables of the sweep as it is")
    ap.add_argument("--markdown", metavar="FILE", help="also write the tables as Markdown ('-': only Markdown, on stdout)")
    ts = ap.add_argument_group("seed001 time series (Fig. 9, 10; docs/reproduction.md)")
    ts.add_argument("--timeseries", action="store_true",
                    help="seed001: run the case studies (ATAX, backprop, SYRK, KMN) with interval statistics "
                         "and draw IPC, active / isolated / stalled warps per SM over time (default cap 5 M)")
    ts.add_argument("--schemes", metavar="S1,S2", help="time-series schemes (default GTO,CIAO-P,CIAO-C; also "
                    "CIAO-T, CCWS, SWL-2)")
    ts.add_argument("--interval", type=int, metavar="CYCLES", help="cycles per time-series sample (default 2000)")
    ts.add_argument("--format", default="png", help="time-series figure formats: png,pdf,svg (default png)")
    o = ap.parse_args(argv)
    if o.cap is not None and o.cap <= 0:
        ap.error("--cap wants a positive instruction count")
    if o.interval is not None and o.interval <= 0:
        ap.error("--interval wants a positive cycle count")
    if o.timeseries:
        if o.seed != "seed001":
            ap.error("--timeseries is seed001's (its Fig. 9 and 10 case studies)")
        return repro_seed001.timeseries_main(o, sys.modules[__name__])
    if o.seed == "seed004":  # its own runner and checks (warpsim_tools/repro_seed004.py)
        from warpsim_tools import repro_seed004
        return repro_seed004.main(o)
    seed = SEEDS[o.seed]
    sweep_dir = os.path.abspath(o.sweep_dir or default_sweep_dir(seed.name, o.input, o.cap, bool(o.only)))
    if not o.no_run:
        run_sweep(seed, o, sweep_dir)
    try:
        res = load_results(sweep_dir)
    except FileNotFoundError as e:
        sys.exit(f"reproduce: {e}")
    if res.meta.get("seed") not in (None, seed.name):
        sys.stderr.write(f"reproduce: warning: {sweep_dir} holds a {res.meta['seed']} sweep\n")
    if o.markdown != "-":
        sys.stdout.write(render(seed, res, sweep_dir))
    if o.markdown:
        text = render(seed, res, os.path.relpath(sweep_dir, repo_dir()) if sweep_dir.startswith(repo_dir())
                      else sweep_dir, markdown=True)
        if o.markdown == "-":
            sys.stdout.write(text)
        else:
            with open(o.markdown, "w") as f:
                f.write(text)
            sys.stderr.write(f"reproduce: wrote {o.markdown}\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
