"""Seed 004: Turner, "On Replay and Hazards in Graphics Processing Units"
(UBC MASc thesis, 2012): stall vs replay on memory-stage hazards, hazard
prediction, and the thesis's checks (its section 11 list, checks 5-18).

    tools/reproduce.py seed004 [--input small|paper] [--cap N_INSNS] [-j N]
                       [--sweep-dir DIR] [--only W1,W2] [--no-run] [--markdown FILE]

Every run uses the turner preset (the thesis's Table 4.2 machine). The 28
benchmarks of its Table 4.1 map to bundled workloads (BENCHMARKS); the
configurations (CONFIGS) cover its experiment matrix: stall and replay,
operand-collector organisations, one or two schedulers, 32/64/128 L1D
MSHRs, and hazard prediction {naive, credit} x {false, true, pc, oracle}
with replay and without. Runs go to sweeps/seed004-INPUT[-capN]/CONFIG/
BENCH/ (stats.json); running again reuses finished runs.

Speedups compare cycles: every configuration executes the same instructions
(replays are not instructions), so IPC(cfg)/IPC(base) = cycles(base)/cycles(cfg).
"""
import concurrent.futures
import json
import math
import os
import subprocess
import sys

from warpsim_tools.common import find_warpsim, repo_dir

# thesis abbreviation -> bundled workload
BENCHMARKS = [
    ("AES", "ispass/aes"), ("BACKP", "rodinia/backprop"), ("BFS2", "rodinia/bfs"),
    ("BLK", "sdk/blackscholes"), ("CFD", "rodinia/cfd"), ("CP", "ispass/cp"),
    ("FWT", "sdk/fastwalsh"), ("HOTSP", "rodinia/hotspot"), ("HRTWL", "rodinia/heartwall"),
    ("KMN", "rodinia/kmeans"), ("LIB", "ispass/lib"), ("LKYT", "rodinia/leukocyte"),
    ("LPS", "ispass/lps"), ("LUD", "rodinia/lud"), ("MAT", "sdk/matmul_shared"),
    ("MGST", "rodinia/mergesort"), ("MUM", "ispass/mum"), ("NDL", "rodinia/nw"),
    ("NNC", "rodinia/nn"), ("NN", "ispass/nn"), ("RAY", "ispass/ray"), ("SRAD", "rodinia/srad"),
    ("SS", "mars/similarityscore"), ("STMCL", "rodinia/streamcluster"), ("STO", "ispass/sto"),
    ("TR", "sdk/transpose_shared"), ("TR_naive", "sdk/transpose_naive"), ("WP", "ispass/wp"),
]

# Per benchmark settings on top of every configuration: HRTWL's CTA needs 33400 B of shared
# memory, more than the thesis's printed "26k" (its spec's sensitivity setting, 48 KB).
BENCH_SETS = {"HRTWL": ["-gpgpu_shmem_size 49152"]}

REPLAY = ["-warpsim_hazard_mode replay"]
L1D = "64:128:6,L:L:m:N,A:{}:8,8"
CONFIGS = {
    "stall": [],
    "replay": REPLAY,
    "retain": ["-warpsim_hazard_mode retain"],
    # a pass makes all its accesses (one per cycle) and replays only what a resource hazard
    # stopped: the thesis leaves open how many accesses one pass may make
    "replay-passall": REPLAY + ["-warpsim_replay_pass_accesses 128"],
    "stall-gen16": ["-warpsim_oc gen16"],
    "stall-sep4-2-2": ["-warpsim_oc sep4-2-2"],
    "replay-sep4-2-2": REPLAY + ["-warpsim_oc sep4-2-2"],
    "stall-1sched": ["-gpgpu_num_sched_per_core 1"],
    "replay-1sched": REPLAY + ["-gpgpu_num_sched_per_core 1"],
    "replay-mshr64": REPLAY + ["-gpgpu_cache:dl1 " + L1D.format(64)],
    "replay-mshr128": REPLAY + ["-gpgpu_cache:dl1 " + L1D.format(128)],
    "stall-credit-true": ["-warpsim_hp_predictor true"],
    "stall-credit-pc": ["-warpsim_hp_predictor pc"],
}
# the thesis's {naive, credit} x {false, true, pc, oracle} with replay
for _t in ("credit", "naive"):
    for _p in ("false", "true", "pc", "oracle"):
        CONFIGS[f"replay-{_t}-{_p}"] = REPLAY + [f"-warpsim_hp_predictor {_p}",
                                                 f"-warpsim_hp_tracker {_t}"]
HP_REPLAY = [c for c in CONFIGS if c.startswith("replay-naive") or c.startswith("replay-credit")]

# on top of every run: the thesis's Fig 7.12 statistic (it only looks: cycles do not change)
COMMON_SETS = ["-warpsim_mshr_idle_stat 1"]

# statistics runs of older builds lack (their checks say n/a)
NEWER = {"warpsim_mshr_idle_demand", "warpsim_sched_issue1", "warpsim_sched_issue2"}
SUM = ["gpu_sim_cycle", "gpu_sim_insn", "warpsim_warp_insts_mem", "warpsim_oc_blocked_cycles",
       "warpsim_replay_issues", "warpsim_replay_mshr_again", "warpsim_hp_restrict",
       "warpsim_hp_ptt", "warpsim_hp_ptf", "warpsim_hp_pft", "warpsim_hp_pff",
       "L1D_total_cache_accesses_kernel", "L1D_total_cache_misses_kernel"] + \
    [f"warpsim_hazard_{k}" for k in ("div", "bank", "mshr", "comq", "rsv")] + \
    ["warpsim_mshr_idle_demand", "warpsim_sched_issue1", "warpsim_sched_issue2"] + \
    [f"warpsim_stall_{k}" for k in ("idle", "scoreboard", "pipeline", "barrier", "ibuffer")]
# program totals (each kernel's record carries the running total: the last one is the run's)
LAST = {"l1d_entry": "L1D_fail_MSHR_ENTRY_FAIL", "l1d_merge": "L1D_fail_MSHR_MERGE_FAIL",
        "l1d_mq": "L1D_fail_MISS_QUEUE_FULL", "l1d_line": "L1D_fail_LINE_ALLOC_FAIL",
        "l1c_fail": "Total_core_cache_stats_breakdown_CONST_ACC_R_RESERVATION_FAIL"}
N_SMS = 10
ALU_RATE = 2  # the thesis's 2 ALUs (its section 3.5 leaves 2 or 3 open)


# ---- running ------------------------------------------------------------------------------
def run_dir(sweep, cfg, abbr):
    return os.path.join(sweep, cfg, abbr)


def run_one(warpsim, sweep, cfg, abbr, wl, inp, cap):
    d = run_dir(sweep, cfg, abbr)
    if os.path.exists(os.path.join(d, "stats.json")):
        return cfg, abbr, "cached"
    os.makedirs(d, exist_ok=True)
    cmd = [warpsim, "run", "-q", "-o", d, "--preset", "turner", "--input", inp]
    for s in COMMON_SETS + BENCH_SETS.get(abbr, []) + CONFIGS[cfg]:
        cmd += ["--set", s]
    if cap:
        cmd += ["--max-insn", str(cap)]
    cmd.append(wl)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    except OSError as e:  # the binary being rebuilt under a long sweep
        return cfg, abbr, f"failed ({e})"
    with open(os.path.join(d, "log.txt"), "w") as f:
        f.write(" ".join(cmd) + "\n" + p.stdout)
    if p.returncode != 0 and not os.path.exists(os.path.join(d, "stats.json")):
        return cfg, abbr, f"failed ({p.returncode})"
    return cfg, abbr, "ran"


def run_all(sweep, inp, cap, jobs, benches):
    warpsim = find_warpsim()
    todo = [(c, a, w) for c in CONFIGS for a, w in benches]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(run_one, warpsim, sweep, c, a, w, inp, cap) for c, a, w in todo]
        done = 0
        for f in concurrent.futures.as_completed(futs):
            c, a, st = f.result()
            done += 1
            if st.startswith("failed"):
                sys.stderr.write(f"reproduce: {c} {a}: {st}\n")
            if done % 50 == 0:
                sys.stderr.write(f"reproduce: {done}/{len(todo)} runs\n")


def load(sweep, cfg, abbr):
    """Per-run totals over its kernels (None when the run has no stats)."""
    p = os.path.join(run_dir(sweep, cfg, abbr), "stats.json")
    try:
        with open(p) as f:
            ks = json.load(f)
    except (OSError, ValueError):
        return None
    t = {n: 0.0 for n in SUM}
    t["new_cycles"] = 0.0
    for k in ks:
        for n in SUM:
            if n in NEWER and n not in k:
                t[n] = None  # a run made before the statistic existed
            elif t[n] is not None:
                t[n] += k.get(n) or 0
        t["new_cycles"] += predicted_new_cycles(k)
    for n, key in LAST.items():
        t[n] = (ks[-1].get(key) or 0) if ks else 0
    return t


# ---- the thesis's section 3.5 ---------------------------------------------------------------
def predicted_new_cycles(k, n_sms=N_SMS, alu_rate=ALU_RATE):
    """A stalling kernel's cycles less the blocked cycles that ALU work could
    have filled: old - min(blocked, ALU_inst / ALU_rate), per core (the
    counters are summed over the SMs: divided by their number)."""
    old = k.get("gpu_sim_cycle") or 0
    blocked = (k.get("warpsim_oc_blocked_cycles") or 0) / n_sms
    alu = ((k.get("gpu_sim_warp_insn") or 0) - (k.get("warpsim_warp_insts_mem") or 0)) / n_sms
    return old - min(blocked, max(alu, 0) / alu_rate)


def predicted_max_speedup(old_cycles, new_cycles):
    """old / new - 1 (the thesis prints new / old - 1, which is negative)."""
    return old_cycles / new_cycles - 1 if new_cycles > 0 else float("nan")


# ---- analysis -------------------------------------------------------------------------------
class Data:
    def __init__(self, sweep, benches):
        self.b = [a for a, _ in benches]
        self.r = {(c, a): load(sweep, c, a) for c in CONFIGS for a in self.b}

    def get(self, c, a, n):
        r = self.r.get((c, a))
        return None if r is None else r.get(n)

    def speedup(self, c, a, base="stall"):
        x, y = self.get(base, a, "gpu_sim_cycle"), self.get(c, a, "gpu_sim_cycle")
        return x / y - 1 if x and y else None

    def predmax(self, a):
        o, n = self.get("stall", a, "gpu_sim_cycle"), self.get("stall", a, "new_cycles")
        return predicted_max_speedup(o, n) if o and n else None

    def issue_cycles(self, c, a):
        """Scheduler cycles that issued (issue1 + issue2), or None."""
        i1, i2 = self.get(c, a, "warpsim_sched_issue1"), self.get(c, a, "warpsim_sched_issue2")
        return None if i1 is None or i2 is None else i1 + i2

    def issues(self, c, a):
        w = self.get(c, a, "gpu_sim_insn")
        r = self.get(c, a, "warpsim_replay_issues")
        wi = self.get(c, a, "warpsim_warp_insts_mem")
        return None if w is None else (r or 0), wi


def pct(v):
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{100 * v:+.1f}%"


def pearson(xs, ys):
    pts = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
    if len(pts) < 3:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    sx = math.sqrt(sum((x - mx) ** 2 for x, _ in pts))
    sy = math.sqrt(sum((y - my) ** 2 for _, y in pts))
    return sxy / (sx * sy) if sx and sy else None


def direction(d, names, cfg, base, want_pos):
    """'k of n' benchmarks whose speedup of cfg over base has the wanted sign."""
    got = [(a, d.speedup(cfg, a, base)) for a in names]
    got = [(a, s) for a, s in got if s is not None]
    ok = [a for a, s in got if (s > 0) == want_pos]
    return len(ok), len(got), ", ".join(f"{a} {pct(s)}" for a, s in got)


def verdict(holds):
    return "n/a" if holds is None else ("holds" if holds else "differs")


def checks(d):
    """(number, claim, verdict, measured) for checks 5-18."""
    out = []
    have = [a for a in d.b if d.get("stall", a, "gpu_sim_cycle") and d.get("replay", a, "gpu_sim_cycle")]
    # 5
    bs = sum(d.get("stall", a, "warpsim_oc_blocked_cycles") for a in have)
    br = sum(d.get("replay", a, "warpsim_oc_blocked_cycles") for a in have)
    nb = sum(1 for a in have if d.get("stall", a, "warpsim_oc_blocked_cycles") > 0)
    out.append((5, "stalling blocks the operand collector (blocked_cycles > 0); replay removes it",
                verdict(bs > 0 and br < 0.05 * bs),
                f"blocked cycles (sum over SMs) stall {bs:.0f} in {nb}/{len(have)} benchmarks, "
                f"replay {br:.0f}"))
    # 6
    k1, n1, t1 = direction(d, ["BFS2", "CFD", "NNC", "TR_naive"], "replay", "stall", True)
    k2, n2, t2 = direction(d, ["LUD", "MGST"], "replay", "stall", False)
    k1a, n1a, t1a = direction(d, ["BFS2", "CFD", "NNC", "TR_naive"], "replay-passall", "stall", True)
    out.append((6, "replay speeds up BFS2, CFD, NNC, TR_naive and slows LUD, MGST",
                verdict(k1 + k2 >= (n1 + n2) * 3 / 4 if n1 + n2 else None),
                f"faster {k1}/{n1} ({t1}); slower {k2}/{n2} ({t2}); with all accesses of a pass "
                f"(replay-passall) faster {k1a}/{n1a} ({t1a})"))
    # 7
    ret = [(d.speedup("retain", a), a) for a in have]
    ret = sorted((s, a) for s, a in ret if s is not None)
    little = sum(1 for s, _ in ret if s > -0.05)
    worst = [a for _, a in ret[:4]]
    out.append((7, "warp-buffer retention without replay costs little for most; LUD, NDL lose most",
                verdict(bool(ret) and little > len(ret) / 2 and ("LUD" in worst or "NDL" in worst)),
                f"retain within 5% of stalling: {little}/{len(ret)}; worst four: " +
                ", ".join(f"{a} {pct(s)}" for s, a in ret[:4]) +
                f"; LUD {pct(d.speedup('retain', 'LUD'))}, NDL {pct(d.speedup('retain', 'NDL'))}, "
                f"NNC {pct(d.speedup('retain', 'NNC'))}"))
    # 8
    near, gen_ge, n8 = 0, 0, 0
    for a in have:
        c = {x: d.get(x, a, "gpu_sim_cycle") for x in ("stall", "stall-gen16", "stall-sep4-2-2")}
        if None in c.values() or 0 in c.values():
            continue
        n8 += 1
        best = min(c.values())
        near += c["stall"] <= best * 1.05
        gen_ge += c["stall"] <= c["stall-sep4-2-2"]
    k3, n3, t3 = direction(d, ["NNC", "CFD", "MUM"], "stall-sep4-2-2", "stall", True)
    out.append((8, "gen8 within 5% of the best OC for most; generic >= separated at equal slots; "
                   "separated helps NNC, CFD, MUM",
                verdict(n8 and near > n8 / 2 and gen_ge > n8 / 2 and k3 >= 2),
                f"gen8 within 5% of best of gen8/gen16/sep4-2-2 (stalling): {near}/{n8}; "
                f"gen8 >= sep4-2-2: {gen_ge}/{n8}; sep4-2-2 over gen8: {t3}"))
    # 9
    names9 = ["AES", "BFS2", "CFD", "MUM", "NNC", "SRAD", "WP"]
    more = []
    for a in names9:
        s = d.speedup("stall", a, "stall-1sched")
        r = d.speedup("replay", a, "replay-1sched")
        if s is not None and r is not None:
            more.append((a, r > s, s, r))
    k9 = sum(1 for m in more if m[1])
    out.append((9, "2 schedulers help replay more than stalling (AES, BFS2, CFD, MUM, NNC, SRAD, WP)",
                verdict(k9 > len(more) / 2 if more else None),
                f"{k9}/{len(more)}: " + ", ".join(f"{a} stall {pct(s)} replay {pct(r)}"
                                                   for a, _, s, r in more)))
    # 10
    moved, dip = [], []
    for a in ("BFS2", "CFD", "STMCL"):
        m = [d.get(c, a, "warpsim_hazard_mshr") for c in ("replay", "replay-mshr64", "replay-mshr128")]
        q = [d.get(c, a, "warpsim_hazard_comq") for c in ("replay", "replay-mshr64", "replay-mshr128")]
        if None in m or None in q:
            continue
        moved.append((a, m[2] < m[0] and q[2] > q[0], m, q))
    largest = sum(1 for a in have if max((d.get("replay", a, f"warpsim_hazard_{k}"), k)
                                         for k in ("div", "bank", "mshr", "comq", "rsv"))[1] == "mshr")
    ipc = [d.speedup("replay-mshr128", a, "replay") for a in have]
    ipc = [x for x in ipc if x is not None]
    small = sum(1 for x in ipc if abs(x) < 0.05)
    out.append((10, "32->64->128 MSHRs move replays from MSHR to COMQ (BFS2, CFD, STMCL); IPC "
                    "changes little; MSHR is the largest hazard class for most",
                verdict(bool(moved) and sum(1 for m in moved if m[1]) >= 2 and small > len(ipc) / 2
                        and largest > len(have) / 2),
                "; ".join(f"{a} MSHR {m[0]:.0f}/{m[1]:.0f}/{m[2]:.0f} COMQ {q[0]:.0f}/{q[1]:.0f}/"
                          f"{q[2]:.0f}" for a, _, m, q in moved) +
                f"; |IPC change| < 5% at 128: {small}/{len(ipc)}; MSHR largest (replay): "
                f"{largest}/{len(have)}"))
    # 11
    infl = []
    for a in have:
        w = d.get("replay", a, "gpu_sim_insn")
        r = d.get("replay", a, "warpsim_replay_issues")
        wi = d.get("replay", a, "warpsim_warp_insts_mem")
        if wi:
            infl.append((r / wi, a))
    infl.sort(reverse=True)
    top = [a for _, a in infl[:8]]
    named = ["AES", "FWT", "CFD", "BFS2", "SS"]
    hit = [a for a in named if a in top]
    short = [a for a in named if d.speedup("replay", a) is not None and d.predmax(a) is not None
             and d.speedup("replay", a) < d.predmax(a)]
    out.append((11, "replays inflate issue most for AES, FWT, CFD, BFS2, SS, which fall short of "
                    "their predicted maximum",
                verdict(len(hit) >= 3 and len(short) >= 3),
                f"top 8 by replays per memory instruction: {', '.join(top)}; of the five named, "
                f"in it: {len(hit)}, below predicted max: {', '.join(short) or 'none'}"))
    # 12
    best_rp, best_st, cf_slow = [], [], 0
    for a in have:
        sp = [(d.speedup(c, a, "replay"), c) for c in HP_REPLAY]
        sp = [x for x in sp if x[0] is not None]
        if sp:
            best_rp.append((max(sp)[0], a, max(sp)[1]))
        ss = [(d.speedup(c, a), c) for c in HP_REPLAY]
        ss = [x for x in ss if x[0] is not None]
        if ss:
            best_st.append((max(ss)[0], a, max(ss)[1]))
        cf = d.speedup("replay-credit-false", a, "replay")
        cf_slow += cf is not None and cf < -0.01
    best_rp.sort(reverse=True)
    best_st.sort(reverse=True)
    orc = [a for a in ("BFS2", "CFD") if d.speedup("replay-credit-oracle", a, "replay") is not None
           and d.speedup("replay-credit-oracle", a, "replay") >= max(
               d.speedup(c, a, "replay") or -1 for c in HP_REPLAY if "oracle" not in c)]
    mshr_cut = [(a, d.get("replay-credit-false", a, "warpsim_hazard_mshr"),
                 d.get("replay-naive-false", a, "warpsim_hazard_mshr")) for a in ("BFS2", "CFD")]
    credit_cuts = sum(1 for _, c, n in mshr_cut if c is not None and n is not None and c <= n)
    top_rp = best_rp[0] if best_rp else (None, "-", "-")
    top_st = best_st[0] if best_st else (None, "-", "-")
    out.append((12, "best HP over replay small (<= ~3-4%, in BFS2/CFD); best over stalling ~13%; "
                    "oracle best on BFS2, CFD; credit cuts MSHR replays more than naive",
                verdict(top_rp[0] is not None and top_rp[0] <= 0.05 and credit_cuts >= 1),
                f"best over replay {pct(top_rp[0])} ({top_rp[1]}, {top_rp[2]}); best over stalling "
                f"{pct(top_st[0])} ({top_st[1]}, {top_st[2]}); credit-false slower than replay "
                f"by >1% on {cf_slow}/{len(have)}; oracle best on {', '.join(orc) or 'neither'} of "
                f"BFS2/CFD; MSHR squashes credit/naive false: " +
                ", ".join(f"{a} {c:.0f}/{n:.0f}" for a, c, n in mshr_cut if c is not None and n is not None)))
    # 13
    def issue_count(c, a):
        w = d.get(c, a, "gpu_sim_insn")
        if w is None:
            return None
        # issued warp instructions: first issues (thread insts / 32 is not exact: use the
        # memory counts) + reissues; the reduction concerns the reissues' share
        return d.get(c, a, "warpsim_warp_insts_mem") + d.get(c, a, "warpsim_replay_issues")
    def cut(f, c):
        x, y = f("replay", "CFD"), f(c, "CFD")
        return 1 - y / x if x and y is not None else None
    hp2 = ("replay-credit-false", "replay-credit-oracle")
    r13 = [(c, cut(issue_count, c)) for c in hp2]
    # the thesis's metric (Fig 7.14): scheduler cycles that issued (issue1 + issue2)
    c13 = [(c, cut(lambda c, a: d.issue_cycles(c, a), c)) for c in hp2]
    v13 = c13 if c13[0][1] is not None and c13[1][1] is not None else r13
    out.append((13, "credit false cuts CFD's issue cycles by ~50% vs replay, most of oracle's cut",
                verdict(v13[0][1] is not None and v13[0][1] > 0.25 and v13[1][1] is not None and
                        v13[0][1] >= 0.5 * v13[1][1]),
                "CFD issue cycles (issue1 + issue2) cut: " +
                ", ".join(f"{c} {pct(v)}" for c, v in c13) +
                "; memory issues (first issues + reissues) cut: " +
                ", ".join(f"{c} {pct(v)}" for c, v in r13)))
    # 14
    acc = []
    for a in ("BFS2", "CFD"):
        v = [d.get("replay-credit-pc", a, f"warpsim_hp_{k}") for k in ("ptt", "ptf", "pft", "pff")]
        if None in v or not sum(v):
            continue
        s = sum(v)
        acc.append((a, [x / s for x in v]))
    out.append((14, "PC predictor on BFS2/CFD: pft ~0.26-0.27, ptf < 0.02, pff ~0.63/0.71",
                verdict(bool(acc) and all(f[1] < 0.02 and 0.15 < f[2] < 0.4 for _, f in acc)),
                "; ".join(f"{a} ptt {f[0]:.3f} ptf {f[1]:.3f} pft {f[2]:.3f} pff {f[3]:.3f}"
                          for a, f in acc)))
    # 15
    k5, n5, t5 = direction(d, ["CFD", "CP", "FWT", "LPS", "SRAD", "SS", "STMCL"],
                           "stall-credit-true", "stall", True)
    mg = d.speedup("stall-credit-pc", "MGST", "stall-credit-true")
    out.append((15, "HP without replay: credit true helps CFD, CP, FWT, LPS, SRAD, SS, STMCL; "
                    "credit pc > credit true on MGST",
                verdict(n5 and k5 > n5 / 2),
                f"credit true faster {k5}/{n5} ({t5}); MGST credit pc over credit true {pct(mg)}"))
    # 16
    def idle(c, a):
        v, cyc = d.get(c, a, "warpsim_mshr_idle_demand"), d.get(c, a, "gpu_sim_cycle")
        return v / (cyc * N_SMS) if v is not None and cyc else None
    pairs = [(a, idle("stall", a), idle("replay", a)) for a in have]
    pairs = [p for p in pairs if p[1] is not None and p[2] is not None]
    less = [a for a, s_, r_ in pairs if s_ < r_]
    heavy = ["BFS2", "CFD", "SRAD", "SS", "STMCL", "WP"]
    cn = [(a, idle("replay-credit-false", a), idle("replay-naive-false", a)) for a in heavy]
    cn = [p for p in cn if p[1] is not None and p[2] is not None]
    more = [a for a, c_, n_ in cn if c_ > n_]
    out.append((16, "MSHRs idle while demand exists (fraction of SM-cycles): less under stalling "
                    "than replay; credit > naive (false) on BFS2, CFD, SRAD, SS, STMCL, WP",
                verdict(len(less) > len(pairs) / 2 and len(more) > len(cn) / 2
                        if pairs and cn else None),
                f"stall < replay: {len(less)}/{len(pairs)} (" +
                ", ".join(f"{a} {s_:.3f}/{r_:.3f}" for a, s_, r_ in pairs if a in heavy) +
                f" for the MSHR-heavy six); credit > naive: {len(more)}/{len(cn)} (" +
                ", ".join(f"{a} {c_:.3f}/{n_:.3f}" for a, c_, n_ in cn) + ")"
                if pairs else "no runs with warpsim_mshr_idle_demand (rerun them)"))
    # 17
    tn_r = d.speedup("replay", "TR_naive")
    tn_p = d.predmax("TR_naive")
    h0 = d.get("stall", "TR_naive", "L1D_total_cache_misses_kernel")
    a0 = d.get("stall", "TR_naive", "L1D_total_cache_accesses_kernel")
    h1 = d.get("replay", "TR_naive", "L1D_total_cache_misses_kernel")
    a1 = d.get("replay", "TR_naive", "L1D_total_cache_accesses_kernel")
    ratio = (d.get("stall", "TR", "gpu_sim_cycle") or 0) / (d.get("stall", "TR_naive", "gpu_sim_cycle") or 1)
    hr = [1 - h / a if a else None for h, a in ((h0, a0), (h1, a1)) if h is not None]
    out.append((17, "TR_naive: replay speedup ~2x its predicted max; L1 hit rate up a little; TR "
                    "takes ~1/5 of TR_naive's cycles",
                verdict(None if tn_r is None or tn_p is None else tn_r > tn_p and ratio < 0.5),
                f"replay {pct(tn_r)} vs predicted max {pct(tn_p)}; L1D hit rate (accesses incl. "
                f"retries) stall/replay " + "/".join(f"{x:.3f}" for x in hr if x is not None) +
                f"; TR/TR_naive cycles {ratio:.2f}"))
    # 18
    xs = [d.predmax(a) for a in have]
    ys = [d.speedup("replay", a) for a in have]
    r = pearson(xs, ys)
    out.append((18, "predicted max (stalling) correlates weakly positively with replay speedup",
                verdict(r is not None and 0 < r), f"Pearson r = {r:.2f} over {len(have)} benchmarks"
                if r is not None else "too few results"))
    return out


def table(d, cols):
    lines = ["| bench | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
    for a in d.b:
        row = []
        for c in cols:
            if c == "predicted max":
                row.append(pct(d.predmax(a)))
            else:
                row.append(pct(d.speedup(c, a)))
        lines.append(f"| {a} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def hazard_table(d, cfg):
    lines = [f"| bench ({cfg}) | DIV | BANK | MSHR | COMQ | RSV | blocked | reissues/mem inst |",
             "|---|---|---|---|---|---|---|---|"]
    for a in d.b:
        cyc = d.get(cfg, a, "gpu_sim_cycle")
        if not cyc:
            lines.append(f"| {a} | n/a |||||||")
            continue
        cells = [f"{d.get(cfg, a, 'warpsim_hazard_' + k) / (cyc * N_SMS):.3f}"
                 for k in ("div", "bank", "mshr", "comq", "rsv")]
        cells.append(f"{d.get(cfg, a, 'warpsim_oc_blocked_cycles') / (cyc * N_SMS):.3f}")
        wi = d.get(cfg, a, "warpsim_warp_insts_mem")
        cells.append(f"{d.get(cfg, a, 'warpsim_replay_issues') / wi:.2f}" if wi else "n/a")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def mshr_table(d):
    """Where the MSHR hazards come from, and how much of replay's squashing is divergence:
    per benchmark under replay, the L1D's refusals for want of an MSHR entry and for an entry
    at its merge limit, and the constant cache's refusals (kernel parameters and constants go
    through it; under replay every refusal is one squash), as shares of warpsim_hazard_mshr;
    DIV's share of all squashes; reissues per memory instruction with one access per pass and
    with all of a pass's accesses (replay-passall); and at 32/64/128 L1D MSHRs the L1D entry
    refusals and COMQ squashes (checks 10, 11)."""
    lines = ["| bench | MSHR squashes | L1D entry | L1D merge | L1C | DIV / squashes | "
             "reissues/mem inst (passall) | L1D entry fails 32/64/128 | COMQ 32/64/128 |",
             "|---|---|---|---|---|---|---|---|---|"]
    for a in d.b:
        m = d.get("replay", a, "warpsim_hazard_mshr")
        if m is None:
            continue
        g = lambda c, n: d.get(c, a, n) or 0  # noqa: E731
        sq = sum(g("replay", f"warpsim_hazard_{k}") for k in ("div", "bank", "mshr", "comq", "rsv"))
        share = lambda n: f"{g('replay', n) / m:.2f}" if m else "-"  # noqa: E731
        wi, wp = g("replay", "warpsim_warp_insts_mem"), g("replay-passall", "warpsim_warp_insts_mem")
        ri = f"{g('replay', 'warpsim_replay_issues') / wi:.2f}" if wi else "n/a"
        rp = f"{g('replay-passall', 'warpsim_replay_issues') / wp:.2f}" if wp else "n/a"
        cf = ("replay", "replay-mshr64", "replay-mshr128")
        lines.append(f"| {a} | {m:.0f} | {share('l1d_entry')} | {share('l1d_merge')} | "
                     f"{share('l1c_fail')} | {g('replay', 'warpsim_hazard_div') / sq if sq else 0:.2f} | "
                     f"{ri} ({rp}) | " + "/".join(f"{g(c, 'l1d_entry'):.0f}" for c in cf) + " | " +
                     "/".join(f"{g(c, 'warpsim_hazard_comq'):.0f}" for c in cf) + " |")
    return "\n".join(lines)


SCHED_CFGS = ["stall-1sched", "stall", "replay-1sched", "replay", "replay-credit-false",
              "replay-naive-false"]


def sched_table(d):
    """The thesis's Fig 7.5 / 7.10 classes per scheduler-cycle, summed over schedulers and SMs,
    normalised to the single-scheduler stalling run's cycles x SMs (one scheduler at equal
    runtime sums to 1, two to 2): idle (no valid instruction: none, a barrier, an empty
    buffer), RAW (scoreboard), stall (a busy pipeline register), restrict (hazard
    prediction), issue1, issue2."""
    lines = ["| bench | config | idle | RAW | stall | restrict | issue1 | issue2 | sum |",
             "|---|---|---|---|---|---|---|---|---|"]
    for a in d.b:
        base = d.get("stall-1sched", a, "gpu_sim_cycle")
        for c in SCHED_CFGS:
            i1 = d.get(c, a, "warpsim_sched_issue1")
            if not base or i1 is None:
                continue
            g = lambda n: d.get(c, a, n) or 0  # noqa: E731
            v = [g("warpsim_stall_idle") + g("warpsim_stall_barrier") + g("warpsim_stall_ibuffer"),
                 g("warpsim_stall_scoreboard"), g("warpsim_stall_pipeline"),
                 g("warpsim_hp_restrict"), i1, g("warpsim_sched_issue2")]
            v = [x / (base * N_SMS) for x in v]
            lines.append(f"| {a} | {c} | " + " | ".join(f"{x:.3f}" for x in v) +
                         f" | {sum(v):.3f} |")
    return "\n".join(lines)


def render(d, sweep):
    out = [f"# Seed 004: replay and hazards (Turner 2012), runs in {sweep}", ""]
    out.append("Speedup over the stalling turner baseline (cycles(stall) / cycles(cfg) - 1):\n")
    out.append(table(d, ["predicted max", "replay", "replay-passall", "retain", "replay-credit-false", "replay-naive-false",
                         "replay-credit-oracle", "stall-credit-true", "stall-sep4-2-2",
                         "replay-mshr128"]))
    out.append("\nHazards per SM-cycle (stalling: held cycles; replay: squashes):\n")
    out.append(hazard_table(d, "stall"))
    out.append("")
    out.append(hazard_table(d, "replay"))
    out.append("\nWhere replay's MSHR hazards come from, and divergence's share (shares of the "
               "replay run's MSHR squashes; checks 6, 10, 11):\n")
    out.append(mshr_table(d))
    out.append("\nScheduler cycles by class (Fig 7.5 / 7.10), per cycle of the single-scheduler "
               "stalling run and SM:\n")
    out.append(sched_table(d))
    out.append("\nChecks of the thesis's list (section 11, checks 5-18):\n")
    out.append("| # | claim | verdict | measured |")
    out.append("|---|---|---|---|")
    for n, claim, v, m in checks(d):
        out.append(f"| {n} | {claim} | {v} | {m} |")
    return "\n".join(out) + "\n"


def figures(d, sweep):
    """Normalised bars (the thesis's Fig. 5.1/7.8 and 6.1 style) as PNGs in the sweep folder;
    returns their paths ([] without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    out = []
    sets = [("seed004-speedup.png", "speedup over stalling (cycles)",
             ["replay", "replay-passall", "retain", "replay-credit-false", "replay-naive-false",
             "replay-credit-oracle",
              "stall-credit-true"]),
            ("seed004-mshr-sched-oc.png", "speedup over stalling (cycles)",
             ["replay-mshr64", "replay-mshr128", "stall-1sched", "replay-1sched", "stall-gen16",
              "stall-sep4-2-2", "replay-sep4-2-2"])]
    for name, ylabel, cfgs in sets:
        fig, ax = plt.subplots(figsize=(14, 4))
        w = 0.8 / len(cfgs)
        for i, c in enumerate(cfgs):
            ys = [d.speedup(c, a) or 0 for a in d.b]
            ax.bar([x + i * w for x in range(len(d.b))], [100 * y for y in ys], w, label=c)
        ax.set_xticks([x + 0.4 - w / 2 for x in range(len(d.b))])
        ax.set_xticklabels(d.b, rotation=60, fontsize=8)
        ax.set_ylabel(ylabel + " (%)")
        ax.axhline(0, color="black", linewidth=0.5)
        ax.legend(fontsize=7, ncol=4)
        fig.tight_layout()
        path = os.path.join(sweep, name)
        fig.savefig(path, dpi=100)
        plt.close(fig)
        out.append(path)
    return out


def main(o):
    """o: the parsed arguments of tools/reproduce.py."""
    benches = BENCHMARKS
    if o.only:
        want = set(o.only.split(","))
        benches = [(a, w) for a, w in BENCHMARKS if a in want or w in want]
    sweep = os.path.abspath(o.sweep_dir or os.path.join(
        repo_dir(), "sweeps", f"seed004-{o.input}" + (f"-cap{o.cap}" if o.cap else "") +
        ("-subset" if o.only else "")))
    if not o.no_run:
        run_all(sweep, o.input, o.cap, o.jobs or os.cpu_count() or 1, benches)
    d = Data(sweep, benches)
    text = render(d, os.path.relpath(sweep, repo_dir()) if sweep.startswith(repo_dir()) else sweep)
    figs = figures(d, sweep)
    if figs:
        text += "\nFigures: " + ", ".join(os.path.basename(f) for f in figs) + " (in the runs' folder)\n"
    if o.markdown and o.markdown != "-":
        with open(o.markdown, "w") as f:
            f.write(text)
        sys.stderr.write(f"reproduce: wrote {o.markdown}\n")
    sys.stdout.write(text)
    return 0
