"""`warpsim run -- PROG` tells what the simulator saw even when the program
does not: launches that failed (the program may ignore the error CUDA
returns) make the run exit non-zero with a summary, and a program that never
loaded warpsim's CUDA runtime (nvcc's default static runtime) is told to be
rebuilt with -cudart shared."""
import os
import subprocess
import unittest

from helpers import REPO, WARPSIM

PROG = os.path.join(REPO, "tests", "data", "driver", "nvcc13", "vectoradd_nc")


def run(*args, timeout=120):
    return subprocess.run([WARPSIM, "run", "-q", *args], capture_output=True, text=True,
                          timeout=timeout)


class ProgramSummaryTest(unittest.TestCase):
    def test_a_clean_run_says_nothing_more(self):
        r = run("--", PROG, "1024")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("launch", r.stderr)

    def test_failed_launch_ignored_by_the_program(self):
        # no CTA fits (too few registers per SM); the shell hides the program's own status
        r = run("--set", "-gpgpu_shader_registers 64", "--", "sh", "-c",
                f"'{PROG}' 1024 >/dev/null; exit 0")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("1 kernel launch failed in sh (first: kernel _Z6vecAddPKfS0_Pfi: one CTA",
                      r.stderr)

    def test_program_without_the_shim(self):
        r = run("--", "true")
        self.assertEqual(r.returncode, 2)
        self.assertIn("did not use warpsim's CUDA runtime", r.stderr)
        self.assertIn("rebuild with -cudart shared", r.stderr)

    def test_missing_program_is_not_called_static(self):
        r = run("--", "/nonexistent/program")
        self.assertEqual(r.returncode, 127)
        self.assertIn("cannot run", r.stderr)
        self.assertNotIn("-cudart shared", r.stderr)


if __name__ == "__main__":
    unittest.main()
