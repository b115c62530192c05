"""GPGPU-Sim's statistic breakdowns in the text report, read the way users'
scripts read GPGPU-Sim's output (regular expressions on the stat names), on a
bundled workload and on the committed nvcc 13 matmul under GPGPU-Sim's own
SM2_GTX480 config, compared with GPGPU-Sim 4.2's reference run."""
import os
import re
import subprocess

from helpers import BUILT, REPO, ToolTest

# What scripts written for GPGPU-Sim match (the last match is the program's value).
RX = {
    "l1d_acc": r"^\s*L1D_total_cache_accesses\s*=\s*(\d+)",
    "l1d_miss": r"^\s*L1D_total_cache_misses\s*=\s*(\d+)",
    "l1d_pend": r"^\s*L1D_total_cache_pending_hits\s*=\s*(\d+)",
    "l1d_fail": r"^\s*L1D_total_cache_reservation_fails\s*=\s*(\d+)",
    "l2_acc": r"^\s*L2_total_cache_accesses\s*=\s*(\d+)",
    "thrd": r"^\s*gpgpu_n_tot_thrd_icount\s*=\s*(\d+)",
    "w_icount": r"^\s*gpgpu_n_tot_w_icount\s*=\s*(\d+)",
    "mflat": r"averagemflatency\s*=\s*(\d+)",
    "maxmflat": r"maxmflatency\s*=\s*(\d+)",
    "l2bw": r"L2_BW\s*=\s*([\d.]+)",
    "l2bw_total": r"L2_BW_total\s*=\s*([\d.]+)",
    "occ": r"gpu_tot_occupancy\s*=\s*([\d.]+)",
    "mem_rd_global": r"gpgpu_n_mem_read_global\s*=\s*(\d+)",
    "mem_wr_global": r"gpgpu_n_mem_write_global\s*=\s*(\d+)",
}
INSN = ("load", "store", "shmem", "tex", "const_mem", "param_mem")
BREAKDOWN = re.compile(r"Total_core_cache_stats_breakdown\[(\w+)\]\[(\w+)\]\s*=\s*(\d+)")
L2_BREAKDOWN = re.compile(r"L2_cache_stats_breakdown\[(\w+)\]\[(\w+)\]\s*=\s*(\d+)")
CORE = re.compile(r"L1D_cache_core\[(\d+)\]: Access = (\d+), Miss = (\d+), Miss_rate = ([\d.]+), "
                  r"Pending_hits = (\d+), Reservation_fails = (\d+)")
DISTRO = re.compile(r"^Stall:(\d+)\s+W0_Idle:(\d+)\s+W0_Scoreboard:(\d+)((?:\s+W\d+:\d+)+)\s*$", re.M)
LIMIT = re.compile(r"warpsim_cta_limited_by\s*=\s*(\w+)")


def last(pattern, text, conv=int):
    """The last match: GPGPU-Sim prints cumulative stats after every kernel."""
    m = re.findall(pattern, text, re.M)
    return conv(m[-1]) if m else None


def insn(name, text):
    return last(r"gpgpu_n_%s_insn\s*=\s*(\d+)" % name, text)


def table(rx, text):
    """{(kind, outcome): value} of a breakdown, the last kernel's lines winning."""
    return {(a, o): int(v) for a, o, v in rx.findall(text)}


class GpgpuSimStatsTest(ToolTest):
    def run_workload(self, *args):
        return self.warpsim("run", *args, timeout=300).stdout

    def test_breakdowns_are_consistent(self):
        out = self.run_workload("micro/matmul")
        v = {k: last(rx, out, float if k in ("l2bw", "l2bw_total", "occ") else int)
             for k, rx in RX.items()}
        for k, x in v.items():
            self.assertIsNotNone(x, f"{k}: {RX[k]} matches nothing")
        # L1D breakdown: hits + pending hits + misses of the L1D's kinds are its accesses
        bd = table(BREAKDOWN, out)
        l1d = ("GLOBAL_ACC_R", "LOCAL_ACC_R", "GLOBAL_ACC_W", "LOCAL_ACC_W")
        self.assertEqual(sum(bd[(a, o)] for a in l1d for o in ("HIT", "HIT_RESERVED", "MISS")),
                         v["l1d_acc"])
        self.assertEqual(sum(bd[(a, "MISS")] for a in l1d), v["l1d_miss"])
        self.assertEqual(sum(bd[(a, "HIT_RESERVED")] for a in l1d), v["l1d_pend"])
        self.assertEqual(sum(bd[(a, "RESERVATION_FAIL")] for a in l1d), v["l1d_fail"])
        self.assertNotIn(("GLOBAL_ACC_R", "MSHR_HIT"), bd)  # not counted: not printed
        self.assertIn(("INST_ACC_R", "MISS"), bd)
        # L2 breakdown: every access by its kind
        l2 = table(L2_BREAKDOWN, out)
        self.assertEqual(sum(x for (a, o), x in l2.items()
                             if o in ("HIT", "HIT_RESERVED", "MISS", "SECTOR_MISS")), v["l2_acc"])
        # per-core L1D lines sum to the totals
        cores = {}
        for m in CORE.finditer(out):
            cores[int(m.group(1))] = [int(m.group(i)) for i in (2, 3, 5, 6)]
        self.assertEqual(len(cores), 15)
        self.assertEqual([sum(c[i] for c in cores.values()) for i in range(4)],
                         [v["l1d_acc"], v["l1d_miss"], v["l1d_pend"], v["l1d_fail"]])
        # warp distribution: W_k issues had k lanes, so they weigh up to the thread count
        dist = DISTRO.findall(out)
        self.assertTrue(dist, "no Stall:... W32:N line")
        w = {int(k): int(n) for k, n in re.findall(r"W(\d+):(\d+)", dist[-1][3])}
        self.assertEqual(sorted(w), list(range(1, 33)))
        self.assertEqual(sum(w.values()), v["w_icount"])
        self.assertEqual(sum(k * n for k, n in w.items()), v["thrd"])
        self.assertGreater(v["mflat"], 0)
        self.assertGreaterEqual(v["maxmflat"], v["mflat"])
        self.assertGreater(v["l2bw"], 0)
        self.assertEqual(v["l2bw"], v["l2bw_total"])  # one kernel
        self.assertTrue(0 < v["occ"] <= 100)
        for name in INSN:
            self.assertIsNotNone(insn(name, out), name)
        self.assertGreater(insn("load", out), 0)
        self.assertEqual(LIMIT.findall(out)[-1], "regs")

    def test_config_echo_parses_back(self):
        d = os.path.join(self.tmp, "o")
        out = self.run_workload("-o", d, "micro/vectoradd")
        with open(os.path.join(d, "config.txt")) as f:
            saved = f.read()
        # the text report shows it once, before the first kernel
        self.assertEqual(out.count("configuration options"), 1)
        self.assertLess(out.index("-gpgpu_n_clusters"), out.index("kernel_name"))
        self.assertRegex(saved, r"(?m)^-gpgpu_n_clusters\s+15 # ")
        # read back as a config file, it gives the same configuration
        d2 = os.path.join(self.tmp, "o2")
        self.run_workload("--config", os.path.join(d, "config.txt"), "-o", d2, "micro/vectoradd")
        with open(os.path.join(d2, "config.txt")) as f:
            self.assertEqual(f.read(), saved)
        d3 = os.path.join(self.tmp, "o3")
        self.run_workload("--set", "-gpgpu_n_clusters 14", "-o", d3, "micro/vectoradd")
        with open(os.path.join(d3, "config.txt")) as f:
            self.assertRegex(f.read(), r"(?m)^-gpgpu_n_clusters\s+14 # ")

    def test_matmul128_against_gpgpusim(self):
        cfgdir = os.path.join(REPO, "tests", "data", "gpgpusim-configs", "SM2_GTX480")
        with open(os.path.join(cfgdir, "stats", "matmul-128.txt"), errors="replace") as f:
            ref = f.read()
        env = dict(os.environ, WARPSIM_CONFIG=os.path.join(cfgdir, "gpgpusim.config"),
                   LD_LIBRARY_PATH=os.path.join(os.path.dirname(BUILT), "lib"),
                   ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=0")
        env.pop("WARPSIM_QUIET", None)
        p = subprocess.run([os.path.join(REPO, "tests", "data", "driver", "nvcc13", "matmul_nc"),
                            "128"], env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("PASS", p.stdout)
        out = p.stdout
        # exact: what the program executes, thread by thread
        for name in ("load", "store", "shmem", "param_mem", "tex", "const_mem"):
            self.assertEqual(insn(name, out), insn(name, ref), name)
        self.assertEqual(insn("shmem", ref), 4456448)
        # the same instructions issue, all with 32 lanes
        w = {int(k): int(n) for k, n in re.findall(r"W(\d+):(\d+)", DISTRO.findall(out)[-1][3])}
        wr = {int(k): int(n) for k, n in re.findall(r"W(\d+):(\d+)", DISTRO.findall(ref)[-1][3])}
        self.assertEqual(w, wr)
        self.assertEqual(last(RX["mem_wr_global"], out), last(RX["mem_wr_global"], ref))
        # timing-dependent: near GPGPU-Sim's, not equal (docs/timing.md gives the numbers)
        for k, tol in (("l2bw", 0.1), ("mflat", 0.25), ("mem_rd_global", 0.15)):
            ours, theirs = last(RX[k], out, float), last(RX[k], ref, float)
            self.assertLess(abs(ours - theirs) / theirs, tol, f"{k}: {ours} vs GPGPU-Sim {theirs}")
        self.assertEqual(table(BREAKDOWN, out)[("CONST_ACC_R", "MISS")],
                         table(BREAKDOWN, ref)[("CONST_ACC_R", "MISS")])
