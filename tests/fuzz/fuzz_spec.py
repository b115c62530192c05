#!/usr/bin/env python3
"""Mutation fuzzing of the sweep-spec reader (tools/warpsim_tools/spec.py).

Feeds mutated TOML (and JSON) texts to spec.load and requires that a bad spec
raises only spec.SpecError, the reader's documented error, never another
exception (TypeError, KeyError, RecursionError, ...): a user must get a
message naming the spec, not a traceback. Standard library only, no
coverage feedback: byte, line and TOML-aware mutations of the seed specs
(tools/examples/*.toml and a few built in), and mutants that still parse as
TOML join the pool so that mutations stack.

    tests/fuzz/fuzz_spec.py --seconds 60 [--seed N] [--crashes DIR]
    tests/fuzz/fuzz_spec.py --replay DIR     run each file of DIR once

Exits 1 when an input raised something other than SpecError; each such
input is written to DIR/spec-crash-<hash>.toml (with --crashes).
"""
import argparse
import glob
import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from warpsim_tools import spec  # noqa: E402

try:
    import tomllib
except ImportError:  # Python < 3.11: spec.py reads only JSON specs there
    tomllib = None

BUILTIN_SEEDS = [
    'workloads = ["micro/vectoradd"]\n',
    'name = "s"\ninput = "paper"\nfunctional = true\ntimeout = 10\nargs = ["--max-insn", "1000"]\n'
    'jobs = 2\noutput = "out"\nworkloads = [{name = "micro/matmul", input = ["small", "paper"], '
    'class = "c", args = ["-x"]}]\n[base]\npreset = "gtx480"\noptions = { gpgpu_n_clusters = 4 }\n'
    '[[configs]]\nname = "a"\noptions = { gpgpu_scheduler = "lrr" }\n[[configs]]\nname = "b"\n'
    '[vary]\ngpgpu_l1_banks = [1, 2]\nflag = true\n[slurm]\npartition = "p"\n',
    'baseline = "gto"\n[classes]\nmem = ["micro/bfs", {name = "rodinia/nw", input = "paper"}]\n'
    '[vary]\ngpgpu_scheduler = ["gto", "lrr"]\n',
    'workloads = [{name = "mine", command = ["./prog", "--n", 4], cwd = ".", env = { A = "1" }, '
    'class = "own", args = ["--functional"]}]\n',
]

# TOML fragments: values of every type, structure and awkward text.
VALUES = ['1', '0', '-1', '3.5', 'inf', 'nan', '1e999', 'true', 'false', '""', '"x"', "'lit'",
          '"""multi\nline"""', '[]', '[1, "a"]', '[[1], [2]]', '{}', '{ a = 1 }', '{ name = "n" }',
          '{ name = 1, command = 2 }', '{ name = [], input = {} }', '1979-05-27T07:32:00Z',
          '07:32:00', '1979-05-27', '0x7fffffffffffffff', '99999999999999999999', '"\\u0000"',
          '"\\ud800"', '["small", "paper", "small"]', '[{ name = "a" }, { name = "a" }]']
KEYS = ['name', 'input', 'functional', 'timeout', 'args', 'baseline', 'output', 'jobs', 'base',
        'workloads', 'classes', 'configs', 'vary', 'slurm', 'preset', 'config', 'options',
        'command', 'cwd', 'env', 'class', 'inputs', '"quoted key"', 'a.b', '"-dash"', '""']
TOKENS = ['[', ']', '[[', ']]', '{', '}', '=', ',', '"', "'", '\n', '#', '.', '\\', '\x00', '\r',
          '\t', '\u00e9', '\ud7ff', '[base]', '[vary]', '[[configs]]', '[classes]', '[slurm]',
          '[base.options]', '[[workloads]]']


def mutate(text, rng, pool):
    """One to four random edits of text."""
    for _ in range(rng.randint(1, 4)):
        lines = text.split("\n")
        r = rng.random()
        if r < 0.2 and lines:  # a value replaced by one of another type
            i = rng.randrange(len(lines))
            if "=" in lines[i]:
                k = lines[i].split("=", 1)[0]
                lines[i] = f"{k}= {rng.choice(VALUES)}"
            else:
                lines.insert(i, f"{rng.choice(KEYS)} = {rng.choice(VALUES)}")
            text = "\n".join(lines)
        elif r < 0.3:  # a new key
            i = rng.randrange(len(lines) + 1)
            lines.insert(i, f"{rng.choice(KEYS)} = {rng.choice(VALUES)}")
            text = "\n".join(lines)
        elif r < 0.45 and len(lines) > 1:  # lines deleted, duplicated or swapped
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            op = rng.randrange(3)
            if op == 0:
                del lines[i]
            elif op == 1:
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif r < 0.6:  # a token inserted
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(TOKENS + KEYS + VALUES) + text[i:]
        elif r < 0.7 and text:  # characters deleted
            i = rng.randrange(len(text))
            text = text[:i] + text[i + rng.randint(1, 8):]
        elif r < 0.8 and text:  # a character replaced
            i = rng.randrange(len(text))
            text = text[:i] + chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)])) + text[i + 1:]
        elif r < 0.9 and pool:  # spliced with another input
            other = rng.choice(pool)
            i, j = rng.randrange(len(text) + 1), rng.randrange(len(other) + 1)
            text = text[:i] + other[j:]
        else:  # deep nesting
            n = rng.choice([10, 100, 1000, 5000])
            text += f"\nx = {'[' * n}{']' * n}\n"
    return text


class Harness:
    """Writes each input to a spec file in a private folder and loads it."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="warpsim-fuzz-spec-")
        with open(os.path.join(self.dir, "c.config"), "w") as f:
            f.write("-gpgpu_n_clusters 4\n")

    def close(self):
        shutil.rmtree(self.dir, True)

    def run(self, data, suffix=".toml"):
        """None when the input loaded or raised SpecError, else the traceback."""
        path = os.path.join(self.dir, "s" + suffix)
        with open(path, "wb") as f:
            f.write(data)
        try:
            sw = spec.load(path, output=os.path.join(self.dir, "out"))
            for c in sw.configs:  # a base config file is read when a run is written
                c.config_lines()
        except spec.SpecError:
            pass
        except Exception:  # noqa: BLE001 - every other exception is a finding
            return traceback.format_exc()
        return None


def encode(text):
    return text.encode("utf-8", errors="surrogatepass")


def replay(folder):
    """Runs every file of folder once; the number of findings."""
    h = Harness()
    bad = 0
    try:
        for p in sorted(glob.glob(os.path.join(folder, "*"))):
            with open(p, "rb") as f:
                data = f.read()
            tb = h.run(data, ".json" if p.endswith(".json") else ".toml")
            if tb:
                bad += 1
                sys.stdout.write(f"{p}:\n{tb}\n")
    finally:
        h.close()
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--crashes", default=None, help="folder for inputs that raised something else")
    ap.add_argument("--replay", default=None, help="run each file of this folder once and stop")
    a = ap.parse_args()
    if a.replay:
        return 1 if replay(a.replay) else 0
    if tomllib is None:
        sys.stdout.write("fuzz_spec: needs Python 3.11 (tomllib); skipped\n")
        return 0
    seed = a.seed if a.seed is not None else int(time.time())
    rng = random.Random(seed)
    pool = list(BUILTIN_SEEDS)
    for p in sorted(glob.glob(os.path.join(ROOT, "tools", "examples", "*.toml"))):
        with open(p, encoding="utf-8") as f:
            pool.append(f.read())
    h = Harness()
    execs, found, seen = 0, 0, set()
    t_end = time.monotonic() + a.seconds
    try:
        while time.monotonic() < t_end:
            text = mutate(rng.choice(pool), rng, pool)
            data = encode(text)
            execs += 1
            tb = h.run(data)
            if tb is None:
                if len(pool) < 5000 and len(text) < 20000:
                    try:
                        tomllib.loads(text)
                        pool.append(text)
                    except Exception:  # noqa: BLE001
                        pass
                continue
            # one report per place and exception type
            lines = tb.strip().splitlines()
            frames = [ln for ln in lines if ln.lstrip().startswith("File ")]
            key = (frames[-1] if frames else "", lines[-1].split(":")[0])
            if key in seen:
                continue
            seen.add(key)
            found += 1
            name = "spec-crash-" + hashlib.sha1(data).hexdigest()[:12] + ".toml"
            sys.stdout.write(f"fuzz_spec: finding {found} ({name}):\n{tb}\n")
            if a.crashes:
                os.makedirs(a.crashes, exist_ok=True)
                with open(os.path.join(a.crashes, name), "wb") as f:
                    f.write(data)
    finally:
        h.close()
    sys.stdout.write(f"fuzz_spec: seed {seed}, {execs} executions in {a.seconds:g} s, "
                     f"{found} distinct findings, pool {len(pool)}\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
