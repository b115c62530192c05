#!/usr/bin/env python3
"""Runs the tools' tests (tests/tools/test_*.py, unittest) and ends with one
line `N passed, N failed`; exits non-zero when any test failed.

    python3 tests/tools/run_tests.py [NAME]   only tests whose id contains NAME
Environment: WARPSIM_BIN (default build/warpsim)."""
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def iter_tests(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from iter_tests(t)
        else:
            yield t


def main():
    sys.dont_write_bytecode = True
    sys.path.insert(0, HERE)
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    loader = unittest.TestLoader()
    found = loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    suite = unittest.TestSuite()
    for t in iter_tests(found):
        if pattern in t.id():
            suite.addTest(t)
    t0 = time.monotonic()
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses) + len(result.skipped)
    passed = result.testsRun - failed
    sys.stdout.write(f"tools tests took {time.monotonic() - t0:.1f} s\n")
    sys.stdout.write(f"{passed} passed, {failed} failed\n")
    # A name filter that matches no test here is fine (`make test T=name` filters C tests too).
    return 1 if failed or (not result.testsRun and not pattern) else 0


if __name__ == "__main__":
    sys.exit(main())
