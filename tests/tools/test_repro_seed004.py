"""tools/reproduce.py seed004 (warpsim_tools/repro_seed004.py): the
predicted maximum speedup of Turner's section 3.5, the benchmark mapping,
and the checks' verdicts from fabricated run statistics (no simulation)."""
import json
import os
import shutil
import sys
import tempfile
import unittest

from helpers import TOOLS

sys.path.insert(0, TOOLS)
from warpsim_tools import repro_seed004 as r4  # noqa: E402


class PredictedMaxTest(unittest.TestCase):
    def test_blocked_cycles_bound_by_alu_work(self):
        # 10 SMs: 20000 blocked SM-cycles = 2000 per core; 100000 ALU warp insts = 10000
        # per core, at 2 per cycle 5000 cycles: the blocked cycles are the bound
        k = {"gpu_sim_cycle": 10000, "warpsim_oc_blocked_cycles": 20000,
             "gpu_sim_warp_insn": 120000, "warpsim_warp_insts_mem": 20000}
        self.assertEqual(r4.predicted_new_cycles(k), 8000)
        self.assertAlmostEqual(r4.predicted_max_speedup(10000, 8000), 0.25)
        # little ALU work: it is the bound
        k["gpu_sim_warp_insn"] = 20000 + 20000
        self.assertEqual(r4.predicted_new_cycles(k), 10000 - 1000)

    def test_sign_is_old_over_new(self):
        self.assertGreater(r4.predicted_max_speedup(100, 90), 0)

    def test_28_benchmarks_map_to_distinct_workloads(self):
        self.assertEqual(len(r4.BENCHMARKS), 28)
        self.assertEqual(len({w for _, w in r4.BENCHMARKS}), 28)
        self.assertIn(("TR_naive", "sdk/transpose_naive"), r4.BENCHMARKS)


class ChecksTest(unittest.TestCase):
    """The verdict table from a fabricated sweep folder."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.benches = [("BFS2", "rodinia/bfs"), ("CFD", "rodinia/cfd"), ("LUD", "rodinia/lud")]
        self.fabricate()

    def fabricate(self, extra=None):
        for cfg in r4.CONFIGS:
            for a, _ in self.benches:
                replay = cfg.startswith("replay")
                cyc = 1000 if not replay else (900 if a != "LUD" else 1100)
                k = {"gpu_sim_cycle": cyc, "gpu_sim_insn": 50000, "gpu_sim_warp_insn": 2000,
                     "warpsim_warp_insts_mem": 500,
                     "warpsim_oc_blocked_cycles": 0 if replay else 3000,
                     "warpsim_replay_issues": 300 if replay else 0,
                     "warpsim_hazard_mshr": 100, "warpsim_hazard_comq": 10}
                if extra:
                    k.update(extra(cfg, a))
                d = os.path.join(self.dir, cfg, a)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "stats.json"), "w") as f:
                    json.dump([k], f)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_checks_render(self):
        d = r4.Data(self.dir, self.benches)
        self.assertAlmostEqual(d.speedup("replay", "BFS2"), 1000 / 900 - 1)
        rows = {n: (v, m) for n, _, v, m in r4.checks(d)}
        self.assertEqual(sorted(rows), list(range(5, 19)))
        self.assertEqual(rows[5][0], "holds")  # blocked under stalling, none under replay
        self.assertEqual(rows[6][0], "holds")  # BFS2, CFD faster, LUD slower
        self.assertEqual(rows[16][0], "n/a")
        self.assertIsNone(d.issue_cycles("replay", "CFD"))  # runs older than the statistic
        text = r4.render(d, "sweeps/x")
        self.assertIn("| 5 |", text)
        self.assertIn("| BFS2 |", text)

    def test_mshr_sources_from_the_last_kernel(self):
        # the fail counts are program totals: the last kernel's record holds the run's
        for cfg in ("replay", "replay-mshr64"):
            p = os.path.join(self.dir, cfg, "CFD", "stats.json")
            first = {"gpu_sim_cycle": 10, "L1D_fail_MSHR_ENTRY_FAIL": 5}
            last = {"gpu_sim_cycle": 900, "warpsim_hazard_mshr": 100, "warpsim_hazard_div": 50,
                    "warpsim_hazard_comq": 10, "warpsim_warp_insts_mem": 500,
                    "warpsim_replay_issues": 300,
                    "L1D_fail_MSHR_ENTRY_FAIL": 40 if cfg == "replay" else 20,
                    "Total_core_cache_stats_breakdown_CONST_ACC_R_RESERVATION_FAIL": 60}
            with open(p, "w") as f:
                json.dump([first, last], f)
        d = r4.Data(self.dir, self.benches)
        self.assertEqual(d.get("replay", "CFD", "l1d_entry"), 40)
        text = r4.render(d, "sweeps/x")
        self.assertIn("| CFD | 100 | 0.40 | 0.00 | 0.60 | 0.31 | 0.60 (0.60) | 40/20/0 | 10/10/10 |",
                      text)

    def test_mshr_idle_and_issue_cycles(self):
        def extra(cfg, a):
            # MSHRs idle more under replay, and more with credit than naive; credit false
            # issues in 60% of replay's cycles, the oracle in half
            idle = {"stall": 1000, "replay-credit-false": 4000, "replay-naive-false": 3000}
            i1 = {"replay-credit-false": 600, "replay-credit-oracle": 500}.get(cfg, 1000)
            return {"warpsim_mshr_idle_demand": idle.get(cfg, 2000),
                    "warpsim_sched_issue1": i1, "warpsim_sched_issue2": 0,
                    "warpsim_stall_scoreboard": 3000, "warpsim_stall_idle": 0}
        self.fabricate(extra)
        d = r4.Data(self.dir, self.benches)
        self.assertEqual(d.issue_cycles("replay-credit-false", "CFD"), 600)
        rows = {n: (v, m) for n, _, v, m in r4.checks(d)}
        self.assertEqual(rows[16][0], "holds", rows[16][1])
        self.assertIn("stall < replay: 3/3", rows[16][1])
        self.assertIn("credit > naive: 2/2", rows[16][1])
        self.assertEqual(rows[13][0], "holds", rows[13][1])
        self.assertIn("replay-credit-false +40.0%", rows[13][1])
        text = r4.render(d, "sweeps/x")
        # 4000 scheduler-cycles per 1000 cycles x 10 SMs of the single-scheduler stalling run
        self.assertIn("| CFD | replay | 0.000 | 0.300 | 0.000 | 0.000 | 0.100 | 0.000 | 0.400 |",
                      text)

    def test_naive_tracker_with_every_predictor(self):
        for p in ("false", "true", "pc", "oracle"):
            self.assertIn(f"replay-naive-{p}", r4.CONFIGS)
            self.assertIn(f"-warpsim_hp_predictor {p}", r4.CONFIGS[f"replay-naive-{p}"])


if __name__ == "__main__":
    unittest.main()
