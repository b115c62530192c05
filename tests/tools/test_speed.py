"""tools/speed.py: times a program at 1 and N threads, joins GPGPU-Sim's stored time, and
rewrites a README's speed table between its markers."""
import os
import shutil
import subprocess
import sys

from helpers import REPO, TOOLS, WARPSIM, ToolTest

sys.path.insert(0, TOOLS)
import speed  # noqa: E402


class SpeedTest(ToolTest):
    def stand_in_oracle(self, body):
        """A stand-in for GPGPU-Sim (a folder with configs/CFG and a runner that runs `body`,
        then reports cycles) and a folder of apps holding micro_vectoradd: (oracle, apps)."""
        oracle, apps = os.path.join(self.tmp, "oracle"), os.path.join(self.tmp, "apps")
        os.makedirs(os.path.join(oracle, "configs", "CFG"))
        os.makedirs(apps)
        with open(os.path.join(oracle, "configs", "CFG", "gpgpusim.config"), "w") as f:
            f.write("-gpgpu_n_clusters 15\n")
        runner = os.path.join(oracle, "gpgpusim-run")
        with open(runner, "w") as f:
            f.write('#!/bin/sh\n' + body + 'echo "gpu_tot_sim_cycle = 4321"\n')
        os.chmod(runner, 0o755)
        app = os.path.join(apps, "micro_vectoradd")
        with open(app, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(app, 0o755)
        return oracle, apps

    def test_table_and_readme(self):
        readme = os.path.join(self.tmp, "README.md")
        with open(readme, "w") as f:
            f.write("intro\n<!-- speed-table begin (tools/speed.py --readme) -->\nold\n"
                    "<!-- speed-table end -->\nrest\n")
        ref = os.path.join(self.tmp, "ref.csv")  # a stored table of our own, not the measured one
        with open(ref, "w") as f:
            f.write("# program,input,gpgpusim_wall_s,source\nmicro/vectoradd,small,2.0,test\n")
        p = subprocess.run([sys.executable, os.path.join(REPO, "tools", "speed.py"), "--bin", WARPSIM,
                            "--programs", "micro/vectoradd:small", "--runs", "1", "--threads", "2",
                            "--ref", ref, "--readme", readme], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("| micro/vectoradd | small |", p.stdout)
        self.assertIn("| 2.0 s |", p.stdout)  # the stored time for this program
        # warpsim's peak RSS, measured; GPGPU-Sim's unknown (a stored row without the column)
        self.assertRegex(p.stdout, r"\| micro/vectoradd \| small \|.*\| [1-9]\d* MB \(-\) \|")
        self.assertRegex(p.stdout, r"Load average [0-9.]+ at the start \(a (quiet|busy) machine")
        if (os.cpu_count() or 1) >= 2 and shutil.which(os.environ.get("CC", "cc")):
            self.assertRegex(p.stdout, r"The host's cross-core round trip \(.*\): \d+ ns\.")
        with open(readme) as f:
            s = f.read()
        self.assertTrue(s.startswith("intro\n") and s.endswith("rest\n"))
        self.assertNotIn("\nold\n", s)
        self.assertIn("| micro/vectoradd | small |", s)

    def test_plain_build_beside(self):
        # a second build timed in the same runs (here the same binary under another path): its
        # ratio to GPGPU-Sim and the gain are in the note, and the README names both builds
        plain = os.path.join(self.tmp, "plain-warpsim")
        os.symlink(WARPSIM, plain)
        readme = os.path.join(self.tmp, "README.md")
        with open(readme, "w") as f:
            f.write("<!-- speed-table begin (tools/speed.py --readme) -->\n<!-- speed-table end -->\n")
        ref = os.path.join(self.tmp, "ref.csv")
        with open(ref, "w") as f:
            f.write("micro/vectoradd,small,2.0,test\n")
        p = subprocess.run([sys.executable, os.path.join(REPO, "tools", "speed.py"), "--bin", WARPSIM,
                            "--plain", plain, "--programs", "micro/vectoradd:small", "--runs", "1",
                            "--ref", ref, "--readme", readme], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"The plain build \(`plain-warpsim`\), timed in the same runs: "
                                   r"[0-9.]+x the measured build's wall time \(geometric mean\), "
                                   r"GPGPU-Sim / warpsim \d+x\.")
        with open(readme) as f:
            self.assertIn("--plain plain-warpsim --threads 2 --runs 1", f.read())

    def test_fresh_oracle_times(self):
        # a stand-in for GPGPU-Sim: its runner reports cycles and checks that it runs in a folder
        # holding the config, on the program built as a CUDA program, with `paper` for that input
        oracle, apps = self.stand_in_oracle(
            '[ -f gpgpusim.config ] || exit 3\ncase "$1" in */micro_vectoradd) ;; *) exit 4 ;; esac\n'
            '[ "$2" = "" ] || exit 5\nsleep 0.3\n')
        saved = os.path.join(self.tmp, "fresh.csv")
        with open(saved, "w") as f:  # a table before: the row of a program not tried now stays
            f.write("# old header\nmicro/vectoradd,small,9.99,old\nmicro/matmul,paper,99.5,old run\n")
        p = subprocess.run([sys.executable, os.path.join(REPO, "tools", "speed.py"), "--bin", WARPSIM,
                            "--programs", "micro/vectoradd:small,micro/histogram:small", "--runs", "1",
                            "--oracle", oracle, "--oracle-config", "CFG", "--apps", apps,
                            "--save-ref", saved], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("GPGPU-Sim 0.", p.stdout)  # the stand-in's time, measured here
        self.assertIn("micro_histogram is not built", p.stderr)  # no app: no GPGPU-Sim time
        self.assertRegex(p.stdout, r"\| micro/vectoradd \| small \|.*\| 0\.[3-9] s \| \d+x")
        self.assertRegex(p.stdout, r"\| micro/histogram \| small \|.*\| - \| - \|")
        with open(saved) as f:
            text = f.read()
        rows = [line for line in text.splitlines() if not line.startswith("#")]
        self.assertEqual(len(rows), 2)
        # the stand-in's peak RSS is the largest of its process and the program it waited for
        self.assertRegex(rows[0], r"^micro/vectoradd,small,0\.[3-9]\d,\d+\.\d,GPGPU-Sim CFG: .*\(4321 cycles\)")
        self.assertEqual(rows[1], "micro/matmul,paper,99.5,,old run")  # in the new columns
        self.assertIn("# program,input,gpgpusim_wall_s,gpgpusim_peak_rss_mb,source", text)
        # the header says how and when, names the failed program and the kept row, and holds
        # no path of this machine (the oracle's folder appears by its name only)
        self.assertNotIn("old header", text)
        self.assertRegex(text, r"# Measured with .* its CFG config\), on a \d+-core machine, "
                               r"\d{4}-\d\d-\d\d \d\d:\d\d UTC, by `tools/speed\.py .*--oracle oracle ")
        self.assertIn("# micro/histogram small has no time: not built as a CUDA program.", text)
        self.assertIn("# Rows kept from the table before (not measured in this run): micro/matmul paper.",
                      text)
        self.assertNotIn(self.tmp, text)

    def test_rounds_take_the_median_ratio(self):
        # three rounds of one program: each side's median time, and the median of the three
        # ratios measured within a round (20x here), not the ratio of the medians (25x)
        def row(ref, w1, cycles=100):
            return {"prog": "p", "input": "small", "kind": "-", "cycles": cycles, "w1": w1,
                    "c1": w1, "wn": w1, "cn": w1, "ref": ref, "ref_rss": 50.0, "rss": 10.0,
                    "wp": None}
        progs = [("p", "small", "-")]
        rounds = [{("p", "small"): row(10.0, 1.0)}, {("p", "small"): row(50.0, 2.0)},
                  {("p", "small"): row(100.0, 5.0)}]
        r = speed.combine_rounds(rounds, progs)[0]
        self.assertEqual((r["ref"], r["w1"]), (50.0, 2.0))
        self.assertEqual(r["ratio_w"], 20.0)
        self.assertEqual(speed.ratio_of(r, "w"), 20.0)
        self.assertEqual([round(g) for g, _ in speed.round_geomeans(rounds)], [10, 25, 20])
        # a round without GPGPU-Sim's time for the program: no ratio for it at all
        rounds[1][("p", "small")]["ref"] = None
        self.assertIsNone(speed.combine_rounds(rounds, progs)[0]["ref"])
        # a deterministic simulator gives the same cycles in every round
        rounds[2][("p", "small")]["cycles"] = 101
        with self.assertRaisesRegex(RuntimeError, "cycle counts differ between rounds"):
            speed.combine_rounds(rounds, progs)

    def test_rounds_end_to_end(self):
        # a stand-in GPGPU-Sim that is slower in its second round: two rounds, each measured
        # side by side; the note gives both rounds' means, the stored table the median time
        count = os.path.join(self.tmp, "count")
        oracle, apps = self.stand_in_oracle(
            'if [ -f %s ]; then sleep 0.6; else touch %s; sleep 0.2; fi\n' % (count, count))
        saved = os.path.join(self.tmp, "fresh.csv")
        readme = os.path.join(self.tmp, "README.md")
        with open(readme, "w") as f:
            f.write("<!-- speed-table begin (tools/speed.py --readme) -->\n<!-- speed-table end -->\n")
        p = subprocess.run([sys.executable, os.path.join(REPO, "tools", "speed.py"), "--bin", WARPSIM,
                            "--programs", "micro/vectoradd:small", "--runs", "1", "--rounds", "2",
                            "--oracle", oracle, "--oracle-config", "CFG", "--apps", apps,
                            "--save-ref", saved, "--readme", readme],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.count("GPGPU-Sim 0."), 2)  # one oracle run per round
        self.assertIn("round 2 of 2", p.stdout)
        self.assertRegex(p.stdout, r"2 rounds, one after another; .* round by round: "
                                   r"\d+x \(micro/vectoradd \d+x\), \d+x \(micro/vectoradd \d+x\)")
        with open(saved) as f:
            text = f.read()
        rows = [line for line in text.splitlines() if not line.startswith("#")]
        self.assertEqual(len(rows), 1)
        # the median of 0.2 s and 0.6 s (and a bit of start-up each): about 0.4 s
        self.assertRegex(rows[0], r"^micro/vectoradd,small,0\.[4-6]\d,")
        self.assertIn("the median of 2 rounds", text)
        with open(readme) as f:
            self.assertIn("--runs 1 --rounds 2 --oracle", f.read())
        with self.assertRaises(subprocess.CalledProcessError):
            subprocess.run([sys.executable, os.path.join(REPO, "tools", "speed.py"), "--rounds", "0"],
                           check=True, capture_output=True, timeout=60)
