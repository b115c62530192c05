"""Readable names of stats for axis labels, legends and captions.

STATS is a plain data table keyed by stat name, short curated labels for the
stats figures show most; every other stat the simulator declares (its
statistics catalog, `warpsim stats`) is labelled from its catalog description
and unit (`describe`): label (a short readable name), unit
("" when the value is a count, ratio or fraction whose label says so) and
higher_is_better (True, False or None when neither). Names not in the table
get a tidy label from `tidy()`; time-series columns (timeseries.csv) are in
the same table under their column names.
"""
import re

# name: (label, unit, higher_is_better)
STATS = {
    # whole run / last kernel
    "gpu_ipc": ("IPC", "thread instructions per cycle", True),
    "gpu_tot_ipc": ("IPC", "thread instructions per cycle", True),
    "gpu_sim_cycle": ("Simulated cycles", "cycles", False),
    "gpu_tot_sim_cycle": ("Simulated cycles", "cycles", False),
    "gpu_sim_insn": ("Thread instructions", "", None),
    "gpu_tot_sim_insn": ("Thread instructions", "", None),
    "gpu_sim_warp_insn": ("Warp instructions", "", None),
    "gpu_sim_issued_cta": ("CTAs issued", "", None),
    "gpu_tot_issued_cta": ("CTAs issued", "", None),
    "gpu_sim_time_us": ("Simulated time", "µs", False),
    "gpu_sim_wall_time": ("Host wall time", "s", False),
    "gpu_total_sim_rate": ("Simulation rate", "instructions per host second", True),
    "wall_time": ("Host wall time", "s", False),
    "sim_rate": ("Simulation rate", "instructions per host second", True),
    "gpu_stall_dramfull": ("Stalls on full DRAM queue", "cycles", False),
    "gpu_stall_icnt": ("Stalls on interconnect", "cycles", False),
    # caches
    "L1D_total_cache_accesses": ("L1D accesses", "", None),
    "L1D_total_cache_misses": ("L1D misses", "", False),
    "L1D_total_cache_miss_rate": ("L1D miss rate", "", False),
    "L1D_total_cache_pending_hits": ("L1D pending hits", "", None),
    "L1D_total_cache_reservation_fails": ("L1D reservation failures", "", False),
    "L1D_total_cache_bypasses": ("L1D bypasses", "", None),
    "L1I_total_cache_accesses": ("L1I accesses", "", None),
    "L1I_total_cache_misses": ("L1I misses", "", False),
    "L1I_total_cache_miss_rate": ("L1I miss rate", "", False),
    "L1C_total_cache_accesses": ("L1C (constant) accesses", "", None),
    "L1C_total_cache_misses": ("L1C (constant) misses", "", False),
    "L1C_total_cache_miss_rate": ("L1C (constant) miss rate", "", False),
    "L1T_total_cache_accesses": ("L1T (texture) accesses", "", None),
    "L1T_total_cache_misses": ("L1T (texture) misses", "", False),
    "L2_total_cache_accesses": ("L2 accesses", "", None),
    "L2_total_cache_misses": ("L2 misses", "", False),
    "L2_total_cache_miss_rate": ("L2 miss rate", "", False),
    "L2_total_cache_pending_hits": ("L2 pending hits", "", None),
    "L2_total_cache_reservation_fails": ("L2 reservation failures", "", False),
    "L2_total_cache_bypasses": ("L2 bypasses", "", None),
    # DRAM
    "total_dram_reads": ("DRAM reads", "", None),
    "total_dram_writes": ("DRAM writes", "", None),
    "dram_bw_util": ("DRAM bandwidth utilisation", "fraction of peak", None),
    "dram_busy_data_cycles": ("DRAM busy data cycles", "cycles", None),
    "dram_cycles": ("DRAM cycles", "cycles", None),
    "dram_row_hits": ("DRAM row hits", "", None),
    "dram_row_misses": ("DRAM row misses", "", False),
    "dram_latency": ("DRAM latency", "cycles", False),
    # interval time series (timeseries.csv columns)
    "cycle": ("Cycle", "", None),
    "kernel": ("Kernel", "", None),
    "ipc": ("IPC", "thread instructions per cycle", True),
    "l1d_miss_rate": ("L1D miss rate", "", False),
    "l2_miss_rate": ("L2 miss rate", "", False),
    "active_warps_per_sm": ("Active warps per SM", "", None),
    "issuable_warps_per_sm": ("Issuable warps per SM (not stalled)", "", None),
    "active_warps": ("Active warps", "", None),
    "warp_limit_per_sched": ("Warp limit per scheduler", "warps", None),
}

_WORDS = {"tot": "total", "sim": "simulated", "insn": "instructions", "ipc": "IPC", "dram": "DRAM",
          "gpu": "GPU", "sm": "SM", "cta": "CTA", "bw": "bandwidth", "util": "utilisation",
          "icnt": "interconnect", "mshr": "MSHR", "l1d": "L1D", "l2": "L2", "l1i": "L1I", "num": "number",
          "avg": "mean", "us": "µs"}


def tidy(name):
    """A readable label for a stat not in the table: words split on '_', known
    abbreviations spelled out or capitalised, e.g. 'gpu_avg_occupancy' ->
    'GPU mean occupancy', 'L1D_fail_MSHR_ENTRY_FAIL' -> 'L1D fail MSHR entry fail'."""
    words = [w for w in re.split(r"[_\s]+", name.strip()) if w]
    out = []
    for w in words:
        lw = w.lower()
        if lw in _WORDS:
            out.append(_WORDS[lw])
        elif re.fullmatch(r"[A-Z]+\d[A-Z0-9]*", w):  # a cache level: L1D, L2
            out.append(w)
        else:
            out.append(lw)
    s = " ".join(out) or name
    return s[0].upper() + s[1:]


# catalog units that name no quantity: no "(unit)" after the label
_NO_UNIT = {"", "text", "flag", "id", "count", "fraction", "ratio"}


def from_catalog(name, cat=None):
    """(label, unit, None) from the simulator's statistics catalog (`warpsim
    stats --json`, declared next to the code that counts each stat), or None
    when the catalog does not know the name."""
    if cat is None:
        from . import catalog
        cat = catalog.load()
    e, per_kernel = cat.find(name)
    if not e or e.get("family") or not e.get("description"):
        return None
    lab = re.split(r"[;(\[]", e["description"])[0].strip()
    if per_kernel and "kernel" not in lab:
        lab += " (this kernel)"
    unit = e.get("unit", "")
    return (lab[0].upper() + lab[1:], "" if unit in _NO_UNIT else unit, None)


def describe(name, cat=None):
    """(label, unit, higher_is_better) of a stat; per-kernel or prefixed names
    ('k3.gpu_sim_cycle') use the last part. STATS holds short curated labels
    for the stats figures show most; every other stat the simulator declares
    takes its catalog description and unit; anything else a tidy label."""
    tail = name.rsplit(".", 1)[-1]
    for key in (name, tail):
        if key in STATS:
            return STATS[key]
    return from_catalog(tail, cat) or (tidy(tail), "", None)


def label(name, normalized_to=None, inverted=False):
    """Axis label: 'IPC (thread instructions per cycle)', 'L1D miss rate';
    normalised: 'IPC (normalized to gto)'; inverted (baseline / config):
    'Speedup (gto / config, simulated cycles)'."""
    lab, unit, _ = describe(name)
    if normalized_to is not None:
        if inverted:
            return f"Speedup ({normalized_to} / config, {lab[0].lower() + lab[1:]})"
        return f"{lab} (normalized to {normalized_to})"
    return f"{lab} ({unit})" if unit else lab


def higher_is_better(name):
    return describe(name)[2]
