"""tools/speed.py: times a program at 1 and N threads, joins GPGPU-Sim's stored time, and
rewrites a README's speed table between its markers."""
import os
import subprocess
import sys

from helpers import REPO, WARPSIM, ToolTest


class SpeedTest(ToolTest):
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
        self.assertRegex(p.stdout, r"Load average [0-9.]+ before")
        with open(readme) as f:
            s = f.read()
        self.assertTrue(s.startswith("intro\n") and s.endswith("rest\n"))
        self.assertNotIn("\nold\n", s)
        self.assertIn("| micro/vectoradd | small |", s)
