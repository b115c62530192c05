"""tools/reproduce.py seed002 end to end on the smallest workload (rodinia/nn,
Ch. 3 only), the one-command profile-based bypassing, and `warpsim analyze`
/ `warpsim llc-analyze` on the command line."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import REPO, TOOLS, WARPSIM


class Seed002Test(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="warpsim-seed002-")

    def tearDown(self):
        shutil.rmtree(self.tmp, True)

    def test_reproduce_seed002_reports_checks(self):
        env = dict(os.environ, WARPSIM_BIN=WARPSIM)
        out = subprocess.run([sys.executable, os.path.join(TOOLS, "reproduce.py"), "seed002", "--only", "nn",
                              "--parts", "3", "-j", "1", "--out", os.path.join(self.tmp, "r"),
                              "--markdown", os.path.join(self.tmp, "r.md")],
                             capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("### Ch. 3: profile-based L1D bypassing", out.stdout)
        self.assertIn("| nn | ", out.stdout)
        self.assertRegex(out.stdout, r"\| 7 \| no benchmark slows down vs L1D without bypass \| (holds|differs) \|")
        self.assertRegex(out.stdout, r"\| 11 \| no deadlock")
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "r.md")))

    def test_profile_bypass_one_command(self):
        lst = os.path.join(self.tmp, "nn.list")
        out = subprocess.run([WARPSIM, "run", "-q", "--profile-bypass", lst, "rodinia/nn"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("pass 1: profiling into", out.stderr)
        self.assertIn("pass 2: bypassing the lines of", out.stderr)
        with open(lst) as f:
            self.assertEqual(f.readline(), "warpsim-l1d-bypass 1\n")
        self.assertTrue(os.path.exists(lst + ".reuse.csv"))

    def test_analyze_and_llc_analyze(self):
        ptx = os.path.join(REPO, "tests", "data", "analysis", "reorder_example.ptx")
        out = subprocess.run([WARPSIM, "analyze", ptx, "reorder_example", "--grid", "1,2", "--block", "16,4",
                              "--summary", "--wcet", "200"], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("N_coal max 4", out.stdout)
        self.assertIn("max/max", out.stdout)
        out = subprocess.run([WARPSIM, "analyze", ptx, "indirect", "--grid", "1", "--block", "32"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 1)
        self.assertIn("not analyzable: a global address that depends on", out.stdout)
        tr = os.path.join(self.tmp, "t.txt")
        with open(tr, "w") as f:
            f.write("# core line\n0 0x80\n0 0x100\n1 0x80\n0 0x80\n")
        out = subprocess.run([WARPSIM, "llc-analyze", tr, "--sets", "1", "--ways", "4", "--quota", "1"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("simple misses 3", out.stdout)
        self.assertIn("access_interval quota 1 misses 3", out.stdout)  # core 1 has no earlier access


if __name__ == "__main__":
    unittest.main()
