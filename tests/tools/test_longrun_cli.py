"""Long programs from the command line (docs/sampling.md): the flags reach
their options, --sample-kernels runs both passes, a bad checkpoint ends the
run with status 2 and a message, and tools/sampling.py writes its table."""
import json
import os
import subprocess
import sys

from helpers import REPO, WARPSIM, ToolTest


class LongRunCliTest(ToolTest):
    def test_fast_forward_flag_marks_the_launches(self):
        out = os.path.join(self.tmp, "ff")
        self.warpsim("run", "-q", "--fast-forward-kernels", "3", "--warm", "-o", out, "rodinia/lud")
        with open(os.path.join(out, "stats.json")) as f:
            ks = json.load(f)
        self.assertEqual([k["warpsim_detailed"] for k in ks], [0, 0, 0] + [1] * (len(ks) - 3))
        self.assertNotIn("gpu_sim_cycle", ks[0])
        self.assertIn("gpu_sim_cycle", ks[3])

    def test_sample_kernels_runs_the_profile_then_the_sampled_run(self):
        out = os.path.join(self.tmp, "s")
        p = self.warpsim("run", "-q", "--sample-kernels", "-o", out, "rodinia/lud")
        self.assertIn("profiling pass", p.stderr)
        self.assertRegex(p.stderr, r"sampled simulation: 10 launches in \d+ groups")
        self.assertTrue(os.path.exists(os.path.join(out, "profile.txt")))
        with open(os.path.join(out, "sampling.json")) as f:
            s = json.load(f)
        self.assertEqual(s["launches"], 10)
        self.assertGreater(s["projected_total_cycles"], 0)
        p = self.warpsim("run", "--sample-kernels", "--", "/bin/true", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("-warpsim_profile_out", p.stderr)

    def test_combinations_that_are_not_modelled_are_refused(self):
        # a kernel stopped early finishes its CTAs in ID order: no static CTA mapping
        p = self.warpsim("run", "-q", "--sample-ipc-tol", "0.05", "--set", "-l1d_warp_reorder 1",
                         "rodinia/hotspot", check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot be combined with static CTA mapping", p.stderr)
        p = self.warpsim("run", "-q", "--sample-kernels", "--profile-bypass",
                         os.path.join(self.tmp, "b.txt"), "rodinia/hotspot", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("use one of them", p.stderr)
        # replay.c and hp.c know the L1D's path only: no CIAO shared-memory cache
        p = self.warpsim("run", "-q", "--preset", "ciao", "--set", "-warpsim_throttle ciao_p",
                         "--set", "-warpsim_hazard_mode replay", "micro/vectoradd", check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot be combined with -warpsim_hazard_mode replay", p.stderr)
        p = self.warpsim("run", "-q", "--set", "-warpsim_hazard_mode replay", "--set",
                         "-hm_enable 1", "micro/vectoradd", check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("cannot be combined with -hm_enable 1", p.stderr)

    def test_checkpoint_flags_round_trip_and_refusal(self):
        ck = os.path.join(self.tmp, "lud.ckpt")
        p = self.warpsim("run", "-q", "--functional", "--checkpoint-at", "4", "--checkpoint-save",
                         ck, "rodinia/lud")
        self.assertIn("checkpoint written", p.stderr)
        p = self.warpsim("run", "-q", "--resume", ck, "rodinia/lud")
        self.assertIn("resumed from checkpoint", p.stderr)
        bad = self.write("bad.ckpt", "not one\n")
        p = self.warpsim("run", "-q", "--resume", bad, "rodinia/lud", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not a warpsim checkpoint", p.stderr)

    def test_long_input_only_where_a_workload_has_one(self):
        p = self.warpsim("run", "-q", "--input", "long", "micro/vectoradd", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("micro/vectoradd has no long input", p.stderr)
        p = self.warpsim("run", "-q", "--input", "huge", "rodinia/hotspot", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("'small', 'paper' or 'long'", p.stderr)

    def test_sampling_tool_writes_its_table(self):
        doc = self.write("doc.md", "# x\n<!-- sampling-table:begin (tools/sampling.py writes this "
                         "table; do not edit) -->\nold\n<!-- sampling-table:end -->\ntail\n")
        env = dict(os.environ, WARPSIM_BIN=WARPSIM)
        p = subprocess.run([sys.executable, os.path.join(REPO, "tools", "sampling.py"), "--input",
                            "small", "--only", "lud,srad", "--out", os.path.join(self.tmp, "res"),
                            "--markdown", doc], capture_output=True, text=True, timeout=300,
                           env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(doc) as f:
            text = f.read()
        self.assertNotIn("old", text)
        self.assertIn("| rodinia/lud | across kernels | 10 (", text)
        self.assertIn("error estimate covers the measured error in", text)
        self.assertTrue(text.endswith("<!-- sampling-table:end -->\ntail\n"))
