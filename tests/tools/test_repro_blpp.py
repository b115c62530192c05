"""tools/reproduce.py seed003-blpp (seed 003's chapter V): the model's
equations on the chapter's worked values, the tables from fake run folders
(normalisation, SB's choice, geometric means, the paper cells), the
`seed003 --chapter 5` spelling, and one real run path capped at a handful
of instructions."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import TOOLS, WARPSIM

sys.path.insert(0, TOOLS)
import reproduce  # noqa: E402
from warpsim_tools import repro_seed003_blpp as blpp  # noqa: E402


def fake_run(d, cycles, gpu_pages=10, cpu_pages=0, ratio=1.0):
    os.makedirs(d, exist_ok=True)
    k = {"gpu_sim_cycle": cycles, "warpsim_sm_active_cycles": cycles * 15, "warp_distro_W32_kernel": cycles,
         "warpsim_stall_scoreboard": cycles, "hm_gpu_pages": gpu_pages, "hm_cpu_pages": cpu_pages,
         "hm_gpu_page_ratio": ratio}
    with open(os.path.join(d, "stats.json"), "w") as f:
        json.dump([k], f)
    open(os.path.join(d, "done"), "w").close()


class Model(unittest.TestCase):
    def test_worked_values(self):
        # spec §2.5: r_L of each benchmark under the 20/200/250/450 latency set
        want = {"2MM": 1.53, "GE": 1.41, "LM": 1.67, "SC": 1.34, "ST": 1.22,
                "2DC": 2.04, "BFS": 1.77, "CFD": 2.06, "II": 5.40}
        for label, _, cls, m1, m2, bm in blpp.BENCH:
            self.assertAlmostEqual(blpp.r_lat(m1, m2), want[label], delta=0.01, msg=label)
            self.assertEqual(blpp.p_opt(m1, m2, bm) < 1, cls == "BW", label)


class Tables(unittest.TestCase):
    def test_normalised_cycles_and_paper_cells(self):
        with tempfile.TemporaryDirectory() as out:
            o = reproduce_args(out, "--only", "LM,2DC", "--sb-step", "0.5", "--no-fig41", "--no-run")
            # LM: bandwidth-bound (BAP, S-BLPP faster); 2DC: BAP slower
            for label, c in (("LM", {"Local": 1000, "BAP": 800, "S-BLPP": 750, "D-BLPP": 900,
                                     "static_0.5": 700}),
                             ("2DC", {"Local": 1000, "BAP": 2000, "S-BLPP": 1000, "D-BLPP": 1000,
                                      "static_0.5": 1500})):
                for s, cyc in c.items():
                    fake_run(os.path.join(out, label, s), cyc)
                with open(os.path.join(out, label, "profile.txt"), "w") as f:
                    f.write("l1d_miss_rate 0.57\nl2_miss_rate 0\nbm_gbps 200.9\nlat_l2 150.5\n")
            text = "".join(t.text() for t in blpp.tables(o))
            self.assertIn("0.700 (p=0.5)", text)        # LM's SB: the best static ratio
            self.assertIn("1.000 (p=1)", text)          # 2DC's SB: Local itself
            # geomeans: BAP sqrt(0.8 * 2) = 1.265, S-BLPP sqrt(0.75) = 0.866
            self.assertIn("1.265", text)
            self.assertIn("0.866", text)
            self.assertIn("S-BLPP vs BAP     +46.1% (+16.7%)", text)
            self.assertIn("S-BLPP vs Local   +15.5% (+13.4%)", text)
            self.assertIn("0.57 (0.57)", text)          # profile counters beside Table 7's
            self.assertIn("1.67 (1.67)", text)          # r_L


def reproduce_args(out, *extra):
    """The parsed options of seed003-blpp with --out out (what main() builds)."""
    ap_out = {}

    def fake_tables(o):
        ap_out["o"] = o
        return []
    real = blpp.tables
    blpp.tables = fake_tables
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            blpp.main(["--out", out, "--no-run"] + list(extra))
    finally:
        blpp.tables = real
    return ap_out["o"]


class Command(unittest.TestCase):
    def test_chapter_spelling(self):
        self.assertEqual(reproduce._chapter(["seed003", "--chapter", "5", "--cap", "9"]),
                         ["seed003-blpp", "--cap", "9"])
        self.assertEqual(reproduce._chapter(["seed003", "--chapter=V"]), ["seed003-blpp"])
        self.assertEqual(reproduce._chapter(["seed003", "--cap", "9"]), ["seed003", "--cap", "9"])
        with self.assertRaises(SystemExit):
            reproduce._chapter(["seed000", "--chapter", "5"])

    def test_runs_end_to_end(self):
        d = tempfile.mkdtemp(prefix="warpsim-blpp-")
        try:
            env = dict(os.environ, WARPSIM_BIN=WARPSIM)
            p = subprocess.run([sys.executable, os.path.join(TOOLS, "reproduce.py"), "seed003", "--chapter",
                                "5", "--only", "2DC", "--cap", "2000", "--sb-step", "0.5", "--no-fig41",
                                "-j", "2", "--out", d], capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("S-BLPP vs BAP", p.stdout)
            self.assertTrue(os.path.exists(os.path.join(d, "2DC", "profile.txt")))
            for s in ("Local", "BAP", "S-BLPP", "D-BLPP", "static_0.5"):
                self.assertTrue(os.path.exists(os.path.join(d, "2DC", s, "done")), s)
        finally:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
