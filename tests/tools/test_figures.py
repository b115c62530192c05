"""Figures: the rules (log scale, y limits, ordered parameters), the stat
description table, and the files (PNG, PDF, SVG with readable labels) of bar,
line and time-series charts; matplotlib only, no simulator."""
import math
import os
import shutil
import sys
import tempfile
import types
import unittest

from figcheck import check_formats, svg_ids, svg_texts
from helpers import TOOLS

sys.path.insert(0, TOOLS)
from warpsim_tools import plots, statdesc  # noqa: E402


def table(metric, configs, rows, raw=False, baseline=None, invert=False):
    """A stand-in for query.Table: rows of (workload, {config: value}) and the means."""
    out = [("workload", w, "c", dict(zip(configs, vs))) for w, vs in rows]
    for name in ("gmean", "hmean"):
        out.append(("mean", f"{name}(all)", None,
                    {c: math.exp(sum(math.log(vs[j]) for _, vs in rows) / len(rows))
                     for j, c in enumerate(configs)}))
    return types.SimpleNamespace(metric=metric, configs=configs, rows=out, raw=raw,
                                 baseline=baseline or configs[0], invert=invert, mean="gmean",
                                 title=lambda: f"{metric} title")


def plan(option, values):
    return [{"name": str(v), "params": {option: v}} for v in values]


class RuleTest(unittest.TestCase):
    def test_log_scale_when_values_span_decades(self):
        self.assertTrue(plots.use_log([1, 50, 101]))
        self.assertTrue(plots.use_log([0.001, 0.5, 2]))
        self.assertFalse(plots.use_log([1, 50, 100]))
        self.assertFalse(plots.use_log([0.95, 1.0, 1.05]))
        self.assertFalse(plots.use_log([0, 1, 1e6]), "a zero cannot be drawn on a log axis")
        self.assertFalse(plots.use_log([-5, 1, 1e6]))
        self.assertFalse(plots.use_log([None, 7]))

    def test_normalized_limits_show_the_spread(self):
        lo, hi = plots.normalized_limits([0.97, 1.0, 1.04])
        self.assertGreater(lo, 0.9)
        self.assertLess(hi, 1.1)
        self.assertLess(lo, 0.97)
        self.assertGreater(hi, 1.04)
        lo, hi = plots.normalized_limits([1.2, 1.5])  # all above 1: 1.0 is still in the range
        self.assertLess(lo, 1.0)
        lo, _ = plots.normalized_limits([0.01, 1.0])
        self.assertEqual(lo, 0.0)

    def test_ordered_parameters(self):
        a = plots.ordered_axis(plan("-warpsim_throttle", ["none", "swl:1", "swl:2", "swl:4", "swl:8"]), "none")
        self.assertIsNotNone(a)
        option, xs, left, prefix = a
        self.assertEqual(option, "-warpsim_throttle")
        self.assertEqual(xs, {"swl:1": 1, "swl:2": 2, "swl:4": 4, "swl:8": 8})
        self.assertEqual((left, prefix), (["none"], "swl:"))
        a = plots.ordered_axis(plan("-gpgpu_n_clusters", [8, 15, 30]), "8")
        self.assertEqual(a[1], {"8": 8, "15": 15, "30": 30})
        # Not ordered: names, only two values, a non-number that is not the baseline, mixed prefixes.
        self.assertIsNone(plots.ordered_axis(plan("-gpgpu_scheduler", ["gto", "lrr", "oldest"]), "gto"))
        self.assertIsNone(plots.ordered_axis(plan("-gpgpu_n_clusters", [8, 15]), "8"))
        self.assertIsNone(plots.ordered_axis(plan("-warpsim_throttle", ["swl:1", "swl:2", "swl:4", "none"]),
                                             "swl:1"))
        self.assertIsNone(plots.ordered_axis(plan("-x", ["a:1", "b:2", "a:3"]), "a:1"))
        # Two options varied together: bars.
        two = [{"name": f"{a},{b}", "params": {"-a": a, "-b": b}} for a in (1, 2, 3) for b in (1, 2)]
        self.assertIsNone(plots.ordered_axis(two, "1,1"))

    def test_formats(self):
        self.assertEqual(plots.parse_formats("png,pdf,svg"), ["png", "pdf", "svg"])
        self.assertEqual(plots.parse_formats(".PDF"), ["pdf"])
        with self.assertRaises(ValueError):
            plots.parse_formats("png,jpg")


class StatDescTest(unittest.TestCase):
    def test_labels(self):
        self.assertEqual(statdesc.label("gpu_tot_ipc"), "IPC (thread instructions per cycle)")
        self.assertEqual(statdesc.label("L1D_total_cache_miss_rate"), "L1D miss rate")
        self.assertEqual(statdesc.label("total_dram_reads"), "DRAM reads")
        self.assertEqual(statdesc.label("gpu_ipc", normalized_to="gto"), "IPC (normalized to gto)")
        self.assertEqual(statdesc.label("gpu_sim_cycle", "gto", inverted=True),
                         "Speedup (gto / config, simulated cycles)")
        self.assertEqual(statdesc.higher_is_better("gpu_ipc"), True)
        self.assertEqual(statdesc.label("k2.gpu_sim_cycle"), "Simulated cycles (cycles)")

    def test_fallback_is_tidy(self):
        # names neither curated nor in the simulator's catalog
        self.assertEqual(statdesc.tidy("gpu_avg_occupancy"), "GPU mean occupancy")
        self.assertEqual(statdesc.tidy("L1D_fail_MSHR_ENTRY_FAIL"), "L1D fail MSHR entry fail")
        self.assertEqual(statdesc.label("some_new_stat"), "Some new stat")

    def test_table_is_plain_data(self):
        for name, entry in statdesc.STATS.items():
            self.assertIsInstance(name, str)
            self.assertEqual(len(entry), 3, name)
            label, unit, better = entry
            self.assertTrue(label and isinstance(unit, str) and better in (True, False, None), name)


class FigureFileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="warpsim-figs-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def stem(self, name):
        return os.path.join(self.tmp, name)

    def test_bars_all_formats_readable_labels_reference_line(self):
        t = table("gpu_tot_ipc", ["gto", "lrr", "oldest"],
                  [("micro/a", [1.0, 0.97, 1.03]), ("micro/b", [1.0, 0.99, 1.01])])
        paths = plots.bars(t, self.stem("norm"))
        self.assertEqual([os.path.basename(p) for p in paths], ["norm.png", "norm.pdf", "norm.svg"])
        check_formats(self, self.stem("norm"))
        texts = svg_texts(self.stem("norm") + ".svg")
        self.assertIn("IPC (normalized to gto)", texts)
        self.assertIn("IPC normalized to gto", texts)
        self.assertFalse([x for x in texts if "gpu_tot_ipc" in x], texts)
        ids = svg_ids(self.stem("norm") + ".svg")
        self.assertIn("reference-1.0", ids)
        self.assertIn("chart-bars-linear", ids)
        # Raw values: no reference line, the unit in the label.
        t = table("gpu_tot_ipc", ["gto", "lrr"], [("micro/a", [200.0, 180.0]), ("micro/b", [90.0, 95.0])],
                  raw=True)
        plots.bars(t, self.stem("raw"), formats=["svg"])
        self.assertIn("IPC (thread instructions per cycle)", svg_texts(self.stem("raw") + ".svg"))
        self.assertNotIn("reference-1.0", svg_ids(self.stem("raw") + ".svg"))
        self.assertFalse(os.path.exists(self.stem("raw") + ".png"))

    def test_bars_log_scale_when_values_span_decades(self):
        t = table("total_dram_reads", ["gto", "lrr"], [("micro/a", [12.0, 15.0]), ("micro/b", [90000.0, 80000.0])],
                  raw=True)
        plots.bars(t, self.stem("log"), formats=["svg"])
        self.assertIn("chart-bars-log", svg_ids(self.stem("log") + ".svg"))
        self.assertIn("DRAM reads", svg_texts(self.stem("log") + ".svg"))
        t = table("total_dram_reads", ["gto", "lrr"], [("micro/a", [1200.0, 1500.0]), ("micro/b", [9000.0, 8000.0])],
                  raw=True)
        plots.bars(t, self.stem("lin"), formats=["svg"])
        self.assertIn("chart-bars-linear", svg_ids(self.stem("lin") + ".svg"))

    def test_lines_for_ordered_parameter(self):
        cfgs = ["none", "swl:1", "swl:2", "swl:4"]
        t = table("gpu_ipc", cfgs, [("micro/a", [1.0, 0.3, 0.6, 0.9]), ("micro/b", [1.0, 0.2, 0.4, 0.8]),
                                    ("micro/c", [1.0, 0.5, 0.7, 1.1])], baseline="none")
        axis = plots.ordered_axis(plan("-warpsim_throttle", cfgs), "none")
        plots.lines(t, axis, self.stem("lines"))
        check_formats(self, self.stem("lines"))
        svg = self.stem("lines") + ".svg"
        ids = svg_ids(svg)
        self.assertIn("chart-lines-linear", ids)
        self.assertIn("reference-1.0", ids)
        self.assertEqual(len([i for i in ids if i.startswith("line-")]), 4)  # 3 workloads + gmean
        texts = svg_texts(svg)
        self.assertIn("warpsim_throttle = swl:N", texts)
        self.assertIn("IPC (normalized to none)", texts)
        for w in ("micro/a", "micro/b", "micro/c", "gmean(all)"):
            self.assertIn(w, texts)

    def test_timeseries_overlay_one_line_per_config(self):
        csvs = []
        for i, cfg in enumerate(["gto", "lrr", "oldest"]):
            d = os.path.join(self.tmp, cfg)
            os.makedirs(d)
            p = os.path.join(d, "timeseries.csv")
            with open(p, "w") as f:
                f.write("kernel,cycle,ipc,l1d_miss_rate,warp_limit_per_sched\n")
                for k in range(20):
                    f.write(f"1,{(k + 1) * 500},{100 + 10 * i + math.sin(k):.3f},{0.5 + 0.01 * k:.3f},0\n")
            csvs.append(p)
        paths = plots.timeseries(csvs, self.stem("ts"), title="micro/a", labels=["gto", "lrr", "oldest"],
                                 formats=plots.FORMATS)
        self.assertEqual(len(paths), 3)
        check_formats(self, self.stem("ts"))
        svg = self.stem("ts") + ".svg"
        ids = svg_ids(svg)
        for metric in ("ipc", "l1d_miss_rate"):
            self.assertEqual(sorted(i for i in ids if i.startswith(f"series-{metric}-")),
                             [f"series-{metric}-{i}" for i in range(3)])
        self.assertFalse([i for i in ids if i.startswith("series-warp_limit")], "an all-zero column is left out")
        texts = svg_texts(svg)
        for x in ("gto", "lrr", "oldest", "L1D miss rate", "micro/a"):
            self.assertIn(x, texts)
        self.assertIn("IPC (thread instructions per cycle)", " ".join(texts).replace("\n", " "))
