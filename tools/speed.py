#!/usr/bin/env python3
"""Simulation speed over a set of programs, one thread and N threads, next to GPGPU-Sim.

For each program of the set (compute-bound, memory-bound, multi-kernel and short bundled
workloads) it runs `warpsim run` on the timing model at -warpsim_threads 1 and N, best of
--runs runs each (interleaved), and prints wall time, CPU time (user + system of the run) and
simulated cycles; then the speedup of N threads over one, GPGPU-Sim's wall time for the same
program from the stored table (tools/speed_gpgpusim.csv, with its provenance; '-' where none
was measured) and the ratio GPGPU-Sim / warpsim at one thread, by wall time and by CPU time
(GPGPU-Sim's times come from a quiet machine, where wall and CPU time agree), and both
simulators' peak resident memory (the largest of the runs; GPGPU-Sim's where it was measured,
by --oracle or in the stored table). The load average at the start
and at the end is printed: wall-time ratios mean something only when the first is below 1 (a busy machine slows
GPGPU-Sim more than warpsim, and keeps threads from running at once).

With --oracle DIR (a built GPGPU-Sim with a `gpgpusim-run` runner and `configs/`), GPGPU-Sim is
run on each program right before warpsim's runs of it, and that time is used instead of the stored
one: a host whose speed drifts from one quarter hour to the next then moves both sides alike. The
programs are the bundled workloads built as CUDA programs (`make cuda-apps`, --apps), run in a
scratch folder holding the config (--oracle-config, SM2_GTX480 for gtx480-v4); ptxas must be on
PATH. The new times can be kept as the stored table (--save-ref FILE): it is written with a header
that says when, how and on what it was measured, keeps the rows of programs not tried in this run,
and names the programs GPGPU-Sim gave no time for.

The note under the table also gives the host's cross-core round trip (two threads handing a cache
line back and forth, compiled with $CC or cc): each parallel phase of a simulated cycle costs
about one, so it bounds what -warpsim_threads can gain on the host.

With --rounds K (K > 1), the whole set is measured K times over, one round after another, and
each program's row gives the median of its K rounds: each side's median time, and the median of
the K ratios GPGPU-Sim / warpsim, each measured within one round, minutes apart; the note under
the table gives every round's geometric mean. A host whose speed drifts from one quarter hour to
the next (and GPGPU-Sim with it, by more than warpsim) moves one round's ratio by up to a third;
the median of several rounds spread over an hour is the number to quote.

With --plain BIN, a second build (the plain `make` build next to `make pgo`'s optimised one,
say) is timed too, at one thread, in the same interleaving; the note under the table gives its
ratio to GPGPU-Sim and how much quicker the measured build is.

Not a test. Usage:
    tools/speed.py [--threads N] [--runs R] [--rounds K] [--preset P] [--programs a,b,...] [--bin WARPSIM]
                   [--plain WARPSIM]
                   [--oracle DIR [--oracle-config NAME] [--apps DIR] [--save-ref FILE]]
                   [--readme [FILE]]
--readme rewrites README.md's (or FILE's) speed table, between its speed-table markers.
"""
import argparse
import csv
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (workload, input, kind)
PROGRAMS = [
    ("micro/matmul", "paper", "compute"),
    ("micro/matmul", "small", "compute"),
    ("polybench/gemm", "small", "compute"),
    ("sdk/matmul_shared", "small", "compute"),
    ("micro/vectoradd", "paper", "memory"),
    ("micro/vectoradd", "small", "memory"),
    ("polybench/conv2d", "small", "memory"),
    ("rodinia/kmeans", "small", "memory"),
    ("sdk/transpose_naive", "small", "memory"),
    ("polybench/fdtd2d", "small", "multi-kernel"),
    ("rodinia/gaussian", "small", "multi-kernel"),
    ("micro/histogram", "small", "short"),
    ("micro/reduce", "small", "short"),
]

BEGIN, END = "<!-- speed-table begin (tools/speed.py --readme) -->", "<!-- speed-table end -->"


def load_reference(path):
    """(program, input) -> (wall s, peak RSS MB or None, source). Rows are
    program,input,wall_s,peak_rss_mb,source; tables written before the RSS column have
    program,input,wall_s,source."""
    ref = {}
    with open(path) as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            if len(row) >= 5:
                ref[(row[0], row[1])] = (float(row[2]), float(row[3]) if row[3] else None, row[4])
            elif len(row) >= 3:
                ref[(row[0], row[1])] = (float(row[2]), None, row[3] if len(row) > 3 else "")
    return ref


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def run_measured(cmd, cwd=None):
    """(return code, stdout, stderr, wall s, cpu s, peak RSS MB) of a command; the CPU time and
    peak RSS are those of the process and the children it waited for (a runner script's
    program), from wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return (p.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0)  # Linux: KB


def run_once(binary, prog, inp, preset, threads):
    """(wall s, cpu s, simulated cycles, peak RSS MB) of one run."""
    cmd = [binary, "run", "--preset", preset, "--input", inp, "--set",
           "-warpsim_threads %d" % threads, prog]
    rc, out, err, wall, cpu, rss = run_measured(cmd)
    if rc != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), rc, err.strip()))
    m = re.findall(r"gpu_tot_sim_cycle = (\d+)", out)
    return wall, cpu, int(m[-1]) if m else 0, rss


def measure(binary, prog, inp, preset, threads, runs, plain=None):
    """Best (by wall time) of `runs` runs at 1 and at `threads` threads, interleaved; with
    `plain`, also that binary's best at one thread (key "plain"). Each entry's last field is
    the largest peak RSS of its runs."""
    best = {}
    for _ in range(runs):
        for key, b, t in ((1, binary, 1), (threads, binary, threads), ("plain", plain, 1)):
            if not b:
                continue
            w = run_once(b, prog, inp, preset, t)
            rss = max(w[3], best[key][3]) if key in best else w[3]
            if key not in best or w[0] < best[key][0]:
                best[key] = w[:3] + (rss,)
            else:
                best[key] = best[key][:3] + (rss,)
    return best


def measure_row(a, prog, inp, kind, r):
    """One round's row of a program: warpsim's best of --runs at 1 and N threads (and the plain
    build's), next to GPGPU-Sim's time and peak RSS `r` (None: unknown)."""
    best = measure(a.bin, prog, inp, a.preset, a.threads, a.runs, a.plain)
    w1, c1, cyc, rss1 = best[1]
    wn, cn, _, rssn = best[a.threads]
    if a.plain and best["plain"][2] != cyc:
        raise RuntimeError("%s and %s simulate %s %s in different cycle counts (%d, %d)" % (
            a.bin, a.plain, prog, inp, cyc, best["plain"][2]))
    print("  %-22s %-5s %8d cycles  1: %.2f s (cpu %.2f)  %d: %.2f s (cpu %.2f)  peak RSS %.0f MB" % (
        prog, inp, cyc, w1, c1, a.threads, wn, cn, max(rss1, rssn)), flush=True)
    return {"prog": prog, "input": inp, "kind": kind, "cycles": cyc, "w1": w1, "c1": c1,
            "wn": wn, "cn": cn, "ref": r[0] if r else None, "ref_rss": r[1] if r else None,
            "rss": max(rss1, rssn), "wp": best["plain"][0] if a.plain else None}


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def combine_rounds(rounds, progs):
    """Each program's row over the rounds: the median of each time and of each round's ratio
    (GPGPU-Sim / warpsim, by wall and by CPU time), the largest peak RSS; the cycle counts must
    agree (the simulator is deterministic). A program missing from a round (GPGPU-Sim failed on
    it) has no ratio."""
    rows = []
    for prog, inp, _ in progs:
        rs = [g[(prog, inp)] for g in rounds if (prog, inp) in g]
        if not rs:
            continue
        if any(x["cycles"] != rs[0]["cycles"] for x in rs):
            raise RuntimeError("%s %s: cycle counts differ between rounds (%s)" % (
                prog, inp, ", ".join(str(x["cycles"]) for x in rs)))
        row = dict(rs[0])
        for key in ("w1", "c1", "wn", "cn", "wp"):
            if rs[0][key] is not None:
                row[key] = median([x[key] for x in rs])
        row["rss"] = max(x["rss"] for x in rs)
        if len(rs) == len(rounds) and all(x["ref"] for x in rs):
            row["ref"] = median([x["ref"] for x in rs])
            row["ratio_w"] = median([x["ref"] / x["w1"] for x in rs])
            row["ratio_c"] = median([x["ref"] / x["c1"] for x in rs if x["c1"]] or [0])
            rrss = [x["ref_rss"] for x in rs if x["ref_rss"]]
            row["ref_rss"] = max(rrss) if rrss else None
        else:
            row["ref"] = row["ref_rss"] = None
        rows.append(row)
    return rows


def round_geomeans(rounds):
    """Each round's geometric mean of GPGPU-Sim / warpsim (wall, one thread) and its worst
    program, over the programs with a GPGPU-Sim time in that round."""
    out = []
    for g in rounds:
        ratios = [(x["ref"] / x["w1"], x["prog"]) for x in g.values() if x["ref"]]
        if ratios:
            out.append((geomean([q for q, _ in ratios]), min(ratios)))
    return out


def oracle_once(oracle, config, apps, prog, inp):
    """(wall s, simulated cycles, peak RSS MB) of GPGPU-Sim on the program built as a CUDA program, run in a
    scratch folder holding the config (GPGPU-Sim reads it from, and leaves files in, its folder)."""
    app = os.path.join(apps, prog.replace("/", "_"))
    if not os.access(app, os.X_OK):
        raise RuntimeError("%s is not built (make cuda-apps)" % app)
    cfg = os.path.join(oracle, "configs", config)
    with tempfile.TemporaryDirectory(prefix="warpsim-speed-oracle-") as d:
        for f in os.listdir(cfg):
            shutil.copy(os.path.join(cfg, f), d)
        cmd = [os.path.join(oracle, "gpgpusim-run"), app] + (["paper"] if inp == "paper" else [])
        rc, out, err, wall, _, rss = run_measured(cmd, cwd=d)
    m = re.findall(r"gpu_tot_sim_cycle = (\d+)", out)
    if rc != 0 or not m:
        raise RuntimeError("GPGPU-Sim failed on %s %s (%d): %s" % (
            prog, inp, rc, (err or out).strip()[-300:]))
    return wall, int(m[-1]), rss


def ref_rows(path):
    """The data rows of a stored table, in order (missing file: none)."""
    try:
        with open(path) as f:
            return [row for row in csv.reader(l for l in f if not l.startswith("#")) if len(row) >= 3]
    except FileNotFoundError:
        return []


def nvcc_release():
    """nvcc's release line ('release 13.0, V13.0.48'), or '' when nvcc is not on PATH."""
    try:
        out = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return ""
    m = re.search(r"release [^\n]*", out)
    return m.group(0) if m else ""


def save_reference(path, fresh, failed, old, info):
    """Write the stored table: the fresh GPGPU-Sim times, then the rows of the old table for
    programs not tried now (each row's source says where it came from), under a header that
    says how the fresh ones were measured and which programs GPGPU-Sim gave no time for, so that
    the file needs no editing by hand."""
    measured = {(f[0], f[1]) for f in fresh} | {(p, i) for p, i, _ in failed}
    # old rows in this table's columns (those written before the RSS column have none)
    kept = [r if len(r) >= 5 else r[:3] + [""] + r[3:]
            for r in old if (r[0], r[1]) not in measured]
    lines = [
        "GPGPU-Sim's wall time for programs of tools/speed.py's set (read by it when run without "
        "--oracle).",
        "program,input,gpgpusim_wall_s,gpgpusim_peak_rss_mb,source",
        "Measured with the GPGPU-Sim given to --oracle (PTX mode, its %s config), on a %d-core "
        "machine, %s, by `%s`:" % (info["config"], info["cores"], info["date"], info["command"]),
        "each program's GPGPU-Sim run right before warpsim's runs of it, one process at a time%s "
        "(load average %.2f at the start%s)." % (
            "; the median of %d rounds" % info["rounds"] if info.get("rounds", 1) > 1 else "",
            info["load"], ", a quiet machine" if info["load"] < 1
            else ", a busy machine: the times are not reliable"),
        "The programs are the bundled workloads themselves, built as CUDA programs by `make "
        "cuda-apps` (tools/cuda_apps: same kernel.cu%s; argument `paper` for the paper input);" % (
            ", nvcc " + info["nvcc"] if info["nvcc"] else ""),
        "warpsim's side runs with --preset %s. Wall times of one machine drift between quarter "
        "hours: compare ratios measured together." % info["preset"],
    ]
    for prog, inp, why in failed:
        lines.append("%s %s has no time: %s." % (prog, inp, why))
    if kept:
        lines.append("Rows kept from the table before (not measured in this run): %s." % ", ".join(
            "%s %s" % (r[0], r[1]) for r in kept))
    with open(path, "w") as f:
        for line in lines:
            f.write("# " + line + "\n")
        for prog, inp, gw, gcyc, grss in fresh:
            f.write("%s,%s,%.2f,%.1f,GPGPU-Sim %s: bundled %s %s (%d cycles)\n" % (
                prog, inp, gw, grss, info["config"], prog, inp, gcyc))
        for r in kept:
            f.write(",".join(r) + "\n")


# Two threads hand a cache line back and forth: the time of a round trip bounds what a
# parallel phase per simulated cycle can gain (each cycle starts and ends with such hand-offs).
PINGPONG_C = r"""
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
enum { N = 20000 };
static _Alignas(128) _Atomic long ping;
static _Alignas(128) _Atomic long pong;
static double secs(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static void *other(void *arg) {
    for (long i = 1;; i++) {
        long v;
        while ((v = atomic_load(&ping)) != i && v >= 0) {}
        if (v < 0) return arg;
        atomic_store(&pong, i);
    }
}
int main(void) { /* N round trips, or as many as fit in 0.3 s on a busy host */
    pthread_t t;
    if (pthread_create(&t, NULL, other, NULL)) return 1;
    double t0 = secs(), t1 = t0;
    long i = 1;
    for (; i <= N; i++) {
        atomic_store(&ping, i);
        while (atomic_load(&pong) != i) {}
        if (i % 64 == 0 && (t1 = secs()) - t0 > 0.3) break;
    }
    if (i > N) t1 = secs(), i = N;
    atomic_store(&ping, -1);
    pthread_join(t, NULL);
    printf("%.0f\n", (t1 - t0) * 1e9 / i);
    return 0;
}
"""


def host_round_trip_ns():
    """The host's cross-core round trip in ns (best of 3), or None without a C compiler or a
    second core."""
    if (os.cpu_count() or 1) < 2:
        return None
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory(prefix="warpsim-speed-pp-") as d:
        src, exe = os.path.join(d, "pp.c"), os.path.join(d, "pp")
        with open(src, "w") as f:
            f.write(PINGPONG_C)
        try:
            if subprocess.run([cc, "-O2", "-pthread", "-o", exe, src], capture_output=True).returncode:
                return None
            best = None
            for _ in range(3):
                p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
                v = float(p.stdout) if p.returncode == 0 and p.stdout.strip() else None
                if v and (best is None or v < best):
                    best = v
            return best
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return None


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    if not xs:
        return None
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1.0 / len(xs))


def ratio_of(r, by):
    """GPGPU-Sim / warpsim of a row by wall ("w") or CPU ("c") time: the median of the rounds'
    ratios where there were several, else the row's own times."""
    if ("ratio_" + by) in r:
        return r["ratio_" + by]
    return r["ref"] / r[by + "1"] if r[by + "1"] else 0


def table(rows, threads):
    """Markdown table of the results."""
    out = ["| program | input | kind | cycles | 1 thread: wall (CPU) | %d threads: wall (CPU) | "
           "speedup | GPGPU-Sim wall | GPGPU-Sim / warpsim: wall (CPU) | peak RSS: warpsim "
           "(GPGPU-Sim) |" % threads,
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ref = "%.1f s" % r["ref"] if r["ref"] else "-"
        ratio = "%.0fx (%.0fx)" % (ratio_of(r, "w"), ratio_of(r, "c")) if r["ref"] else "-"
        rss = "%.0f MB (%s)" % (r["rss"], "%.0f MB" % r["ref_rss"] if r["ref_rss"] else "-")
        out.append("| %s | %s | %s | %d | %.2f s (%.2f s) | %.2f s (%.2f s) | %.2fx | %s | %s | %s |" % (
            r["prog"], r["input"], r["kind"], r["cycles"], r["w1"], r["c1"], r["wn"], r["cn"],
            r["w1"] / r["wn"] if r["wn"] else 0, ref, ratio, rss))
    sp = geomean([r["w1"] / r["wn"] for r in rows if r["wn"]])
    rt = geomean([ratio_of(r, "w") for r in rows if r["ref"]])
    rc = geomean([ratio_of(r, "c") for r in rows if r["ref"] and r["c1"]])
    out.append("")
    out.append("Geometric means: speedup at %d threads %.2fx over %d programs%s." % (
        threads, sp or 0, len(rows),
        "; GPGPU-Sim / warpsim (one thread) %.0fx by wall time, %.0fx by CPU time, over the %d "
        "programs with a GPGPU-Sim time" % (rt, rc or 0, sum(1 for r in rows if r["ref"])) if rt else ""))
    both = [r for r in rows if r["ref_rss"]]
    if both:
        below = sum(1 for r in both if r["rss"] < r["ref_rss"])
        ratios = [r["ref_rss"] / r["rss"] for r in both]
        out.append("Peak RSS: warpsim's below GPGPU-Sim's on %d of the %d programs with both "
                   "(GPGPU-Sim / warpsim %.1fx to %.1fx)." % (below, len(both), min(ratios), max(ratios)))
    return "\n".join(out)


def rel(path):
    """A binary's path as the README shows it: from the repository root when inside it."""
    p = os.path.abspath(path)
    return os.path.relpath(p, ROOT) if p.startswith(ROOT + os.sep) else os.path.basename(p)


def rewrite_readme(path, text):
    with open(path) as f:
        s = f.read()
    a, b = s.find(BEGIN), s.find(END)
    if a < 0 or b < a:
        raise RuntimeError("%s has no speed-table markers" % path)
    s = s[:a + len(BEGIN)] + "\n" + text + "\n" + s[b:]
    with open(path, "w") as f:
        f.write(s)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure the whole set K times and give each program's median")
    ap.add_argument("--preset", default="gtx480-v4")
    ap.add_argument("--programs", help="comma-separated WORKLOAD[:INPUT] (default: the set above)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "warpsim"))
    ap.add_argument("--plain", metavar="WARPSIM", help="also time this build at one thread")
    ap.add_argument("--ref", default=os.path.join(ROOT, "tools", "speed_gpgpusim.csv"))
    ap.add_argument("--oracle", metavar="DIR", help="run GPGPU-Sim from DIR on each program first")
    ap.add_argument("--oracle-config", default="SM2_GTX480", help="its config (under DIR/configs)")
    ap.add_argument("--apps", default=os.path.join(ROOT, "build", "cuda-apps"),
                    help="the bundled workloads built as CUDA programs (make cuda-apps)")
    ap.add_argument("--save-ref", metavar="FILE", help="write the fresh GPGPU-Sim times as a stored table")
    ap.add_argument("--readme", nargs="?", const=os.path.join(ROOT, "README.md"), metavar="FILE",
                    help="rewrite the speed table of README.md (or FILE)")
    a = ap.parse_args(argv)
    if a.threads < 2:
        ap.error("--threads must be at least 2")
    if a.rounds < 1 or a.runs < 1:
        ap.error("--rounds and --runs must be at least 1")
    progs = PROGRAMS
    if a.programs:
        progs = []
        for p in a.programs.split(","):
            name, _, inp = p.partition(":")
            progs.append((name, inp or "small", "-"))
    ref = load_reference(a.ref)
    load0 = loadavg()
    print("warpsim %s, preset %s, best of %d runs%s, load average %.2f at the start" % (
        a.bin, a.preset, a.runs, ", %d rounds" % a.rounds if a.rounds > 1 else "", load0), flush=True)
    rounds = []  # per round: program -> that round's row
    fresh, failed = {}, []  # GPGPU-Sim's times (each round's) and the programs it failed on
    for k in range(a.rounds):
        if a.rounds > 1:
            print("round %d of %d (load average %.2f)" % (k + 1, a.rounds, loadavg()), flush=True)
        got = {}
        for prog, inp, kind in progs:
            if (prog, inp) in {(f[0], f[1]) for f in failed}:
                continue  # GPGPU-Sim failed on it in an earlier round: no ratio in any round
            r = ref.get((prog, inp))
            if a.oracle:
                try:
                    gw, gcyc, grss = oracle_once(a.oracle, a.oracle_config, a.apps, prog, inp)
                    r = (gw, grss, None)
                    fresh.setdefault((prog, inp), []).append((gw, gcyc, grss))
                    print("  %-22s %-5s GPGPU-Sim %.2f s (%d cycles, peak RSS %.0f MB)" % (
                        prog, inp, gw, gcyc, grss), flush=True)
                except RuntimeError as e:  # e.g. a kernel GPGPU-Sim cannot run: no time for it
                    r = None
                    failed.append((prog, inp, "not built as a CUDA program" if "not built" in str(e)
                                   else str(e).split(":")[0]))
                    print("  %s" % e, file=sys.stderr, flush=True)
            got[(prog, inp)] = measure_row(a, prog, inp, kind, r)
        rounds.append(got)
    rows = combine_rounds(rounds, progs)
    load1 = loadavg()
    rtt = host_round_trip_ns()
    text = table(rows, a.threads)
    # the load at the end counts these runs themselves (one at a time, two threads for a while):
    # whether other work was running shows at the start
    note = ("Load average %.2f at the start (%s), %.2f at the end, these runs included." % (
        load0, "a quiet machine" if load0 < 1 else "a busy machine: wall-time ratios are not reliable",
        load1))
    if rtt:
        note += (" The host's cross-core round trip (a cache line handed to another thread and "
                 "back, measured after these runs): %.0f ns." % rtt)
    per_round = round_geomeans(rounds)
    if len(rounds) > 1 and per_round:
        note += (" %d rounds, one after another; the table gives each program's median of them. "
                 "GPGPU-Sim / warpsim (one thread, wall) round by round: %s (geometric mean; worst "
                 "program)." % (len(rounds), ", ".join(
                     "%.0fx (%s %.0fx)" % (g, w[1], w[0]) for g, w in per_round)))
    if a.plain:
        gain = geomean([r["wp"] / r["w1"] for r in rows])
        rp = geomean([r["ref"] / r["wp"] for r in rows if r["ref"]])
        note += (" The plain build (`%s`), timed in the same runs: %.2fx the measured build's wall "
                 "time (geometric mean)%s." % (
                     rel(a.plain), gain or 0,
                     ", GPGPU-Sim / warpsim %.0fx" % rp if rp else ""))
    print()
    print(text)
    print()
    print(note)
    no_time = {(f[0], f[1]) for f in failed}
    fresh = [(prog, inp, median([t[0] for t in ts]), ts[0][1], max(t[2] for t in ts))
             for (prog, inp), ts in fresh.items() if (prog, inp) not in no_time]
    if a.save_ref and fresh:
        save_reference(a.save_ref, fresh, failed, ref_rows(a.save_ref), {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "config": a.oracle_config,
            "command": "tools/speed.py " + " ".join(
                rel(x) if os.path.isabs(x) else x for x in (argv if argv is not None else sys.argv[1:])),
            "load": load0, "cores": os.cpu_count() or 0, "nvcc": nvcc_release(),
            "preset": a.preset, "rounds": a.rounds})
    if a.readme:
        source = ("GPGPU-Sim's times measured in the same run, each right before warpsim's runs of "
                  "the program (`--oracle`, config %s)" % a.oracle_config if a.oracle else
                  "GPGPU-Sim's times from tools/speed_gpgpusim.csv")
        bins = ""
        if os.path.abspath(a.bin) != os.path.join(ROOT, "build", "warpsim"):
            bins += " --bin %s" % rel(a.bin)
        if a.plain:
            bins += " --plain %s" % rel(a.plain)
        rewrite_readme(a.readme,
                       text + "\n\n" + note + " Measured by `tools/speed.py%s --threads %d --runs %d%s`; "
                       "%s." % (bins, a.threads, a.runs,
                                (" --rounds %d" % a.rounds if a.rounds > 1 else "") +
                                (" --oracle" if a.oracle else ""), source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
