"""Shared setup for the tools' tests: paths, a small sweep spec, running
`warpsim` subcommands with timeouts, and a canonical view of a results
database for comparisons."""
import atexit
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILT = os.environ.get("WARPSIM_BIN") or os.path.join(REPO, "build", "warpsim")
TOOLS = os.path.join(REPO, "tools")


def _snapshot():
    """A private copy of the binary and its shim libraries, as
    SESSION/build/warpsim and SESSION/build/lib beside a SESSION/tools link, so that `warpsim sweep` still finds the tools and a
    rebuild of build/warpsim while the tests run cannot break them."""
    if not os.access(BUILT, os.X_OK):
        return BUILT
    session = tempfile.mkdtemp(prefix="warpsim-tools-bin-")
    atexit.register(shutil.rmtree, session, True)
    os.makedirs(os.path.join(session, "build"))
    os.symlink(TOOLS, os.path.join(session, "tools"))
    dest = os.path.join(session, "build", "warpsim")
    lib = os.path.join(os.path.dirname(BUILT), "lib")
    if os.path.isdir(lib):  # the CUDA runtime shim: `warpsim run -- PROGRAM` finds it beside the binary
        shutil.copytree(lib, os.path.join(session, "build", "lib"), symlinks=True)
    for _ in range(20):
        shutil.copy2(BUILT, dest)
        try:
            if subprocess.run([dest, "version"], capture_output=True, timeout=30).returncode == 0:
                return dest
        except (OSError, subprocess.SubprocessError):
            pass
        time.sleep(0.5)  # caught it mid-link
    return BUILT


WARPSIM = _snapshot()

# 2 workloads x 3 configs, small inputs, functional runs.
SMALL_SPEC = """
name = "tiny"
input = "small"
functional = true
timeout = 120

[base]
preset = "gtx480"

[classes]
streaming = ["micro/vectoradd"]
compute = ["micro/matmul"]

[vary]
gpgpu_scheduler = ["gto", "lrr", "oldest"]
"""

# Stats that depend on the host's speed, not on the simulation.
HOST_DEPENDENT = ("wall_time", "sim_rate")


class ToolTest(unittest.TestCase):
    def setUp(self):
        if not os.access(WARPSIM, os.X_OK):
            self.fail(f"{WARPSIM} is missing: build it first (make)")
        self.tmp = tempfile.mkdtemp(prefix="warpsim-tools-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def write(self, name, text, mode=None):
        p = os.path.join(self.tmp, name)
        with open(p, "w") as f:
            f.write(text)
        if mode:
            os.chmod(p, mode)
        return p

    def warpsim(self, *args, env=None, timeout=120, check=True):
        e = dict(os.environ)
        e.pop("WARPSIM_BIN", None)  # the dispatch sets it to the binary itself
        e["PYTHONDONTWRITEBYTECODE"] = "1"
        if env:
            e.update(env)
        p = subprocess.run([WARPSIM] + list(args), capture_output=True, text=True, timeout=timeout,
                           env=e, stdin=subprocess.DEVNULL)
        if check and p.returncode != 0:
            self.fail(f"warpsim {' '.join(args)} exited {p.returncode}\nstdout:\n{p.stdout}\n"
                      f"stderr:\n{p.stderr}")
        return p


def db_rows(sweep_dir):
    """The database's content minus what depends on where and when it ran."""
    db = sqlite3.connect(os.path.join(sweep_dir, "results.db"))
    try:
        runs = sorted(db.execute("SELECT id, workload, input, class, config, status, exit_code, "
                                 "kernels FROM runs").fetchall())
        params = sorted(db.execute("SELECT * FROM params").fetchall())
        kernels = sorted(db.execute("SELECT * FROM kernels").fetchall())

        def keep(k):
            return not any(h in k for h in HOST_DEPENDENT)
        stats = sorted(r for r in db.execute("SELECT * FROM stats") if keep(r[1]))
        kstats = sorted(r for r in db.execute("SELECT * FROM kernel_stats") if keep(r[2]))
    finally:
        db.close()
    return {"runs": runs, "params": params, "kernels": kernels, "stats": stats, "kernel_stats": kstats}
