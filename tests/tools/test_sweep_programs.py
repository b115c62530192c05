"""Sweeps of the user's own programs: a workload that is a command runs under
the CUDA runtime shim (`warpsim run ... -- PROGRAM ARGS`) in its cwd with its
env, into the same folders, database, resume and query as bundled workloads;
a program that is missing or not executable fails the check before anything."""
import json
import os

from helpers import REPO, ToolTest, db_rows
from test_sweep_local import results

PROGRAMS = os.path.join(REPO, "tests", "data", "driver", "nvcc13")  # prebuilt, nvcc -cudart shared

SPEC = """
name = "mine"
functional = true

[classes]
mine = [
  {{ name = "vadd", command = ["./vectoradd_nc", "1000"], cwd = "{cwd}" }},
  {{ name = "vadd-sh", command = ["/bin/sh", "-c", "echo MARK=$MARK in $(pwd); exec ./vectoradd_nc 2000"], cwd = "{cwd}", env = {{ MARK = "x1" }} }},
]

[vary]
gpgpu_scheduler = ["gto", "lrr"]
"""


class ProgramSweepTest(ToolTest):
    def spec(self, text=SPEC, **kw):
        # cwd relative to the spec's folder
        return self.write("mine.toml", text.format(cwd=os.path.relpath(PROGRAMS, self.tmp), **kw))

    def test_program_sweep_stores_resumes_and_queries(self):
        spec = self.spec()
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, "-j", "2")
        self.assertIn("4/4 done, 0 running, 0 failed", p.stderr)
        rows = db_rows(sweep)
        self.assertEqual(sorted((r[0], r[5]) for r in rows["runs"]),
                         [("gto/vadd-cmd", "ok"), ("gto/vadd-sh-cmd", "ok"),
                          ("lrr/vadd-cmd", "ok"), ("lrr/vadd-sh-cmd", "ok")])
        insn = {rid: v for rid, k, v in rows["stats"] if k == "gpu_sim_insn"}
        self.assertEqual(len(insn), 4)
        self.assertGreater(insn["gto/vadd-sh-cmd"], insn["gto/vadd-cmd"])  # 2000 elements, not 1000
        run = os.path.join(sweep, "runs", "lrr", "vadd-sh-cmd")
        with open(os.path.join(run, "stdout.txt")) as f:
            out = f.read()
        self.assertIn("n=2000 errors=0 PASS", out)
        self.assertIn(f"MARK=x1 in {PROGRAMS}", out)  # its env, its cwd
        with open(os.path.join(run, "config.txt")) as f:
            self.assertIn("-gpgpu_scheduler lrr", f.read())
        with open(os.path.join(run, "run.json")) as f:
            plan = json.load(f)
        self.assertEqual(plan["cwd"], PROGRAMS)
        self.assertEqual(plan["args"][-4:-3], ["--"])
        # the runs use the sweep's own copy of warpsim and of the shim
        self.assertTrue(plan["warpsim"].startswith(os.path.join(sweep, "bin")))
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(plan["warpsim"]), "lib",
                                                    "libcudart.so.13")))

        before = results(sweep)
        p = self.warpsim("sweep", sweep)
        self.assertIn("4 already finished, 0 to run", p.stderr)
        self.assertEqual(results(sweep), before)

        q = self.warpsim("query", sweep, "--metric", "gpu_sim_insn", "--csv")
        lines = q.stdout.splitlines()
        self.assertEqual(lines[0], "row,class,gto,lrr")
        self.assertEqual(lines[1], "vadd,mine,1.0,1.0")
        self.assertEqual(lines[2], "vadd-sh,mine,1.0,1.0")

        # A changed command redoes its runs only.
        p = self.warpsim("sweep", self.spec(SPEC.replace('"1000"', '"1500"')), "-o", sweep)
        self.assertIn("2 already finished, 2 to run", p.stderr)

    def test_missing_or_not_executable_program_fails_the_check(self):
        sweep = os.path.join(self.tmp, "sw")
        bad = SPEC.replace("./vectoradd_nc", "./no_such_program", 1)
        p = self.warpsim("sweep", self.spec(bad), "-o", sweep, check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("the sweep is not valid; nothing was run", p.stderr)
        self.assertIn("mine.toml: workload vadd: program './no_such_program' not found", p.stderr)
        self.assertNotIn("vadd-sh", p.stderr)
        self.assertFalse(os.path.exists(sweep), "the refused sweep made its folder")

        self.write("not-exec", "#!/bin/sh\n")
        spec = self.write("mine.toml", SPEC.format(cwd=".").replace("./vectoradd_nc", "./not-exec", 1))
        p = self.warpsim("sweep", spec, "-o", sweep, "--dry-run", check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("workload vadd: program './not-exec' is not an executable file", p.stderr)
        self.assertFalse(os.path.exists(sweep))

        spec = self.write("mine.toml", SPEC.format(cwd="nowhere"))
        p = self.warpsim("sweep", spec, "-o", sweep, check=False)
        self.assertIn("workload vadd: cwd '", p.stderr)
        self.assertIn("nowhere' is not a folder", p.stderr)
        self.assertFalse(os.path.exists(sweep))

    def test_program_that_fails_keeps_its_message(self):
        spec = self.spec(SPEC.replace('"./vectoradd_nc", "1000"', '"/bin/sh", "-c", "echo oops: bad input >&2; exit 3"'))
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, check=False)
        self.assertEqual(p.returncode, 1)
        r = results(sweep)["gto/vadd-cmd"]
        self.assertEqual(r["status"], "failed")
        self.assertEqual(r["message"], "the program exited with status 3: oops: bad input")
