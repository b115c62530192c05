"""warpsim against GPGPU-Sim on the same CUDA programs (tools/oracle.py).

GPGPU-Sim is a measuring instrument here: this module runs a list of programs
(nvcc-built with uncompressed PTX, e.g. `make cuda-apps`) under a GPGPU-Sim
build and under warpsim with the same gpgpusim.config, keeps both text
outputs, reads the statistics both print under GPGPU-Sim's names, and writes
per-statistic comparison tables (text and markdown).

Reading: both simulators print a block of statistics after every kernel;
`gpu_sim_cycle` and `gpu_sim_insn` are per kernel, the cache, DRAM and stall
counters are cumulative over the program, so their last value is the
program's. GPGPU-Sim's per-type breakdowns (`..._stats_breakdown[TYPE][...]`)
are not: it clears them between launches, so on a multi-kernel program the
per-type rows compare its last window with warpsim's whole program. Everything here is pure text processing except run_gpgpusim and
run_warpsim, so the parsers are tested on stored outputs.
"""
import os
import re
import shutil
import subprocess
import time

NUM = r"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf))"
KERNEL = re.compile(r"^kernel_name\s*=\s*(\S+)", re.M)
SCALAR = re.compile(r"^\s*([A-Za-z_][\w]*)\s*=\s*" + NUM + r"\s*$", re.M)
BREAKDOWN = re.compile(r"^\s*(Total_core_cache_stats_breakdown|L2_cache_stats_breakdown)"
                       r"\[(\w+)\]\[(\w+)\]\s*=\s*(\d+)", re.M)
DRAM = re.compile(r"^total dram (reads|writes)\s*=\s*(\d+)", re.M)
STALL = re.compile(r"^Stall:(\d+)\s+W0_Idle:(\d+)\s+W0_Scoreboard:(\d+)", re.M)

# Outcomes that are accesses (a reservation failure is retried, not an access;
# MSHR_HIT counts again the HIT_RESERVED accesses that merged into a fetch,
# GPGPU-Sim's TOTAL_ACCESS leaves it out).
ACCESS_OUTCOMES = ("HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS")
MISS_OUTCOMES = ("MISS", "SECTOR_MISS")


def parse_report(text):
    """Statistics of one program's output: {'kernels': [(name, cycles, insn)],
    'stats': {name: last value}, 'breakdown': {(cache, type, outcome): last},
    'dram_reads', 'dram_writes', 'stall': (stall, idle, scoreboard) or None}."""
    # per-kernel blocks: from one kernel_name line to the next
    starts = [m.start() for m in KERNEL.finditer(text)] + [len(text)]
    kernels = []
    for a, b in zip(starts, starts[1:]):
        block = text[a:b]
        name = KERNEL.match(block).group(1)
        vals = dict((m.group(1), m.group(2)) for m in SCALAR.finditer(block))
        cyc = vals.get("gpu_sim_cycle")
        ins = vals.get("gpu_sim_insn")
        kernels.append((name, int(float(cyc)) if cyc else None, int(float(ins)) if ins else None))
    stats = {}
    for m in SCALAR.finditer(text):
        try:
            stats[m.group(1)] = float(m.group(2))
        except ValueError:
            pass
    bd = {}
    for m in BREAKDOWN.finditer(text):
        cache = "L1" if m.group(1).startswith("Total_core") else "L2"
        bd[(cache, m.group(2), m.group(3))] = int(m.group(4))
    dram = dict((m.group(1), int(m.group(2))) for m in DRAM.finditer(text))
    st = STALL.findall(text)
    return {"kernels": kernels, "stats": stats, "breakdown": bd,
            "dram_reads": dram.get("reads"), "dram_writes": dram.get("writes"),
            "stall": tuple(int(x) for x in st[-1]) if st else None}


def metrics(rep):
    """The compared statistics of a parsed report, name -> number (None: not printed)."""
    s, bd = rep["stats"], rep["breakdown"]
    out = {
        "cycles": sum(k[1] or 0 for k in rep["kernels"]) if rep["kernels"] else None,
        "kernels": len(rep["kernels"]),
        "instructions": s.get("gpu_tot_sim_insn"),
        "L1D_accesses": s.get("L1D_total_cache_accesses"),
        "L1D_misses": s.get("L1D_total_cache_misses"),
        "L2_accesses": s.get("L2_total_cache_accesses"),
        "L2_misses": s.get("L2_total_cache_misses"),
        "dram_reads": rep["dram_reads"],
        "dram_writes": rep["dram_writes"],
    }
    for cache in ("L1", "L2"):  # L1: all core caches (L1D, L1I, L1C, L1T), as GPGPU-Sim sums them
        types = sorted({t for (c, t, _o) in bd if c == cache})
        for t in types:
            acc = sum(bd.get((cache, t, o), 0) for o in ACCESS_OUTCOMES)
            miss = sum(bd.get((cache, t, o), 0) for o in MISS_OUTCOMES)
            if acc or miss:
                out["%s_%s_accesses" % (cache, t)] = acc
                out["%s_%s_misses" % (cache, t)] = miss
    if rep["stall"]:
        out["stall"], out["W0_idle"], out["W0_scoreboard"] = rep["stall"]
    return out


def rel_err(ref, got):
    """(got - ref) / ref; 0 when both are 0; None when either is missing or ref is 0."""
    if ref is None or got is None:
        return None
    if ref == 0:
        return 0.0 if got == 0 else None
    return (got - ref) / ref


def compare(ref, got):
    """Rows (metric, GPGPU-Sim value, warpsim value, relative error) over the
    metrics either side has, in a stable order."""
    names = list(ref) + [n for n in got if n not in ref]
    return [(n, ref.get(n), got.get(n), rel_err(ref.get(n), got.get(n))) for n in names]


def fmt_num(v):
    if v is None:
        return "-"
    return "%d" % v if float(v).is_integer() else "%.4g" % v


def fmt_err(e):
    return "-" if e is None else "%+.1f%%" % (100 * e)


def text_table(rows):
    lines = ["%-36s %14s %14s %9s" % ("statistic", "GPGPU-Sim", "warpsim", "error")]
    for n, a, b, e in rows:
        lines.append("%-36s %14s %14s %9s" % (n, fmt_num(a), fmt_num(b), fmt_err(e)))
    return "\n".join(lines)


def markdown_summary(results, configs):
    """results: {(config, program): (ref metrics, warpsim metrics)}. A markdown
    table of the cycle error per program and config, with the mean absolute
    error and the instruction/L1D/L2 checks of the acceptance bounds."""
    progs = sorted({p for (_c, p) in results})
    head = "| program | " + " | ".join(configs) + " |"
    lines = [head, "|" + "---|" * (len(configs) + 1)]
    sums = {c: [] for c in configs}
    notes = []
    for p in progs:
        cells = []
        for c in configs:
            if (c, p) not in results:
                cells.append("-")
                continue
            ref, got = results[(c, p)]
            if not ref.get("kernels"):
                cells.append("GPGPU-Sim failed")
                notes.append("%s on %s: GPGPU-Sim printed no kernel statistics (it stopped; "
                             "its output says why), so there is nothing to compare" % (p, c))
                continue
            e = rel_err(ref.get("cycles"), got.get("cycles"))
            if e is not None:
                sums[c].append(abs(e))
            cell = "%s (%s / %s)" % (fmt_err(e), fmt_num(got.get("cycles")),
                                     fmt_num(ref.get("cycles")))
            if ref.get("instructions") != got.get("instructions"):
                notes.append("%s on %s: instructions %s (GPGPU-Sim) vs %s" % (
                    p, c, fmt_num(ref.get("instructions")), fmt_num(got.get("instructions"))))
            cells.append(cell)
        lines.append("| %s | %s |" % (p, " | ".join(cells)))
    lines.append("| mean abs. cycle error | " + " | ".join(
        "%.1f%%" % (100 * sum(v) / len(v)) if v else "-" for v in (sums[c] for c in configs)) + " |")
    out = "\n".join(lines) + "\n"
    if notes:
        out += "\n" + "\n".join("- " + n for n in notes) + "\n"
    return out


def access_table(results, configs, metric):
    """Markdown: one metric's relative error per program and config."""
    progs = sorted({p for (_c, p) in results})
    lines = ["| program | " + " | ".join(configs) + " |", "|" + "---|" * (len(configs) + 1)]
    for p in progs:
        cells = []
        for c in configs:
            if (c, p) not in results:
                cells.append("-")
                continue
            ref, got = results[(c, p)]
            cells.append("%s (%s / %s)" % (fmt_err(rel_err(ref.get(metric), got.get(metric))),
                                           fmt_num(got.get(metric)), fmt_num(ref.get(metric))))
        lines.append("| %s | %s |" % (p, " | ".join(cells)))
    return "\n".join(lines) + "\n"


# ---- running (not unit-tested: needs the simulators) ----

def program_tag(argv):
    """A file-name-safe tag of a program and its arguments."""
    base = os.path.basename(argv[0])
    return re.sub(r"[^\w.-]", "_", "_".join([base] + list(argv[1:])))


def run_gpgpusim(runner, config_dir, argv, out_file, timeout):
    """Run argv under GPGPU-Sim (its runner script) in a scratch folder holding
    the config's files; the output goes to out_file. Returns wall seconds."""
    scratch = out_file + ".run"
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    for f in os.listdir(config_dir):
        if f.endswith((".config", ".icnt")):
            shutil.copy(os.path.join(config_dir, f), scratch)
    t0 = time.time()
    with open(out_file + ".tmp", "w") as f:
        subprocess.run(["nice", runner] + [os.path.abspath(argv[0])] + list(argv[1:]),
                       cwd=scratch, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    os.replace(out_file + ".tmp", out_file)
    shutil.rmtree(scratch, ignore_errors=True)
    return time.time() - t0


def run_warpsim(warpsim, config_file, argv, out_file, timeout, extra=()):
    """Run argv under warpsim with the same config file."""
    t0 = time.time()
    cmd = ["nice", warpsim, "run", "--config", config_file]
    for s in extra:
        cmd += ["--set", s]
    with open(out_file + ".tmp", "w") as f:
        subprocess.run(cmd + ["--"] + [os.path.abspath(argv[0])] + list(argv[1:]),
                       stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
    os.replace(out_file + ".tmp", out_file)
    return time.time() - t0
