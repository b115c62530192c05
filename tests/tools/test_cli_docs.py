"""What the command line says about itself: every preset is explained in
`warpsim --help` (which GPGPU-Sim version and config it mirrors, and whether
its cycle counts were validated), so nobody quotes the wrong preset's cycles."""
import re
import subprocess
import unittest

from helpers import WARPSIM


def run(*args):
    r = subprocess.run([WARPSIM, *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


class PresetDocsTest(unittest.TestCase):
    def test_every_preset_says_what_it_mirrors_and_how_it_was_validated(self):
        rc, opts = run("options")
        self.assertEqual(rc, 0)
        names = re.findall(r"^  (\S+) ", opts.split("\nPresets:\n", 1)[1], re.M)
        self.assertIn("gtx480", names)
        self.assertIn("gtx480-v4", names)
        rc, helptext = run("--help")
        self.assertEqual(rc, 0)
        section = helptext.split("\npresets:\n", 1)[1]
        blocks = re.split(r"^  (?=\S)", section, flags=re.M)
        docs = {b.split()[0]: b for b in blocks if b.strip()}
        for name in names:
            self.assertIn(name, docs, f"--help does not explain preset {name}")
            doc = docs[name]
            self.assertRegex(doc, r"GPGPU-Sim \d+\.\d", f"{name}: which GPGPU-Sim version?")
            self.assertRegex(doc, r"[Vv]alidated", f"{name}: validated or not?")
        self.assertIn("default", docs["gtx480"])


if __name__ == "__main__":
    unittest.main()
