"""A run whose statistics cannot be written fails: stats.json is written
through a temporary file and a rename (never left truncated), a full disk on
stats.json, config.txt or timeseries.csv is a clear message and a non-zero
exit, for bundled workloads and for CUDA programs under the shim. /dev/full
stands in for a full disk (every write to it fails with ENOSPC)."""
import os
import shutil
import subprocess
import tempfile
import unittest

from helpers import REPO, WARPSIM

PROG = os.path.join(REPO, "tests", "data", "driver", "nvcc13", "vectoradd_nc")


class OutputWriteErrorTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="warpsim-io-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def full(self, name):
        os.symlink("/dev/full", os.path.join(self.dir, name))

    def run_workload(self, *extra):
        return subprocess.run([WARPSIM, "run", "-q", "-o", self.dir, *extra, "micro/vectoradd"],
                              capture_output=True, text=True, timeout=120)

    def test_full_disk_on_stats_json(self):
        self.full("stats.json.tmp")
        r = self.run_workload()
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("cannot write", r.stderr)
        self.assertIn("stats.json: No space left on device", r.stderr)
        # no truncated result and no temporary left behind
        self.assertFalse(os.path.exists(os.path.join(self.dir, "stats.json")))
        self.assertFalse(os.path.lexists(os.path.join(self.dir, "stats.json.tmp")))

    def test_full_disk_on_config_txt(self):
        self.full("config.txt.tmp")
        r = self.run_workload()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("config.txt: No space left on device", r.stderr)

    def test_full_disk_on_the_time_series(self):
        self.full("timeseries.csv")
        r = self.run_workload("--set", "-warpsim_stat_interval 500")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("timeseries.csv: No space left on device", r.stderr)

    def test_a_good_run_exits_zero_and_leaves_no_temporaries(self):
        r = self.run_workload("--set", "-warpsim_stat_interval 500")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["config.txt", "stats.json", "timeseries.csv"])

    def test_cuda_program_under_the_shim(self):
        self.full("stats.json.tmp")
        r = subprocess.run([WARPSIM, "run", "-q", "-o", self.dir, "--", PROG, "1024"],
                           capture_output=True, text=True, timeout=120)
        self.assertIn("PASS", r.stdout)  # the program itself passed ...
        self.assertEqual(r.returncode, 1)  # ... but its statistics were lost
        self.assertIn("stats.json: No space left on device", r.stderr)


if __name__ == "__main__":
    unittest.main()
