"""`warpsim report`: figures in PNG, PDF and SVG with readable labels, line
plots for an ordered parameter, time series overlaid per workload, and one
HTML page (table of contents, <details> sections) rendered by headless
Chromium and checked to show the charts."""
import math
import os
import re
import subprocess
import tempfile
import shutil

from figcheck import check_formats, svg_ids, svg_texts
from helpers import SMALL_SPEC, ToolTest
from pngcheck import colour_stats

CHROMIUM = "/usr/bin/chromium"
TAB_BLUE, TAB_ORANGE = (31, 119, 180), (255, 127, 14)  # matplotlib's first two bar colours

# One ordered option (functional runs: seconds).
ORDERED_SPEC = (SMALL_SPEC.replace('name = "tiny"', 'name = "clusters"\nbaseline = "8"')
                .replace('gpgpu_scheduler = ["gto", "lrr", "oldest"]', "gpgpu_n_clusters = [8, 15, 30]"))


def fake_timeseries(path, shift):
    with open(path, "w") as f:
        f.write("kernel,cycle,ipc,l1d_miss_rate,active_warps_per_sm,dram_bw_util,warp_limit_per_sched\n")
        for i in range(40):
            f.write(f"1,{(i + 1) * 500},{100 + shift + 50 * math.sin(i / 4):.3f},"
                    f"{0.5 + 0.4 * math.cos(i / 6):.3f},{32 - i % 16},{i / 40:.3f},0\n")


class ReportTest(ToolTest):
    def screenshot(self, index, name, height=1400):
        if not os.access(CHROMIUM, os.X_OK):
            self.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh --tools)")
        profile = tempfile.mkdtemp(prefix="warpsim-chromium-")
        self.addCleanup(shutil.rmtree, profile, True)
        shot = os.path.join(self.tmp, name)
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", f"--window-size=1280,{height}", "--hide-scrollbars",
               f"--screenshot={shot}", "file://" + index]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=90, stdin=subprocess.DEVNULL,
                           start_new_session=True)
        self.assertTrue(os.path.exists(shot), f"no screenshot (exit {r.returncode}): {r.stderr[-2000:]}")
        return shot

    def check_page(self, index):
        """Every figure in three formats, links to them, a TOC whose anchors resolve, <details>."""
        with open(index) as f:
            page = f.read()
        out = os.path.dirname(index)
        imgs = re.findall(r"<img src='([^']+)'", page)
        self.assertTrue(imgs)
        for img in imgs:
            stem = os.path.join(out, img.rsplit(".", 1)[0])
            check_formats(self, stem)
            for ext in ("pdf", "svg"):
                self.assertIn(f"href='{os.path.basename(stem)}.{ext}'", page)
            frac, _ = colour_stats(stem + ".png", [], step=4)
            self.assertGreater(frac, 0.02, f"{img} looks blank")
        toc = re.search(r"<nav id='toc'>(.*?)</nav>", page, re.S)
        self.assertTrue(toc, "no table of contents")
        anchors = re.findall(r"href='#([^']+)'", toc.group(1))
        ids = set(re.findall(r"\bid='([^']+)'", page))
        self.assertGreaterEqual(len(anchors), 5)
        for a in anchors:
            self.assertIn(a, ids, f"TOC link #{a} goes nowhere")
        self.assertGreaterEqual(page.count("<details"), len(anchors))
        self.assertEqual(page.count("<details"), page.count("</details>"))
        self.assertEqual(page.count("<figure"), len(imgs))
        self.assertEqual(page.count("<figcaption>"), len(imgs))
        return page, imgs

    def test_report_renders(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        self.warpsim("sweep", spec, "-o", sweep)
        # Functional runs have no time series: give the runs of one workload one each.
        for i, cfg in enumerate(["gto", "lrr", "oldest"]):
            fake_timeseries(os.path.join(sweep, "runs", cfg, "micro.matmul-small", "timeseries.csv"), 20 * i)
        p = self.warpsim("report", sweep, "--metric", "gpu_sim_insn")
        index = p.stdout.strip()
        self.assertEqual(index, os.path.join(sweep, "report", "index.html"))
        page, imgs = self.check_page(index)
        out = os.path.dirname(index)
        self.assertIn("normalised_gpu_sim_insn.png", imgs)
        self.assertIn("raw_gpu_sim_insn.png", imgs)
        # One time-series figure for the one workload that has them, one line per config.
        ts = [i for i in imgs if i.startswith("timeseries_")]
        self.assertEqual(ts, ["timeseries_micro.matmul_small.png"])
        ids = svg_ids(os.path.join(out, "timeseries_micro.matmul_small.svg"))
        self.assertEqual(sorted(i for i in ids if i.startswith("series-ipc-")), ["series-ipc-0", "series-ipc-1",
                                                                                 "series-ipc-2"])
        texts = svg_texts(os.path.join(out, "timeseries_micro.matmul_small.svg"))
        for c in ("gto", "lrr", "oldest"):
            self.assertIn(c, texts)
        # Scheduler names are not ordered: bars; readable labels, not the stat's name.
        svg = os.path.join(out, "normalised_gpu_sim_insn.svg")
        self.assertIn("chart-bars-linear", svg_ids(svg))
        self.assertIn("reference-1.0", svg_ids(svg))
        texts = svg_texts(svg)
        self.assertIn("Thread instructions (normalized to gto)", texts)
        self.assertFalse([t for t in texts if "gpu_sim_insn" in t], texts)
        self.assertIn("Thread instructions", svg_texts(os.path.join(out, "raw_gpu_sim_insn.svg")))
        self.assertNotIn("reference-1.0", svg_ids(os.path.join(out, "raw_gpu_sim_insn.svg")))
        self.assertIn("gmean(all)", page)
        self.assertIn("hmean(all)", page)
        self.assertIn("<td>micro/matmul</td>", page)
        self.assertIn("<section id='workloads'>", page)
        self.assertIn("<section id='configs'>", page)

        shot = self.screenshot(index, "report.png", 2400)
        frac, near = colour_stats(shot, [TAB_BLUE, TAB_ORANGE])
        self.assertGreater(frac, 0.03, "the screenshot is (nearly) blank")
        # The bar chart's bars are on the page: many pixels of the first two bar colours.
        self.assertGreater(near[TAB_BLUE], 500, near)
        self.assertGreater(near[TAB_ORANGE], 200, near)

        # --format: only the formats asked for.
        p = self.warpsim("report", sweep, "--format", "svg", "-o", os.path.join(self.tmp, "svgonly"))
        files = os.listdir(os.path.join(self.tmp, "svgonly"))
        self.assertIn("normalised_gpu_sim_insn.svg", files)
        self.assertFalse([f for f in files if f.endswith((".png", ".pdf"))], files)
        with open(p.stdout.strip()) as f:
            self.assertIn("<img src='normalised_gpu_sim_insn.svg'", f.read())
        p = self.warpsim("report", sweep, "--format", "png,jpg", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown figure format 'jpg'", p.stderr)

    def test_ordered_parameter_gives_lines(self):
        spec = self.write("clusters.toml", ORDERED_SPEC)
        sweep = os.path.join(self.tmp, "cl")
        self.warpsim("sweep", spec, "-o", sweep)
        index = self.warpsim("report", sweep).stdout.strip()
        page, imgs = self.check_page(index)
        out = os.path.dirname(index)
        for fig in ("normalised_gpu_sim_insn", "raw_gpu_sim_insn"):
            ids = svg_ids(os.path.join(out, fig + ".svg"))
            self.assertIn("chart-lines-linear", ids, fig)
            self.assertEqual(len([i for i in ids if i.startswith("line-")]), 3, fig)  # 2 workloads + gmean
            texts = svg_texts(os.path.join(out, fig + ".svg"))
            self.assertIn("gpgpu_n_clusters", texts)
            for tick in ("8", "15", "30"):
                self.assertIn(tick, texts)
        self.assertIn("against <code>gpgpu_n_clusters</code>", page)
        shot = self.screenshot(index, "clusters.png", 1600)
        frac, near = colour_stats(shot, [TAB_BLUE, TAB_ORANGE])
        self.assertGreater(frac, 0.03, "the screenshot is (nearly) blank")
        self.assertGreater(near[TAB_BLUE], 100, near)


class TimeseriesCommandTest(ToolTest):
    def test_one_run_and_runs_overlaid(self):
        runs = []
        for i, cfg in enumerate(["gto", "lrr"]):
            d = os.path.join(self.tmp, cfg)
            os.makedirs(d)
            fake_timeseries(os.path.join(d, "timeseries.csv"), 30 * i)
            runs.append(d)
        # One run: PNG beside the CSV (as before).
        p = self.warpsim("timeseries", runs[0])
        self.assertEqual(p.stdout.split(), [os.path.join(runs[0], "timeseries.png")])
        check = os.path.join(self.tmp, "one.png")
        self.warpsim("timeseries", runs[0], "-o", check)
        self.assertTrue(os.path.getsize(check) > 5000)
        # Two runs overlaid, every format.
        stem = os.path.join(self.tmp, "both")
        p = self.warpsim("timeseries", *runs, "-o", stem + ".png", "--format", "png,pdf,svg",
                         "--label", "gto", "--label", "lrr")
        self.assertEqual(p.stdout.split(), [stem + ".png", stem + ".pdf", stem + ".svg"])
        check_formats(self, stem)
        ids = svg_ids(stem + ".svg")
        self.assertEqual(sorted(i for i in ids if i.startswith("series-ipc-")), ["series-ipc-0", "series-ipc-1"])
        texts = svg_texts(stem + ".svg")
        self.assertIn("gto", texts)
        self.assertIn("L1D miss rate", texts)
        self.assertFalse([t for t in texts if "l1d_miss_rate" in t], texts)
        # The extension of -o is the format.
        p = self.warpsim("timeseries", runs[1], "-o", os.path.join(self.tmp, "v.svg"))
        self.assertEqual(p.stdout.split(), [os.path.join(self.tmp, "v.svg")])
        p = self.warpsim("timeseries", runs[1], "--label", "a", "--label", "b", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--label given 2 times for 1 runs", p.stderr)
