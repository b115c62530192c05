"""What a sweep says when things go wrong: the informative line of a failed
run, interrupted runs (recorded as such and redone), SLURM without a cluster,
the per-run timeout, and full or read-only disks (one line, no traceback, no
partial .tmp files); a run that says ok without a readable stats.json is redone."""
import contextlib
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from unittest import mock

from helpers import TOOLS, WARPSIM, ToolTest, db_rows
from test_sweep_local import results

sys.path.insert(0, TOOLS)
from warpsim_tools import common, runone, spec as specmod, sweep as sweepmod  # noqa: E402

# 1 workload x 2 configs, functional: the smallest sweep with a baseline.
TWO = """
name = "two"
functional = true
workloads = ["micro/vectoradd"]
{extra}
[vary]
gpgpu_scheduler = ["gto", "lrr"]
"""


def wrapper_script(body):
    """A warpsim stand-in: `body` (sh) for real runs, the real binary otherwise
    (version, list, options, run --check-config)."""
    return f"""#!/bin/sh
case "$*" in *--check-config*) exec '{WARPSIM}' "$@" ;; esac
if [ "$1" = run ]; then
{body}
fi
exec '{WARPSIM}' "$@"
"""


def tmp_files(top):
    return [os.path.join(r, f) for r, _, fs in os.walk(top) for f in fs if ".tmp" in f]


class SweepErrorTest(ToolTest):
    def spec(self, extra=""):
        return self.write("two.toml", TWO.format(extra=extra))

    def wrapper(self, body):
        return self.write("warpsim-wrap", wrapper_script(body), 0o755)

    # ---- B: messages, interrupts, SLURM ----
    def test_failed_run_keeps_the_informative_line(self):
        self.assertEqual(runone.error_line(
            "warpsim: note: -gpgpu_x: accepted; no effect\n"
            "warpsim: cannot read config file c.txt: Permission denied\n"
            "warpsim: cannot create the device: WS_ERR_CONFIG\n"), 
            "warpsim: cannot read config file c.txt: Permission denied")
        self.assertEqual(runone.error_line("warpsim: cannot create the device: x\n"),
                         "warpsim: cannot create the device: x")
        self.assertEqual(runone.error_line("some output\nlast words\n\n"), "last words")
        fake = self.wrapper("""echo 'warpsim: cannot build the simulated GPU: -gpgpu_n_mem 0: must be > 0' >&2
echo 'warpsim: cannot create the device: WS_ERR_CONFIG' >&2
exit 2""")
        sweep = os.path.join(self.tmp, "sw")
        p = self.warpsim("sweep", self.spec(), "-o", sweep, env={"WARPSIM_BIN": fake}, check=False)
        self.assertEqual(p.returncode, 1)
        want = ("warpsim exited with status 2: warpsim: cannot build the simulated GPU: "
                "-gpgpu_n_mem 0: must be > 0")
        self.assertIn(f"  failed: gto/micro.vectoradd-small: {want}", p.stderr)
        self.assertEqual(results(sweep)["lrr/micro.vectoradd-small"]["message"], want)
        import sqlite3
        db = sqlite3.connect(os.path.join(sweep, "results.db"))
        self.assertEqual({m for (m,) in db.execute("SELECT message FROM runs")}, {want})
        db.close()

    def test_interrupted_sweep_records_interrupted_and_resumes(self):
        flag = self.write("slow", "")
        fake = self.wrapper(f"[ -e '{flag}' ] && sleep 30")
        sweep = os.path.join(self.tmp, "sw")
        env = dict(os.environ, WARPSIM_BIN=fake, PYTHONDONTWRITEBYTECODE="1")
        env.pop("WARPSIM_TOOL", None)
        proc = subprocess.Popen([WARPSIM, "sweep", self.spec(), "-o", sweep, "-j", "2"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.addCleanup(lambda: proc.poll() is None and os.killpg(proc.pid, signal.SIGKILL))
        deadline = time.monotonic() + 30
        logs = [os.path.join(sweep, "runs", c, "micro.vectoradd-small", "stdout.txt") for c in ("gto", "lrr")]
        while time.monotonic() < deadline and not all(os.path.exists(x) for x in logs):
            time.sleep(0.05)
        time.sleep(0.2)
        t0 = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertLess(time.monotonic() - t0, 10, "the interrupted sweep did not stop its runs")
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
        self.assertIn("interrupted; run it again to resume", err)
        self.assertNotIn("Traceback", err)
        res = results(sweep)
        self.assertEqual({r["status"] for r in res.values()}, {"interrupted"}, res)
        self.assertIn("signal 15 (SIGTERM)", res["gto/micro.vectoradd-small"]["message"])
        self.assertEqual({r[5] for r in db_rows(sweep)["runs"]}, {"interrupted"})
        os.unlink(flag)
        p = self.warpsim("sweep", sweep, env={"WARPSIM_BIN": fake})
        self.assertIn("0 already finished, 2 to run", p.stderr)
        self.assertEqual({r[5] for r in db_rows(sweep)["runs"]}, {"ok"})

    def test_signal_while_a_runner_is_polled(self):
        """A signal that lands while the sweep's loop is inside a runner's poll
        (holding that runner's wait lock) still stops the sweep at once."""
        flag = self.write("slow", "")
        fake = self.wrapper(f"[ -e '{flag}' ] && sleep 30")
        sweep = os.path.join(self.tmp, "sw")
        real_poll = subprocess.Popen.poll
        sent = []

        def poll_then_signal(p):
            rc = real_poll(p)
            if rc is None and not sent and os.path.exists(
                    os.path.join(sweep, "runs", "lrr", "micro.vectoradd-small", "stdout.txt")):
                sent.append(1)
                with p._waitpid_lock:  # as if the signal came in the middle of the poll
                    os.kill(os.getpid(), signal.SIGINT)
                    for _ in range(100):  # the handler runs at the next bytecode
                        pass
            return rc

        exits = []

        def fake_exit(code):
            exits.append(code)
            raise SystemExit(code)
        def too_long(signum, frame):
            raise TimeoutError("the sweep deadlocked on a runner's wait lock")
        self.addCleanup(signal.signal, signal.SIGALRM, signal.signal(signal.SIGALRM, too_long))
        self.addCleanup(signal.alarm, 0)
        signal.alarm(25)  # a deadlock fails the test instead of hanging the suite
        err = io.StringIO()
        t0 = time.monotonic()
        with mock.patch.object(subprocess.Popen, "poll", poll_then_signal), \
                mock.patch.object(os, "_exit", fake_exit), \
                mock.patch.dict(os.environ, {"WARPSIM_BIN": fake}), contextlib.redirect_stderr(err):
            try:
                sweepmod.main([self.spec(), "-o", sweep, "-j", "2"])
            except SystemExit:
                pass
        self.assertEqual(sent, [1])
        self.assertEqual(exits, [128 + signal.SIGINT], err.getvalue())
        self.assertLess(time.monotonic() - t0, 10, "the sweep waited on a lock its own loop held")
        self.assertEqual({r["status"] for r in results(sweep).values()}, {"interrupted"})

    def test_interrupted_runner(self):
        run_dir = os.path.join(self.tmp, "run")
        os.makedirs(run_dir)
        fake = self.write("sleeper", "#!/bin/sh\n[ \"$1\" = version ] && exit 0\nsleep 30\n", 0o755)
        runone.write_json_atomic(os.path.join(run_dir, runone.PLAN),
                                 {"id": "x/y", "warpsim": fake, "args": ["run"], "timeout": None})
        env = dict(os.environ, PYTHONPATH=TOOLS)
        p = subprocess.Popen([sys.executable, "-m", "warpsim_tools.runone", run_dir], env=env,
                             stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.path.exists(os.path.join(run_dir, "stderr.txt")):
            time.sleep(0.05)
        time.sleep(0.3)
        p.terminate()
        _, err = p.communicate(timeout=20)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM, err)
        with open(os.path.join(run_dir, runone.RESULT)) as f:
            r = json.load(f)
        self.assertEqual(r["status"], "interrupted")
        self.assertEqual(tmp_files(run_dir), [])

    def test_slurm_without_a_cluster_points_to_local_cluster(self):
        sweep = os.path.join(self.tmp, "sw")
        empty = os.path.join(self.tmp, "empty-bin")
        os.makedirs(empty)
        p = self.warpsim("sweep", self.spec(), "-o", sweep, "--engine", "slurm", env={"PATH": empty},
                         check=False)
        self.assertEqual(p.returncode, 2)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn("sbatch, squeue, sinfo not found", lines[0])
        self.assertIn("tools/slurm/local-cluster.sh start DIR", lines[0])
        self.assertFalse(os.path.exists(sweep))
        # the commands are there but no controller answers
        fake = os.path.join(self.tmp, "fake-bin")
        os.makedirs(fake)
        for c in ("sbatch", "squeue"):
            self.write(os.path.join("fake-bin", c), "#!/bin/sh\nexit 0\n", 0o755)
        self.write(os.path.join("fake-bin", "sinfo"),
                   "#!/bin/sh\necho 'slurm_load_partitions: Unable to contact slurm controller' >&2\nexit 1\n",
                   0o755)
        p = self.warpsim("sweep", self.spec(), "-o", sweep, "--engine", "slurm", env={"PATH": fake},
                         check=False)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("no SLURM cluster answers (sinfo: slurm_load_partitions: Unable to contact slurm "
                      "controller)", p.stderr)
        self.assertIn("tools/slurm/local-cluster.sh", p.stderr)
        self.assertFalse(os.path.exists(sweep))

    # ---- C: the per-run timeout ----
    def test_default_timeout_and_a_tiny_timeout(self):
        self.assertEqual(specmod.load(self.spec()).runs[0].timeout, specmod.DEFAULT_TIMEOUT)
        self.assertEqual(specmod.load(self.spec("timeout = 60")).runs[0].timeout, 60)
        self.assertIsNone(specmod.load(self.spec("timeout = 0")).runs[0].timeout)
        self.assertEqual(specmod.load(self.spec("timeout = 60"), timeout=5).runs[0].timeout, 5)
        with self.assertRaises(specmod.SpecError):
            specmod.load(self.spec('timeout = "1h"'))
        sweep = os.path.join(self.tmp, "sw")
        self.warpsim("sweep", self.spec(), "-o", sweep)
        with open(os.path.join(sweep, "runs", "gto", "micro.vectoradd-small", "run.json")) as f:
            self.assertEqual(json.load(f)["timeout"], 4 * 3600)
        # a run that hangs: killed at the limit (with what it started), recorded as timeout
        fake = self.wrapper("sleep 30")
        sweep2 = os.path.join(self.tmp, "sw2")
        t0 = time.monotonic()
        p = self.warpsim("sweep", self.spec("timeout = 60"), "-o", sweep2, "--timeout", "0.5",
                         env={"WARPSIM_BIN": fake}, check=False)
        self.assertLess(time.monotonic() - t0, 15)
        self.assertEqual(p.returncode, 1)
        self.assertIn("0/2 done, 0 running, 2 failed", p.stderr)
        r = results(sweep2)["lrr/micro.vectoradd-small"]
        self.assertEqual(r["status"], "timeout")
        self.assertEqual(r["message"], "timeout: killed after the 0.5 s limit per run")
        self.assertEqual({x[5] for x in db_rows(sweep2)["runs"]}, {"timeout"})
        # a finished run is kept under another limit
        p = self.warpsim("sweep", self.spec("timeout = 60"), "-o", sweep)
        self.assertIn("2 already finished, 0 to run", p.stderr)

    # ---- D: disks ----
    def test_ok_without_readable_stats_is_redone(self):
        sweep = os.path.join(self.tmp, "sw")
        self.warpsim("sweep", self.spec(), "-o", sweep)
        before = results(sweep)
        os.unlink(os.path.join(sweep, "runs", "gto", "micro.vectoradd-small", "stats.json"))
        with open(os.path.join(sweep, "runs", "lrr", "micro.vectoradd-small", "stats.json"), "w") as f:
            f.write('[{"gpu_sim_insn": 12')  # cut short by a full disk
        p = self.warpsim("sweep", sweep)
        self.assertIn("0 already finished, 2 to run", p.stderr)
        after = results(sweep)
        for k in before:
            self.assertNotEqual(after[k]["started"], before[k]["started"], k)
        self.assertEqual({r[5] for r in db_rows(sweep)["runs"]}, {"ok"})

    def mount_tmpfs(self, opts):
        """A tiny tmpfs (root only), unmounted at the end; None when it cannot be mounted."""
        d = os.path.join(self.tmp, "fs")
        os.makedirs(d, exist_ok=True)
        try:
            p = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", d], capture_output=True,
                               text=True, timeout=30)
            why = p.stderr.strip() if p.returncode else None
        except (OSError, subprocess.SubprocessError) as e:
            why = str(e)
        if why:
            sys.stderr.write(f"[cannot mount a tmpfs ({why}): in-process fallback] ")
            return None
        self.addCleanup(subprocess.run, ["umount", "-l", d])
        return d

    def assert_one_line(self, p, *expect):
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        for e in expect:
            self.assertIn(e, p.stderr)

    def sweep_in_process(self, argv, fail):
        """sweep.main in this process with every write failing as `fail` says (the
        fallback when no tmpfs can be mounted): (exit status, stderr)."""
        def no_write(*a, **k):
            raise OSError(fail, os.strerror(fail))
        err = io.StringIO()
        with mock.patch.object(os, "fsync", no_write), mock.patch("shutil.copy2", no_write), \
                mock.patch.dict(os.environ, {"WARPSIM_BIN": WARPSIM}), contextlib.redirect_stderr(err):
            try:
                rc = sweepmod.main(argv)
            except SystemExit as e:
                rc = e.code
        return subprocess.CompletedProcess(argv, rc, "", err.getvalue())

    def test_read_only_folder(self):
        fs = self.mount_tmpfs("ro,size=64m")
        if fs is None and os.geteuid() != 0:
            fs = os.path.join(self.tmp, "ro")
            os.makedirs(fs)
            os.chmod(fs, 0o555)
        target = os.path.join(fs or self.tmp, "sw")
        argv = ["sweep", self.spec(), "-o", target]
        p = self.warpsim(*argv, check=False) if fs else self.sweep_in_process(argv[1:], errno.EROFS)
        self.assert_one_line(p, "sw", "not writable")
        self.assertEqual(tmp_files(fs or self.tmp), [])
        # a finished sweep on a disk that became read-only: resuming the sweep and
        # querying it say so in one line too
        sweep = os.path.join(self.tmp, "done")
        self.warpsim("sweep", self.spec(), "-o", sweep)
        os.unlink(os.path.join(sweep, "runs", "gto", "micro.vectoradd-small", "result.json"))
        if fs and fs != os.path.join(self.tmp, "ro"):
            subprocess.run(["mount", "-o", "remount,rw", fs], check=True)
            subprocess.run(["cp", "-a", sweep, fs], check=True)
            subprocess.run(["mount", "-o", "remount,ro", fs], check=True)
            p = self.warpsim("sweep", os.path.join(fs, "done"), check=False)
            self.assert_one_line(p, "Read-only file system", "not writable")
            self.assertEqual(tmp_files(fs), [])

    def test_full_disk(self):
        fs = self.mount_tmpfs("size=64k")
        target = os.path.join(fs or self.tmp, "sw")
        argv = ["sweep", self.spec(), "-o", target]
        p = self.warpsim(*argv, check=False) if fs else self.sweep_in_process(argv[1:], errno.ENOSPC)
        self.assert_one_line(p, "No space left on device", "the disk is full")
        self.assertEqual(tmp_files(fs or self.tmp), [])

    def test_full_disk_while_writing_a_result(self):
        """In-process: the disk fills up as the runner writes result.json."""
        path = os.path.join(self.tmp, "x.json")
        real_fsync = os.fsync

        def full(fd):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        with mock.patch.object(os, "fsync", full):
            with self.assertRaises(OSError) as cm:
                common.write_atomic(path, "{}")
        self.assertEqual(cm.exception.filename, path)
        self.assertIn("the disk is full", common.disk_error(cm.exception))
        self.assertEqual(os.listdir(self.tmp), [])
        # the runner: one line in its log, no result.json, no .tmp; the sweep records why
        run_dir = os.path.join(self.tmp, "run")
        os.makedirs(run_dir)
        true = self.write("true-bin", "#!/bin/sh\nexit 0\n", 0o755)
        with open(os.path.join(run_dir, runone.PLAN), "w") as f:
            json.dump({"id": "x/y", "warpsim": true, "args": ["run"]}, f)

        def fsync(fd):
            if os.readlink(f"/proc/self/fd/{fd}").startswith(os.path.join(run_dir, runone.RESULT)):
                full(fd)
            real_fsync(fd)
        err = io.StringIO()
        with mock.patch.object(os, "fsync", fsync), contextlib.redirect_stderr(err), \
                mock.patch.object(runone.signal, "signal"):
            rc = runone.main([run_dir])
        self.assertEqual(rc, 3)
        self.assertRegex(err.getvalue(), r"^warpsim runner: .*result.json: No space left on device "
                                         r"\(the disk is full.*\)\n$")
        self.assertEqual(tmp_files(run_dir), [])
        self.assertFalse(os.path.exists(os.path.join(run_dir, runone.RESULT)))
