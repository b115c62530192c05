"""Shared helpers: where the tools and the warpsim binary are, errors."""
import os
import sys


def tools_dir():
    """The tools/ folder (the parent of this package)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def repo_dir():
    return os.path.dirname(tools_dir())


def find_warpsim():
    """$WARPSIM_BIN (set by `warpsim` itself when it runs these tools), else
    <repo>/build/warpsim."""
    b = os.environ.get("WARPSIM_BIN")
    if b:
        return os.path.abspath(b)
    b = os.path.join(repo_dir(), "build", "warpsim")
    if os.access(b, os.X_OK):
        return b
    die(f"cannot find the warpsim binary ({b} is missing: run `make`, or set WARPSIM_BIN)")


def die(msg, code=2):
    prog = os.environ.get("WARPSIM_TOOL", "warpsim")
    sys.stderr.write(f"{prog}: {msg}\n")
    sys.exit(code)


def _via_temporary(path, fill):
    """Run fill(tmp) to make a temporary file beside path, then rename it over
    path: readers see the old file or the whole new one, never a part. On any
    error (a full or read-only disk) the temporary file is removed and the
    OSError goes up, naming path."""
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        fill(tmp)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OSError(e.errno, e.strerror, path) from None


def write_atomic(path, data, mode=None):
    """Write text or bytes to path through a temporary file (see _via_temporary)."""
    def fill(tmp):
        with open(tmp, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    _via_temporary(path, fill)


def copy_atomic(src, dest):
    """shutil.copy2 through a temporary file and a rename (see _via_temporary)."""
    import shutil
    _via_temporary(dest, lambda tmp: shutil.copy2(src, tmp))


def disk_error(e):
    """One line for an OSError or sqlite3 error of the tools (no traceback)."""
    import errno as errnomod
    what = getattr(e, "filename", None)
    why = getattr(e, "strerror", None) or str(e)
    hint = ""
    if getattr(e, "errno", None) == errnomod.ENOSPC or "disk is full" in str(e):
        hint = " (the disk is full: free space and run the command again; finished runs are kept)"
    elif getattr(e, "errno", None) in (errnomod.EROFS, errnomod.EACCES, errnomod.EPERM) or "readonly" in str(e):
        hint = " (the folder is not writable: choose another with -o, or fix its permissions)"
    return f"{what}: {why}{hint}" if what else f"{why}{hint}"
