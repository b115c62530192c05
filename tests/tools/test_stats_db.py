"""Whole-run stats in the results database of a real multi-kernel run: ratios
come from summed counts, with warpsim's cumulative stats and with a stats.json
that has per-kernel values only."""
import json
import os
import sys

from helpers import TOOLS, ToolTest

sys.path.insert(0, TOOLS)
from warpsim_tools import store  # noqa: E402

SFX = store.KERNEL_SUFFIX


def stored(run_dir, kernels):
    with open(os.path.join(run_dir, "stats.json"), "w") as f:
        json.dump(kernels, f)
    s = store.Store(run_dir, create=True)
    try:
        s.db.execute("INSERT INTO runs(id, status) VALUES('r', 'pending')")
        s.record("r", run_dir, {"status": "ok"})
        return dict(s.db.execute("SELECT key, value FROM stats WHERE run_id = 'r'").fetchall())
    finally:
        s.close()


class MultiKernelStatsTest(ToolTest):
    def test_rodinia_bfs_miss_rates_from_summed_counts(self):
        out = os.path.join(self.tmp, "bfs")
        self.warpsim("run", "-q", "-o", out, "rodinia/bfs")
        with open(os.path.join(out, "stats.json")) as f:
            kernels = json.load(f)
        self.assertGreater(len(kernels), 2)
        # per-kernel values only, as older warpsim wrote them: NAME_kernel as NAME
        old = [{k[:-len(SFX)] if k.endswith(SFX) else k: v for k, v in kd.items()
                if k.endswith(SFX) or k + SFX not in kd} for kd in kernels]
        self.assertNotEqual(old[-1]["L1D_total_cache_accesses"], kernels[-1]["L1D_total_cache_accesses"])
        for label, ks in (("cumulative", kernels), ("per-kernel only", old)):
            d = os.path.join(self.tmp, label.replace(" ", "-"))
            os.makedirs(d)
            st = stored(d, ks)
            for cache in ("L1D", "L2", "L1I", "L1C"):
                name = f"{cache}_total_cache_"
                key = name + "misses" + (SFX if ks is kernels else "")
                misses = sum(k[key] for k in ks)
                acc = sum(k[name + "accesses" + (SFX if ks is kernels else "")] for k in ks)
                with self.subTest(label=label, cache=cache):
                    self.assertEqual(st[name + "accesses"], acc)
                    self.assertEqual(st[name + "misses"], misses)
                    self.assertAlmostEqual(st[name + "miss_rate"], misses / acc, places=12)
            cyc = sum(k["gpu_sim_cycle"] for k in ks)
            weighted = sum(k[f"L1D_total_cache_miss_rate{SFX if ks is kernels else ''}"] * k["gpu_sim_cycle"]
                           for k in ks) / cyc
            # the old cycle-weighted mean of the kernels' rates is far off here
            self.assertGreater(abs(st["L1D_total_cache_miss_rate"] - weighted), 0.01)
            self.assertAlmostEqual(st["gpu_ipc"], st["gpu_sim_insn"] / st["gpu_sim_cycle"], places=12)
