"""The results database of a sweep (SQLite, SWEEP_DIR/results.db).

Tables:
  meta(key, value)                          sweep name, spec, baseline, plan (JSON), versions
  runs(id, workload, input, class, config, status, exit_code, message, wall_s,
       started, finished, host, engine, warpsim_version, kernels)
  params(run_id, name, value)               what the run's config sets (option -> value)
  kernels(run_id, kernel, name, grid, block, mode)
  kernel_stats(run_id, kernel, key, value)  every numeric stat of every kernel launch
  stats(run_id, key, value)                 the same for the whole run (see aggregate())
  view runs_wide                            one row per run, one column per stat
Only the sweep process writes it; run folders are the source of truth, so the
database can always be rebuilt from them (`warpsim sweep SPEC` does on resume).
"""
import csv
import json
import math
import os
import re
import sqlite3

from . import catalog

DB_NAME = "results.db"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS runs(
  id TEXT PRIMARY KEY, idx INTEGER, workload TEXT, input TEXT, class TEXT, config TEXT,
  status TEXT, exit_code INTEGER, message TEXT, wall_s REAL, started REAL, finished REAL,
  host TEXT, engine TEXT, warpsim_version TEXT, kernels INTEGER);
CREATE TABLE IF NOT EXISTS params(run_id TEXT, name TEXT, value TEXT, PRIMARY KEY(run_id, name));
CREATE TABLE IF NOT EXISTS kernels(run_id TEXT, kernel INTEGER, name TEXT, grid TEXT, block TEXT,
  mode TEXT, PRIMARY KEY(run_id, kernel));
CREATE TABLE IF NOT EXISTS kernel_stats(run_id TEXT, kernel INTEGER, key TEXT, value REAL,
  PRIMARY KEY(run_id, kernel, key));
CREATE TABLE IF NOT EXISTS stats(run_id TEXT, key TEXT, value REAL, PRIMARY KEY(run_id, key));
CREATE INDEX IF NOT EXISTS stats_key ON stats(key);
"""

RUN_COLS = ["id", "idx", "workload", "input", "class", "config", "status", "exit_code", "message",
            "wall_s", "started", "finished", "host", "engine", "warpsim_version", "kernels"]

# warpsim reports GPGPU-Sim's cache, DRAM, interconnect and stall counters
# cumulatively (as GPGPU-Sim does) and each kernel's own value as NAME_kernel.
KERNEL_SUFFIX = catalog.KERNEL_SUFFIX

# The rules by name below are the fallback for stats not in the catalog.
# Ratios whose whole-run value is a ratio of the summed counts:
# name -> (numerator, denominator, scale). X_miss_rate[_kernel] is
# X_misses[_kernel] / X_accesses[_kernel] (see _ratio_parts).
_RATIOS = {
    "gpu_ipc": ("gpu_sim_insn", "gpu_sim_cycle", 1.0),
    "avg_power_W": ("energy_total_nJ", "gpu_sim_time_us", 1e-3),  # nJ / us = 1e-3 W
    "energy_efficiency_insn_per_nJ": ("gpu_sim_insn", "energy_total_nJ", 1.0),
}
_MISS_RATE = re.compile(r"(.+)_miss_rate(%s)?" % KERNEL_SUFFIX)

# Other rates and averages without their counts: means weighted by cycles
# (right for dram_bw_util, whose denominator, DRAM cycles, follows core cycles).
_RATIO = re.compile(r"(rate|ipc|ratio|avg|average|util|occupancy|_per_|efficiency|fraction|"
                    r"percent|bw|bandwidth|mpki|latency)", re.I)


def _ratio_parts(key):
    """(numerator, denominator, scale) of a ratio of counts, or None."""
    if key in _RATIOS:
        return _RATIOS[key]
    m = _MISS_RATE.fullmatch(key)
    if m:
        sfx = m.group(2) or ""
        return (f"{m.group(1)}_misses{sfx}", f"{m.group(1)}_accesses{sfx}", 1.0)
    return None


def _num(v):
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)) and math.isfinite(v):
        return float(v)
    return None


def _flatten(d, prefix=""):
    """Nested objects become dotted keys ({"L1D": {"miss_rate": x}} -> L1D.miss_rate)."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def _cumulative_name(k):
    if k.startswith("gpu_sim_"):
        return "gpu_tot_sim_" + k[len("gpu_sim_"):]
    if k.startswith("gpu_"):
        return "gpu_tot_" + k[4:]
    return "tot_" + k


def _sum_over(vals, key):
    """The sum of stat key over the kernels of vals, or None when a kernel lacks it."""
    if not all(key in k for _, k in vals):
        return None
    return sum(k[key] for _, k in vals)


def _by_catalog(entry, per_kernel, key, vals, last):
    """Whole-run value of key by its catalog entry (`warpsim stats --json`), or None
    when the data lack what the rule needs (the caller then falls back)."""
    scope = entry.get("scope")
    if scope == "cumulative":
        return last[key]
    if scope == "program" and not per_kernel and key + KERNEL_SUFFIX in last:
        return last[key]  # the running total's last value
    twin = entry.get("cumulative")
    if twin and twin in last:
        return last[twin]  # GPGPU-Sim's own cumulative spelling
    agg = entry.get("kernel_agg")
    # per-kernel values: NAME_kernel, or NAME itself in files from before NAME_kernel
    sfx = KERNEL_SUFFIX if per_kernel else ""
    if agg == "sum":
        return sum(v for v, _ in vals)
    if agg == "max":
        return max(v for v, _ in vals)
    if agg == "last":
        return vals[-1][0]
    num, den = entry.get("numerator"), entry.get("denominator")
    if scope != "program":
        sfx = ""
    if agg == "ratio" and num and den:
        n, d = _sum_over(vals, num + sfx), _sum_over(vals, den + sfx)
        if n is None or d is None:
            return None
        return (entry.get("scale") or 1.0) * n / d if d else 0.0
    if agg == "weighted_mean" and den:
        w = _sum_over(vals, den + sfx)
        if w:
            return sum(v * k[den + sfx] for v, k in vals) / w
    return None


def aggregate(kernels, cat=None):
    """Whole-run value of every numeric stat from the per-kernel dicts.

    A stat in warpsim's statistics catalog (cat, default: catalog.load(), i.e.
    `warpsim stats --json`) follows its declaration: a cumulative stat's last
    value; a program-scope NAME beside NAME_kernel: its last value (the running
    total); a per-kernel stat with GPGPU-Sim's own cumulative spelling
    (gpu_sim_insn -> gpu_tot_sim_insn): that stat's last value; else the
    declared aggregation over kernels: sum, max, last, a ratio of the summed
    numerator and denominator, or a mean weighted by the declared stat.

    Stats not in the catalog (older stats.json files, other simulators), and
    catalogued ones whose rule lacks data, follow rules by name:
    1. Cumulative counters: GPGPU-Sim's gpu_tot_* / tot_* / *_total, and every stat that
       has a per-kernel twin NAME_kernel (warpsim's cumulative cache, DRAM,
       icnt and stall counters): the last kernel's value.
    2. A stat whose cumulative twin exists (gpu_sim_insn -> gpu_tot_sim_insn,
       gpu_ipc -> gpu_tot_ipc): the twin's last value.
    3. Ratios of counts (miss rates, gpu_ipc, avg_power_W, ...): sum(numerator)
       / sum(denominator) over the kernels, never a mean of per-kernel ratios;
       this also covers stats.json files with per-kernel values only.
    4. Other rates and averages: the mean over kernels weighted by
       gpu_sim_cycle (else gpu_sim_insn, else unweighted).
    5. Everything else (counts): the sum over kernels.
    gpu_ipc is derived (sum(insn) / sum(cycle)) when the kernels have cycles but no IPC.
    """
    out = {}
    if not kernels:
        return out
    if cat is None:
        cat = catalog.load()
    keys = []
    for k in kernels:
        for key in k:
            if key not in keys:
                keys.append(key)
    last = {}
    for k in kernels:
        last.update(k)
    for key in keys:
        if key.endswith("_uid"):  # launch ids: not a quantity
            continue
        vals = [(k[key], k) for k in kernels if key in k]
        entry, per_kernel = cat.find(key) if cat else (None, False)
        if entry:
            v = _by_catalog(entry, per_kernel, key, vals, last)
            if v is not None:
                out[key] = v
                continue
        twin = _cumulative_name(key)
        parts = _ratio_parts(key)
        # NAME_total: GPGPU-Sim's own cumulative spelling (L2_BW_total)
        if (key.startswith("gpu_tot_") or key.startswith("tot_") or key.endswith("_total")
                or key + KERNEL_SUFFIX in last):
            out[key] = last[key]
        elif twin in last:
            out[key] = last[twin]
        elif parts and all(parts[0] in k and parts[1] in k for _, k in vals):
            den = sum(k[parts[1]] for _, k in vals)
            out[key] = parts[2] * sum(k[parts[0]] for _, k in vals) / den if den else 0.0
        elif _RATIO.search(key):
            for wkey in ("gpu_sim_cycle", "gpu_sim_insn"):
                if all(wkey in k for _, k in vals):
                    tw = sum(k[wkey] for _, k in vals)
                    if tw > 0:
                        out[key] = sum(v * k[wkey] for v, k in vals) / tw
                        break
            else:
                out[key] = sum(v for v, _ in vals) / len(vals)
        else:
            out[key] = sum(v for v, _ in vals)
    # GPGPU-Sim's definition, when the simulator reports cycles but no IPC.
    if "gpu_ipc" not in out and all("gpu_sim_cycle" in k and "gpu_sim_insn" in k for k in kernels):
        cyc = sum(k["gpu_sim_cycle"] for k in kernels)
        if cyc > 0:
            out["gpu_ipc"] = sum(k["gpu_sim_insn"] for k in kernels) / cyc
    return out


class Store:
    def __init__(self, sweep_dir, create=False):
        self.path = os.path.join(sweep_dir, DB_NAME)
        if not create and not os.path.exists(self.path):
            raise FileNotFoundError(f"no results database {self.path} (run `warpsim sweep SPEC` first)")
        self.db = sqlite3.connect(self.path, timeout=60)
        self.db.executescript(SCHEMA)

    def close(self):
        self.db.commit()
        self.db.close()

    # ---- meta ----
    def set_meta(self, key, value):
        if not isinstance(value, str):
            value = json.dumps(value)
        self.db.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (key, value))
        self.db.commit()

    def meta(self, key, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def plan(self):
        p = self.meta("plan")
        return json.loads(p) if p else None

    # ---- runs ----
    def plan_runs(self, runs):
        """Make sure every planned run has a row; forget rows no longer planned."""
        ids = [r.id for r in runs]
        with self.db:
            for i, r in enumerate(runs):
                self.db.execute(
                    "INSERT INTO runs(id, idx, workload, input, class, config, status) "
                    "VALUES(?,?,?,?,?,?, 'pending') ON CONFLICT(id) DO UPDATE SET idx = excluded.idx, "
                    "class = excluded.class", (r.id, i, r.workload, r.input, r.wclass, r.config.name))
                self.db.execute("DELETE FROM params WHERE run_id = ?", (r.id,))
                self.db.executemany("INSERT INTO params VALUES(?,?,?)",
                                    [(r.id, k, str(v)) for k, v in r.config.params.items()])
            old = [row[0] for row in self.db.execute("SELECT id FROM runs")]
            for rid in old:
                if rid not in ids:
                    self._delete(rid, runs_too=True)

    def _delete(self, rid, runs_too=False):
        for t in ("kernels", "kernel_stats", "stats") + (("params", "runs") if runs_too else ()):
            col = "id" if t == "runs" else "run_id"
            self.db.execute(f"DELETE FROM {t} WHERE {col} = ?", (rid,))

    def set_status(self, rid, status, message=None):
        with self.db:
            self.db.execute("UPDATE runs SET status = ?, message = ? WHERE id = ?", (status, message, rid))
            if status in ("pending", "running", "queued"):
                self._delete(rid)

    def record(self, rid, run_dir, result):
        """Store a finished run: its result.json and every stat of its stats.json."""
        kernels = []
        stats_path = os.path.join(run_dir, "stats.json")
        if os.path.exists(stats_path):
            try:
                with open(stats_path) as f:
                    kernels = json.load(f)
                if isinstance(kernels, dict):
                    kernels = [kernels]
            except (OSError, json.JSONDecodeError) as e:
                kernels = []
                if result.get("status") == "ok":
                    result = dict(result, status="failed", message=f"unreadable stats.json: {e}")
        numeric = [{k: _num(v) for k, v in _flatten(kd).items() if _num(v) is not None} for kd in kernels]
        agg = aggregate(numeric)
        with self.db:
            self._delete(rid)
            self.db.execute(
                "UPDATE runs SET status=?, exit_code=?, message=?, wall_s=?, started=?, finished=?, "
                "host=?, engine=?, warpsim_version=?, kernels=? WHERE id=?",
                (result.get("status"), result.get("exit_code"), result.get("message"),
                 result.get("wall_s"), result.get("started"), result.get("finished"),
                 result.get("host"), result.get("engine"), result.get("warpsim_version"),
                 len(kernels), rid))
            for i, (kd, num) in enumerate(zip(kernels, numeric)):
                self.db.execute("INSERT INTO kernels VALUES(?,?,?,?,?,?)", (
                    rid, i, kd.get("kernel_name"), json.dumps(kd.get("grid")),
                    json.dumps(kd.get("block")), kd.get("mode")))
                self.db.executemany("INSERT INTO kernel_stats VALUES(?,?,?,?)",
                                    [(rid, i, k, v) for k, v in num.items()])
            self.db.executemany("INSERT INTO stats VALUES(?,?,?)", [(rid, k, v) for k, v in agg.items()])

    def runs(self, status=None):
        q = f"SELECT {', '.join(RUN_COLS)} FROM runs"
        args = ()
        if status:
            q += " WHERE status = ?"
            args = (status,)
        q += " ORDER BY idx"
        return [dict(zip(RUN_COLS, row)) for row in self.db.execute(q, args)]

    def counts(self):
        return dict(self.db.execute("SELECT status, COUNT(*) FROM runs GROUP BY status").fetchall())

    def stat_keys(self, only_ok=True):
        q = "SELECT DISTINCT key FROM stats"
        if only_ok:
            q += " WHERE run_id IN (SELECT id FROM runs WHERE status = 'ok')"
        return sorted(r[0] for r in self.db.execute(q))

    def metric(self, key):
        """{run_id: value} of one whole-run stat over the finished runs."""
        return dict(self.db.execute(
            "SELECT s.run_id, s.value FROM stats s JOIN runs r ON r.id = s.run_id "
            "WHERE s.key = ? AND r.status = 'ok'", (key,)).fetchall())

    def params(self):
        out = {}
        for rid, k, v in self.db.execute("SELECT run_id, name, value FROM params"):
            out.setdefault(rid, {})[k] = v
        return out

    def refresh_wide_view(self):
        keys = self.stat_keys(only_ok=False)
        cols = ", ".join(
            f"MAX(CASE WHEN s.key = '{k.replace(chr(39), chr(39) * 2)}' THEN s.value END) "
            f"AS \"{k.replace(chr(34), chr(34) * 2)}\"" for k in keys)
        with self.db:
            self.db.execute("DROP VIEW IF EXISTS runs_wide")
            self.db.execute("CREATE VIEW runs_wide AS SELECT r.*" + (", " + cols if cols else "") +
                            " FROM runs r LEFT JOIN stats s ON s.run_id = r.id GROUP BY r.id")

    def export_csv(self, path_or_file):
        """One row per run: its columns, its params (param:NAME) and every stat."""
        keys = self.stat_keys(only_ok=False)
        params = self.params()
        pkeys = sorted({k for p in params.values() for k in p})
        values = {}
        for rid, k, v in self.db.execute("SELECT run_id, key, value FROM stats"):
            values.setdefault(rid, {})[k] = v
        own = not hasattr(path_or_file, "write")
        f = open(path_or_file, "w", newline="") if own else path_or_file
        try:
            w = csv.writer(f)
            w.writerow(RUN_COLS + ["param:" + k for k in pkeys] + keys)
            for r in self.runs():
                w.writerow([r[c] for c in RUN_COLS] +
                           [params.get(r["id"], {}).get(k, "") for k in pkeys] +
                           [_fmt(values.get(r["id"], {}).get(k)) for k in keys])
        finally:
            if own:
                f.close()
        return len(keys)


def _fmt(v):
    if v is None:
        return ""
    if float(v).is_integer() and abs(v) < 2 ** 53:
        return str(int(v))
    return repr(v)
