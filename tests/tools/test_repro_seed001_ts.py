"""tools/reproduce.py seed001 --timeseries (warpsim_tools/repro_seed001.py):
the Fig. 9/10 case studies. The scheme list and its errors, and one tiny
capped run of two schemes on ATAX's small input: the runs, the figure with
one line per scheme, the table of means, and a second call that resumes
(keeps the finished runs)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from figcheck import svg_ids
from helpers import TOOLS, WARPSIM

sys.path.insert(0, TOOLS)
from warpsim_tools import repro_seed001 as r1  # noqa: E402

REPRO = os.path.join(TOOLS, "reproduce.py")


def repro(*args):
    env = dict(os.environ, WARPSIM_BIN=WARPSIM)
    return subprocess.run([sys.executable, REPRO, "seed001", *args], capture_output=True, text=True,
                          timeout=300, env=env, stdin=subprocess.DEVNULL)


class Schemes(unittest.TestCase):
    def test_default_and_choice(self):
        self.assertEqual(r1.ts_schemes(None), ["GTO", "CIAO-P", "CIAO-C"])
        self.assertEqual(r1.ts_schemes("CIAO-T, GTO,CIAO-T"), ["CIAO-T", "GTO"])
        with self.assertRaisesRegex(ValueError, "unknown time-series scheme CIAO-X.*choose from GTO"):
            r1.ts_schemes("GTO,CIAO-X")

    def test_command_sets_policy_and_interval(self):
        cmd = r1.ts_command("ws", "polybench/atax", "CIAO-C", "small", 1000, 300, "d")
        self.assertEqual(cmd[-1], "polybench/atax")
        self.assertIn("-warpsim_throttle ciao_c", cmd)
        self.assertIn("-warpsim_stat_interval 300", cmd)
        self.assertEqual(cmd[cmd.index("--max-insn") + 1], "1000")
        self.assertEqual(cmd[cmd.index("--preset") + 1], "ciao")


@unittest.skipUnless(os.access(WARPSIM, os.X_OK), "warpsim is not built")
class TinyRun(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-ts-")
        self.addCleanup(shutil.rmtree, self.d, True)

    def test_runs_figure_table_resume(self):
        args = ["--timeseries", "--input", "small", "--cap", "60000", "--interval", "300", "-j", "2",
                "--only", "polybench/atax", "--schemes", "GTO,CIAO-C", "--format", "svg",
                "--sweep-dir", self.d]
        p = repro(*args)
        self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
        self.assertIn("2 runs into", p.stderr)
        rows = [line.split() for line in p.stdout.splitlines() if line.startswith("polybench/atax")]
        self.assertEqual([r[1] for r in rows], ["GTO", "CIAO-C"])
        self.assertEqual(rows[0][3], "1.00x")  # GTO over itself
        self.assertEqual(rows[0][5:7], ["n/a", "n/a"])  # GTO neither isolates nor stalls
        fig = os.path.join(self.d, "polybench.atax.svg")
        ids = svg_ids(fig)
        self.assertTrue({"series-ipc-0", "series-ipc-1", "series-issuable_warps_per_sm-1"} <= ids, ids)
        run = os.path.join(self.d, "polybench.atax", "CIAO-C")
        with open(os.path.join(run, "timeseries.csv")) as f:
            self.assertIn("isolated_warps_per_sm,stalled_warps_per_sm", f.readline())
        stamp = os.path.getmtime(os.path.join(run, "timeseries.csv"))
        again = repro(*args)  # resumes: the finished runs are kept
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(os.path.getmtime(os.path.join(run, "timeseries.csv")), stamp)
        self.assertEqual(again.stdout, p.stdout)

    def test_errors(self):
        p = repro("--timeseries", "--only", "polybench/bicg", "--sweep-dir", self.d)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("not a seed001 case study: polybench/bicg", p.stderr)
        p = repro("--timeseries", "--schemes", "LRR", "--sweep-dir", self.d)
        self.assertIn("unknown time-series scheme LRR", p.stderr)
        p = repro("--timeseries", "--interval", "0")
        self.assertIn("--interval wants a positive cycle count", p.stderr)
        env = dict(os.environ, WARPSIM_BIN=WARPSIM)
        p = subprocess.run([sys.executable, REPRO, "seed003", "--timeseries"], capture_output=True, text=True,
                           timeout=60, env=env)
        self.assertIn("--timeseries is seed001's", p.stderr)


if __name__ == "__main__":
    unittest.main()
