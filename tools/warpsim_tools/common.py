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
