"""The statistics catalog from the tools' side: `warpsim stats --json` parses
and round-trips, catalog.py finds stats by every spelling, and the sweep
database's whole-run values (store.aggregate) follow the catalog."""
import json
import os
import sys

import unittest

from helpers import BUILT, REPO, WARPSIM, ToolTest

sys.path.insert(0, os.path.join(REPO, "tools"))
from warpsim_tools import catalog, store  # noqa: E402

KEYS = ("name", "text", "json", "description", "unit", "scope", "kernel_agg", "run_agg",
        "numerator", "denominator")


class CatalogTest(ToolTest):
    def entries(self):
        return json.loads(self.warpsim("stats", "--json").stdout)


class StatsCommandTest(CatalogTest):
    def test_json_parses_round_trips_and_is_complete(self):
        out = self.warpsim("stats", "--json").stdout
        entries = json.loads(out)
        self.assertEqual(json.loads(json.dumps(entries)), entries)
        self.assertGreater(len(entries), 100)
        names = [e["name"] for e in entries]
        self.assertEqual(len(names), len(set(names)), "a stat declared twice")
        for e in entries:
            for k in KEYS:
                self.assertIn(k, e, f"{e['name']}: no {k}")
            self.assertTrue(e["description"] and e["unit"], e["name"])
            self.assertIn(e["scope"], ("kernel", "program", "cumulative"))
            self.assertIn(e["kernel_agg"], ("sum", "max", "last", "ratio", "weighted_mean"))
            self.assertIn(e["run_agg"], ("sum", "mean", "geomean", "max", "none"))
            if e["kernel_agg"] == "ratio":
                self.assertTrue(e["numerator"] and e["denominator"], e["name"])
            if e["kernel_agg"] == "weighted_mean":
                self.assertTrue(e["denominator"], e["name"])
        by = {e["name"]: e for e in entries}
        # GPGPU-Sim's spellings and the ratio's parts
        self.assertEqual(by["total_dram_reads"]["text"], "total dram reads")
        self.assertEqual(by["L1D_total_cache_miss_rate"]["numerator"], "L1D_total_cache_misses")
        self.assertEqual(by["L1D_total_cache_miss_rate"]["kernel_json"],
                         "L1D_total_cache_miss_rate_kernel")
        # the table lists the same stats
        table = self.warpsim("stats").stdout
        for n in names:
            self.assertIn(n, table)
        self.assertIn("warpsim stats", self.warpsim("--help").stdout)
        self.assertNotEqual(self.warpsim("stats", "--bogus", check=False).returncode, 0)

    def test_catalog_py_lookups_and_cache(self):
        os.environ["WARPSIM_BIN"] = BUILT
        self.addCleanup(os.environ.pop, "WARPSIM_BIN", None)
        cat = catalog.load()
        self.assertIs(cat, catalog.load())  # read once per binary
        self.assertEqual(len(cat), len(self.entries()))
        self.assertEqual(cat.find("total dram reads")[0]["name"], "total_dram_reads")
        self.assertEqual(cat.find("total_dram_reads_kernel"), (cat.entry("total_dram_reads"), True))
        self.assertEqual(cat.find("gpu_sim_insn_kernel"), (None, False))  # per kernel already
        self.assertEqual(cat.find("L1D_cache_core_7_misses")[0]["name"], "L1D_cache_core_*_misses")
        self.assertIsNotNone(cat.entry("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT]"))
        self.assertEqual(catalog.unit("gpu_sim_cycle"), "cycles")
        self.assertEqual(catalog.label("total_dram_reads_kernel"), "total dram reads (per kernel)")
        self.assertIn("DRAM", catalog.description("total_dram_reads"))
        self.assertEqual(catalog.label("not_a_stat"), "not_a_stat")
        # a saved catalog instead of the binary
        saved = self.write("cat.json", json.dumps([cat.entry("gpu_ipc")]))
        os.environ["WARPSIM_STATS_CATALOG"] = saved
        self.addCleanup(os.environ.pop, "WARPSIM_STATS_CATALOG", None)
        self.assertEqual(len(catalog.load()), 1)


class AggregateByCatalogTest(CatalogTest):
    """rodinia/bfs (several kernels) under a throttle policy: every whole-run value
    is the one its catalog entry prescribes, and agrees with the simulator's own
    cumulative counters."""

    def test_bfs_whole_run_values_follow_the_catalog(self):
        out = os.path.join(self.tmp, "bfs")
        self.warpsim("run", "-q", "--set", "-warpsim_throttle awl", "-o", out, "rodinia/bfs")
        with open(os.path.join(out, "stats.json")) as f:
            ks = [{k: v for k, v in kd.items() if isinstance(v, (int, float))} for kd in json.load(f)]
        self.assertGreater(len(ks), 2)
        cat = catalog.Catalog(self.entries())
        a = store.aggregate(ks, cat)
        last = ks[-1]
        checked = 0
        for key, v in a.items():
            e, per_kernel = cat.find(key)
            self.assertIsNotNone(e, f"{key} is not in the catalog")
            vals = [k[key] for k in ks if key in k]
            agg = e["kernel_agg"]
            if e["scope"] == "cumulative" or (e["scope"] == "program" and not per_kernel):
                self.assertEqual(v, last[key], key)  # the running total's last value
            elif e["cumulative"]:
                self.assertEqual(v, last[e["cumulative"]], key)
            elif agg == "sum":
                self.assertEqual(v, sum(vals), key)
            elif agg == "max":
                self.assertEqual(v, max(vals), key)
            elif agg == "last":
                self.assertEqual(v, vals[-1], key)
            elif agg == "ratio":
                sfx = "_kernel" if per_kernel else ""
                if e["numerator"] + sfx not in last:
                    continue  # dram_bw_util: its counts are not reported (rules by name)
                n = sum(k[e["numerator"] + sfx] for k in ks)
                d = sum(k[e["denominator"] + sfx] for k in ks)
                self.assertAlmostEqual(v, e["scale"] * n / d if d else 0.0, places=9, msg=key)
            elif agg == "weighted_mean":
                w = [k[e["denominator"]] for k in ks]
                self.assertAlmostEqual(v, sum(x * y for x, y in zip(vals, w)) / sum(w), places=9,
                                       msg=key)
            # per-kernel values aggregate to the simulator's cumulative counter
            if per_kernel and agg in ("sum", "max", "ratio"):
                base = key[:-len("_kernel")]
                if base in a:
                    self.assertAlmostEqual(v, a[base], places=9, msg=key)
            checked += 1
        self.assertGreater(checked, 300)
        # a state is the last kernel's (the name rules alone summed it), a controller's
        # limit the cycle-weighted mean
        self.assertEqual(a["warpsim_regs_per_thread"], last["warpsim_regs_per_thread"])
        self.assertNotEqual(store.aggregate(ks, catalog.Catalog([]))["warpsim_regs_per_thread"],
                            a["warpsim_regs_per_thread"])
        self.assertIn("warpsim_throttle_limit", a)
        # stats the catalog does not know fall back to the rules by name
        ks2 = [dict(k, my_hit_rate=r) for k, r in zip(ks, range(len(ks)))]
        cyc = [k["gpu_sim_cycle"] for k in ks]
        self.assertAlmostEqual(store.aggregate(ks2, cat)["my_hit_rate"],
                               sum(r * c for r, c in enumerate(cyc)) / sum(cyc))


class FigureLabelsFromCatalogTest(unittest.TestCase):
    """Axis labels of stats without a curated label come from the catalog."""

    def test_uncurated_stats_take_the_catalog_description_and_unit(self):
        from warpsim_tools import catalog, statdesc
        cat = catalog.load(WARPSIM)
        checked = 0
        for e in cat.entries:
            name = e["name"]
            if e.get("family") or name in statdesc.STATS or not e.get("description"):
                continue
            lab, unit, _ = statdesc.describe(name, cat)
            first = e["description"].split(";")[0].split("(")[0].split("[")[0].strip()
            self.assertEqual(lab.lower(), first.lower(), name)
            if e.get("unit") not in statdesc._NO_UNIT:
                self.assertEqual(unit, e["unit"], name)
            checked += 1
        self.assertGreater(checked, 20)
        # curated labels win; unknown names still get a tidy one
        self.assertEqual(statdesc.describe("gpu_tot_ipc", cat)[0], "IPC")
        self.assertEqual(statdesc.describe("no_such_stat", cat)[0], "No such stat")
