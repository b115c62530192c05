#!/usr/bin/env python3
"""Fidelity and speed of the timing model against GPGPU-Sim's reference runs.

Runs the reference programs (vectoradd 65536 and 1048576, matmul 128 and
256; built by nvcc 13 with -cudart shared, PTX only) under warpsim's CUDA
runtime shim with GPGPU-Sim's own GTX480 config files, and prints a table:
gpu_sim_cycle, L1D accesses and L1D miss rate next to GPGPU-Sim's numbers,
with the errors the issue bounds (cycles within 10%, L1D accesses within
5%, miss rate within 0.05). Then it times matmul 256 in timing and in
functional-only mode and reports simulated cycles/s, warp- and
thread-instructions/s and the ratio of the two modes.

Not a test: a timing run of matmul 256 takes seconds. Usage:
    tools/fidelity.py [--ref DIR] [--bin DIR] [--build DIR]
--ref: the folder with gpgpusim.config and stats/ (default
tests/data/gpgpusim-configs/SM2_GTX480, committed with its provenance).
--bin: folder with the programs vectoradd and matmul (default: build them
with nvcc into the build folder when a full nvcc exists, else the prebuilt
binaries in tests/data/driver/nvcc13/).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RUNS = [("vectoradd", "65536", "vectoradd.txt"),
        ("vectoradd", "1048576", "vectoradd-1048576.txt"),
        ("matmul", "128", "matmul-128.txt"),
        ("matmul", "256", "matmul-256.txt")]


def parse_stats(text):
    """Last value of each 'name = value' line (GPGPU-Sim and warpsim reports)."""
    stats = {}
    for m in re.finditer(r"^\s*([A-Za-z_][\w\[\]]*)\s*=\s*([-+0-9.eE]+|-?nan|inf)", text, re.M):
        try:
            stats[m.group(1)] = float(m.group(2))
        except ValueError:
            pass
    return stats


def find_programs(args):
    if args.bin:
        return {n: os.path.join(args.bin, n) for n in ("vectoradd", "matmul")}
    apps = os.path.join(ROOT, "tests", "data", "ptx")
    nvcc = shutil.which("nvcc")
    if nvcc:
        out = os.path.join(args.build, "fidelity-apps")
        os.makedirs(out, exist_ok=True)
        ok = True
        for n in ("vectoradd", "matmul"):
            r = subprocess.run([nvcc, "-O2", "-cudart", "shared", "-gencode",
                                "arch=compute_75,code=compute_75", "--no-compress", "-o",
                                os.path.join(out, n), os.path.join(apps, n + ".cu")],
                               capture_output=True, text=True)
            ok &= r.returncode == 0
        if ok:
            return {n: os.path.join(out, n) for n in ("vectoradd", "matmul")}
        print("note: nvcc cannot build host programs here; using the prebuilt binaries",
              file=sys.stderr)
    pre = os.path.join(ROOT, "tests", "data", "driver", "nvcc13")
    return {n: os.path.join(pre, n + "_nc") for n in ("vectoradd", "matmul")}


def run(prog, arg, env_extra, build):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(build, "lib")
    env.update(env_extra)
    t0 = time.perf_counter()
    r = subprocess.run([prog, arg], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode != 0 or "PASS" not in r.stdout:
        sys.exit("%s %s failed (exit %d):\n%s\n%s" % (prog, arg, r.returncode, r.stdout[-2000:],
                                                        r.stderr[-2000:]))
    return parse_stats(r.stdout), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", default=os.path.join(ROOT, "tests", "data", "gpgpusim-configs",
                                                  "SM2_GTX480"))
    ap.add_argument("--bin")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    cfg = os.path.join(args.ref, "gpgpusim.config")
    if not os.path.exists(cfg):
        sys.exit("reference config not found: " + cfg)
    progs = find_programs(args)
    timing = {"WARPSIM_FUNCTIONAL": "0", "WARPSIM_CONFIG": cfg}
    print("| run | GPGPU-Sim cycles | warpsim cycles | error | L1D accesses (ref / ws) | "
          "L1D miss rate (ref / ws) | gpu_sim_insn (ref / ws) |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for prog, arg, ref_file in RUNS:
        with open(os.path.join(args.ref, "stats", ref_file)) as f:
            ref = parse_stats(f.read())
        ws, _ = run(progs[prog], arg, timing, args.build)
        rc, wc = ref.get("gpu_sim_cycle", 0), ws.get("gpu_sim_cycle", 0)
        err = (wc - rc) / rc if rc else float("nan")
        worst = max(worst, abs(err))
        print("| %s %s | %d | %d | %+.1f%% | %d / %d | %.4f / %.4f | %d / %d |" % (
            prog, arg, rc, wc, 100 * err, ref.get("L1D_total_cache_accesses", 0),
            ws.get("L1D_total_cache_accesses", 0), ref.get("L1D_total_cache_miss_rate", 0),
            ws.get("L1D_total_cache_miss_rate", 0), ref.get("gpu_sim_insn", 0),
            ws.get("gpu_sim_insn", 0)))
    print("\nworst cycle error: %.1f%% (bound 10%%, aim 5%%)" % (100 * worst))

    # speed on matmul 256: timing vs functional-only, same machine, same run
    ws, wall_t = run(progs["matmul"], "256", dict(timing, WARPSIM_QUIET="0"), args.build)
    _, wall_f = run(progs["matmul"], "256", {"WARPSIM_FUNCTIONAL": "1", "WARPSIM_QUIET": "1"},
                    args.build)
    cyc = ws.get("gpu_sim_cycle", 0)
    winst = ws.get("gpu_sim_warp_insn", ws.get("gpgpu_n_tot_w_icount", 0))
    tinst = ws.get("gpu_sim_insn", 0)
    print("\nspeed, matmul 256 (process wall time, one core):")
    print("  timing model: %.2f s, %.0f simulated cycles/s, %.2f M warp-insts/s, "
          "%.1f M thread-insts/s" % (wall_t, cyc / wall_t, winst / wall_t / 1e6,
                                    tinst / wall_t / 1e6))
    print("  functional only: %.2f s; timing / functional = %.1fx" % (wall_f, wall_t / wall_f))
    print("  GPGPU-Sim took 103.9 s for this run on a machine of this kind: %.0fx faster" %
          (103.9 / wall_t))


if __name__ == "__main__":
    main()
