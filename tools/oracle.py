#!/usr/bin/env python3
"""Run CUDA programs on GPGPU-Sim and on warpsim with the same configs and
compare them statistic by statistic (warpsim_tools/oracle.py).

    tools/oracle.py --gpgpusim RUNNER --configs SM7_QV100,SM2_GTX480 \\
        --out DIR [--programs FILE] [PROGRAM[:ARG,ARG]...] [-j N] [--rerun] \\
        [--markdown docs/timing.md]
    tools/oracle.py --out DIR --tabulate [--markdown docs/timing.md]
    tools/oracle.py --out DIR --warpsim-only [--set 'OPT VALUE'...] [--markdown ...]

RUNNER: GPGPU-Sim's runner script (runs a program under its libcudart in
the current folder's gpgpusim.config). Configs are folders under
--config-root (default tests/data/gpgpusim-configs): both simulators read
the same gpgpusim.config and .icnt. Programs: nvcc-built with -cudart
shared --no-compress (`make cuda-apps` builds the bundled workloads so);
--programs FILE has one "PATH ARGS..." per line. Outputs are kept in
DIR/CONFIG/TAG.{gpgpusim,warpsim}.txt; GPGPU-Sim's are reused unless
--rerun (it is 30-100x slower), warpsim's are always redone unless
--tabulate. --warpsim-only reruns warpsim on the programs DIR already holds
GPGPU-Sim outputs for (before/after a change of the model). The per-program tables are printed; --markdown replaces the
part of FILE between "<!-- oracle:begin -->" and "<!-- oracle:end -->"
with the summary tables.
"""
import argparse
import concurrent.futures
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from warpsim_tools import oracle  # noqa: E402

BEGIN, END = "<!-- oracle:begin -->", "<!-- oracle:end -->"


def read_programs(args):
    progs = []
    if args.programs:
        for line in open(args.programs):
            line = line.split("#", 1)[0].split()
            if line:
                progs.append(line)
    for p in args.program:
        path, _, rest = p.partition(":")
        progs.append([path] + ([a for a in rest.split(",") if a] if rest else []))
    return progs


def one(args, cfg, argv):  # jobs run program by program, every config each
    d = os.path.join(args.out, cfg)
    os.makedirs(d, exist_ok=True)
    tag = oracle.program_tag(argv)
    ref, got = (os.path.join(d, tag + s) for s in (".gpgpusim.txt", ".warpsim.txt"))
    cdir = os.path.join(args.config_root, cfg)
    if not args.tabulate:
        if args.rerun or not os.path.exists(ref):
            oracle.run_gpgpusim(args.gpgpusim, cdir, argv, ref, args.timeout)
        oracle.run_warpsim(args.warpsim, os.path.join(cdir, "gpgpusim.config"), argv, got,
                           args.timeout, args.set or ())
    return cfg, tag


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpgpusim", help="GPGPU-Sim's runner script")
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "warpsim"))
    ap.add_argument("--config-root", default=os.path.join(ROOT, "tests", "data", "gpgpusim-configs"))
    ap.add_argument("--configs", default="SM7_QV100")
    ap.add_argument("--programs")
    ap.add_argument("program", nargs="*")
    ap.add_argument("--out", required=True)
    ap.add_argument("--set", action="append", help="extra warpsim option 'NAME VALUE' (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--rerun", action="store_true")
    ap.add_argument("--tabulate", action="store_true", help="only read DIR's outputs")
    ap.add_argument("--warpsim-only", action="store_true",
                    help="rerun warpsim where DIR has GPGPU-Sim's output")
    ap.add_argument("--timeout", type=int, default=3600)
    ap.add_argument("--markdown")
    args = ap.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    if args.tabulate or args.warpsim_only:
        jobs = [(c, f[:-len(".gpgpusim.txt")]) for c in configs
                if os.path.isdir(os.path.join(args.out, c))
                for f in sorted(os.listdir(os.path.join(args.out, c)))
                if f.endswith(".gpgpusim.txt")]
        if args.warpsim_only:
            progs = {oracle.program_tag(p): p for p in read_programs(args)}
            def again(job):
                cfg, tag = job
                if tag not in progs:
                    print("oracle: %s: not in the program list, not rerun" % tag, file=sys.stderr)
                    return job
                oracle.run_warpsim(args.warpsim, os.path.join(args.config_root, cfg,
                                                              "gpgpusim.config"),
                                   progs[tag], os.path.join(args.out, cfg, tag + ".warpsim.txt"),
                                   args.timeout, args.set or ())
                return job
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
                jobs = list(ex.map(again, jobs))
    else:
        if not args.gpgpusim:
            ap.error("--gpgpusim RUNNER is needed to run programs (or --tabulate)")
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            jobs = list(ex.map(lambda cp: one(args, *cp),
                               [(c, p) for p in read_programs(args) for c in configs]))
    results = {}
    for cfg, tag in jobs:
        base = os.path.join(args.out, cfg, tag)
        try:
            ref = oracle.metrics(oracle.parse_report(open(base + ".gpgpusim.txt").read()))
            got = oracle.metrics(oracle.parse_report(open(base + ".warpsim.txt").read()))
        except OSError as e:
            print("oracle: %s" % e, file=sys.stderr)
            continue
        results[(cfg, tag)] = (ref, got)
        print("== %s on %s" % (tag, cfg))
        print(oracle.text_table(oracle.compare(ref, got)))
        print()
    md = ("Cycles: warpsim error vs GPGPU-Sim (warpsim / GPGPU-Sim cycles)\n\n"
          + oracle.markdown_summary(results, configs)
          + "\nL1D accesses: warpsim error vs GPGPU-Sim\n\n"
          + oracle.access_table(results, configs, "L1D_accesses")
          + "\nL2 accesses: warpsim error vs GPGPU-Sim\n\n"
          + oracle.access_table(results, configs, "L2_accesses"))
    print(md)
    if args.markdown:
        text = open(args.markdown).read()
        a, b = text.find(BEGIN), text.find(END)
        if a < 0 or b < a:
            sys.exit("oracle: %s has no %s ... %s section" % (args.markdown, BEGIN, END))
        text = text[:a + len(BEGIN)] + "\n" + md + text[b:]
        with open(args.markdown + ".tmp", "w") as f:
            f.write(text)
        os.replace(args.markdown + ".tmp", args.markdown)


if __name__ == "__main__":
    main()
