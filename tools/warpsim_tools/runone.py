"""Run one prepared run folder: `python3 -m warpsim_tools.runone RUN_DIR [ENGINE]`.

The folder holds run.json (what to run, written by the sweep) and perhaps
config.txt. This writes stdout.txt, stderr.txt, stats.json (by warpsim -o) and,
last and atomically, result.json. A run is finished exactly when result.json
exists; both engines (local pool, SLURM array task) run runs through here.
"""
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time

RESULT = "result.json"
PLAN = "run.json"


def write_json_atomic(path, obj):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


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
    argv = [binary] + plan["args"]  # relative paths: it runs in the run folder
    result = {
        "id": plan["id"],
        "engine": engine,
        "host": socket.gethostname(),
        "warpsim_version": warpsim_version(binary),
        "argv": argv,
        "started": time.time(),
    }
    if os.environ.get("SLURM_JOB_ID"):
        result["slurm_job"] = os.environ.get("SLURM_ARRAY_JOB_ID", os.environ["SLURM_JOB_ID"])
        result["slurm_task"] = os.environ.get("SLURM_ARRAY_TASK_ID")
    for stale in (RESULT, "stats.json", "timeseries.csv"):
        try:
            os.unlink(os.path.join(run_dir, stale))
        except FileNotFoundError:
            pass
    t0 = time.monotonic()
    status, code, msg = "failed", None, ""
    child = None

    def on_term(signum, frame):
        if child and child.poll() is None:
            child.kill()
        result.update(status="failed", exit_code=None, message=f"runner got signal {signum}",
                      wall_s=time.monotonic() - t0, finished=time.time())
        write_json_atomic(os.path.join(run_dir, RESULT), result)
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    with open(os.path.join(run_dir, "stdout.txt"), "wb") as out, \
            open(os.path.join(run_dir, "stderr.txt"), "wb") as err:
        try:
            child = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                     cwd=run_dir, preexec_fn=die_with_parent)
            try:
                code = child.wait(timeout=plan.get("timeout"))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
                status, msg = "timeout", f"killed after the {plan.get('timeout')} s timeout"
            else:
                if code == 0:
                    status = "ok"
                elif code == 1:
                    msg = "the workload's output check failed (exit 1)"
                elif code < 0:
                    msg = f"warpsim was killed by signal {-code}"
                else:
                    msg = f"warpsim exited with status {code}"
        except OSError as e:
            msg = f"cannot run {binary}: {e}"
    if status == "ok" and not os.path.exists(os.path.join(run_dir, "stats.json")):
        status, msg = "failed", "warpsim exited 0 but wrote no stats.json"
    if status != "ok":
        try:
            with open(os.path.join(run_dir, "stderr.txt"), errors="replace") as f:
                tail = f.read()[-400:].strip()
            if tail:
                msg += ": " + tail.splitlines()[-1]
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
    return run(argv[0], argv[1] if len(argv) > 1 else "local")


if __name__ == "__main__":
    sys.exit(main())
