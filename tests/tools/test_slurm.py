"""The SLURM engine on a one-node cluster on 127.0.0.1 (tools/slurm/
local-cluster.sh, started here and stopped after): the same sweep as the
local engine gives the same database rows. Without SLURM and munge installed
this test fails, saying so; it never passes without running."""
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import unittest

from helpers import SMALL_SPEC, TOOLS, ToolTest, db_rows

CLUSTER = os.path.join(TOOLS, "slurm", "local-cluster.sh")


def cluster_pids(folder):
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if folder.encode() in f.read():
                        pids.append(int(d))
            except OSError:
                pass
    return pids


class SlurmTest(ToolTest):
    @classmethod
    def setUpClass(cls):
        cls.cluster = tempfile.mkdtemp(prefix="warpsim-slurm-")
        cls.started = False
        try:
            p = subprocess.run([CLUSTER, "start", cls.cluster], capture_output=True, text=True, timeout=90,
                               stdin=subprocess.DEVNULL)
            cls.start_error = None if p.returncode == 0 else \
                f"the one-node SLURM cluster did not start (exit {p.returncode}):\n{p.stdout}{p.stderr}"
        except subprocess.TimeoutExpired:
            cls.start_error = "the one-node SLURM cluster did not start in 90 s"
        cls.started = True

    @classmethod
    def tearDownClass(cls):
        if cls.started:
            subprocess.run([CLUSTER, "stop", cls.cluster], capture_output=True, timeout=90,
                           stdin=subprocess.DEVNULL)
        # Anything of this cluster's still running (its folder is in the command line) is ours.
        for pid in cluster_pids(cls.cluster):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(cls.cluster, True)

    def setUp(self):
        super().setUp()
        if self.start_error:
            self.fail(self.start_error)
        self.env = {"SLURM_CONF": os.path.join(self.cluster, "slurm.conf")}

    def test_slurm_matches_local(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        local = os.path.join(self.tmp, "local")
        slurm = os.path.join(self.tmp, "slurm")
        self.warpsim("sweep", spec, "-o", local)
        p = self.warpsim("sweep", spec, "-o", slurm, "--engine", "slurm", "--wait-timeout", "120",
                         env=self.env, timeout=180)
        self.assertIn("submitted SLURM job array", p.stderr)
        self.assertIn("6/6 done, 0 running, 0 failed", p.stderr)
        a, b = db_rows(local), db_rows(slurm)
        self.assertEqual(len(a["runs"]), 6)
        self.assertTrue(a["stats"])
        for table in a:
            self.assertEqual(a[table], b[table], table)
        db = sqlite3.connect(os.path.join(slurm, "results.db"))
        self.assertEqual(db.execute("SELECT DISTINCT engine FROM runs").fetchall(), [("slurm",)])
        db.close()
        outs = [f for f in os.listdir(os.path.join(slurm, "slurm")) if f.endswith(".out")]
        self.assertEqual(len(outs), 6)
        # Resuming through SLURM submits nothing when every run is finished.
        p = self.warpsim("sweep", slurm, "--engine", "slurm", env=self.env)
        self.assertIn("6 already finished, 0 to run", p.stderr)
        self.assertNotIn("submitted", p.stderr)

    def test_no_wait_then_resume_gathers(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, "--engine", "slurm", "--no-wait", env=self.env)
        self.assertIn("submitted SLURM job array", p.stderr)
        # The local engine does not race the array's tasks (unless they are already done).
        p = self.warpsim("sweep", sweep, env=self.env, check=False)
        if p.returncode != 0:
            self.assertIn("still running", p.stderr)
        p = self.warpsim("sweep", sweep, "--engine", "slurm", "--wait-timeout", "120", env=self.env,
                         timeout=180)
        self.assertNotIn("submitted", p.stderr)
        self.assertIn("6/6 done, 0 running, 0 failed", p.stderr)
        self.assertEqual([r[5] for r in db_rows(sweep)["runs"]], ["ok"] * 6)

    def test_program_sweep_through_slurm(self):
        from test_sweep_programs import PROGRAMS, SPEC
        spec = self.write("mine.toml", SPEC.format(cwd=os.path.relpath(PROGRAMS, self.tmp)))
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, "--engine", "slurm", "--wait-timeout", "120",
                         env=self.env, timeout=180)
        self.assertIn("4/4 done, 0 running, 0 failed", p.stderr)
        rows = db_rows(sweep)
        self.assertEqual({(r[0], r[5]) for r in rows["runs"]},
                         {(c + w, "ok") for c in ("gto/", "lrr/") for w in ("vadd-cmd", "vadd-sh-cmd")})
        self.assertEqual(len({rid for rid, k, _ in rows["stats"] if k == "gpu_sim_insn"}), 4)


if __name__ == "__main__":
    unittest.main()
