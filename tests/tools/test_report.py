"""`warpsim report`: figures and one HTML page; rendered by headless Chromium
and checked to show the charts."""
import math
import os
import re
import subprocess
import tempfile
import shutil

from helpers import SMALL_SPEC, ToolTest
from pngcheck import colour_stats

CHROMIUM = "/usr/bin/chromium"
TAB_BLUE, TAB_ORANGE = (31, 119, 180), (255, 127, 14)  # matplotlib's first two bar colours


class ReportTest(ToolTest):
    def test_report_renders(self):
        spec = self.write("tiny.toml", SMALL_SPEC)
        sweep = os.path.join(self.tmp, "sw")
        self.warpsim("sweep", spec, "-o", sweep)
        # Until the timing model writes them, give one run an interval time series.
        with open(os.path.join(sweep, "runs", "lrr", "micro.matmul-small", "timeseries.csv"), "w") as f:
            f.write("cycle,gpu_ipc,L1D_total_cache_miss_rate,active_warps,dram_bw_util\n")
            for i in range(40):
                f.write(f"{i * 500},{1 + math.sin(i / 4):.3f},{0.5 + 0.4 * math.cos(i / 6):.3f},"
                        f"{32 + i % 16},{i / 40:.3f}\n")
        p = self.warpsim("report", sweep, "--metric", "gpu_sim_insn")
        index = p.stdout.strip()
        self.assertEqual(index, os.path.join(sweep, "report", "index.html"))
        with open(index) as f:
            page = f.read()
        imgs = re.findall(r"<img src='([^']+)'", page)
        self.assertIn("normalised_gpu_sim_insn.png", imgs)
        self.assertIn("timeseries_lrr.micro.matmul-small.png", imgs)
        for img in imgs:
            path = os.path.join(os.path.dirname(index), img)
            self.assertTrue(os.path.getsize(path) > 5000, f"{img} is missing or tiny")
            frac, _ = colour_stats(path, [], step=4)
            self.assertGreater(frac, 0.02, f"{img} looks blank")
        self.assertIn("gmean(all)", page)
        self.assertIn("hmean(all)", page)
        self.assertIn("<td>micro/matmul</td>", page)

        if not os.access(CHROMIUM, os.X_OK):
            self.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh --tools)")
        profile = tempfile.mkdtemp(prefix="warpsim-chromium-")
        self.addCleanup(shutil.rmtree, profile, True)
        shot = os.path.join(self.tmp, "report.png")
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--window-size=1280,1400", "--hide-scrollbars",
               f"--screenshot={shot}", "file://" + index]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=90, stdin=subprocess.DEVNULL,
                           start_new_session=True)
        self.assertTrue(os.path.exists(shot), f"no screenshot (exit {r.returncode}): {r.stderr[-2000:]}")
        frac, near = colour_stats(shot, [TAB_BLUE, TAB_ORANGE])
        self.assertGreater(frac, 0.03, "the screenshot is (nearly) blank")
        # The bar chart's bars are on the page: many pixels of the first two bar colours.
        self.assertGreater(near[TAB_BLUE], 500, near)
        self.assertGreater(near[TAB_ORANGE], 200, near)
