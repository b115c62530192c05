"""warpsim's statistics catalog, as `warpsim stats --json` prints it.

Every statistic is declared once in the simulator (src/stats/catalog.h):
its JSON key, text spelling, description, unit, scope (kernel, program:
cumulative with NAME_kernel per kernel, or cumulative alone) and how it
aggregates over kernels and over a sweep's runs. The tools read it from
the binary instead of keeping their own lists: store.aggregate() follows
it, and label() / unit() / description() give figures their axis text.

The catalog is read once per binary (keyed by its path, size and mtime) and
kept for the process. $WARPSIM_STATS_CATALOG names a saved `warpsim stats
--json` to use instead of running the binary. Without either (no binary, or
one from before the catalog) the catalog is empty and callers fall back to
their own rules.
"""
import json
import os
import re
import subprocess

from . import common

KERNEL_SUFFIX = "_kernel"

_cache = {}


class Catalog:
    """Look-ups over the catalog's entries (dicts with the keys of `warpsim stats --json`)."""

    def __init__(self, entries):
        self.entries = list(entries)
        self._by_name = {}
        self._families = []
        for e in self.entries:
            if e.get("family"):
                pats = [e["name"]] + ([e["text"]] if e.get("text") else [])
                rx = "|".join("^" + ".*".join(re.escape(p) for p in pat.split("*")) + "$"
                              for pat in pats)
                self._families.append((re.compile(rx), e))
                continue
            self._by_name[e["name"]] = e
            if e.get("text") and e["text"].strip() != e["name"]:
                self._by_name.setdefault(e["text"].strip(), e)

    def __bool__(self):
        return bool(self.entries)

    def __len__(self):
        return len(self.entries)

    def _family(self, key):
        for rx, e in self._families:
            if rx.match(key):
                return e
        return None

    def find(self, key):
        """(entry, per_kernel) for a JSON key or text spelling: per_kernel is True for
        NAME_kernel of a program-scope stat. (None, False) when not catalogued."""
        e = self._by_name.get(key)
        if e:
            return e, False
        # before the families: "warp_distro_*" would take warp_distro_W1_kernel for a member
        if key.endswith(KERNEL_SUFFIX):
            base = key[:-len(KERNEL_SUFFIX)]
            e = self._by_name.get(base) or self._family(base)
            if e and e.get("scope") == "program":
                return e, True
        e = self._family(key)
        return (e, False) if e else (None, False)

    def entry(self, name):
        return self.find(name)[0]

    def label(self, name):
        """Short axis text: GPGPU-Sim's spelling (the JSON key where it has none), with
        "(per kernel)" for NAME_kernel; the name itself when not catalogued."""
        e, pk = self.find(name)
        if not e or e.get("family"):
            return name
        t = (e.get("text") or e["name"]).strip()
        return f"{t} (per kernel)" if pk else t

    def unit(self, name):
        e = self.entry(name)
        return e.get("unit", "") if e else ""

    def description(self, name):
        e = self.entry(name)
        return e.get("description", "") if e else ""


def _binary():
    b = os.environ.get("WARPSIM_BIN")
    if b:
        return os.path.abspath(b)
    b = os.path.join(common.repo_dir(), "build", "warpsim")
    return b if os.access(b, os.X_OK) else None


def load(warpsim=None):
    """The catalog of binary warpsim (default: $WARPSIM_BIN, else build/warpsim)."""
    saved = os.environ.get("WARPSIM_STATS_CATALOG")
    src = saved or warpsim or _binary()
    if not src:
        return Catalog([])
    try:
        st = os.stat(src)
    except OSError:
        return Catalog([])
    key = (src, st.st_size, st.st_mtime_ns)
    if key not in _cache:
        try:
            if saved:
                with open(saved) as f:
                    entries = json.load(f)
            else:
                out = subprocess.run([src, "stats", "--json"], capture_output=True, text=True,
                                     timeout=60, check=True).stdout
                entries = json.loads(out)
        except (OSError, ValueError, subprocess.SubprocessError):
            entries = []  # a binary from before the catalog: callers fall back
        _cache[key] = Catalog(entries if isinstance(entries, list) else [])
    return _cache[key]


def label(name):
    return load().label(name)


def unit(name):
    return load().unit(name)


def description(name):
    return load().description(name)
