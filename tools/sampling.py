#!/usr/bin/env python3
"""Measure sampled simulation against full detailed runs and write the
acceptance table of docs/sampling.md.

    tools/sampling.py [--input paper|small] [--only W1,W2] [--out DIR] [-j N]
                      [--markdown docs/sampling.md] [--no-run]

With --input paper (the default) the set also has rows on the long inputs
(--input long: programs of many CTA waves), including one sampled both across
and within kernels.

For each workload of the set it runs, on the timing model:
  - the full detailed run (every launch, every CTA);
  - the sampled run: for programs with many launches, the functional
    profiling pass (-warpsim_profile_out) and the run sampled across
    kernels from it (-warpsim_sample_kernels, tags warmed while launches
    run functionally); for long single kernels, sampling within the kernel
    (-warpsim_sample_ipc_tol);
and reports projected vs full total cycles, the wall-time ratio (full /
sampled, the profiling pass included) and whether the error estimate the
sampled run printed covers the measured error. Results are kept in DIR
(default sampling-INPUT/) so that a second call only runs what is missing;
--no-run rebuilds the table from them.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)

from warpsim_tools.common import find_warpsim, repo_dir  # noqa: E402

# (workload, method, label, options[, input]): "kernels" = sampling across kernels (programs
# with many launches), "within" = within a kernel (few, long launches), "both" = across kernels
# with the detailed launches sampled within; a label names a variant with options of its own
# beside the defaults (its full run and profile are the workload's); an input ("long") replaces
# the tool's for that row and is run with --input paper only
FAST = ["-warpsim_sample_threshold 0.3", "-warpsim_sample_per_group 1"]
WORKLOADS = [
    ("rodinia/lud", "kernels", "", []),
    ("rodinia/srad", "within", "", []),
    ("rodinia/hotspot", "within", "", []),
    ("micro/matmul", "within", "", []),
    ("rodinia/gaussian", "kernels", "", []),
    ("rodinia/gaussian", "kernels", "fast", FAST),
    ("rodinia/nw", "kernels", "", []),
    ("rodinia/nw", "kernels", "fast", FAST),
    ("rodinia/gaussian", "kernels", "cold", ["-warpsim_fast_forward_warm 0"]),
    ("polybench/gemm", "within", "", []),
    ("rodinia/bfs", "kernels", "", []),
    ("polybench/gemm", "within", "", [], "long"),
    ("rodinia/hotspot", "within", "", [], "long"),
    ("rodinia/hotspot", "kernels", "g1", ["-warpsim_sample_per_group 1"], "long"),
    ("rodinia/hotspot", "both", "g1", ["-warpsim_sample_per_group 1"], "long"),
]
ACROSS = ["-warpsim_fast_forward_warm 1"]
WITHIN = ["-warpsim_sample_ipc_tol 0.05", "-warpsim_sample_waves 3"]
BEGIN = "<!-- sampling-table:begin (tools/sampling.py writes this table; do not edit) -->"
END = "<!-- sampling-table:end -->"
PROJ = re.compile(r"projected total cycles (\d+) .*?error estimate \+-([0-9.]+)%")


def run(warpsim, args, log):
    """Exit status and the CPU seconds (user + system) of one warpsim run: on a shared machine
    its wall time says more about the other jobs than about the run."""
    with open(log, "w") as f:
        p = subprocess.Popen([warpsim, "run", "-q"] + args, stdout=subprocess.DEVNULL, stderr=f)
        _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, ru.ru_utime + ru.ru_stime


def sets(opts):
    out = []
    for o in opts:
        out += ["--set", o]
    return out


def full_cycles(stats_dir):
    with open(os.path.join(stats_dir, "stats.json")) as f:
        kernels = json.load(f)
    return sum(k.get("gpu_sim_cycle", 0) for k in kernels), len(kernels)


def cached(d, name, fn):
    """CPU seconds of a run kept in d/NAME.json, or of fn() (None: it failed)."""
    path = os.path.join(d, name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            kept = json.load(f)
        if "cpu" in kept:  # null: a run kept from elsewhere whose time was not measured
            return kept["cpu"] if kept["cpu"] is not None else float("nan")
    rc, t = fn()
    if rc:
        return None
    with open(path, "w") as f:
        json.dump({"cpu": t}, f)
    return t


def row_dir(out, workload, method, label, inp=None):
    """Where a row's runs are kept: out/NAME[_INPUT][-LABEL][-both]."""
    d = os.path.join(out, workload.replace("/", "_") + ("_" + inp if inp else ""))
    return d, d + ("-" + label if label else "") + ("-both" if method == "both" else "")


def measure(warpsim, out, inp, workload, method, label, extra, row_input=None):
    """One workload's full and sampled runs (kept in out/NAME[_INPUT][-LABEL]/result.json)."""
    d, sd = row_dir(out, workload, method, label, row_input)
    inp = row_input or inp
    os.makedirs(sd, exist_ok=True)
    res_path = os.path.join(sd, "result.json")
    if os.path.exists(res_path):
        with open(res_path) as f:
            return json.load(f)
    base = [workload, "--input", inp]
    # the full run and the profile do not depend on the sampling options: kept once done
    t_full = cached(d, "full", lambda: run(warpsim, base + ["-o", os.path.join(d, "full")],
                                           os.path.join(d, "full.log")))
    if t_full is None:
        return {"workload": workload, "error": f"full run failed; see {d}/full.log"}
    cycles, launches = full_cycles(os.path.join(d, "full"))
    t_prof = 0.0
    if method in ("kernels", "both"):
        prof = os.path.join(d, "profile.txt")
        t_prof = cached(d, "profile", lambda: run(
            warpsim, base + ["--functional"] + sets([f"-warpsim_profile_out {prof}"]),
            os.path.join(d, "profile.log")))
        if t_prof is None:
            return {"workload": workload, "error": f"profiling pass failed; see {d}/profile.log"}
        opts = [f"-warpsim_sample_kernels {prof}"] + ACROSS + (WITHIN if method == "both" else [])
    else:
        opts = WITHIN
    opts = opts + extra
    slog = os.path.join(sd, "sampled.log")
    rc, t_s = run(warpsim, base + ["-o", os.path.join(sd, "sampled")] + sets(opts), slog)
    if rc:
        return {"workload": workload, "error": f"sampled run failed (status {rc}); see {slog}"}
    with open(slog) as f:
        m = PROJ.search(f.read())
    if not m:
        return {"workload": workload, "error": f"no projection in {slog}"}
    detailed = None
    with open(os.path.join(sd, "sampled", "stats.json")) as f:
        ks = json.load(f)
    detailed = sum(k.get("warpsim_detailed", 1) for k in ks)
    r = {"workload": workload, "input": inp, "method": method, "label": label, "options": extra,
         "launches": launches, "detailed": detailed,
         "full_cycles": cycles, "projected": int(m.group(1)), "estimate": float(m.group(2)) / 100,
         "cpu_full": t_full, "cpu_sampled": t_s + t_prof, "cpu_profile": t_prof}
    with open(res_path, "w") as f:
        json.dump(r, f, indent=1)
    return r


def secs(t):
    return "n/a" if t is None or math.isnan(t) else f"{t:.1f}"


def times(full, part):
    if full is None or math.isnan(full) or math.isnan(part):
        return "n/a"
    return f"{full / max(part, 1e-9):.1f}x"


def table(results, inp, cmd):
    rows = [r for r in results if "error" not in r]
    lines = [f"Input `{inp}` unless a row names another; regenerate with `{cmd}`. Times are CPU seconds (user + system) "
             "of the runs, which is their wall time on an idle machine; the sampled time includes "
             "the profiling pass.", "",
             "| workload | method | launches (detailed) | full cycles | projected | error | "
             "estimate (95%) | covered | full (s) | sampled (s) | speed-up | speed-up, profile "
             "reused |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    errs, covered = [], 0
    for r in rows:
        e = (r["projected"] - r["full_cycles"]) / r["full_cycles"] if r["full_cycles"] else 0
        errs.append(abs(e))
        cov = abs(e) <= r["estimate"]
        covered += cov
        how = {"kernels": "across kernels", "within": "within kernel",
               "both": "across kernels + within kernel"}[r["method"]]
        if r.get("options"):
            how += " (" + ", ".join(f"`{o}`" for o in r["options"]) + ")"
        name = r["workload"] + (f" `{r['input']}`" if r.get("input", inp) != inp else "")
        lines.append(f"| {name} | {how} "
                     f"| {r['launches']} ({r['detailed']}) | {r['full_cycles']} | {r['projected']} "
                     f"| {100 * e:+.2f}% | +-{100 * r['estimate']:.2f}% | {'yes' if cov else 'no'} "
                     f"| {secs(r['cpu_full'])} | {secs(r['cpu_sampled'])} "
                     f"| {times(r['cpu_full'], r['cpu_sampled'])} "
                     f"| {times(r['cpu_full'], r['cpu_sampled'] - r['cpu_profile'])} |")
    for r in results:
        if "error" in r:
            lines.append(f"| {r['workload']} | failed: {r['error']} ||||||||||")
    if errs:
        lines += ["", f"Mean absolute error {100 * sum(errs) / len(errs):.2f}%, largest "
                  f"{100 * max(errs):.2f}%; the error estimate covers the measured error in "
                  f"{covered} of {len(rows)} rows."]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--input", default="paper", choices=["small", "paper"])
    ap.add_argument("--only", help="comma-separated workloads of the set")
    ap.add_argument("--out", help="results folder (default sampling-INPUT)")
    ap.add_argument("-j", type=int, default=1, help="workloads measured at once")
    ap.add_argument("--markdown", help="file whose sampling table to replace (docs/sampling.md)")
    ap.add_argument("--no-run", action="store_true", help="only rebuild the table from kept results")
    ap.add_argument("--default-only", action="store_true", help="no variants (labelled rows)")
    a = ap.parse_args()
    warpsim = find_warpsim()
    out = a.out or f"sampling-{a.input}"
    todo = [w if len(w) == 5 else w + (None,) for w in WORKLOADS]
    todo = [w for w in todo if not w[4] or a.input == "paper"]
    if a.only:
        names = a.only.split(",")
        todo = [w for w in WORKLOADS if w[0] in names or w[0].split("/")[1] in names]
    todo = [w for w in todo if not a.default_only or not w[2]]
    if a.no_run:
        results = []
        for w, method, label, _, row_input in todo:
            p = os.path.join(row_dir(out, w, method, label, row_input)[1], "result.json")
            if os.path.exists(p):
                with open(p) as f:
                    results.append(json.load(f))
    else:
        # variants after the runs they share (the full run and the profile)
        with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
            first = list(ex.map(lambda w: measure(warpsim, out, a.input, *w),
                                [w for w in todo if not w[2]]))
        with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
            later = list(ex.map(lambda w: measure(warpsim, out, a.input, *w),
                                [w for w in todo if w[2]]))
        results = first + later
    cmd = "tools/sampling.py" + (f" --input {a.input}" if a.input != "paper" else "")
    text = table(results, a.input, cmd)
    print(text, end="")
    if a.markdown:
        path = a.markdown if os.path.isabs(a.markdown) else os.path.join(repo_dir(), a.markdown)
        with open(path) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"{path} has no sampling table markers")
        head, rest = doc.split(BEGIN, 1)
        doc = head + BEGIN + "\n" + text + END + rest.split(END, 1)[1]
        with open(path + ".tmp", "w") as f:
            f.write(doc)
        os.replace(path + ".tmp", path)
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
