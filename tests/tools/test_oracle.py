"""tools/oracle.py's readers and tables (warpsim_tools/oracle.py) on stored
outputs of GPGPU-Sim 4.2 and warpsim (tests/data/oracle, provenance in its
README) and on small fabricated reports; never on a simulator run."""
import os
import subprocess
import sys
import tempfile
import unittest

from helpers import REPO, TOOLS

sys.path.insert(0, TOOLS)
from warpsim_tools import oracle  # noqa: E402

DATA = os.path.join(REPO, "tests", "data", "oracle")

TWO_KERNELS = """kernel_name = _Z1ai
gpu_sim_cycle = 100
gpu_sim_insn = 640
gpu_tot_sim_insn = 640
L1D_total_cache_accesses = 10
kernel_name = _Z1bi
gpu_sim_cycle = 250
gpu_sim_insn = 320
gpu_tot_sim_insn = 960
L1D_total_cache_accesses = 30
L1D_total_cache_misses = 3
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT] = 20
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][MISS] = 2
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][SECTOR_MISS] = 1
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][RESERVATION_FAIL] = 99
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][MSHR_HIT] = 4
	Total_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 23
total dram reads = 7
total dram writes = 2
Stall:5	W0_Idle:6	W0_Scoreboard:7	W1:0	W32:9
"""


def load(name):
    with open(os.path.join(DATA, name)) as f:
        return oracle.parse_report(f.read())


class ParseTest(unittest.TestCase):
    def test_per_kernel_and_cumulative(self):
        r = oracle.parse_report(TWO_KERNELS)
        self.assertEqual(r["kernels"], [("_Z1ai", 100, 640), ("_Z1bi", 250, 320)])
        m = oracle.metrics(r)
        self.assertEqual(m["cycles"], 350)          # per-kernel cycles summed
        self.assertEqual(m["kernels"], 2)
        self.assertEqual(m["instructions"], 960)    # cumulative: the last value
        self.assertEqual(m["L1D_accesses"], 30)
        self.assertEqual(m["L1_GLOBAL_ACC_R_accesses"], 23)  # reservation fails, MSHR hits are not accesses
        self.assertEqual(m["L1_GLOBAL_ACC_R_misses"], 3)
        self.assertEqual((m["dram_reads"], m["dram_writes"]), (7, 2))
        self.assertEqual((m["stall"], m["W0_idle"], m["W0_scoreboard"]), (5, 6, 7))
        self.assertIsNone(m["L2_accesses"])

    def test_stored_gpgpusim_output(self):
        m = oracle.metrics(load("qv100_vectoradd.gpgpusim.txt"))
        self.assertEqual(m["cycles"], 6109)
        self.assertEqual(m["instructions"], 1376256)
        self.assertEqual(m["L1D_accesses"], 24576)   # one per 32-byte sector
        self.assertEqual(m["L1_GLOBAL_ACC_R_accesses"], 16384)
        self.assertEqual(m["L1_GLOBAL_ACC_W_accesses"], 8192)
        self.assertEqual(m["L2_accesses"], 24576)
        self.assertEqual(m["dram_reads"], 0)

    def test_stored_warpsim_output_reads_the_same_names(self):
        m = oracle.metrics(load("qv100_vectoradd.warpsim.txt"))
        self.assertEqual(m["instructions"], 1376256)
        self.assertEqual(m["kernels"], 1)
        self.assertGreater(m["cycles"], 0)
        self.assertEqual(m["L1_GLOBAL_ACC_R_accesses"], 16384)


class TableTest(unittest.TestCase):
    def test_errors_and_tables(self):
        self.assertAlmostEqual(oracle.rel_err(100, 110), 0.1)
        self.assertEqual(oracle.rel_err(0, 0), 0.0)
        self.assertIsNone(oracle.rel_err(0, 5))
        self.assertIsNone(oracle.rel_err(None, 5))
        ref = {"cycles": 1000, "instructions": 5, "L1D_accesses": 10}
        got = {"cycles": 900, "instructions": 5, "L1D_accesses": 10, "extra": 1}
        rows = oracle.compare(ref, got)
        self.assertEqual(rows[0], ("cycles", 1000, 900, -0.1))
        self.assertEqual(rows[-1], ("extra", None, 1, None))
        self.assertIn("-10.0%", oracle.text_table(rows))
        ref["kernels"] = got["kernels"] = 1
        res = {("A", "p1"): (ref, got), ("B", "p1"): (ref, dict(got, cycles=1200)),
               ("A", "p2"): (ref, dict(got, instructions=6)),
               ("B", "p2"): (oracle.metrics(oracle.parse_report("crash\n")), got)}
        md = oracle.markdown_summary(res, ["A", "B"])
        self.assertIn("| p1 | -10.0% (900 / 1000) | +20.0% (1200 / 1000) |", md)
        self.assertIn("| p2 | -10.0% (900 / 1000) | GPGPU-Sim failed |", md)
        self.assertIn("p2 on B: GPGPU-Sim printed no kernel statistics", md)
        self.assertIn("| mean abs. cycle error | 10.0% | 20.0% |", md)
        self.assertIn("p2 on A: instructions 5 (GPGPU-Sim) vs 6", md)
        self.assertIn("| p1 | +0.0% (10 / 10) |", oracle.access_table(res, ["A"], "L1D_accesses"))
        self.assertEqual(oracle.program_tag(["/x/y/prog", "64", "a b"]), "prog_64_a_b")

    def test_tabulate_rewrites_the_markdown_section(self):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, "SM7_QV100"))
        for s in ("gpgpusim", "warpsim"):
            with open(os.path.join(DATA, "qv100_vectoradd.%s.txt" % s)) as f, \
                    open(os.path.join(d, "SM7_QV100", "va.%s.txt" % s), "w") as g:
                g.write(f.read())
        md = os.path.join(d, "t.md")
        with open(md, "w") as f:
            f.write("before\n<!-- oracle:begin -->\nold\n<!-- oracle:end -->\nafter\n")
        r = subprocess.run([sys.executable, os.path.join(TOOLS, "oracle.py"), "--out", d,
                            "--tabulate", "--configs", "SM7_QV100", "--markdown", md],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = open(md).read()
        self.assertTrue(text.startswith("before\n<!-- oracle:begin -->\nCycles:"))
        self.assertIn("| va | ", text)
        self.assertNotIn("old", text)
        self.assertTrue(text.endswith("<!-- oracle:end -->\nafter\n"))


if __name__ == "__main__":
    unittest.main()
