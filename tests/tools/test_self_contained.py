"""The repository must stand alone: a user's fresh clone has nothing beside it,
so no file may point outside it (tests, tools or docs that read a sibling
folder pass on a developer's machine and fail on the user's)."""
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Built from parts so that this file does not match itself.
OUTSIDE = re.compile(r"\.\./(\.\./)*" + "shared" + r"/|/" + "work" + r"/(main|shared)\b|\b"
                     + "shared" + r"/(oracle|reference|specs|seeds)\b")
SKIP_DIRS = {".git", "build", "sweeps", "__pycache__"}


def repository_files():
    try:
        r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
        if r.returncode == 0:
            return [p for p in r.stdout.decode().split("\0") if p]
    except OSError:
        pass  # no git on this machine
    paths = []  # not a git checkout (an unpacked archive): every file but build outputs
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        paths += [os.path.relpath(os.path.join(d, f), ROOT) for f in files]
    return paths


class SelfContainedTest(unittest.TestCase):
    def test_no_file_points_outside_the_repository(self):
        bad = []
        for path in repository_files():
            full = os.path.join(ROOT, path)
            if not os.path.isfile(full):
                continue
            with open(full, "rb") as f:
                data = f.read()
            if b"\0" in data[:4096]:
                continue  # binary
            for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
                if OUTSIDE.search(line):
                    bad.append(f"{path}:{n}: {line.strip()[:100]}")
        self.assertEqual(bad, [], "files that point outside the repository:\n" + "\n".join(bad))


if __name__ == "__main__":
    unittest.main()
