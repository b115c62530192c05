#!/usr/bin/env python3
"""Training runs for `make pgo` (the profile-guided build), and the check that the
optimised build reports exactly what the instrumented one did.

The training set is bundled workloads that tools/speed.py does NOT time, so that
the speed table measures the optimised build on programs it was not trained on.
It covers the Fermi presets, the post-Fermi sub-core pipeline, the functional
engine and the parallel cycle (two threads).

  tools/pgo_train.py --bin B --out DIR          run the training set, keep each stats.json
  tools/pgo_train.py --bin B --out DIR2 --check DIR
                                                run it again and fail unless every
                                                statistic matches DIR's (host times aside)
"""
import argparse
import json
import os
import subprocess
import sys

# (workload, preset, extra arguments); small inputs
TRAINING = [
    ("rodinia/hotspot", "gtx480-v4", []),
    ("rodinia/backprop", "gtx480-v4", []),
    ("rodinia/pathfinder", "gtx480-v4", []),
    ("rodinia/nw", "gtx480-v4", []),
    ("rodinia/srad", "gtx480-v4", []),
    ("rodinia/lud", "gtx480-v4", []),
    ("rodinia/bfs", "gtx480-v4", []),
    ("sdk/blackscholes", "gtx480-v4", []),
    ("sdk/convsep", "gtx480-v4", []),
    ("sdk/transpose_shared", "gtx480-v4", []),
    ("micro/bfs", "gtx480-v4", []),
    ("ispass/cp", "gtx480-v4", []),
    ("shoc/spmv", "gtx480-v4", []),
    ("rodinia/hotspot", "gtx480", []),
    ("sdk/convsep", "gtx480", []),
    ("rodinia/hotspot", "qv100", []),
    ("rodinia/backprop", "qv100", []),
    ("shoc/spmv", "titanv", []),
    ("rodinia/pathfinder", "rtx2060", []),
    ("rodinia/backprop", "gtx480-v4", ["--set", "-warpsim_threads 2"]),
    ("rodinia/hotspot", "gtx480-v4", ["--functional"]),
    ("sdk/blackscholes", "gtx480-v4", ["--functional"]),
]

HOST_KEYS = ("wall", "rate", "per_sec", "host")


def strip_host(o):
    """The statistics without host-side times and rates (they differ run to run)."""
    if isinstance(o, dict):
        return {k: strip_host(v) for k, v in o.items() if not any(s in k for s in HOST_KEYS)}
    if isinstance(o, list):
        return [strip_host(v) for v in o]
    return o


def run_set(binary, out):
    for i, (w, preset, extra) in enumerate(TRAINING):
        d = os.path.join(out, "%02d" % i)
        cmd = [binary, "run", "-q", "--preset", preset, "-o", d, w, "--input", "small"] + extra
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            sys.exit("pgo_train: %s failed (rc %d): %s" % (" ".join(cmd), r.returncode, r.stderr[-2000:]))


def compare(a, b):
    bad = []
    for i, (w, preset, extra) in enumerate(TRAINING):
        pa, pb = (os.path.join(x, "%02d" % i, "stats.json") for x in (a, b))
        with open(pa) as fa, open(pb) as fb:
            if strip_host(json.load(fa)) != strip_host(json.load(fb)):
                bad.append("%s %s %s" % (w, preset, " ".join(extra)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", metavar="DIR", help="statistics that every run must match")
    args = ap.parse_args()
    run_set(args.bin, args.out)
    if args.check:
        bad = compare(args.check, args.out)
        if bad:
            sys.exit("pgo_train: the optimised build's statistics differ from the instrumented build's on: "
                     + "; ".join(bad))
        print("pgo_train: %d runs, statistics identical to the instrumented build's" % len(TRAINING))


if __name__ == "__main__":
    main()
