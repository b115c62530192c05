"""Unit tests: sweep description expansion, per-run aggregation of stats,
means."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import REPO, TOOLS

sys.path.insert(0, TOOLS)
from warpsim_tools import query, spec, store  # noqa: E402


class SpecTest(unittest.TestCase):
    def load(self, text, name="s.toml"):
        d = tempfile.mkdtemp(prefix="warpsim-spec-")
        self.addCleanup(shutil.rmtree, d, True)
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(text)
        return spec.load(p, output=os.path.join(d, "out"))

    def test_cartesian_product_times_explicit(self):
        sw = self.load("""
workloads = ["micro/vectoradd", {name = "micro/matmul", input = ["small", "paper"], class = "c"}]
[[configs]]
name = "base"
[[configs]]
name = "nol1"
options = { gpgpu_gmem_skip_L1D = true }
[vary]
"-gpgpu_scheduler" = ["gto", "lrr"]
gpgpu_num_sched_per_core = [1, 2]
""")
        names = [c.name for c in sw.configs]
        self.assertEqual(len(names), 8)
        self.assertIn("nol1,gpgpu_scheduler=lrr,gpgpu_num_sched_per_core=1", names)
        self.assertEqual(sw.baseline, names[0])
        self.assertEqual(len(sw.workloads), 3)
        self.assertEqual(len(sw.runs), 24)
        c = sw.configs[7]
        self.assertEqual(c.options, {"-gpgpu_gmem_skip_L1D": "1", "-gpgpu_scheduler": "lrr",
                                     "-gpgpu_num_sched_per_core": "2"})
        self.assertIn("-gpgpu_gmem_skip_L1D 1\n", c.config_text())
        self.assertEqual(len({r.id for r in sw.runs}), 24)

    def test_single_axis_names_by_value_and_baseline(self):
        sw = self.load('workloads = ["a"]\nbaseline = "lrr"\n[vary]\ngpgpu_scheduler = ["gto", "lrr"]\n')
        self.assertEqual([c.name for c in sw.configs], ["gto", "lrr"])
        self.assertEqual(sw.baseline, "lrr")
        r = sw.runs[0]
        self.assertEqual(r.args("config.txt"), ["run", "-o", ".", "--config", "config.txt", "a",
                                                "--input", "small"])

    def test_preset_alone_needs_no_config_file(self):
        sw = self.load('workloads = ["a"]\nfunctional = true\n[base]\npreset = "gtx480-v4"\n')
        self.assertIsNone(sw.configs[0].config_text())
        self.assertIn("--preset", sw.runs[0].args("config.txt"))
        self.assertIn("--functional", sw.runs[0].args("config.txt"))

    def test_config_file_base(self):
        d = tempfile.mkdtemp(prefix="warpsim-spec-")
        self.addCleanup(shutil.rmtree, d, True)
        with open(os.path.join(d, "my.config"), "w") as f:
            f.write("-gpgpu_n_clusters 4\n-inter_config_file my.icnt\n")
        p = os.path.join(d, "s.json")
        with open(p, "w") as f:
            json.dump({"workloads": ["a"], "base": {"config": "my.config"},
                       "vary": {"gpgpu_scheduler": ["lrr"]}}, f)
        sw = spec.load(p)
        text = sw.configs[0].config_text()
        self.assertIn("-gpgpu_n_clusters 4", text)
        self.assertIn(f"-inter_config_file {d}/my.icnt", text)
        self.assertTrue(text.rstrip().endswith("-gpgpu_scheduler lrr"))

    def test_each_config_line_knows_where_the_spec_sets_it(self):
        sw = self.load('workloads = ["a"]\n[base]\noptions = { gpgpu_n_clusters = 4 }\n'
                       '[[configs]]\nname = "c"\noptions = { gpgpu_shader_cta = 2 }\n'
                       '[vary]\ngpgpu_scheduler = ["gto"]\n')
        lines = dict(sw.configs[0].config_lines())
        self.assertTrue(lines["-gpgpu_n_clusters 4"].endswith("s.toml: [base] options gpgpu_n_clusters"))
        self.assertTrue(lines["-gpgpu_shader_cta 2"].endswith("s.toml: configs[0] (c) options gpgpu_shader_cta"))
        self.assertTrue(lines["-gpgpu_scheduler gto"].endswith("s.toml: [vary] gpgpu_scheduler"))
        self.assertEqual(sw.configs[0].config_text(), "\n".join(lines) + "\n")

    def test_errors_are_clear(self):
        cases = [
            ('workloads = []\n', "no workloads"),
            ('workloads = ["a"]\nbogus = 1\n', "unknown keys bogus"),
            ('workloads = ["a"]\nbaseline = "x"\n', "baseline 'x' is not a config"),
            ('workloads = ["a", "a"]\n', "listed twice"),
            ('workloads = [{name = "a", input = "huge"}]\n', "input must be"),
            ('workloads = ["a"]\n[base]\npreset = "gtx480-v4"\n[vary]\nx = [1]\n', "--preset and --config"),
            ('workloads = ["a"\n', "s.toml"),
            # an option beside 'options' instead of in it would be ignored: an error
            ('workloads = ["a"]\n[base]\ngpgpu_scheduler = "lrr"\n', "[base]: unknown keys gpgpu_scheduler"),
            ('workloads = ["a"]\n[[configs]]\nname = "x"\noptoins = { a = 1 }\n',
             "configs[0]: unknown keys optoins"),
        ]
        for text, msg in cases:
            with self.subTest(msg=msg):
                with self.assertRaises(spec.SpecError) as cm:
                    self.load(text)
                self.assertIn(msg, str(cm.exception))


    def test_fuzz_regressions_raise_only_spec_error(self):
        # inputs that tests/fuzz/fuzz_spec.py found raising TypeError, RecursionError, ...
        sys.path.insert(0, os.path.join(REPO, "tests", "fuzz"))
        import fuzz_spec
        folder = os.path.join(REPO, "tests", "data", "spec", "fuzz")
        self.assertTrue(os.listdir(folder))
        self.assertEqual(fuzz_spec.replay(folder), 0)

    def test_endless_spec_and_config_files_are_refused(self):
        # /dev/zero never ends: the reader must stop at its 16 MiB cap, quickly, under a
        # 1 GiB address-space limit (reading it all would be a MemoryError, or worse)
        code = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
sys.path.insert(0, {TOOLS!r})
from warpsim_tools import spec
for f in (lambda: spec.load("/dev/zero"), lambda: spec.Config("c", config_file="/dev/zero").config_lines()):
    try:
        f()
    except spec.SpecError as e:
        print(e)
"""
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), [
            "/dev/zero: sweep spec is larger than the limit of 16 MiB",
            "/dev/zero: config file is larger than the limit of 16 MiB"])


class AggregateTest(unittest.TestCase):
    def test_rules(self):
        # per-kernel values only (stats.json of warpsim before NAME_kernel existed)
        k1 = {"gpu_sim_cycle": 100, "gpu_sim_insn": 200, "gpu_tot_sim_insn": 200, "gpu_ipc": 2.0,
              "L1D_total_cache_miss_rate": 0.5, "L1D_total_cache_accesses": 10,
              "L1D_total_cache_misses": 5, "dram_bw_util": 0.2, "kernel_launch_uid": 1}
        k2 = {"gpu_sim_cycle": 300, "gpu_sim_insn": 300, "gpu_tot_sim_insn": 500, "gpu_ipc": 1.0,
              "L1D_total_cache_miss_rate": 0.1, "L1D_total_cache_accesses": 90,
              "L1D_total_cache_misses": 9, "dram_bw_util": 0.6, "kernel_launch_uid": 2}
        a = store.aggregate([k1, k2])
        self.assertEqual(a["gpu_sim_insn"], 500)  # its cumulative twin
        self.assertEqual(a["gpu_sim_cycle"], 400)  # summed
        self.assertAlmostEqual(a["gpu_ipc"], 500 / 400)  # sum(insn) / sum(cycle)
        # misses / accesses summed, not the cycle-weighted mean of the rates (0.2)
        self.assertAlmostEqual(a["L1D_total_cache_miss_rate"], 14 / 100)
        self.assertAlmostEqual(a["dram_bw_util"], (0.2 * 100 + 0.6 * 300) / 400)  # no counts: by cycles
        self.assertEqual(a["L1D_total_cache_accesses"], 100)
        self.assertNotIn("kernel_launch_uid", a)

    def test_cumulative_stats_and_kernel_twins(self):
        # warpsim's cumulative NAME (last value) beside per-kernel NAME_kernel
        k1 = {"gpu_sim_cycle": 100, "L2_total_cache_accesses": 10, "L2_total_cache_accesses_kernel": 10,
              "L2_total_cache_misses": 5, "L2_total_cache_misses_kernel": 5,
              "L2_total_cache_miss_rate": 0.5, "L2_total_cache_miss_rate_kernel": 0.5,
              "energy_total_nJ": 2000.0, "gpu_sim_time_us": 1.0, "avg_power_W": 2.0}
        k2 = {"gpu_sim_cycle": 300, "L2_total_cache_accesses": 100, "L2_total_cache_accesses_kernel": 90,
              "L2_total_cache_misses": 14, "L2_total_cache_misses_kernel": 9,
              "L2_total_cache_miss_rate": 0.14, "L2_total_cache_miss_rate_kernel": 0.1,
              "energy_total_nJ": 3000.0, "gpu_sim_time_us": 4.0, "avg_power_W": 0.75}
        a = store.aggregate([k1, k2])
        self.assertEqual(a["L2_total_cache_accesses"], 100)  # the last total, not 110
        self.assertEqual(a["L2_total_cache_misses"], 14)
        self.assertEqual(a["L2_total_cache_miss_rate"], 0.14)
        self.assertEqual(a["L2_total_cache_accesses_kernel"], 100)  # summed
        self.assertAlmostEqual(a["L2_total_cache_miss_rate_kernel"], 0.14)  # from the sums
        self.assertAlmostEqual(a["avg_power_W"], 5000e-9 / 5e-6)  # energy / time

    def test_gpu_ipc_derived_from_cycles(self):
        a = store.aggregate([{"gpu_sim_cycle": 100, "gpu_sim_insn": 300}, {"gpu_sim_cycle": 100, "gpu_sim_insn": 100}])
        self.assertEqual(a["gpu_ipc"], 2.0)
        self.assertNotIn("gpu_ipc", store.aggregate([{"gpu_sim_insn": 5}]))

    def test_gpu_tot_ipc_wins(self):
        a = store.aggregate([{"gpu_ipc": 2.0, "gpu_tot_ipc": 2.0}, {"gpu_ipc": 1.0, "gpu_tot_ipc": 1.5}])
        self.assertEqual(a["gpu_ipc"], 1.5)

    def test_record_flattens_and_keeps_every_numeric_key(self):
        d = tempfile.mkdtemp(prefix="warpsim-store-")
        self.addCleanup(shutil.rmtree, d, True)
        with open(os.path.join(d, "stats.json"), "w") as f:
            json.dump([{"kernel_name": "k", "grid": [1, 1, 1], "gpu_sim_cycle": 10, "new_stat": 3,
                        "L1D": {"miss_rate": 0.25}}], f)
        s = store.Store(d, create=True)
        s.db.execute("INSERT INTO runs(id, status) VALUES('r', 'pending')")
        s.record("r", d, {"status": "ok"})
        self.assertEqual(dict(s.db.execute("SELECT key, value FROM stats WHERE run_id = 'r'").fetchall()),
                         {"gpu_sim_cycle": 10, "new_stat": 3, "L1D.miss_rate": 0.25})
        self.assertEqual(s.db.execute("SELECT name FROM kernels").fetchone()[0], "k")
        s.close()

    def test_means(self):
        self.assertAlmostEqual(query.gmean([1, 4]), 2.0)
        self.assertAlmostEqual(query.hmean([1, 3]), 1.5)
        self.assertIsNone(query.gmean([None]))


if __name__ == "__main__":
    unittest.main()
