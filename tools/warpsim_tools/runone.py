"""Run one prepared run folder: `python3 -m warpsim_tools.runone RUN_DIR [ENGINE]`.

The folder holds run.json (what to run, written by the sweep) and perhaps
config.txt. This writes stdout.txt, stderr.txt, stats.json (by warpsim -o) and,
last and atomically, result.json. A run is finished exactly when result.json
exists; both engines (local pool, SLURM array task) run runs through here.
A run of the user's own program (run.json has "cwd") runs `warpsim run ...
-- PROGRAM ARGS` in that folder, with the run folder's paths made absolute.
"""
import ctypes
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

from .common import disk_error, write_atomic

RESULT = "result.json"
PLAN = "run.json"
STATS = "stats.json"

# warpsim lines that say that something failed but not what (the line before says what).
GENERIC = ("cannot create the device", "configuration refused", "cannot open the simulated device")
NOT_ERRORS = ("note:", "the instruction cap", "skipped after the instruction cap")


def write_json_atomic(path, obj):
    write_atomic(path, json.dumps(obj, indent=1, sort_keys=True) + "\n")


def stats_problem(run_dir):
    """Why the run's stats.json cannot be used (missing, unreadable), or None."""
    try:
        with open(os.path.join(run_dir, STATS)) as f:
            json.load(f)
    except FileNotFoundError:
        return "no stats.json"
    except (OSError, ValueError) as e:
        return f"unreadable stats.json: {e}"
    return None


def error_line(text):
    """The informative line of a failed run's stderr: the last `warpsim...:`
    error that says what went wrong (not a note, not a generic 'cannot create
    the device'), else the last warpsim line, else the last line."""
    lines = [ln.strip() for ln in text.splitlines()
             if ln.strip() and not any(x in ln for x in NOT_ERRORS)]
    ours = [ln for ln in lines if re.match(r"warpsim( \w+)?: ", ln)]
    useful = [ln for ln in ours if not any(g in ln for g in GENERIC)]
    for pick in (useful, ours, lines):
        if pick:
            return pick[-1][:300]
    return ""


def absolute_paths(args, run_dir):
    """`warpsim run` arguments with the paths of -o and --config made absolute
    (relative to run_dir), up to `--`: the program runs in its own folder."""
    out = list(args)
    for i in range(1, len(out)):
        if out[i - 1] == "--":
            break
        if out[i - 1] in ("-o", "--config") and not os.path.isabs(out[i]):
            out[i] = os.path.normpath(os.path.join(run_dir, out[i]))
    return out


def die_with_parent():
    """preexec_fn: the child gets SIGKILL when its parent dies, so that a killed
    sweep or runner leaves no simulation behind writing into a run folder."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def warpsim_version(binary):
    try:
        out = subprocess.run([binary, "version"], capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or out.stderr.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"unknown ({e})"


def run(run_dir, engine="local"):
    run_dir = os.path.abspath(run_dir)
    with open(os.path.join(run_dir, PLAN)) as f:
        plan = json.load(f)
    binary = plan["warpsim"]
    cwd, env = run_dir, None  # a bundled workload: relative paths are in the run folder
    if plan.get("cwd"):  # the user's program, in its own folder
        cwd = plan["cwd"]
        env = dict(os.environ)
        env.update(plan.get("env") or {})
        argv = [binary] + absolute_paths(plan["args"], run_dir)
    else:
        argv = [binary] + plan["args"]
    timeout = plan.get("timeout") or None
    result = {
        "id": plan["id"],
        "engine": engine,
        "host": socket.gethostname(),
        "warpsim_version": warpsim_version(binary),
        "argv": argv,
        "started": time.time(),
        "timeout": timeout,
    }
    if os.environ.get("SLURM_JOB_ID"):
        result["slurm_job"] = os.environ.get("SLURM_ARRAY_JOB_ID", os.environ["SLURM_JOB_ID"])
        result["slurm_task"] = os.environ.get("SLURM_ARRAY_TASK_ID")
    for stale in (RESULT, STATS, "timeseries.csv"):
        try:
            os.unlink(os.path.join(run_dir, stale))
        except FileNotFoundError:
            pass
    t0 = time.monotonic()
    status, code, msg = "failed", None, ""
    child = None

    def kill_child():
        # warpsim runs in its own process group with the program it started
        # (`warpsim run -- PROGRAM`): both go.
        if child and child.poll() is None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except OSError:
                child.kill()

    def on_term(signum, frame):
        kill_child()
        result.update(status="interrupted", exit_code=None,
                      message=f"interrupted: the runner got signal {signum} "
                              f"({signal.Signals(signum).name}); redone on resume",
                      wall_s=time.monotonic() - t0, finished=time.time())
        try:
            write_json_atomic(os.path.join(run_dir, RESULT), result)
        except OSError as e:
            sys.stderr.write(f"warpsim runner: {disk_error(e)}\n")
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    with open(os.path.join(run_dir, "stdout.txt"), "wb") as out, \
            open(os.path.join(run_dir, "stderr.txt"), "wb") as err:
        try:
            child = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                     cwd=cwd, env=env, preexec_fn=die_with_parent,
                                     start_new_session=True)
            try:
                code = child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                kill_child()
                child.wait()
                status, msg = "timeout", f"timeout: killed after the {timeout:g} s limit per run"
            else:
                if code == 0:
                    status = "ok"
                elif plan.get("cwd") and code > 0:
                    msg = f"the program exited with status {code}"
                elif code == 1:
                    msg = "the workload's output check failed (exit 1)"
                elif code < 0:
                    msg = f"warpsim was killed by signal {-code}"
                else:
                    msg = f"warpsim exited with status {code}"
        except OSError as e:
            msg = f"cannot run {binary} in {cwd}: {e}"
    if status == "ok":
        why = stats_problem(run_dir)
        if why:
            status, msg = "failed", f"warpsim exited 0 but wrote {why}"
    if status not in ("ok", "timeout"):
        try:
            with open(os.path.join(run_dir, "stderr.txt"), "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - 8192))
                line = error_line(f.read().decode(errors="replace"))
            if line:
                msg += ": " + line
        except OSError:
            pass
    result.update(status=status, exit_code=code, message=msg, wall_s=time.monotonic() - t0,
                  finished=time.time())
    write_json_atomic(os.path.join(run_dir, RESULT), result)
    return 0 if status == "ok" else 1


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python3 -m warpsim_tools.runone RUN_DIR [ENGINE]", file=sys.stderr)
        return 2
    try:
        return run(argv[0], argv[1] if len(argv) > 1 else "local")
    except OSError as e:  # a full or read-only disk: one line in the runner's log
        sys.stderr.write(f"warpsim runner: {disk_error(e)}\n")
        return 3


if __name__ == "__main__":
    sys.exit(main())
