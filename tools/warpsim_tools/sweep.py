"""`warpsim sweep SPEC|SWEEP_DIR [--engine local|slurm] [-j N] [-o DIR]`: run or resume a sweep.

Layout of a sweep folder:
  spec.toml|spec.json   copy of the description
  plan.json             expanded workloads and configs (what query/report read)
  results.db            SQLite results (store.py)
  runs/<config>/<workload>-<input>/
      run.json          what to run; config.txt the exact config; stdout.txt, stderr.txt,
      stats.json        (warpsim -o), timeseries.csv when the timing model writes it,
      result.json       written last: status, exit code, times, warpsim version, host
  slurm/                array scripts, task lists and task logs (SLURM engine)
A run is finished when its result.json says ok, its stats.json is readable and
its run.json matches the spec; everything else is (re)done, so a killed sweep
loses no finished run.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

from . import runone, spec as specmod, store as storemod
from .common import copy_atomic, die, disk_error, find_warpsim, tools_dir, write_atomic

STATUS_DONE = "ok"


class Progress:
    """done/running/failed/total and an ETA from this session's throughput."""

    def __init__(self, name, total, quiet=False):
        self.name, self.total, self.quiet = name, total, quiet
        self.t0 = time.monotonic()
        self.finished_here = 0
        self.last = None
        self.last_print = 0.0
        self.tty = sys.stderr.isatty()

    def line(self, done, running, failed, pending):
        left = self.total - done - failed
        eta = "--"
        el = time.monotonic() - self.t0
        if self.finished_here and left > 0:
            s = int(el / self.finished_here * left)
            eta = f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
        elif left == 0:
            eta = "0:00:00"
        return (f"sweep {self.name}: {done}/{self.total} done, {running} running, {failed} failed, "
                f"{pending} pending, ETA {eta}")

    def show(self, done, running, failed, pending, final=False):
        if self.quiet:
            return
        state = (done, running, failed, pending)
        now = time.monotonic()
        if not final and state == self.last and now - self.last_print < (1 if self.tty else 30):
            return
        if not final and not self.tty and now - self.last_print < 2 and state[0] + state[2] != self.total:
            if self.last and (state[0], state[2]) == (self.last[0], self.last[2]):
                return
        self.last, self.last_print = state, now
        text = self.line(*state)
        if self.tty:
            sys.stderr.write("\r" + text + "\033[K" + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError):
        return None


def run_plan(sw, run, binary):
    own = {"cwd": run.command.cwd, "env": run.command.env} if run.command else {}
    return dict(own, **{
        "id": run.id,
        "workload": run.workload,
        "input": run.input,
        "class": run.wclass,
        "config": run.config.name,
        "params": run.config.params,
        "args": run.args("config.txt"),
        "config_text": run.config.config_text(),
        "warpsim": binary,
        "timeout": run.timeout,
        "sweep": sw.name,
    })


def _same(a, b):
    # Not the timeout: a run that finished ok is as good under another limit.
    keys = ("id", "workload", "input", "args", "config_text", "cwd", "env")
    return a is not None and all(a.get(k) == b.get(k) for k in keys)


def prepare(sw, binary, store, dry_run=False):
    """Classify runs; reset the folders of those to (re)do (not when dry_run).
    Returns (done, todo): lists of (run, dir, plan)."""
    done, todo = [], []
    for run in sw.runs:
        d = os.path.join(sw.output, "runs", run.id)
        plan = run_plan(sw, run, binary)
        old = _read_json(os.path.join(d, runone.PLAN))
        res = _read_json(os.path.join(d, runone.RESULT))
        # ok but without a readable stats.json (a full disk, a deleted file): redone
        if _same(old, plan) and res and res.get("status") == STATUS_DONE and not runone.stats_problem(d):
            done.append((run, d, res))
            continue
        if dry_run:
            todo.append((run, d, plan))
            continue
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        if plan["config_text"] is not None:
            write_atomic(os.path.join(d, "config.txt"), plan["config_text"])
        runone.write_json_atomic(os.path.join(d, runone.PLAN), plan)
        todo.append((run, d, plan))
    # Finished runs the database has not seen yet (e.g. the sweep was killed
    # between a run ending and its row being written) are recorded now.
    have = {r["id"]: r for r in store.runs()}
    for run, d, res in done:
        row = have.get(run.id)
        if not row or row["status"] != STATUS_DONE or row["finished"] != res.get("finished"):
            store.record(run.id, d, res)
    return done, todo


def finish(store, run, d, rc=None, status="failed"):
    """Record a run that ended; without a result.json it is `status` (failed,
    or interrupted when the sweep stopped it), with the runner's last line."""
    res = _read_json(os.path.join(d, runone.RESULT))
    if res is None:
        msg = f"the runner ended (status {rc}) without a result.json"
        try:
            with open(os.path.join(d, "runner.log"), errors="replace") as f:
                last = [ln for ln in f.read()[-2000:].splitlines() if ln.strip()]
            if last:
                msg += ": " + last[-1].strip()
        except OSError:
            pass
        res = {"status": status, "message": msg}
    store.record(run.id, d, res)
    return res.get("status") == STATUS_DONE


# Statuses of runs that ended without success (all are redone on resume).
UNSUCCESSFUL = ("failed", "timeout", "interrupted")


def counts(store):
    c = store.counts()
    return c.get("ok", 0), c.get("running", 0), sum(v for k, v in c.items() if k in UNSUCCESSFUL), \
        c.get("pending", 0) + c.get("queued", 0)


def runner_cmd(d, engine):
    return [sys.executable, "-m", "warpsim_tools.runone", d, engine]


def runner_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = tools_dir() + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


# ---- local engine: a pool of N runner processes ----
def engine_local(sw, store, todo, jobs, progress):
    pending = list(todo)
    running = {}
    env = runner_env()

    stopping = []

    def stop(signum, frame):
        # Only a note here: the interrupted frame may hold a runner's wait lock
        # (inside Popen.poll), so waiting for runners in the handler can deadlock.
        stopping.append(signum)

    def interrupt(signum):
        for p in running:
            if p.poll() is None:
                p.terminate()  # the runner kills warpsim and records the run as interrupted
        for p, (run, d, _) in running.items():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            finish(store, run, d, p.returncode, status="interrupted")
        progress.show(*counts(store), final=True)
        sys.stderr.write(f"sweep {sw.name}: interrupted; run it again to resume\n")
        sys.stderr.flush()
        os._exit(128 + signum)

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        while pending or running:
            while pending and len(running) < jobs and not stopping:
                run, d, plan = pending.pop(0)
                with open(os.path.join(d, "runner.log"), "wb") as log:
                    p = subprocess.Popen(runner_cmd(d, "local"), env=env, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT,
                                         preexec_fn=runone.die_with_parent)
                running[p] = (run, d, plan)
                store.set_status(run.id, "running")
            if stopping:
                interrupt(stopping[0])
            for p in [p for p in running if p.poll() is not None]:
                run, d, _ = running.pop(p)
                finish(store, run, d, p.returncode)
                progress.finished_here += 1
            progress.show(*counts(store))
            if running:
                time.sleep(0.05)
        if stopping:  # the signal came as the last run ended
            interrupt(stopping[0])
    finally:
        for s, h in old.items():
            signal.signal(s, h)


# ---- SLURM engine: one job array per submission, one task per run ----
def _squeue(job):
    """Array task states of a job, or None when SLURM no longer knows it."""
    try:
        out = subprocess.run(["squeue", "-h", "-r", "-j", str(job), "-o", "%K %T"],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"?": f"squeue: {e}"}
    if out.returncode != 0:
        if "Invalid job id" in out.stderr:
            return None
        return {"?": out.stderr.strip()}
    states = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            states[parts[0]] = parts[1]
    return states or None


SLURM_HINT = ("for a one-node cluster on this machine: tools/slurm/local-cluster.sh start DIR, "
              "then export SLURM_CONF=DIR/slurm.conf (docs/sweeps.md)")


def check_slurm():
    """Die with one line when no SLURM cluster answers (before anything is made)."""
    missing = [c for c in ("sbatch", "squeue", "sinfo") if shutil.which(c) is None]
    if missing:
        die(f"--engine slurm: {', '.join(missing)} not found (no SLURM client commands on the PATH); "
            f"{SLURM_HINT}")
    try:
        p = subprocess.run(["sinfo", "-h", "-o", "%P"], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL)
        why = None if p.returncode == 0 else (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
    except (OSError, subprocess.SubprocessError) as e:
        why = str(e)
    if why:
        die(f"--engine slurm: no SLURM cluster answers (sinfo: {why}); {SLURM_HINT}")


def slurm_submit(sw, todo, opts):
    sdir = os.path.join(sw.output, "slurm")
    os.makedirs(sdir, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    tasks = os.path.join(sdir, f"tasks-{stamp}.txt")
    write_atomic(tasks, "".join(d + "\n" for _, d, _ in todo))
    cfg = dict(sw.slurm)
    lines = ["#!/bin/sh",
             f"#SBATCH --job-name={cfg.pop('job_name', 'warpsim-' + specmod.slug(sw.name))}",
             f"#SBATCH --output={sdir}/%A_%a.out",
             f"#SBATCH --array=0-{len(todo) - 1}" +
             (f"%{cfg.pop('max_running')}" if cfg.get("max_running") else "")]
    cfg.pop("max_running", None)
    extra = cfg.pop("args", [])
    for k, v in cfg.items():  # partition, time, mem, cpus_per_task, account, qos, ...
        lines.append(f"#SBATCH --{k.replace('_', '-')}={v}")
    for a in list(extra) + list(opts.slurm_arg or []):
        lines.append(f"#SBATCH {a}")
    lines += [
        "# One sweep run per array task: the run folder is line TASK+1 of the task list.",
        f"dir=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" '{tasks}')",
        f"PYTHONPATH='{tools_dir()}' exec '{sys.executable}' -m warpsim_tools.runone \"$dir\" slurm",
    ]
    script = os.path.join(sdir, f"array-{stamp}.sh")
    write_atomic(script, "\n".join(lines) + "\n")
    try:
        out = subprocess.run(["sbatch", "--parsable", script], capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        die("sbatch not found: the SLURM engine needs the SLURM client commands (slurm-client)")
    except subprocess.TimeoutExpired:
        die("sbatch did not answer in 120 s")
    if out.returncode != 0:
        die(f"sbatch failed: {out.stderr.strip() or out.stdout.strip()}; {SLURM_HINT}")
    job = out.stdout.strip().split(";")[0]
    return job, [d for _, d, _ in todo]


def slurm_wait(sw, store, job, runs, progress, poll=1.0, timeout=None):
    """Wait for the job's tasks, recording each run as its result.json appears."""
    left = {d: run for run, d in runs}
    t0 = time.monotonic()
    gone_since = None
    while left:
        for d in [d for d in left if os.path.exists(os.path.join(d, runone.RESULT))]:
            finish(store, left.pop(d), d)
            progress.finished_here += 1
        states = _squeue(job)
        if states is not None and "?" not in states:
            running_ids = set()
            for k, s in states.items():
                if s == "RUNNING" and k.isdigit():
                    running_ids.add(int(k))
            for i, (run, d) in enumerate(runs):
                if d in left:
                    st = "running" if i in running_ids else "queued"
                    store.db.execute("UPDATE runs SET status = ? WHERE id = ? AND status != ?",
                                     (st, run.id, st))
            store.db.commit()
        if states is None:
            # SLURM is done with the job; give the file system a moment, then
            # every run still without a result failed.
            gone_since = gone_since or time.monotonic()
            if time.monotonic() - gone_since > 5:
                for d, run in list(left.items()):
                    finish(store, run, d)
                    store.set_status(run.id, "failed",
                                     f"SLURM task ended without a result (see {sw.output}/slurm/{job}_*.out)")
                    left.pop(d)
        progress.show(*counts(store))
        if timeout and time.monotonic() - t0 > timeout:
            die(f"gave up waiting for SLURM job {job} after {timeout} s; run the sweep again to resume")
        if left:
            time.sleep(poll)


def engine_slurm(sw, store, todo, opts, progress):
    job, dirs = slurm_submit(sw, todo, opts)
    store.set_meta("slurm_active", {"job": job, "dirs": dirs})
    for run, _, _ in todo:
        store.set_status(run.id, "queued")
    if not opts.quiet:
        sys.stderr.write(f"sweep {sw.name}: submitted SLURM job array {job} ({len(todo)} tasks)\n")
    if opts.no_wait:
        return
    slurm_wait(sw, store, job, [(run, d) for run, d, _ in todo], progress, timeout=opts.wait_timeout)
    store.set_meta("slurm_active", "")


def attach_slurm(sw, store, opts, progress):
    """A previous SLURM job of this sweep still running: wait for it (slurm
    engine) or refuse to race it (local engine). Returns the run ids it holds."""
    act = store.meta("slurm_active")
    if not act:
        return set()
    act = json.loads(act)
    if shutil.which("squeue") is None or _squeue(act["job"]) is None:
        store.set_meta("slurm_active", "")
        return set()
    if opts.engine != "slurm":
        die(f"SLURM job {act['job']} of this sweep is still running; wait for it "
            f"(warpsim sweep ... --engine slurm) or cancel it (scancel {act['job']})")
    by_dir = {os.path.join(sw.output, "runs", r.id): r for r in sw.runs}
    runs = [(by_dir[d], d) for d in act["dirs"] if d in by_dir]
    if opts.no_wait:
        die(f"SLURM job {act['job']} of this sweep is still running")
    if not opts.quiet:
        sys.stderr.write(f"sweep {sw.name}: waiting for SLURM job {act['job']} from an earlier call\n")
    slurm_wait(sw, store, act["job"], runs, progress, timeout=opts.wait_timeout)
    store.set_meta("slurm_active", "")
    return set()


def main(argv):
    ap = argparse.ArgumentParser(prog="warpsim sweep", description="run or resume a sweep")
    ap.add_argument("spec", help="sweep description (.toml or .json), or a sweep folder to resume")
    ap.add_argument("--engine", choices=["local", "slurm"], default="local")
    ap.add_argument("-j", "--jobs", type=int, help="local engine: parallel runs (default: cores)")
    ap.add_argument("-o", "--output", help="sweep folder (default: the spec's 'output', else sweeps/NAME)")
    ap.add_argument("--no-wait", action="store_true", help="slurm: submit and return; resume later to gather")
    ap.add_argument("--wait-timeout", type=float, help="slurm: give up waiting after this many seconds")
    ap.add_argument("--slurm-arg", action="append", help="extra sbatch option, e.g. --slurm-arg=--partition=x")
    ap.add_argument("--status", action="store_true", help="only show the sweep's progress")
    ap.add_argument("--dry-run", action="store_true", help="list the runs to do, run nothing")
    ap.add_argument("--timeout", type=float, metavar="SECONDS",
                    help=f"limit per run (default: the spec's 'timeout', else {specmod.DEFAULT_TIMEOUT} s; "
                         f"0: none)")
    ap.add_argument("-q", "--quiet", action="store_true")
    opts = ap.parse_args(argv)
    try:
        return sweep(opts)
    except (OSError, sqlite3.Error) as e:  # a full or read-only disk: one line, no traceback
        die(disk_error(e))


def sweep(opts):
    spec_path, output = opts.spec, opts.output
    if os.path.isdir(spec_path):
        plan = _read_json(os.path.join(spec_path, "plan.json"))
        if not plan:
            die(f"{spec_path} is not a sweep folder (no plan.json)")
        output = output or spec_path
        spec_path = plan["spec"]
        if not os.path.exists(spec_path):
            for cand in ("spec.toml", "spec.json"):
                if os.path.exists(os.path.join(output, cand)):
                    spec_path = os.path.join(output, cand)
    try:
        sw = specmod.load(spec_path, output, opts.timeout)
    except (specmod.SpecError, OSError) as e:
        die(str(e))

    if opts.status:
        ok, failed = classify_only(sw)
        sys.stderr.write(f"sweep {sw.name}: {ok}/{len(sw.runs)} done, {failed} failed, "
                         f"{len(sw.runs) - ok - failed} not finished ({sw.output})\n")
        return 0
    source = find_warpsim()
    check_workloads(sw, source)
    # Every config, before anything runs or any folder is made: a misspelled
    # option must not run the default under another name.
    try:
        specmod.check(sw, source)
    except specmod.SpecError as e:
        die(str(e))
    if opts.engine == "slurm" and not opts.dry_run:
        check_slurm()
    if opts.dry_run and not os.path.exists(os.path.join(sw.output, "results.db")):
        # nothing has run yet: every run is to do, and a dry run leaves no folder behind
        for run in sw.runs:
            print(run.id)
        sys.stderr.write(f"sweep {sw.name}: 0 finished, {len(sw.runs)} to run\n")
        return 0
    os.makedirs(sw.output, exist_ok=True)
    binary, sha = snapshot(source, sw.output, with_shim=bool(sw.commands))
    ext = ".json" if spec_path.endswith(".json") else ".toml"
    if os.path.abspath(spec_path) != os.path.abspath(os.path.join(sw.output, "spec" + ext)):
        copy_atomic(spec_path, os.path.join(sw.output, "spec" + ext))
    plan = sw.plan()
    runone.write_json_atomic(os.path.join(sw.output, "plan.json"), plan)
    store = storemod.Store(sw.output, create=True)
    store.set_meta("plan", plan)
    store.set_meta("name", sw.name)
    store.set_meta("baseline", sw.baseline)
    store.set_meta("warpsim", source)
    store.set_meta("warpsim_sha256", sha)
    store.set_meta("warpsim_version", runone.warpsim_version(binary))
    store.set_meta("git", git_describe())
    store.plan_runs(sw.runs)

    progress = Progress(sw.name, len(sw.runs), opts.quiet)
    attach_slurm(sw, store, opts, progress)
    done, todo = prepare(sw, binary, store, opts.dry_run)
    if opts.dry_run:
        for run, d, _ in todo:
            print(run.id)
        sys.stderr.write(f"sweep {sw.name}: {len(done)} finished, {len(todo)} to run\n")
        return 0
    for run, _, _ in todo:
        store.set_status(run.id, "pending")
    if not opts.quiet:
        sys.stderr.write(f"sweep {sw.name}: {len(sw.runs)} runs in {sw.output}; {len(done)} already "
                         f"finished, {len(todo)} to run ({opts.engine})\n")
    if todo:
        if opts.engine == "local":
            jobs = opts.jobs or sw.jobs or os.cpu_count() or 1
            engine_local(sw, store, todo, max(1, jobs), progress)
        else:
            engine_slurm(sw, store, todo, opts, progress)
    store.refresh_wide_view()
    ok, running, failed, pending = counts(store)
    progress.show(ok, running, failed, pending, final=True)
    for r in store.runs():
        if r["status"] not in ("ok", "pending", "queued", "running"):
            sys.stderr.write(f"  {r['status']}: {r['id']}: {r['message']}\n")
    store.close()
    if opts.no_wait and opts.engine == "slurm" and todo:
        return 0
    return 0 if ok == len(sw.runs) else 1


def _shim_files(binary):
    """The CUDA runtime shim beside the binary (<dir>/lib/libcuda*), which
    `warpsim run -- PROGRAM` puts first on LD_LIBRARY_PATH."""
    lib = os.path.join(os.path.dirname(os.path.realpath(binary)), "lib")
    try:
        return lib, sorted(n for n in os.listdir(lib) if n.startswith("libcuda"))
    except OSError:
        return lib, []


def snapshot(binary, out, with_shim=False):
    """Runs use a copy of the binary, SWEEP_DIR/bin/warpsim-<sha256 prefix>:
    a rebuild during a sweep cannot change (or break) the runs still to do.
    A sweep of programs (with_shim) also needs the shim: the binary and its
    lib/ go to SWEEP_DIR/bin/<sha256 prefix of both>/."""
    h = hashlib.sha256()
    lib, shim = _shim_files(binary) if with_shim else (None, [])
    for path in [binary] + [os.path.join(lib, n) for n in shim]:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    sha = h.hexdigest()
    if not with_shim:
        dest = os.path.join(out, "bin", f"warpsim-{sha[:16]}")
        if not os.path.exists(dest):
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            copy_atomic(binary, dest)
        return dest, sha
    if not shim:
        die(f"the CUDA runtime shim is missing ({lib}/libcudart.so.*): the sweep's programs run "
            f"under it (run `make`)")
    folder = os.path.join(out, "bin", sha[:16])
    if not os.path.exists(folder):  # built beside, renamed whole
        tmp = f"{folder}.tmp.{os.getpid()}"
        try:
            os.makedirs(os.path.join(tmp, "lib"))
            shutil.copy2(binary, os.path.join(tmp, "warpsim"))
            for n in shim:
                shutil.copy2(os.path.join(lib, n), os.path.join(tmp, "lib", n), follow_symlinks=False)
            os.replace(tmp, folder)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            raise OSError(e.errno, e.strerror, folder) from None
    return os.path.join(folder, "warpsim"), sha


def classify_only(sw):
    ok = failed = 0
    for run in sw.runs:
        p = os.path.join(sw.output, "runs", run.id, runone.RESULT)
        res = _read_json(p)
        if res:
            good = res.get("status") == STATUS_DONE and not runone.stats_problem(os.path.dirname(p))
            ok += good
            failed += not good
    return ok, failed


def check_workloads(sw, binary):
    """Fail before running anything when a workload name is not bundled."""
    try:
        out = subprocess.run([binary, "list"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return
    names, full = {}, set()
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2:
            names.setdefault(parts[0], []).append(parts[1])
            full.add(f"{parts[1]}/{parts[0]}")
    bad = []
    for w, _, _ in sw.workloads:
        if w in sw.commands or w in full or len(names.get(w, [])) == 1:
            continue
        if w in names:
            bad.append(f"{w} (ambiguous: " + ", ".join(f"{s}/{w}" for s in names[w]) + ")")
        else:
            bad.append(w)
    if bad:
        die(f"{sw.path}: not bundled workloads: {'; '.join(bad)} (see `warpsim list`)")


def git_describe():
    try:
        out = subprocess.run(["git", "-C", os.path.dirname(tools_dir()), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
