"""The local engine: a 2 x 3 sweep, its database and query; resuming skips
finished runs and redoes failed ones; a sweep killed midway loses nothing."""
import json
import os
import signal
import sqlite3
import subprocess
import time

from helpers import SMALL_SPEC, WARPSIM, ToolTest, db_rows


def results(sweep):
    out = {}
    for root, _, files in os.walk(os.path.join(sweep, "runs")):
        if "result.json" in files:
            with open(os.path.join(root, "result.json")) as f:
                r = json.load(f)
            out[r["id"]] = r
    return out


# Stands in for a timing run until the timing model lands: GPGPU-Sim names,
# two kernels, IPC that depends on the scheduler, and an interval time series.
FAKE_TIMING = r"""#!/usr/bin/env python3
import json, sys
a = sys.argv[1:]
if a[0] == "version": print("warpsim 0.0-fake"); sys.exit(0)
if a[0] == "list": print("NAME SUITE DESCRIPTION\nvectoradd micro x\nmatmul micro y"); sys.exit(0)
cfg = open(a[a.index("--config") + 1]).read() if "--config" in a else ""
ipc = {"gto": 2.0, "lrr": 1.0, "oldest": 4.0}[cfg.split("-gpgpu_scheduler ")[1].split()[0]]
scale = 2 if "matmul" in " ".join(a) else 1
ks = []
for i, cyc in enumerate((100, 300)):
    insn = ipc * cyc * scale
    ks.append({"kernel_name": "k%d" % i, "gpu_sim_cycle": cyc, "gpu_sim_insn": insn, "gpu_ipc": ipc * scale,
               "gpu_tot_sim_cycle": 100 + (cyc if i else 0), "L1D_total_cache_miss_rate": 0.5})
json.dump(ks, open("stats.json", "w"))
with open("timeseries.csv", "w") as f:
    f.write("kernel,cycle,gpu_ipc,active_warps\n")  # cycles restart with each kernel
    for k in (1, 2):
        for c in range(50, 400, 50): f.write("%d,%d,%g,%d\n" % (k, c, ipc, 48 - c // 50))
print("gpu_ipc = %g" % (ipc * scale))
"""


class LocalSweepTest(ToolTest):
    def test_dry_run_creates_nothing(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "dry")
        p = self.warpsim("sweep", spec, "-o", sweep, "--dry-run")
        self.assertIn("0 finished, 6 to run", p.stderr)
        self.assertEqual(len(p.stdout.split()), 6)
        self.assertFalse(os.path.exists(sweep))

    def test_sweep_query_export_resume(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, "-j", "2")
        self.assertIn("6/6 done, 0 running, 0 failed", p.stderr)
        self.assertIn("ETA", p.stderr)
        rows = db_rows(sweep)
        self.assertEqual(len(rows["runs"]), 6)
        self.assertTrue(all(r[5] == "ok" for r in rows["runs"]), rows["runs"])
        self.assertEqual({r[4] for r in rows["runs"]}, {"gto", "lrr", "oldest"})
        keys = {k for _, k, _ in rows["stats"]}
        self.assertIn("gpu_sim_insn", keys)
        # Every run folder: exact config, version, outputs.
        run = os.path.join(sweep, "runs", "lrr", "micro.matmul-small")
        for f in ("run.json", "config.txt", "stdout.txt", "stderr.txt", "stats.json", "result.json"):
            self.assertTrue(os.path.exists(os.path.join(run, f)), f)
        with open(os.path.join(run, "config.txt")) as f:
            self.assertIn("-gpgpu_scheduler lrr", f.read())
        with open(os.path.join(run, "result.json")) as f:
            self.assertTrue(json.load(f)["warpsim_version"].startswith("warpsim "))

        # Query: gpu_ipc is absent from functional runs: a clear fallback.
        q = self.warpsim("query", sweep)
        self.assertIn("metric 'gpu_ipc' is in no finished run", q.stderr)
        lines = q.stdout.splitlines()
        self.assertIn("normalised to 'gto'", lines[0])
        self.assertEqual(lines[1].split(), ["workload", "gto", "lrr", "oldest"])
        labels = [ln.split()[0] for ln in lines[2:] if not ln.startswith("-")]
        self.assertEqual(labels, ["micro/vectoradd", "gmean(streaming)", "micro/matmul", "gmean(compute)",
                                  "gmean(all)", "hmean(all)"])
        q = self.warpsim("query", sweep, "--metric", "gpu_sim_insn", "--csv")
        self.assertEqual(q.stdout.splitlines()[1], "micro/vectoradd,streaming,1.0,1.0,1.0")
        bad = self.warpsim("query", sweep, "--metric", "no_such_stat", check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("no_such_stat", bad.stderr)
        self.assertIn("gpu_sim_insn", bad.stderr)
        csv_path = os.path.join(self.tmp, "runs.csv")
        self.warpsim("query", sweep, "--export", csv_path)
        with open(csv_path) as f:
            text = f.read().splitlines()
        self.assertEqual(len(text), 7)
        self.assertIn("gpu_sim_insn", text[0].split(","))
        db = sqlite3.connect(os.path.join(sweep, "results.db"))
        self.assertEqual(db.execute("SELECT COUNT(*) FROM runs_wide WHERE gpu_sim_insn > 0").fetchone()[0], 6)
        db.close()

        # Resume: nothing to redo, nothing rerun.
        before = results(sweep)
        p = self.warpsim("sweep", sweep)
        self.assertIn("6 already finished, 0 to run", p.stderr)
        self.assertEqual(results(sweep), before)

        # A changed spec redoes only what changed.
        spec2 = self.write("tiny.toml", SMALL_SPEC.replace('"oldest"]', '"oldest", "two_level_active:6:0:1"]'))
        p = self.warpsim("sweep", spec2, "-o", sweep)
        self.assertIn("6 already finished, 2 to run", p.stderr)
        self.assertEqual(len(db_rows(sweep)["runs"]), 8)

    def test_timing_stats_ipc_table_and_timeseries(self):
        fake = self.write("warpsim-fake", FAKE_TIMING, 0o755)
        spec = self.write("tiny.toml", SMALL_SPEC.replace("functional = true", "functional = false"))
        sweep = os.path.join(self.tmp, "sw")
        self.warpsim("sweep", spec, "-o", sweep, env={"WARPSIM_BIN": fake})
        q = self.warpsim("query", sweep, "--csv")  # default metric gpu_ipc: no fallback message
        self.assertNotIn("instead", q.stderr)
        rows = q.stdout.splitlines()
        self.assertEqual(rows[0], "row,class,gto,lrr,oldest")
        self.assertEqual(rows[1], "micro/vectoradd,streaming,1.0,0.5,2.0")
        self.assertEqual(rows[-2], "gmean(all),,1.0,0.5,2.0")
        self.assertTrue(rows[-1].startswith("hmean(all),,1.0,0.5,2.0"))
        raw = self.warpsim("query", sweep, "--raw", "--csv").stdout.splitlines()
        self.assertIn("micro/matmul,compute,4.0,2.0,8.0", raw)
        inv = self.warpsim("query", sweep, "--metric", "gpu_sim_cycle", "--invert", "--csv").stdout
        self.assertIn("micro/vectoradd,streaming,1.0,1.0,1.0", inv)
        index = self.warpsim("report", sweep).stdout.strip()
        with open(index) as f:
            page = f.read()
        self.assertIn("normalised_gpu_ipc.png", page)
        # One time-series figure per workload, the three configs overlaid.
        self.assertEqual(page.count("<img src='timeseries_"), 2)
        for f in os.listdir(os.path.dirname(index)):
            self.assertGreater(os.path.getsize(os.path.join(os.path.dirname(index), f)), 100, f)

    def test_failed_runs_are_redone(self):
        flag = os.path.join(self.tmp, "fail-matmul")
        open(flag, "w").close()
        wrapper = self.write("warpsim-wrapper", f"""#!/bin/sh
case "$*" in *matmul*) [ -e '{flag}' ] && {{ echo "injected failure" >&2; exit 2; }} ;; esac
exec '{WARPSIM}' "$@"
""", 0o755)
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", spec, "-o", sweep, env={"WARPSIM_BIN": wrapper}, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("3/6 done, 0 running, 3 failed", p.stderr)
        self.assertIn("injected failure", p.stderr)
        ok_before = {k: v for k, v in results(sweep).items() if v["status"] == "ok"}
        self.assertEqual(len(ok_before), 3)
        os.unlink(flag)
        p = self.warpsim("sweep", spec, "-o", sweep, env={"WARPSIM_BIN": wrapper})
        self.assertIn("3 already finished, 3 to run", p.stderr)
        after = results(sweep)
        for k, v in ok_before.items():
            self.assertEqual(after[k]["started"], v["started"], k)
        self.assertTrue(all(v["status"] == "ok" for v in after.values()))

    def test_killed_sweep_resumes_without_redoing(self):
        # Each run sleeps first, so that the sweep can be killed between runs.
        wrapper = self.write("warpsim-slow", f"""#!/bin/sh
[ "$1" = run ] && sleep 0.4
exec '{WARPSIM}' "$@"
""", 0o755)
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        env = dict(os.environ, WARPSIM_BIN=wrapper, PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.Popen([WARPSIM, "sweep", spec, "-o", sweep, "-j", "1", "-q"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        self.addCleanup(lambda: proc.poll() is None and os.killpg(proc.pid, signal.SIGKILL))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len([r for r in results(sweep).values() if r["status"] == "ok"]) >= 2:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # the sweep, hard: no chance to clean up
        proc.wait(timeout=30)
        finished = {k: v for k, v in results(sweep).items() if v["status"] == "ok"}
        self.assertGreaterEqual(len(finished), 2)
        self.assertLess(len(finished), 6, "the sweep finished before it could be killed")
        time.sleep(0.3)  # its runner and warpsim die with it (PR_SET_PDEATHSIG)
        p = self.warpsim("sweep", sweep, "-j", "2")
        self.assertIn(f"{len(finished)} already finished, {6 - len(finished)} to run", p.stderr)
        after = results(sweep)
        self.assertEqual(len(after), 6)
        for k, v in finished.items():
            self.assertEqual(after[k]["started"], v["started"], f"{k} was redone")
        rows = db_rows(sweep)["runs"]
        self.assertEqual([r[5] for r in rows], ["ok"] * 6)


class SweepCheckTest(ToolTest):
    """Every config of a sweep is checked by the warpsim binary before any run
    starts: a misspelled option or a refused value fails the whole sweep, with
    where the spec sets it, and leaves no folder behind."""

    def refused(self, spec_text, *expect, name="bad.toml", dry_run=False):
        spec = self.write(name, spec_text)
        sweep = os.path.join(self.tmp, "sw")
        log = os.path.join(self.tmp, "calls.log")
        # Logs every call of the binary, so that the test sees that nothing ran.
        wrapper = self.write("warpsim-log", f"""#!/bin/sh
echo "$*" >> '{log}'
exec '{WARPSIM}' "$@"
""", 0o755)
        args = ["sweep", spec, "-o", sweep] + (["--dry-run"] if dry_run else [])
        p = self.warpsim(*args, env={"WARPSIM_BIN": wrapper}, check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("the sweep is not valid; nothing was run", p.stderr)
        for e in expect:
            self.assertIn(e, p.stderr)
        self.assertFalse(os.path.exists(sweep), "the refused sweep made its folder")
        with open(log) as f:
            calls = [c for c in f.read().splitlines() if c.startswith("run ")]
        self.assertTrue(calls, "no config was checked")
        self.assertTrue(all("--check-config" in c for c in calls), calls)
        return p.stderr

    def test_misspelled_option_in_vary(self):
        err = self.refused(SMALL_SPEC.replace("gpgpu_scheduler =", "gpgpu_schedular ="),
                           "bad.toml: [vary] gpgpu_schedular: unknown option -gpgpu_schedular; "
                           "did you mean -gpgpu_scheduler?", "(configs gto, lrr, oldest)")
        self.assertEqual(err.count("unknown option"), 1, err)  # one line for the three configs

    def test_misspelled_option_in_base_options_and_dry_run(self):
        spec = SMALL_SPEC.replace('preset = "gtx480"', 'options = { gpgpu_n_clusterz = 4 }')
        self.refused(spec, "bad.toml: [base] options gpgpu_n_clusterz: unknown option -gpgpu_n_clusterz; "
                           "did you mean -gpgpu_n_clusters?", dry_run=True)

    def test_refused_value_in_one_config(self):
        spec = SMALL_SPEC.replace('"oldest"]', '"oldest", "lurr"]')
        err = self.refused(spec, "-gpgpu_scheduler lurr: unknown policy", "(config lurr)")
        self.assertNotIn("config gto", err)

    def test_option_without_effect_in_vary(self):
        spec = SMALL_SPEC + "gpgpu_l1_cache_write_ratio = [0, 1]\n"
        self.refused(spec, "bad.toml: [vary] gpgpu_l1_cache_write_ratio: the option has no effect in warpsim")
        # the same between explicit configs; set alike in all of them, it is harmless
        spec = SMALL_SPEC + ('[[configs]]\nname = "a"\n[[configs]]\nname = "b"\n'
                             'options = { gpgpu_l1_cache_write_ratio = 1 }\n')
        self.refused(spec, "bad.toml: configs[1] (b) options gpgpu_l1_cache_write_ratio: the option has no effect")

    def test_misspelled_option_in_base_config_file(self):
        self.write("my.config", "-gpgpu_n_clusters 4\n-gpgpu_shader_ctas 2\n")
        spec = SMALL_SPEC.replace('preset = "gtx480"', 'config = "my.config"')
        self.refused(spec, "my.config:2: unknown option -gpgpu_shader_ctas; did you mean -gpgpu_shader_cta?")

    def test_misspelled_set_in_sweep_args(self):
        spec = SMALL_SPEC.replace("timeout = 120", 'timeout = 120\nargs = ["--set", "-gpgpu_l1_latancy 4"]')
        self.refused(spec, "--set #1 '-gpgpu_l1_latancy 4': unknown option -gpgpu_l1_latancy; "
                           "did you mean -gpgpu_l1_latency?")

